#include "smfem/mesh/read_mesh.hpp"

#include <string>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::expect_message_has;
using test::mesh_error_of;

constexpr const char* tet_medit =
    "Vertices 4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\nTetrahedra 1\n1 2 3 4 5\nEnd\n";
constexpr const char* tet_gmsh =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n"
    "2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n$Elements\n1\n"
    "1 4 2 5 1 1 2 3 4\n$EndElements\n";
constexpr const char* tet_node = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
constexpr const char* tet_ele = "1 4 1\n1 1 2 3 4 5\n";
constexpr const char* triangle_obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
constexpr const char* triangle_stl =
    "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n"
    "vertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
constexpr const char* triangle_off = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
constexpr const char* triangle_ply =
    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
    "property float y\nproperty float z\nelement face 1\n"
    "property list uchar int vertex_indices\nend_header\n"
    "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";

std::filesystem::path write(const std::string& name, const std::string& text) {
  const auto path = test::scratch_dir("dispatch") / name;
  test::write_file(path, text);
  return path;
}

TEST(ReadMesh, ChoosesTheTetReaderByExtensionInAnyCase) {
  const Eigen::RowVector4i tet(0, 1, 2, 3);
  EXPECT_EQ(read_tet_mesh(write("tet.MESH", tet_medit)).tets.row(0), tet);
  EXPECT_EQ(read_tet_mesh(write("tet.msh", tet_gmsh)).tets.row(0), tet);
  const auto dir = test::scratch_dir("pair");
  test::write_file(dir / "tet.node", tet_node);
  test::write_file(dir / "tet.ele", tet_ele);
  EXPECT_EQ(read_tet_mesh(dir / "tet.node").tets.row(0), tet);
  EXPECT_EQ(read_tet_mesh(dir / "tet.ele").regions(0), 5);
}

TEST(ReadMesh, ChoosesTheSurfaceReaderByExtensionInAnyCase) {
  const Eigen::RowVector3i triangle(0, 1, 2);
  EXPECT_EQ(read_surface_mesh(write("t.obj", triangle_obj)).triangles.row(0), triangle);
  EXPECT_EQ(read_surface_mesh(write("t.Stl", triangle_stl)).triangles.row(0), triangle);
  EXPECT_EQ(read_surface_mesh(write("t.OFF", triangle_off)).triangles.row(0), triangle);
  EXPECT_EQ(read_surface_mesh(write("t.ply", triangle_ply)).triangles.row(0), triangle);
}

TEST(ReadMesh, TellsTetFromSurfaceFiles) {
  for (const char* name : {"a.mesh", "b.MSH", "c.1.node", "d.ele"}) {
    EXPECT_TRUE(is_tet_mesh_file(name)) << name;
    EXPECT_FALSE(is_surface_mesh_file(name)) << name;
  }
  for (const char* name : {"a.obj", "b.STL", "c.off", "d.ply"}) {
    EXPECT_TRUE(is_surface_mesh_file(name)) << name;
    EXPECT_FALSE(is_tet_mesh_file(name)) << name;
  }
  EXPECT_FALSE(is_tet_mesh_file("mesh"));
  EXPECT_FALSE(is_tet_mesh_file("a.vtk"));
}

TEST(ReadMesh, UnsupportedExtensionListsTheSupportedOnes) {
  expect_message_has(mesh_error_of([] { read_tet_mesh("model.vtk"); }),
                     {"model.vtk: unsupported tetrahedral mesh extension '.vtk' "
                      "(supported: .mesh, .msh, .node, .ele)"});
  expect_message_has(mesh_error_of([] { read_tet_mesh("bunny.obj"); }),
                     {"'.obj' is a surface mesh format"});
  expect_message_has(mesh_error_of([] { read_surface_mesh("bunny.mesh"); }),
                     {"supported: .obj, .stl, .off, .ply", "'.mesh' is a tetrahedral mesh format"});
  expect_message_has(mesh_error_of([] { read_surface_mesh("README"); }),
                     {"README: no file extension"});
}

TEST(ReadMesh, MissingFileAndDirectory) {
  const auto dir = test::scratch_dir("missing");
  expect_message_has(mesh_error_of([&] { read_tet_mesh(dir / "none.mesh"); }),
                     {"none.mesh: cannot open file"});
  std::filesystem::create_directory(dir / "folder.obj");
  expect_message_has(mesh_error_of([&] { read_surface_mesh(dir / "folder.obj"); }),
                     {"folder.obj: is a directory"});
}

TEST(ReadMesh, ResetsTheReport) {
  ReadReport report;
  report.reoriented_tets = 99;
  report.notes.push_back("stale");
  read_tet_mesh(write("tet.mesh", tet_medit), &report);
  EXPECT_EQ(report.reoriented_tets, 0u);
  EXPECT_TRUE(report.notes.empty());
}

}  // namespace
}  // namespace smfem::mesh
