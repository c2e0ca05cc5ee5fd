#include "smfem/mesh/stl.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::exact;
using test::expect_message_has;
using test::mesh_error_of;

SurfaceMesh read_stl_bytes(const std::string& name, const std::string& bytes,
                           ReadReport* report = nullptr) {
  const auto path = test::scratch_dir("stl") / name;
  test::write_file(path, bytes);
  return read_stl_mesh(path, report);
}

MeshError stl_error(const std::string& name, const std::string& bytes) {
  return mesh_error_of([&] { read_stl_bytes(name, bytes); });
}

Eigen::RowVector3d facet_normal(const Vertices& vertices, const Eigen::RowVector3i& triangle) {
  const Eigen::RowVector3d a = vertices.row(triangle(0));
  return (vertices.row(triangle(1)) - a).cross(vertices.row(triangle(2)) - a).normalized();
}

// ASCII STL as exporters write it: every facet repeats its corners.
std::string to_ascii_stl(const Vertices& vertices, const Triangles& triangles) {
  std::string text = "solid test\n";
  for (Eigen::Index f = 0; f < triangles.rows(); ++f) {
    const Eigen::RowVector3d n = facet_normal(vertices, triangles.row(f));
    text += "  facet normal " + exact(n(0)) + " " + exact(n(1)) + " " + exact(n(2)) +
            "\n    outer loop\n";
    for (int c = 0; c < 3; ++c) {
      const auto v = triangles(f, c);
      text += "      vertex " + exact(vertices(v, 0)) + " " + exact(vertices(v, 1)) + " " +
              exact(vertices(v, 2)) + "\n";
    }
    text += "    endloop\n  endfacet\n";
  }
  return text + "endsolid test\n";
}

void append_float(std::string& bytes, double value) {
  const float single = static_cast<float>(value);
  char raw[4];
  std::memcpy(raw, &single, 4);  // the test machines are little-endian, as STL is
  bytes.append(raw, 4);
}

// Binary STL; `header` fills the 80 free bytes (SolidWorks starts them with "solid").
std::string to_binary_stl(const Vertices& vertices, const Triangles& triangles,
                          const std::string& header = "binary STL from the tests") {
  std::string bytes = header;
  bytes.resize(80, ' ');
  const auto count = static_cast<std::uint32_t>(triangles.rows());
  bytes.append(reinterpret_cast<const char*>(&count), 4);
  for (Eigen::Index f = 0; f < triangles.rows(); ++f) {
    const Eigen::RowVector3d n = facet_normal(vertices, triangles.row(f));
    for (int i = 0; i < 3; ++i) append_float(bytes, n(i));
    for (int c = 0; c < 3; ++c) {
      for (int i = 0; i < 3; ++i) append_float(bytes, vertices(triangles(f, c), i));
    }
    bytes.append(2, '\0');
  }
  return bytes;
}

// Corners in the order facets first use them, which is the order welding numbers them.
void expect_stl_cube(const SurfaceMesh& mesh) {
  const Triangles fans = test::unit_cube_fans();
  ASSERT_EQ(mesh.vertices.rows(), 8);
  ASSERT_EQ(mesh.triangles.rows(), 12);
  for (Eigen::Index f = 0; f < 12; ++f) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(mesh.vertices.row(mesh.triangles(f, c)), test::unit_cube().row(fans(f, c)))
          << "triangle " << f << " corner " << c;
    }
  }
  EXPECT_EQ(mesh.regions, Eigen::VectorXi::Zero(12));
}

TEST(Stl, AsciiAndBinaryCubesGiveTheSameWeldedMesh) {
  const Triangles fans = test::unit_cube_fans();
  const SurfaceMesh ascii = read_stl_bytes("ascii.stl", to_ascii_stl(test::unit_cube(), fans));
  const SurfaceMesh binary = read_stl_bytes("binary.stl", to_binary_stl(test::unit_cube(), fans));
  expect_stl_cube(ascii);
  EXPECT_EQ(binary.vertices, ascii.vertices);
  EXPECT_EQ(binary.triangles, ascii.triangles);
  EXPECT_EQ(binary.regions, ascii.regions);
}

TEST(Stl, BinaryDetectedBySizeEvenWhenItsHeaderSaysSolid) {
  const std::string bytes = to_binary_stl(test::unit_cube(), test::unit_cube_fans(),
                                          "solid Part1 exported by SolidWorks");
  expect_stl_cube(read_stl_bytes("solidworks.stl", bytes));
}

TEST(Stl, AsciiWithUpperCaseKeywordsAndTwoSolids) {
  std::string text = to_ascii_stl(test::unit_cube(), test::unit_cube_fans());
  const auto split = text.find("  facet", text.find("endfacet"));  // after the first facet
  text.insert(split, "endsolid test\nsolid second\n");
  for (const char* keyword : {"facet normal", "outer loop", "vertex"}) {
    for (auto at = text.find(keyword); at != std::string::npos; at = text.find(keyword, at + 1)) {
      for (std::size_t i = at; i < at + std::strlen(keyword); ++i) {
        text[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
      }
    }
  }
  expect_stl_cube(read_stl_bytes("upper.stl", text));
}

TEST(Stl, DropsFacetsWhoseCornersCoincide) {
  Vertices vertices = test::unit_cube();
  Triangles triangles(13, 3);
  triangles << test::unit_cube_fans(), Eigen::RowVector3i(0, 1, 0);
  ReadReport report;
  const SurfaceMesh mesh =
      read_stl_bytes("sliver.stl", to_binary_stl(vertices, triangles), &report);
  EXPECT_EQ(mesh.triangles.rows(), 12);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0], "dropped 1 facets with two corners at the same position");
}

TEST(Stl, BunnyBoundaryMatchesTheMeditRead) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  const TetMesh bunny = read_medit_mesh(test::bunny_path());
  const Triangles boundary = test::boundary_triangles(bunny);
  const SurfaceMesh ascii = read_stl_bytes("bunny.stl", to_ascii_stl(bunny.vertices, boundary));
  const SurfaceMesh binary = read_stl_bytes("bunny_b.stl", to_binary_stl(bunny.vertices, boundary));

  ASSERT_EQ(ascii.triangles.rows(), boundary.rows());
  ASSERT_EQ(binary.triangles.rows(), boundary.rows());
  for (Eigen::Index f = 0; f < boundary.rows(); ++f) {
    for (int c = 0; c < 3; ++c) {
      const Eigen::RowVector3d original = bunny.vertices.row(boundary(f, c));
      EXPECT_EQ(ascii.vertices.row(ascii.triangles(f, c)), original);
      EXPECT_EQ(binary.vertices.row(binary.triangles(f, c)), original.cast<float>().cast<double>());
    }
  }
  EXPECT_EQ(ascii.vertices.rows(), binary.vertices.rows());  // welded to the boundary vertices
  EXPECT_EQ(ascii.triangles, binary.triangles);
}

TEST(StlErrors, BinaryWithWrongSize) {
  std::string bytes = to_binary_stl(test::unit_cube(), test::unit_cube_fans());
  bytes.resize(bytes.size() - 7);
  const auto error = stl_error("cut.stl", bytes);
  expect_message_has(error, {"cut.stl: byte 80: binary STL size mismatch: 12 triangles need "
                             "84 + 50 x 12 = 684 bytes, the file has 677"});
  EXPECT_EQ(error.byte_offset(), std::optional<std::size_t>(80));
  EXPECT_EQ(error.line(), 0u);
}

TEST(StlErrors, TruncatedBinaryWhoseHeaderSaysSolidIsNotReadAsAscii) {
  std::string bytes = to_binary_stl(test::unit_cube(), test::unit_cube_fans(), "solid Part1");
  bytes.resize(bytes.size() - 50);
  expect_message_has(stl_error("cut_solid.stl", bytes),
                     {"cut_solid.stl: byte 80: binary STL size mismatch"});
}

TEST(StlErrors, NanInBinaryNamesTheByte) {
  std::string bytes = to_binary_stl(test::unit_cube(), test::unit_cube_fans());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Facet 3 starts at 84 + 2 x 50 = 184; after its normal, its second corner at 208.
  std::memcpy(&bytes[208 + 4], &nan, 4);
  expect_message_has(stl_error("nan.stl", bytes),
                     {"nan.stl: byte 208:", "facet 3 has a vertex coordinate that is not finite"});
}

TEST(StlErrors, TruncatedAscii) {
  std::string text = to_ascii_stl(test::unit_cube(), test::unit_cube_fans());
  text = text.substr(0, text.find("vertex", text.find("facet", 300)));
  expect_message_has(stl_error("cut.stl", text),
                     {"cut.stl:", "file ended where 'vertex' was expected"});
}

TEST(StlErrors, AsciiGarbage) {
  const std::string text = "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n";
  expect_message_has(stl_error("garbage.stl", text),
                     {"garbage.stl:4:", "expected z coordinate (a number), found 'zero'"});
}

TEST(StlErrors, AsciiMissingKeyword) {
  const std::string text = "solid x\nfacet normal 0 0 1\nvertex 0 0 0\n";
  expect_message_has(stl_error("loop.stl", text),
                     {"loop.stl:3:", "expected 'outer', found 'vertex'"});
}

TEST(StlErrors, NeitherAsciiNorBinary) {
  expect_message_has(stl_error("short.stl", "not an stl"),
                     {"short.stl: byte 0:", "not an STL file"});
}

TEST(StlErrors, EmptyFileAndEmptySolid) {
  expect_message_has(stl_error("empty.stl", ""), {"empty.stl:1:", "the file is empty"});
  expect_message_has(stl_error("none.stl", "solid none\nendsolid none\n"),
                     {"none.stl:2:", "no triangles in the file"});
}

}  // namespace
}  // namespace smfem::mesh
