#include "smfem/mesh/gmsh.hpp"

#include <string>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::exact;
using test::expect_message_has;
using test::mesh_error_of;

TetMesh read_gmsh_text(const std::string& name, const std::string& text,
                       ReadReport* report = nullptr) {
  const auto path = test::scratch_dir("gmsh") / name;
  test::write_file(path, text);
  return read_gmsh_mesh(path, report);
}

MeshError gmsh_error(const std::string& name, const std::string& text) {
  return mesh_error_of([&] { read_gmsh_text(name, text); });
}

// The unit cube in 6 tets around its diagonal 1-7, as Gmsh 2.2 writes it: physical groups 1
// and 2 for the two halves, 5 for the boundary triangles, a physical point and a line.
constexpr const char* cube_v22 = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
4
0 9 "origin"
2 5 "boundary"
3 1 "left"
3 2 "right"
$EndPhysicalNames
$Nodes
8
1 0 0 0
2 1 0 0
3 1 1 0
4 0 1 0
5 0 0 1
6 1 0 1
7 1 1 1
8 0 1 1
$EndNodes
$Elements
11
1 15 2 9 1 1
2 1 2 0 1 1 2
3 2 2 5 1 1 3 2
4 2 2 5 1 1 4 3
5 4 2 1 1 1 2 3 7
6 4 2 1 1 1 3 4 7
7 4 2 1 1 1 4 8 7
8 4 2 2 1 1 8 5 7
9 4 2 2 1 1 5 6 7
10 4 2 2 1 1 6 2 7
11 2 2 5 1 5 6 7
$EndElements
$NodeData
1
"temperature"
1
0.0
3
0
1
1
1 20.5
$EndNodeData
)";

// The unit cube in 5 tets as Gmsh 4.1 writes it: a centre tet in volume 1 (physical 10), the
// four corner tets in volume 2 (physical 20), nodes in the blocks of their point entities.
constexpr const char* cube_v41 = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
3
2 5 "boundary"
3 10 "core"
3 20 "shell"
$EndPhysicalNames
$Entities
8 0 1 2
1 0 0 0 0
2 1 0 0 0
3 1 1 0 0
4 0 1 0 0
5 0 0 1 0
6 1 0 1 0
7 1 1 1 0
8 0 1 1 0
1 0 0 0 1 1 0 1 5 0
1 0 0 0 1 1 1 1 10 1 1
2 0 0 0 1 1 1 1 20 1 -1
$EndEntities
$Nodes
8 8 1 8
0 1 0 1
1
0 0 0
0 2 0 1
2
1 0 0
0 3 0 1
3
1 1 0
0 4 0 1
4
0 1 0
0 5 0 1
5
0 0 1
0 6 0 1
6
1 0 1
0 7 0 1
7
1 1 1
0 8 0 1
8
0 1 1
$EndNodes
$Elements
4 8 1 8
0 1 15 1
1 1
2 1 2 2
2 1 2 3
3 1 3 4
3 1 4 1
4 2 4 5 7
3 2 4 4
5 1 2 4 5
6 2 3 4 7
7 2 5 6 7
8 4 5 7 8
$EndElements
)";

// Gmsh 2.2 writer for the tests: node tags 3 i + 5 (gaps on purpose), the region as the
// physical tag and 1 as the elementary tag.
std::string to_gmsh_v22(const TetMesh& mesh) {
  std::string text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" +
                     std::to_string(mesh.vertices.rows()) + "\n";
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
    text += std::to_string(3 * v + 5) + " " + exact(mesh.vertices(v, 0)) + " " +
            exact(mesh.vertices(v, 1)) + " " + exact(mesh.vertices(v, 2)) + "\n";
  }
  text += "$EndNodes\n$Elements\n" + std::to_string(mesh.tets.rows()) + "\n";
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    text += std::to_string(t + 1) + " 4 2 " + std::to_string(mesh.regions(t)) + " 1";
    for (int c = 0; c < 4; ++c) text += " " + std::to_string(3 * mesh.tets(t, c) + 5);
    text += "\n";
  }
  return text + "$EndElements\n";
}

// Gmsh 4.1 writer for the tests: one volume entity (tag 1, physical 7) holding every node and
// every tet.
std::string to_gmsh_v41(const TetMesh& mesh) {
  const std::string nodes = std::to_string(mesh.vertices.rows());
  const std::string tets = std::to_string(mesh.tets.rows());
  std::string text =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n0 0 0 1\n"
      "1 -100 -100 -100 200 200 200 1 7 0\n$EndEntities\n$Nodes\n1 " +
      nodes + " 1 " + nodes + "\n3 1 0 " + nodes + "\n";
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) text += std::to_string(v + 1) + "\n";
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
    text += exact(mesh.vertices(v, 0)) + " " + exact(mesh.vertices(v, 1)) + " " +
            exact(mesh.vertices(v, 2)) + "\n";
  }
  text += "$EndNodes\n$Elements\n1 " + tets + " 1 " + tets + "\n3 1 4 " + tets + "\n";
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    text += std::to_string(t + 1);
    for (int c = 0; c < 4; ++c) text += " " + std::to_string(mesh.tets(t, c) + 1);
    text += "\n";
  }
  return text + "$EndElements\n";
}

TEST(Gmsh, ReadsVersion22WithPhysicalGroupsAndMixedElements) {
  ReadReport report;
  const TetMesh mesh = read_gmsh_text("cube22.msh", cube_v22, &report);

  EXPECT_EQ(mesh.vertices, test::unit_cube());
  ASSERT_EQ(mesh.tets.rows(), 6);
  Tets expected(6, 4);
  expected << 0, 1, 2, 6, 0, 2, 3, 6, 0, 3, 7, 6, 0, 7, 4, 6, 0, 4, 5, 6, 0, 5, 1, 6;
  EXPECT_EQ(mesh.tets, expected);
  EXPECT_EQ(mesh.regions, (Eigen::VectorXi(6) << 1, 1, 1, 2, 2, 2).finished());
  EXPECT_NEAR(test::total_volume(mesh), 1.0, 1e-15);
  EXPECT_EQ(report.reoriented_tets, 0u);
  // One note per skipped element type: 1 (line), 2 (triangle), 15 (point).
  ASSERT_EQ(report.notes.size(), 3u);
  EXPECT_EQ(report.notes[1],
            "skipped 3 elements of Gmsh type 2 (only type 4, the 4-node "
            "tetrahedron, is kept)");
}

TEST(Gmsh, ReadsVersion41WithRegionsFromEntities) {
  ReadReport report;
  const TetMesh mesh = read_gmsh_text("cube41.msh", cube_v41, &report);

  EXPECT_EQ(mesh.vertices, test::unit_cube());
  ASSERT_EQ(mesh.tets.rows(), 5);
  Tets expected(5, 4);
  expected << 1, 3, 4, 6, 0, 1, 3, 4, 1, 2, 3, 6, 1, 4, 5, 6, 3, 4, 6, 7;
  EXPECT_EQ(mesh.tets, expected);
  EXPECT_EQ(mesh.regions, (Eigen::VectorXi(5) << 10, 20, 20, 20, 20).finished());
  EXPECT_NEAR(test::total_volume(mesh), 1.0, 1e-15);
  EXPECT_EQ(report.notes.size(), 2u);  // the point and the triangles
}

TEST(Gmsh, Version41WithoutEntitiesUsesEntityTagsAsRegions) {
  std::string text = cube_v41;
  const auto start = text.find("$Entities");
  text.erase(start, text.find("$Nodes") - start);
  const TetMesh mesh = read_gmsh_text("noentities.msh", text);
  EXPECT_EQ(mesh.regions, (Eigen::VectorXi(5) << 1, 2, 2, 2, 2).finished());
}

TEST(Gmsh, Version41VolumeWithoutPhysicalTagUsesItsEntityTag) {
  std::string text = cube_v41;
  text.replace(text.find("2 0 0 0 1 1 1 1 20 1 -1"), 23, "2 0 0 0 1 1 1 0 1 -1");
  const TetMesh mesh = read_gmsh_text("nophysical.msh", text);
  EXPECT_EQ(mesh.regions, (Eigen::VectorXi(5) << 10, 2, 2, 2, 2).finished());
}

TEST(Gmsh, MapsNonContiguousShuffledNodeTags) {
  // Nodes tagged 900, 40, 7 and 12 in that order; a parametric block adds u v w per node.
  const std::string text = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
1 4 7 900
3 1 1 4
900
40
7
12
0 0 0 0.1 0.2 0.3
1 0 0 0.1 0.2 0.3
0 1 0 0.1 0.2 0.3
0 0 1 0.1 0.2 0.3
$EndNodes
$Elements
1 1 1 1
3 1 4 1
1 900 40 7 12
$EndElements
)";
  const TetMesh mesh = read_gmsh_text("tags.msh", text);
  EXPECT_EQ(mesh.vertices.row(1), Eigen::RowVector3d(1, 0, 0));
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));

  const std::string v22 =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n"
      "1000000 0 0 0\n3 1 0 0\n2000000 0 1 0\n1 0 0 1\n$EndNodes\n"
      "$Elements\n1\n1 4 2 0 1 1 2000000 1000000 3\n$EndElements\n";
  // Corners (0,0,1), (0,1,0), (0,0,0), (1,0,0) are inverted: corners 1 and 2 swap.
  ReadReport report;
  const TetMesh sparse = read_gmsh_text("sparse.msh", v22, &report);
  EXPECT_EQ(sparse.tets.row(0), Eigen::RowVector4i(3, 0, 2, 1));
  EXPECT_EQ(report.reoriented_tets, 1u);
}

TEST(Gmsh, BunnyThroughBothVersionsMatchesTheMeditRead) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  TetMesh bunny = read_medit_mesh(test::bunny_path());
  for (Eigen::Index t = 0; t < bunny.regions.size(); ++t)
    bunny.regions(t) = static_cast<int>(1 + t % 3);

  const TetMesh v22 = read_gmsh_text("bunny22.msh", to_gmsh_v22(bunny));
  EXPECT_EQ(v22.vertices, bunny.vertices);
  EXPECT_EQ(v22.tets, bunny.tets);
  EXPECT_EQ(v22.regions, bunny.regions);

  const TetMesh v41 = read_gmsh_text("bunny41.msh", to_gmsh_v41(bunny));
  EXPECT_EQ(v41.vertices, bunny.vertices);
  EXPECT_EQ(v41.tets, bunny.tets);
  EXPECT_TRUE((v41.regions.array() == 7).all());
}

TEST(GmshErrors, UnknownFormatVersion) {
  std::string text = cube_v22;
  text.replace(text.find("2.2 0 8"), 7, "3.0 0 8");
  expect_message_has(gmsh_error("v3.msh", text),
                     {"v3.msh:2: $MeshFormat: unsupported format version '3.0' "
                      "(supported: 2.2 and 4.1)"});
  expect_message_has(gmsh_error("v40.msh", "$MeshFormat\n4 0 8\n$EndMeshFormat\n"),
                     {"v40.msh:2:", "unsupported format version '4'"});
}

TEST(GmshErrors, BinaryFileAsksForAscii) {
  std::string text = "$MeshFormat\n4.1 1 8\n";
  const int one = 1;
  text.append(reinterpret_cast<const char*>(&one), sizeof one);
  text += "\n$EndMeshFormat\n$Entities\n";
  text.append(40, '\x01');
  expect_message_has(gmsh_error("binary.msh", text),
                     {"binary.msh:2:", "binary Gmsh files are not supported; save as ASCII"});
}

TEST(GmshErrors, TruncatedElements) {
  std::string text = cube_v22;
  text = text.substr(0, text.find("7 4 2 1"));
  expect_message_has(gmsh_error("cut.msh", text),
                     {"cut.msh:29:", "$Elements: file ended after 6 of the 11 declared elements"});
}

TEST(GmshErrors, ElementCountLargerThanTheEntries) {
  std::string text = cube_v22;
  text.replace(text.find("$Elements\n11"), 12, "$Elements\n12");
  expect_message_has(
      gmsh_error("count.msh", text),
      {"count.msh:35:", "$Elements: '$EndElements' comes after 11 of the 12 declared elements"});
}

TEST(GmshErrors, NodeCountSmallerThanTheEntries) {
  std::string text = cube_v22;
  text.replace(text.find("$Nodes\n8"), 8, "$Nodes\n7");
  expect_message_has(
      gmsh_error("count.msh", text),
      {"count.msh:20:", "expected $EndNodes, found '8'", "more entries than the declared count"});
}

TEST(GmshErrors, Version41BlockTotalsMustMatchTheHeader) {
  std::string text = cube_v41;
  text.replace(text.find("4 8 1 8"), 7, "4 9 1 9");
  expect_message_has(gmsh_error("total.msh", text),
                     {"total.msh:", "the header declares 9 elements but the blocks hold 8"});
}

TEST(GmshErrors, UndefinedNodeTag) {
  std::string text = cube_v22;
  text.replace(text.find("9 4 2 2 1 1 5 6 7"), 17, "9 4 2 2 1 1 5 99 7");
  expect_message_has(gmsh_error("tag.msh", text),
                     {"tag.msh:32: $Elements: node tag 99 is not in $Nodes"});
}

TEST(GmshErrors, RepeatedNodeInATet) {
  std::string text = cube_v22;
  text.replace(text.find("9 4 2 2 1 1 5 6 7"), 17, "9 4 2 2 1 1 5 6 5");
  expect_message_has(gmsh_error("repeat.msh", text),
                     {"repeat.msh:32:", "tetrahedron repeats node tag 5"});
}

TEST(GmshErrors, NodeTagGivenTwice) {
  std::string text = cube_v22;
  text.replace(text.find("3 1 1 0"), 7, "2 1 1 0");
  expect_message_has(gmsh_error("twice.msh", text),
                     {"twice.msh:21: $Nodes: node tag 2 is given to two nodes"});
}

TEST(GmshErrors, NanCoordinate) {
  std::string text = cube_v22;
  text.replace(text.find("7 1 1 1"), 7, "7 1 nan 1");
  expect_message_has(gmsh_error("nan.msh", text),
                     {"nan.msh:19:", "y coordinate 'nan' is not finite"});
}

TEST(GmshErrors, GarbageToken) {
  std::string text = cube_v22;
  text.replace(text.find("9 4 2 2 1 1 5 6 7"), 17, "9 4 2 2 1 1 5 six 7");
  expect_message_has(gmsh_error("garbage.msh", text),
                     {"garbage.msh:32:", "expected a node tag (an integer), found 'six'"});
}

TEST(GmshErrors, ExtraValuesAfterATet) {
  std::string text = cube_v22;
  text.replace(text.find("9 4 2 2 1 1 5 6 7"), 17, "9 4 2 2 1 1 5 6 7 8");
  expect_message_has(gmsh_error("extra.msh", text),
                     {"extra.msh:32:", "unexpected '8' after the four nodes of a tetrahedron"});
}

TEST(GmshErrors, UnclosedSection) {
  std::string text = cube_v22;
  text = text.substr(0, text.find("$EndNodeData"));
  expect_message_has(gmsh_error("open.msh", text),
                     {"open.msh:36:", "section $NodeData is not closed by $EndNodeData"});
}

TEST(GmshErrors, ElementsBeforeNodes) {
  expect_message_has(
      gmsh_error("order.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Elements\n0\n"),
      {"order.msh:4: $Elements: $Elements comes before $Nodes"});
}

TEST(GmshErrors, OnlySecondOrderTets) {
  const std::string text =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n"
      "$EndNodes\n$Elements\n1\n1 11 0 1 1 1 1 1 1 1 1 1 1\n"
      "$EndElements\n";
  expect_message_has(gmsh_error("p2.msh", text),
                     {"p2.msh:11:", "only 10-node tetrahedra in the file"});
}

TEST(GmshErrors, NotAGmshFileAndEmptyFile) {
  expect_message_has(gmsh_error("other.msh", "solid cube\n"),
                     {"other.msh:1:", "not a Gmsh file: expected $MeshFormat, found 'solid'"});
  expect_message_has(gmsh_error("empty.msh", ""), {"empty.msh:1:", "the file is empty"});
}

TEST(GmshErrors, DegenerateTet) {
  std::string text = cube_v22;
  text.replace(text.find("7 1 1 1"), 7, "7 0.5 0.5 0");  // node 7 into the bottom face
  expect_message_has(gmsh_error("flat.msh", text), {"flat.msh:", "$Elements: tet 1 is degenerate"});
}

}  // namespace
}  // namespace smfem::mesh
