#include "smfem/mesh/off.hpp"

#include <string>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::exact;
using test::expect_message_has;
using test::mesh_error_of;

SurfaceMesh read_off_text(const std::string& name, const std::string& text,
                          ReadReport* report = nullptr) {
  const auto path = test::scratch_dir("off") / name;
  test::write_file(path, text);
  return read_off_mesh(path, report);
}

MeshError off_error(const std::string& name, const std::string& text) {
  return mesh_error_of([&] { read_off_text(name, text); });
}

// The unit cube as quads, with comments where Geomview and CGAL put them.
constexpr const char* cube_off = R"(OFF
# cube.off, written by hand the way CGAL does
8 6 12

0 0 0
1 0 0
1 1 0
0 1 0
# top
0 0 1
1 0 1
1 1 1
0 1 1
4 0 3 2 1
4 4 5 6 7
4 0 1 5 4
4 2 3 7 6
4 0 4 7 3
4 1 2 6 5
)";

// OFF writer for the tests: counts on the keyword's line, as libigl writes them.
std::string to_off(const Vertices& vertices, const Triangles& triangles) {
  std::string text =
      "OFF " + std::to_string(vertices.rows()) + " " + std::to_string(triangles.rows()) + " 0\n";
  for (Eigen::Index v = 0; v < vertices.rows(); ++v) {
    text +=
        exact(vertices(v, 0)) + " " + exact(vertices(v, 1)) + " " + exact(vertices(v, 2)) + "\n";
  }
  for (Eigen::Index f = 0; f < triangles.rows(); ++f) {
    text += "3 " + std::to_string(triangles(f, 0)) + " " + std::to_string(triangles(f, 1)) + " " +
            std::to_string(triangles(f, 2)) + "\n";
  }
  return text;
}

TEST(Off, ReadsQuadsWithComments) {
  ReadReport report;
  const SurfaceMesh mesh = read_off_text("cube.off", cube_off, &report);
  EXPECT_EQ(mesh.vertices, test::unit_cube());
  EXPECT_EQ(mesh.triangles, test::unit_cube_fans());
  EXPECT_EQ(mesh.regions, Eigen::VectorXi::Zero(12));
  EXPECT_EQ(report.unreferenced_vertices, 0u);
}

TEST(Off, ReadsColouredVariantsWithCountsOnTheKeywordLine) {
  const std::string text =
      "COFF 4 2 5\n0 0 0 255 0 0 255\n1 0 0 0 255 0 255\n"
      "0 1 0 0 0 255 255\n5 5 5 1 1 1 1\n"
      "3 0 1 2 0.5 0.5 0.5\n3 2 1 0\n";
  ReadReport report;
  const SurfaceMesh mesh = read_off_text("colour.off", text, &report);
  EXPECT_EQ(mesh.vertices.row(3), Eigen::RowVector3d(5, 5, 5));
  const Triangles expected = (Triangles(2, 3) << 0, 1, 2, 2, 1, 0).finished();
  EXPECT_EQ(mesh.triangles, expected);
  EXPECT_EQ(report.unreferenced_vertices, 1u);
}

TEST(Off, BunnyBoundaryMatchesTheMeditRead) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  const TetMesh bunny = read_medit_mesh(test::bunny_path());
  const Triangles boundary = test::boundary_triangles(bunny);
  const SurfaceMesh mesh = read_off_text("bunny.off", to_off(bunny.vertices, boundary));
  EXPECT_EQ(mesh.vertices, bunny.vertices);
  EXPECT_EQ(mesh.triangles, boundary);
}

TEST(OffErrors, IndexOutOfRange) {
  std::string text = cube_off;
  text.replace(text.find("4 1 2 6 5"), 9, "4 1 2 6 8");
  expect_message_has(off_error("range.off", text),
                     {"range.off:19: vertex index 8 out of range 0..7"});
}

TEST(OffErrors, TruncatedFaces) {
  std::string text = cube_off;
  text = text.substr(0, text.find("4 0 4 7 3"));
  expect_message_has(off_error("cut.off", text),
                     {"cut.off:17:", "file ended after 4 of the 6 declared faces"});
}

TEST(OffErrors, TruncatedVertices) {
  expect_message_has(off_error("cut.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n"),
                     {"cut.off:4:", "file ended after 2 of the 3 declared vertices"});
}

TEST(OffErrors, FaceWithTooFewCorners) {
  std::string text = cube_off;
  text.replace(text.find("4 1 2 6 5"), 9, "2 1 2");
  expect_message_has(off_error("two.off", text),
                     {"two.off:19:", "a face needs at least 3 corners, this one has 2"});
}

TEST(OffErrors, FaceWithMissingIndex) {
  std::string text = cube_off;
  text.replace(text.find("4 1 2 6 5"), 9, "4 1 2 6");
  expect_message_has(off_error("short.off", text),
                     {"short.off:19:", "line ended where a vertex index was expected"});
}

TEST(OffErrors, RepeatedIndex) {
  std::string text = cube_off;
  text.replace(text.find("4 1 2 6 5"), 9, "3 1 2 1");
  expect_message_has(off_error("repeat.off", text),
                     {"repeat.off:19:", "triangle 11 repeats vertex 1"});
}

TEST(OffErrors, NanCoordinate) {
  std::string text = cube_off;
  text.replace(text.find("1 1 1"), 5, "1 NAN 1");
  expect_message_has(off_error("nan.off", text),
                     {"nan.off:12:", "y coordinate 'NAN' is not finite"});
}

TEST(OffErrors, UnsupportedVariants) {
  expect_message_has(off_error("4d.off", "4OFF\n1 0 0\n0 0 0 0\n"),
                     {"4d.off:1:", "'4OFF': only 3D vertices are supported"});
  expect_message_has(off_error("binary.off", "OFF BINARY\n"),
                     {"binary.off:1:", "binary OFF files are not supported"});
  expect_message_has(off_error("ply.off", "ply\n"),
                     {"ply.off:1:", "not an OFF file: expected 'OFF', found 'ply'"});
}

TEST(OffErrors, EmptyFile) {
  expect_message_has(off_error("empty.off", ""), {"empty.off:1:", "the file is empty"});
}

}  // namespace
}  // namespace smfem::mesh
