#include "smfem/mesh/ply.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::exact;
using test::expect_message_has;
using test::mesh_error_of;

SurfaceMesh read_ply_bytes(const std::string& name, const std::string& bytes,
                           ReadReport* report = nullptr) {
  const auto path = test::scratch_dir("ply") / name;
  test::write_file(path, bytes);
  return read_ply_mesh(path, report);
}

MeshError ply_error(const std::string& name, const std::string& bytes) {
  return mesh_error_of([&] { read_ply_bytes(name, bytes); });
}

// How the test writer lays a file out: its format and the types real exporters choose.
struct PlyLayout {
  std::string format;
  std::string coordinate_type = "float";
  std::string count_type = "uchar";
  std::string index_type = "int";
  std::string index_name = "vertex_indices";
};

template <class T>
void append_as(std::string& bytes, double value, bool big_endian) {
  const T typed = static_cast<T>(value);
  char raw[sizeof(T)];
  std::memcpy(raw, &typed, sizeof(T));
  if (big_endian) std::reverse(raw, raw + sizeof(T));  // the test machines are little-endian
  bytes.append(raw, sizeof(T));
}

void append_value(std::string& bytes, const std::string& type, double value,
                  const PlyLayout& layout) {
  if (layout.format == "ascii") {
    bytes += exact(value) + " ";
    return;
  }
  const bool big = layout.format == "binary_big_endian";
  if (type == "char" || type == "int8") return append_as<std::int8_t>(bytes, value, big);
  if (type == "uchar" || type == "uint8") return append_as<std::uint8_t>(bytes, value, big);
  if (type == "short") return append_as<std::int16_t>(bytes, value, big);
  if (type == "ushort") return append_as<std::uint16_t>(bytes, value, big);
  if (type == "int") return append_as<std::int32_t>(bytes, value, big);
  if (type == "uint") return append_as<std::uint32_t>(bytes, value, big);
  if (type == "float" || type == "float32") return append_as<float>(bytes, value, big);
  if (type == "double") return append_as<double>(bytes, value, big);
  ADD_FAILURE() << "test writer: unknown type " << type;
}

void end_entry(std::string& bytes, const PlyLayout& layout) {
  if (layout.format == "ascii") bytes.back() = '\n';
}

// A PLY file with the properties and elements exporters add around the ones the reader uses:
// a material element first, colours, normals and a texture list per vertex, flags per face,
// and an edge element last.
std::string to_ply(const Vertices& vertices, const std::vector<std::vector<int>>& faces,
                   const PlyLayout& layout) {
  std::string bytes = "ply\nformat " + layout.format + " 1.0\ncomment made by the tests\n" +
                      "element material 1\nproperty uchar ambient\nproperty float shine\n" +
                      "element vertex " + std::to_string(vertices.rows()) +
                      "\nproperty uchar red\n";
  for (const char* axis : {"x", "y", "z"}) {
    bytes += "property " + layout.coordinate_type + " " + axis + "\n";
  }
  bytes +=
      "property float nx\nproperty float ny\nproperty float nz\n"
      "property list uchar float uv\n"
      "obj_info some exporters write this\n"
      "element face " +
      std::to_string(faces.size()) + "\nproperty list " + layout.count_type + " " +
      layout.index_type + " " + layout.index_name +
      "\nproperty int flags\n"
      "element edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n";
  append_value(bytes, "uchar", 7, layout);
  append_value(bytes, "float", 0.5, layout);
  end_entry(bytes, layout);
  for (Eigen::Index v = 0; v < vertices.rows(); ++v) {
    append_value(bytes, "uchar", 200, layout);
    for (int i = 0; i < 3; ++i) append_value(bytes, layout.coordinate_type, vertices(v, i), layout);
    for (int i = 0; i < 3; ++i) append_value(bytes, "float", 0.25, layout);
    append_value(bytes, "uchar", 2, layout);
    append_value(bytes, "float", 0.125, layout);
    append_value(bytes, "float", 0.75, layout);
    end_entry(bytes, layout);
  }
  for (const auto& face : faces) {
    append_value(bytes, layout.count_type, static_cast<double>(face.size()), layout);
    for (int index : face) append_value(bytes, layout.index_type, index, layout);
    append_value(bytes, "int", -1, layout);
    end_entry(bytes, layout);
  }
  append_value(bytes, "int", 0, layout);
  append_value(bytes, "int", 1, layout);
  end_entry(bytes, layout);
  return bytes;
}

std::vector<std::vector<int>> cube_quads() {
  std::vector<std::vector<int>> quads;
  for (const auto& quad : test::unit_cube_quads) quads.emplace_back(quad, quad + 4);
  return quads;
}

std::vector<std::vector<int>> as_faces(const Triangles& triangles) {
  std::vector<std::vector<int>> faces;
  for (Eigen::Index f = 0; f < triangles.rows(); ++f) {
    faces.push_back({triangles(f, 0), triangles(f, 1), triangles(f, 2)});
  }
  return faces;
}

void expect_ply_cube(const SurfaceMesh& mesh) {
  EXPECT_EQ(mesh.vertices, test::unit_cube());
  EXPECT_EQ(mesh.triangles, test::unit_cube_fans());
  EXPECT_EQ(mesh.regions, Eigen::VectorXi::Zero(12));
}

TEST(Ply, ReadsAsciiWithExtraPropertiesAndElements) {
  ReadReport report;
  expect_ply_cube(
      read_ply_bytes("ascii.ply", to_ply(test::unit_cube(), cube_quads(), {"ascii"}), &report));
  ASSERT_EQ(report.notes.size(), 2u);
  EXPECT_EQ(report.notes[0], "skipped 1 entries of element material");
}

TEST(Ply, ReadsBinaryLittleEndian) {
  const PlyLayout layout{"binary_little_endian", "float", "uchar", "uint"};
  expect_ply_cube(read_ply_bytes("le.ply", to_ply(test::unit_cube(), cube_quads(), layout)));
}

TEST(Ply, ReadsBinaryBigEndian) {
  const PlyLayout layout{"binary_big_endian", "double", "ushort", "int"};
  expect_ply_cube(read_ply_bytes("be.ply", to_ply(test::unit_cube(), cube_quads(), layout)));
}

TEST(Ply, ReadsIntegerCoordinatesAndTheVertexIndexName) {
  const PlyLayout layout{"binary_little_endian", "short", "char", "ushort", "vertex_index"};
  expect_ply_cube(read_ply_bytes("short.ply", to_ply(test::unit_cube(), cube_quads(), layout)));
}

TEST(Ply, ReadsCrLfHeaders) {
  std::string bytes = to_ply(test::unit_cube(), cube_quads(), {"binary_little_endian"});
  const auto data = bytes.find("end_header\n") + 11;
  std::string header = bytes.substr(0, data);
  std::string with_cr;
  for (char c : header) with_cr += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_ply_cube(read_ply_bytes("crlf.ply", with_cr + bytes.substr(data)));
}

TEST(Ply, SkipsElementsWithoutPropertiesWhateverTheirCount) {
  std::string text = to_ply(test::unit_cube(), cube_quads(), {"ascii"});
  text.insert(text.find("element vertex"), "element marker 4000000000\n");
  expect_ply_cube(read_ply_bytes("marker.ply", text));
}

TEST(Ply, BunnyBoundaryMatchesTheMeditRead) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  const TetMesh bunny = read_medit_mesh(test::bunny_path());
  const Triangles boundary = test::boundary_triangles(bunny);
  for (const char* format : {"ascii", "binary_little_endian", "binary_big_endian"}) {
    const PlyLayout layout{format, "double"};
    const SurfaceMesh mesh = read_ply_bytes(std::string(format) + ".ply",
                                            to_ply(bunny.vertices, as_faces(boundary), layout));
    EXPECT_EQ(mesh.vertices, bunny.vertices) << format;
    EXPECT_EQ(mesh.triangles, boundary) << format;
  }
}

TEST(PlyErrors, HeaderWithoutEndHeader) {
  const std::string text = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n";
  expect_message_has(ply_error("open.ply", text),
                     {"open.ply:4:", "the header has no end_header line"});
}

TEST(PlyErrors, NotAPlyFile) {
  expect_message_has(ply_error("off.ply", "OFF\n3 1 0\n"),
                     {"off.ply:1:", "not a PLY file: the first line is not 'ply'"});
  expect_message_has(ply_error("empty.ply", ""), {"empty.ply:1:", "the file is empty"});
}

TEST(PlyErrors, UnknownFormatAndType) {
  expect_message_has(ply_error("format.ply", "ply\nformat binary_middle_endian 1.0\n"),
                     {"format.ply:2:", "unknown data format 'binary_middle_endian'"});
  expect_message_has(
      ply_error("type.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty half x\n"),
      {"type.ply:4:", "unknown property type 'half'"});
}

TEST(PlyErrors, VertexWithoutZ) {
  const std::string text =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
      "property float y\nend_header\n0 0\n";
  expect_message_has(ply_error("noz.ply", text),
                     {"noz.ply:3:", "element vertex has no scalar property z"});
}

TEST(PlyErrors, TruncatedBinaryData) {
  std::string bytes = to_ply(test::unit_cube(), cube_quads(), {"binary_little_endian"});
  bytes.resize(bytes.size() - 30);  // the edge (8 bytes) and the last faces
  const auto error = ply_error("cut.ply", bytes);
  expect_message_has(error, {"cut.ply: byte " + std::to_string(bytes.size()) + ": file ended"});
  EXPECT_EQ(error.byte_offset(), std::optional<std::size_t>(bytes.size()));
}

TEST(PlyErrors, TruncatedAsciiData) {
  std::string text = to_ply(test::unit_cube(), cube_quads(), {"ascii"});
  text.resize(text.find("4 0 4 7 3"));
  expect_message_has(ply_error("cut.ply", text),
                     {"cut.ply:", "file ended after 4 of the 6 declared face entries"});
}

TEST(PlyErrors, BinaryIndexOutOfRangeNamesTheFacesByte) {
  std::vector<std::vector<int>> faces = cube_quads();
  faces[2][1] = 8;
  const std::string bytes = to_ply(test::unit_cube(), faces, {"binary_little_endian"});
  // Data: material 5 bytes, 8 vertices of 1 + 12 + 12 + 1 + 8 bytes, then faces of 21 bytes.
  const std::size_t face_2 = bytes.find("end_header\n") + 11 + 5 + 8 * 34 + 2 * 21;
  expect_message_has(ply_error("range.ply", bytes), {"range.ply: byte " + std::to_string(face_2) +
                                                     ": face: vertex index 8 out of range 0..7"});
}

TEST(PlyErrors, NanCoordinate) {
  std::string text = to_ply(test::unit_cube(), cube_quads(), {"ascii"});
  text.replace(text.find("200 1 1 1 "), 10, "200 1 nan 1 ");
  expect_message_has(ply_error("nan.ply", text),
                     {"nan.ply:31:", "vertex 6 has a coordinate that is not finite (nan)"});
}

TEST(PlyErrors, FaceWithTwoCorners) {
  std::vector<std::vector<int>> faces = cube_quads();
  faces[5] = {1, 2};
  const std::string text = to_ply(test::unit_cube(), faces, {"ascii"});
  expect_message_has(ply_error("two.ply", text),
                     {"two.ply:38:", "face 5 has 2 corners; a face needs 3 or more"});
}

TEST(PlyErrors, NegativeListLength) {
  std::vector<std::vector<int>> faces = cube_quads();
  std::string text = to_ply(test::unit_cube(), faces, {"ascii"});
  text.replace(text.find("2 0.125 0.75"), 12, "-2 0.125 0.75");
  expect_message_has(ply_error("negative.ply", text),
                     {"negative.ply:25:", "list uv has a negative length -2"});
}

}  // namespace
}  // namespace smfem::mesh
