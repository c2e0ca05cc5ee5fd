#include "smfem/mesh/medit.hpp"

#include <string>

#include <gtest/gtest.h>

#include "mesh/mesh_test_support.hpp"

namespace smfem::mesh {
namespace {

using test::expect_message_has;
using test::mesh_error_of;

// The mesh as MEDIT text (format_medit_mesh: 1-based, region as the reference label).
std::string to_medit(const TetMesh& mesh) { return format_medit_mesh(mesh, "a test mesh"); }

// Writes `text` as `name` in a fresh folder and reads it.
TetMesh read_medit_text(const std::string& name, const std::string& text,
                        ReadReport* report = nullptr) {
  const auto path = test::scratch_dir("medit") / name;
  test::write_file(path, text);
  return read_medit_mesh(path, report);
}

MeshError medit_error(const std::string& name, const std::string& text) {
  return mesh_error_of([&] { read_medit_text(name, text); });
}

// Two tets sharing the face 2 3 4, regions 3 and 7; vertex 6 is used by none.
constexpr const char* two_tets = R"(MeshVersionFormatted 1
Dimension 3
Vertices
6
0 0 0 1
1 0 0 1
0 1 0 1
0 0 1 1
1 1 1 2
9 9 9 0
Tetrahedra
2
1 2 3 4 3
2 3 5 4 7
End
)";

TEST(Medit, ReadsTheCoarseBunnyAsWritten) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  ReadReport report;
  const TetMesh mesh = read_medit_mesh(test::bunny_path(), &report);

  ASSERT_EQ(mesh.vertices.rows(), 699);
  ASSERT_EQ(mesh.tets.rows(), 2274);
  ASSERT_EQ(mesh.regions.size(), 2274);
  EXPECT_EQ(mesh.vertices.colwise().minCoeff(),
            Eigen::RowVector3d(-96.778641, 29.085777, -69.916603));
  EXPECT_EQ(mesh.vertices.colwise().maxCoeff(), Eigen::RowVector3d(62.946636, 191.598602, 59.6945));
  // First vertex and first and last tets of the file, made 0-based.
  EXPECT_EQ(mesh.vertices.row(0), Eigen::RowVector3d(-96.77864099999999, 115.49807, 39.554291));
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 7, 28, 5));
  EXPECT_EQ(mesh.tets.row(2273), Eigen::RowVector4i(693, 697, 698, 348));
  EXPECT_TRUE((mesh.regions.array() == 0).all());  // every label in the file is 0
  test::expect_all_positive(mesh);
  EXPECT_NEAR(test::total_volume(mesh), 837150.682456785, 1e-6);
  EXPECT_EQ(report.reoriented_tets, 0u);
  EXPECT_EQ(report.unreferenced_vertices, 0u);
  EXPECT_EQ(report.notes.size(), 0u);  // its Triangles section is empty
}

TEST(Medit, ReadsTheOctopus) {
  SMFEM_REQUIRE_SHARED_FILE(test::octopus_path());
  const TetMesh mesh = read_medit_mesh(test::octopus_path());

  ASSERT_EQ(mesh.vertices.rows(), 1129);
  ASSERT_EQ(mesh.tets.rows(), 2415);
  EXPECT_EQ(mesh.vertices.colwise().minCoeff(),
            Eigen::RowVector3d(-0.4253125347663221, -0.257816628208013, -0.4965048715513532));
  EXPECT_EQ(mesh.vertices.colwise().maxCoeff(),
            Eigen::RowVector3d(0.426046, 0.311541542824231, 0.4987426895357003));
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 9, 1016));
  EXPECT_TRUE((mesh.regions.array() == 0).all());
  test::expect_all_positive(mesh);
  EXPECT_NEAR(test::total_volume(mesh), 0.011299100754784712, 1e-15);
}

TEST(Medit, ReorientsInvertedBunnyTetsKeepingTheVolume) {
  SMFEM_REQUIRE_SHARED_FILE(test::bunny_path());
  const TetMesh original = read_medit_mesh(test::bunny_path());
  TetMesh inverted = original;
  std::size_t swapped = 0;
  for (Eigen::Index t = 0; t < inverted.tets.rows(); t += 3, ++swapped) {
    std::swap(inverted.tets(t, 2), inverted.tets(t, 3));
  }

  ReadReport report;
  const TetMesh mesh = read_medit_text("inverted_bunny.mesh", to_medit(inverted), &report);

  EXPECT_EQ(report.reoriented_tets, swapped);
  test::expect_all_positive(mesh);
  EXPECT_NEAR(test::total_volume(mesh), test::total_volume(original), 1e-6);
  EXPECT_EQ(mesh.vertices, original.vertices);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    Eigen::RowVector4i read = mesh.tets.row(t);
    Eigen::RowVector4i expected = original.tets.row(t);
    std::sort(read.begin(), read.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(read, expected) << "tet " << t;
  }
}

TEST(Medit, KeepsRegionsAndCountsUnusedVertices) {
  ReadReport report;
  const TetMesh mesh = read_medit_text("two.mesh", two_tets, &report);

  EXPECT_EQ(mesh.vertices.rows(), 6);
  ASSERT_EQ(mesh.tets.rows(), 2);
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));
  // 2 3 5 4 is inverted (det[x3 - x2, x5 - x2, x4 - x2] = -2): its corners 1 and 2 swap.
  EXPECT_EQ(mesh.tets.row(1), Eigen::RowVector4i(1, 4, 2, 3));
  EXPECT_EQ(mesh.regions, Eigen::Vector2i(3, 7));
  EXPECT_EQ(report.reoriented_tets, 1u);
  EXPECT_EQ(report.unreferenced_vertices, 1u);
  test::expect_all_positive(mesh);
}

TEST(Medit, SkipsOtherSectionsCommentsAndKeywordCase) {
  const std::string text = R"(# written by hand, in the layouts other tools use
meshversionformatted
2
DIMENSION
3
# the vertices
vertices 4
0 0 0 0   1 0 0 0
0 1 0 0
0 0 1 0
Edges 2
1 2 5
2 3 5
Triangles
1
1 2 3 9
Corners 2 1 2
Ridges 1 1
RequiredVertices 1 4
Normals 1 0 0 1
NormalAtVertices 1 1 1
Tetrahedra 1
1 2 3 4 42 # label 42
end
anything after End is ignored
)";
  ReadReport report;
  const TetMesh mesh = read_medit_text("layouts.mesh", text, &report);

  EXPECT_EQ(mesh.vertices.rows(), 4);
  EXPECT_EQ(mesh.vertices.row(1), Eigen::RowVector3d(1, 0, 0));
  ASSERT_EQ(mesh.tets.rows(), 1);
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));
  EXPECT_EQ(mesh.regions(0), 42);
  EXPECT_EQ(report.notes.size(), 7u);  // Edges, Triangles, Corners, ..., NormalAtVertices
}

TEST(Medit, ParsesFromMemoryUnderTheGivenName) {
  const TetMesh mesh = parse_medit_mesh(two_tets, "in-memory.mesh");
  EXPECT_EQ(mesh.tets.rows(), 2);
  expect_message_has(mesh_error_of([] { parse_medit_mesh("Dimension 2\n", "memory.mesh"); }),
                     {"memory.mesh:1: Dimension: dimension 2: only 3D meshes are supported"});
}

TEST(MeditErrors, TruncatedVertexListNamesTheLineWhereTheFileEnds) {
  const auto error = medit_error("cut.mesh", "Dimension 3\nVertices\n5\n0 0 0 0\n1 0 0 0\n");
  expect_message_has(error, {"cut.mesh:5:", "Vertices: file ended after 2 of the 5 declared"});
  EXPECT_EQ(error.line(), 5u);
  EXPECT_EQ(error.problem(), "Vertices: file ended after 2 of the 5 declared entries");
}

TEST(MeditErrors, TruncatedTets) {
  std::string text = two_tets;
  text = text.substr(0, text.find("2 3 5 4 7"));
  expect_message_has(medit_error("cut.mesh", text),
                     {"cut.mesh:13:", "Tetrahedra: file ended after 1 of the 2 declared"});
}

TEST(MeditErrors, TruncatedInsideAnEntry) {
  expect_message_has(medit_error("cut.mesh", "Vertices\n1\n0 0"),
                     {"cut.mesh:3:", "file ended where z coordinate was expected"});
}

TEST(MeditErrors, CountLargerThanTheEntries) {
  std::string text = two_tets;
  text.replace(text.find("Vertices\n6"), 10, "Vertices\n7");
  expect_message_has(
      medit_error("count.mesh", text),
      {"count.mesh:11:", "the count says 7 entries but 'Tetrahedra' follows after 6"});
}

TEST(MeditErrors, CountSmallerThanTheEntries) {
  std::string text = two_tets;
  text.replace(text.find("Vertices\n6"), 10, "Vertices\n5");
  expect_message_has(
      medit_error("count.mesh", text),
      {"count.mesh:10:", "expected a keyword, found the number '9'", "count match its entries"});
}

TEST(MeditErrors, IndexZeroInAOneBasedFormat) {
  std::string text = two_tets;
  text.replace(text.find("1 2 3 4 3"), 9, "0 2 3 4 3");
  const auto error = medit_error("zero.mesh", text);
  expect_message_has(error, {"zero.mesh:13: Tetrahedra: vertex index 0 out of range 1..6",
                             "(indices are 1-based)"});
  EXPECT_EQ(error.line(), 13u);
  EXPECT_EQ(error.file().substr(error.file().size() - 9), "zero.mesh");
  EXPECT_FALSE(error.byte_offset().has_value());
}

TEST(MeditErrors, IndexOutOfRange) {
  std::string text = two_tets;
  text.replace(text.find("2 3 5 4 7"), 9, "2 900 5 4 7");
  expect_message_has(medit_error("range.mesh", text),
                     {"range.mesh:14: Tetrahedra: vertex index 900 out of range 1..6"});
}

TEST(MeditErrors, NanCoordinate) {
  std::string text = two_tets;
  text.replace(text.find("1 1 1 2"), 7, "1 nan 1 2");
  expect_message_has(medit_error("nan.mesh", text),
                     {"nan.mesh:9:", "y coordinate 'nan' is not finite"});
}

TEST(MeditErrors, InfiniteCoordinate) {
  std::string text = two_tets;
  text.replace(text.find("1 1 1 2"), 7, "1 1 -inf 2");
  expect_message_has(medit_error("inf.mesh", text),
                     {"inf.mesh:9:", "z coordinate '-inf' is not finite"});
}

TEST(MeditErrors, DegenerateTetGivesItsNumber) {
  std::string text = two_tets;
  // Vertex 5 at (1,1,-1) lies in the plane x + y + z = 1 of vertices 2, 3 and 4.
  text.replace(text.find("1 1 1 2"), 7, "1 1 -1 2");
  const auto error = medit_error("flat.mesh", text);
  expect_message_has(error, {"flat.mesh:14:", "Tetrahedra: tet 2 is degenerate (volume 0"});
}

TEST(MeditErrors, RepeatedVertexInATet) {
  std::string text = two_tets;
  text.replace(text.find("2 3 5 4 7"), 9, "2 3 5 2 7");
  expect_message_has(medit_error("repeat.mesh", text),
                     {"repeat.mesh:14:", "tet 2 repeats vertex 2"});
}

TEST(MeditErrors, GarbageToken) {
  std::string text = two_tets;
  text.replace(text.find("2 3 5 4 7"), 9, "2 3x 5 4 7");
  expect_message_has(medit_error("garbage.mesh", text),
                     {"garbage.mesh:14:", "expected a vertex index (an integer), found '3x'"});
}

TEST(MeditErrors, EmptyFile) {
  expect_message_has(medit_error("empty.mesh", ""), {"empty.mesh:1:", "the file is empty"});
  expect_message_has(medit_error("blank.mesh", "\n  # nothing\n"),
                     {"blank.mesh:", "the file is empty"});
}

TEST(MeditErrors, NoTetrahedra) {
  expect_message_has(medit_error("surface.mesh", "Vertices\n1\n0 0 0 0\nEnd\n"),
                     {"surface.mesh:4:", "no tetrahedra in the file"});
}

TEST(MeditErrors, UnknownKeywordCannotBeSkipped) {
  std::string text = two_tets;
  text.replace(text.find("Tetrahedra"), 0, "SolAtVertices\n1\n1 1\n0.5\n");
  expect_message_has(medit_error("sol.mesh", text),
                     {"sol.mesh:11:", "unknown keyword 'SolAtVertices'", "cannot be skipped"});
}

TEST(MeditErrors, AbsurdCountFailsAtTheEndInsteadOfAllocating) {
  // Reserving 4e9 vertices would abort under AddressSanitizer (and exhaust memory without it).
  expect_message_has(medit_error("absurd.mesh", "Vertices\n2000000000\n0 0 0 0\n"),
                     {"absurd.mesh:3:", "file ended after 1 of the 2000000000 declared entries"});
  expect_message_has(medit_error("huge.mesh", "Tetrahedra\n99999999999\n"),
                     {"huge.mesh:2:", "not a valid entry count: '99999999999'"});
}

}  // namespace
}  // namespace smfem::mesh
