#include "smfem/mesh/obj.hpp"

#include <string>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::exact;
using test::expect_message_has;
using test::mesh_error_of;

SurfaceMesh read_obj_text(const std::string& name, const std::string& text,
                          ReadReport* report = nullptr) {
  const auto path = test::scratch_dir("obj") / name;
  test::write_file(path, text);
  return read_obj_mesh(path, report);
}

MeshError obj_error(const std::string& name, const std::string& text) {
  return mesh_error_of([&] { read_obj_text(name, text); });
}

// The unit cube as Blender-style exporters write it: quads, every corner form, texture
// coordinates and normals, groups, smoothing and materials; the last two faces use negative
// (relative) indices.
constexpr const char* cube_obj = R"(# Blender 3.6.0
# www.blender.org
mtllib cube.mtl
o Cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0.0 0.0 1.0
v 1 0 1 1.0
v 1 1 1 0.5 0.5 0.5
v 0 1 1
vn 0 0 -1
vn 0 0 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
s 0
usemtl Material
g bottom_and_top
f 1/1/1 4/2/1 3/3/1 2/4/1
f 5//2 6//2 7//2 8//2
g sides
f 1/1 2/2 6/3 5/4
f 3 4 8 7
f -8/1/1 -4/2/1 -1/3/1 -5/4/1
f -7//1 -6//1 -2//1 -3//1
l 1 2
p 1
curv 0.0 1.0 1 2
)";

// OBJ writer for the tests.
std::string to_obj(const Vertices& vertices, const Triangles& triangles) {
  std::string text = "# test writer\n";
  for (Eigen::Index v = 0; v < vertices.rows(); ++v) {
    text += "v " + exact(vertices(v, 0)) + " " + exact(vertices(v, 1)) + " " +
            exact(vertices(v, 2)) + "\n";
  }
  for (Eigen::Index f = 0; f < triangles.rows(); ++f) {
    text += "f " + std::to_string(triangles(f, 0) + 1) + " " + std::to_string(triangles(f, 1) + 1) +
            " " + std::to_string(triangles(f, 2) + 1) + "\n";
  }
  return text;
}

TEST(Obj, ReadsQuadsInEveryCornerFormAndRelativeIndices) {
  ReadReport report;
  const SurfaceMesh mesh = read_obj_text("cube.obj", cube_obj, &report);

  EXPECT_EQ(mesh.vertices, test::unit_cube());
  EXPECT_EQ(mesh.triangles, test::unit_cube_fans());
  EXPECT_EQ(mesh.regions, Eigen::VectorXi::Zero(12));
  EXPECT_EQ(report.unreferenced_vertices, 0u);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0], "ignored 1 lines starting with 'curv'");
}

TEST(Obj, RelativeIndicesCountFromTheLatestVertex) {
  const std::string text =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n"
      "v 0 0 1\nv 1 0 1\nv 0 1 1\nf -3 -2 -1\nf 1 -1 -3\n";
  const SurfaceMesh mesh = read_obj_text("relative.obj", text);
  ASSERT_EQ(mesh.triangles.rows(), 3);
  EXPECT_EQ(mesh.triangles.row(0), Eigen::RowVector3i(0, 1, 2));
  EXPECT_EQ(mesh.triangles.row(1), Eigen::RowVector3i(3, 4, 5));
  EXPECT_EQ(mesh.triangles.row(2), Eigen::RowVector3i(0, 5, 3));
}

TEST(Obj, FansPolygonsAroundTheirFirstCorner) {
  const std::string text = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n";
  const SurfaceMesh mesh = read_obj_text("pentagon.obj", text);
  const Triangles expected = (Triangles(3, 3) << 0, 1, 2, 0, 2, 3, 0, 3, 4).finished();
  EXPECT_EQ(mesh.triangles, expected);
}

TEST(Obj, AcceptsForwardReferencesAndCrLf) {
  const SurfaceMesh mesh =
      read_obj_text("crlf.obj", "f 1 2 3\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\n");
  EXPECT_EQ(mesh.triangles.row(0), Eigen::RowVector3i(0, 1, 2));
  EXPECT_EQ(mesh.vertices.row(1), Eigen::RowVector3d(1, 0, 0));
}

TEST(Obj, BunnyBoundaryMatchesTheMeditRead) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  const TetMesh bunny = read_medit_mesh(test::bunny_path());
  const Triangles boundary = test::boundary_triangles(bunny);
  ReadReport report;
  const SurfaceMesh mesh = read_obj_text("bunny.obj", to_obj(bunny.vertices, boundary), &report);
  EXPECT_EQ(mesh.vertices, bunny.vertices);
  EXPECT_EQ(mesh.triangles, boundary);
  EXPECT_GT(report.unreferenced_vertices, 0u);  // the interior vertices
}

TEST(ObjErrors, IndexZero) {
  expect_message_has(obj_error("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n"),
                     {"zero.obj:4: f: vertex index 0 out of range 1..3 (indices are 1-based)"});
}

TEST(ObjErrors, IndexOutOfRange) {
  expect_message_has(obj_error("range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4/1/1\n"),
                     {"range.obj:4: f: vertex index 4 out of range 1..3"});
}

TEST(ObjErrors, RelativeIndexBeforeTheFirstVertex) {
  expect_message_has(obj_error("relative.obj", "v 0 0 0\nv 1 0 0\nf -1 -2 -3\n"),
                     {"relative.obj:3:", "relative vertex index -3 reaches before the first"});
}

TEST(ObjErrors, RepeatedIndex) {
  expect_message_has(obj_error("repeat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n"),
                     {"repeat.obj:4:", "triangle 1 repeats vertex 2"});
}

TEST(ObjErrors, NanCoordinate) {
  expect_message_has(obj_error("nan.obj", "v 0 0 0\nv 1 nan 0\n"),
                     {"nan.obj:2:", "y coordinate 'nan' is not finite"});
}

TEST(ObjErrors, GarbageToken) {
  expect_message_has(obj_error("garbage.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x/3\n"),
                     {"garbage.obj:4:", "expected a vertex index (an integer), found 'x'"});
}

TEST(ObjErrors, MissingCoordinate) {
  expect_message_has(obj_error("short.obj", "v 0 0\n"),
                     {"short.obj:1:", "line ended where z was expected"});
}

TEST(ObjErrors, FaceWithTwoCorners) {
  expect_message_has(obj_error("edge.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n"),
                     {"edge.obj:3:", "a face needs at least 3 corners, this one has 2"});
}

TEST(ObjErrors, NoFaces) {
  expect_message_has(obj_error("points.obj", "v 0 0 0\nv 1 0 0\n"),
                     {"points.obj:2:", "no triangles in the file"});
}

TEST(ObjErrors, EmptyFile) {
  expect_message_has(obj_error("empty.obj", ""), {"empty.obj:1:", "the file is empty"});
}

}  // namespace
}  // namespace smfem::mesh
