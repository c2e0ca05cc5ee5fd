#include "smfem/bake/bake_input.hpp"

#include <gtest/gtest.h>

#include "bake/bake_files.hpp"
#include "smfem/bake/bake_error.hpp"
#include "subspace/box_mesh.hpp"
#include "support/test_paths.hpp"

namespace smfem::bake {
namespace {

// Expects load_bake_input to throw BakeInputError with `part` in its message.
void expect_refusal(const std::filesystem::path& file, const BakeSettings& settings,
                    const std::string& part) {
  try {
    load_bake_input(file, settings);
    FAIL() << "accepted; expected a refusal mentioning \"" << part << "\"";
  } catch (const BakeInputError& error) {
    EXPECT_NE(std::string(error.what()).find(part), std::string::npos) << error.what();
  }
}

mesh::TetMesh two_region_box() {
  mesh::TetMesh box = test::box_mesh({4, 1, 1}, {2, 0.5, 0.5});
  for (Eigen::Index t = 0; t < box.tets.rows(); ++t) {
    box.regions(t) = test::tet_centroid(box, t).x() < 1.0 ? 3 : 7;
  }
  return box;
}

TEST(BakeInput, TetMeshRegionsBecomeMaterialsAndOverridesApplyInOrder) {
  const auto dir = test::scratch_dir("regions");
  const auto mesh_file = test::write_medit(dir / "bar.mesh", two_region_box());
  BakeSettings settings;
  settings.region_materials =
      test::write_text(dir / "materials.txt", "# region E nu rho name\n3 1e10 0.3 2000 bone\n");
  settings.poisson = 0.4;
  const BakeInput input = load_bake_input(mesh_file, settings);
  ASSERT_EQ(input.materials.size(), 2u);
  EXPECT_EQ(input.materials[0].name, "bone");
  EXPECT_EQ(input.materials[0].youngs, 1e10);
  EXPECT_EQ(input.materials[1].youngs, kDefaultYoungs);
  for (Eigen::Index t = 0; t < input.mesh.tets.rows(); ++t) {
    EXPECT_EQ(input.youngs(t), input.mesh.regions(t) == 3 ? 1e10 : kDefaultYoungs);
    EXPECT_EQ(input.poisson(t), 0.4);  // --poisson after the region file
    EXPECT_EQ(input.density(t), input.mesh.regions(t) == 3 ? 2000.0 : kDefaultDensity);
  }
  // The default's modes, as many as the box's vertices carry (4 a mode), and 20 tets a mode.
  const auto modes =
      std::min<Eigen::Index>(kDefaultModes, input.mesh.vertices.rows() / kFreeVerticesPerMode);
  EXPECT_EQ(input.modes, modes);
  EXPECT_EQ(input.cubature, std::min<Eigen::Index>(20 * modes, input.mesh.tets.rows()));

  std::string per_tet;
  for (Eigen::Index t = 0; t < input.mesh.tets.rows(); ++t)
    per_tet += std::to_string(1e5 + static_cast<double>(t)) + "\n";
  settings.youngs_per_tet = test::write_text(dir / "youngs.txt", per_tet);
  const BakeInput per_tet_input = load_bake_input(mesh_file, settings);
  EXPECT_EQ(per_tet_input.youngs(5), 100005.0);
}

TEST(BakeInput, PaintedSpheresBecomeMaterialsOverTheTetsTheyHold) {
  // A bar of two regions (3: x < 1, 7: x > 1); a sphere at the right end, then a smaller one
  // painted over part of it and part of region 7.
  mesh::TetMesh bar = test::box_mesh({8, 2, 2}, {2, 0.5, 0.5});
  for (Eigen::Index t = 0; t < bar.tets.rows(); ++t) {
    bar.regions(t) = test::tet_centroid(bar, t).x() < 1.0 ? 3 : 7;
  }
  const auto dir = test::scratch_dir("paint");
  const auto mesh_file = test::write_medit(dir / "bar.mesh", bar);
  BakeSettings settings;
  settings.density = 1500.0;
  settings.paint = {{Eigen::Vector3d(2.0, 0.25, 0.25), 0.7, 1e4},
                    {Eigen::Vector3d(1.35, 0.25, 0.25), 0.2, 1e8}};
  const BakeInput input = load_bake_input(mesh_file, settings);
  ASSERT_EQ(input.materials.size(), 4u);
  EXPECT_EQ(input.materials[2].name, "painted 1");
  EXPECT_EQ(input.materials[3].name, "painted 2");
  int first_only = 0, both = 0, second_only = 0, region_7 = 0;
  for (Eigen::Index t = 0; t < input.mesh.tets.rows(); ++t) {
    const Eigen::Vector3d centroid = test::tet_centroid(input.mesh, t);
    const bool in_first = (centroid - settings.paint[0].center).norm() <= 0.7;
    const bool in_second = (centroid - settings.paint[1].center).norm() <= 0.2;
    // The later sphere paints over the earlier one.
    const double expected = in_second ? 1e8 : in_first ? 1e4 : kDefaultYoungs;
    EXPECT_EQ(input.youngs(t), expected) << "tet " << t;
    EXPECT_EQ(input.density(t), 1500.0);  // --density before the paint: painted tets keep it
    first_only += in_first && !in_second;
    both += in_first && in_second;
    second_only += in_second && !in_first;
    region_7 += !in_first && !in_second && centroid.x() > 1.0;
  }
  EXPECT_GT(first_only, 0);
  EXPECT_GT(both, 0);
  EXPECT_GT(second_only, 0);
  EXPECT_GT(region_7, 0);

  // A sphere over the whole bar leaves one material; one that misses it is refused.
  settings.paint = {{Eigen::Vector3d(1.0, 0.25, 0.25), 2.0, 1e4}};
  const BakeInput all = load_bake_input(mesh_file, settings);
  ASSERT_EQ(all.materials.size(), 1u);
  EXPECT_EQ(all.materials[0].name, "painted 1");
  settings.paint = {{Eigen::Vector3d(9.0, 0.0, 0.0), 0.5, 1e4}};
  expect_refusal(mesh_file, settings, "--paint 1: its sphere holds no tet's centroid");
}

TEST(BakeInput, PinsTheLowestPointsBelowAFractionOfTheHeight) {
  // The bar stands 0.5 m tall in y on 2 cells: a quarter of its height pins the bottom layer.
  const auto dir = test::scratch_dir("pin-lowest");
  const mesh::TetMesh box = test::box_mesh({2, 2, 2}, {1, 0.5, 1});
  const auto mesh_file = test::write_medit(dir / "box.mesh", box);
  BakeSettings settings;
  settings.pin_lowest = 0.25;
  const BakeInput input = load_bake_input(mesh_file, settings);
  ASSERT_EQ(input.pinned.size(), 9u);
  for (const int v : input.pinned) EXPECT_EQ(input.mesh.vertices(v, 1), 0.0);
}

TEST(BakeInput, AMeshWithoutAModeCountGetsTheModesItsFreeVerticesCarry) {
  // 2 x 2 x 4 cells: 45 vertices carry 9 modes (kFreeVerticesPerMode), fewer than the default
  // 16; with the lowest layer of 9 pinned, 7. Asked for, 16 stays 16 (run_bake refuses it
  // naming the fix), and every vertex pinned is refused here.
  const auto dir = test::scratch_dir("coarse-modes");
  const auto mesh_file =
      test::write_medit(dir / "bar.mesh", test::box_mesh({2, 4, 2}, {0.1, 0.2, 0.1}));
  BakeSettings settings;
  EXPECT_EQ(load_bake_input(mesh_file, settings).modes, 9);
  settings.pin_lowest = 0.1;
  EXPECT_EQ(load_bake_input(mesh_file, settings).modes, 7);
  settings.modes = 16;
  EXPECT_EQ(load_bake_input(mesh_file, settings).modes, 16);
  settings.pin_lowest = 1.0;
  expect_refusal(mesh_file, settings,
                 "every vertex of bar.mesh is pinned: nothing is left to move");
  // A mesh fine enough keeps the default.
  const auto fine = test::write_medit(dir / "fine.mesh", test::box_mesh({4, 4, 4}, {1, 1, 1}));
  EXPECT_EQ(load_bake_input(fine, BakeSettings{}).modes, kDefaultModes);
}

TEST(BakeInput, PinsTheVerticesWithinEachPinnedSphere) {
  // A 1 x 0.5 x 1 box on 2 x 2 x 2 cells (vertices 0.25 to 0.5 apart): a sphere of 0.1 m about
  // a corner holds that corner alone; one of 0.3 m about the top face's centre holds it and
  // the box's centre, 0.25 m below.
  const auto dir = test::scratch_dir("pin-spheres");
  const auto mesh_file =
      test::write_medit(dir / "box.mesh", test::box_mesh({2, 2, 2}, {1, 0.5, 1}));
  BakeSettings settings;
  settings.pin_spheres = {{Eigen::Vector3d(0, 0, 0), 0.1}, {Eigen::Vector3d(0.5, 0.5, 0.5), 0.3}};
  const BakeInput input = load_bake_input(mesh_file, settings);
  std::vector<int> within;
  for (Eigen::Index v = 0; v < input.mesh.vertices.rows(); ++v) {
    const Eigen::Vector3d x = input.mesh.vertices.row(v).transpose();
    if ((x - settings.pin_spheres[0].center).norm() <= 0.1 ||
        (x - settings.pin_spheres[1].center).norm() <= 0.3) {
      within.push_back(static_cast<int>(v));
    }
  }
  EXPECT_EQ(within.size(), 3u);
  EXPECT_EQ(input.pinned, within);
  settings.pin_spheres.push_back({Eigen::Vector3d(5, 5, 5), 0.1});
  expect_refusal(mesh_file, settings, "--pin 3: its sphere holds no vertex of the mesh");
}

TEST(BakeInput, RefusesMoreTetsThanItWasToldToTake) {
  const auto dir = test::scratch_dir("max-tets");
  const auto mesh_file = test::write_medit(dir / "bar.mesh", two_region_box());  // 24 tets
  BakeSettings settings;
  settings.max_tets = 24;
  EXPECT_EQ(load_bake_input(mesh_file, settings).mesh.tets.rows(), 24);
  settings.max_tets = 23;
  expect_refusal(mesh_file, settings, "bar.mesh: 24 tets, more than the 23 this bake takes");
}

TEST(BakeInput, RefusesASurfaceOfMoreTrianglesThanItWasToldToTake) {
  const auto dir = test::scratch_dir("max-triangles");
  // A closed tetrahedron: 4 triangles.
  const auto surface = test::write_text(dir / "tetrahedron.obj",
                                        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                        "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  BakeSettings settings;
  settings.max_triangles = 3;
  expect_refusal(surface, settings,
                 "tetrahedron.obj: 4 triangles, more than the 3 this bake takes (--max-triangles)");
}

TEST(BakeInput, AMeshBakedWithoutARecipeSaysWhatItWasBakedWith) {
  const auto dir = test::scratch_dir("description");
  const auto mesh_file =
      test::write_medit(dir / "box.mesh", test::box_mesh({2, 2, 2}, {1, 0.5, 1}));
  BakeSettings settings;
  settings.modes = 4;
  settings.cubature = 10;
  settings.paint = {{Eigen::Vector3d(0.75, 0.375, 0.75), 0.3, 2e4}};
  settings.pin_lowest = 0.1;
  EXPECT_EQ(load_bake_input(mesh_file, settings).scene.at("description"),
            "Baked from box.mesh (1 x 0.5 x 1 m): 4 modes, 10 cubature tets, region 0 E = 1e+06 "
            "Pa, painted 1 "
            "E = 20000 Pa, 9 vertices pinned.");
}

TEST(BakeInput, VerticesOfNoTetAreDroppedAndPinIndicesFollow) {
  const auto dir = test::scratch_dir("unused");
  mesh::TetMesh box = test::box_mesh({1, 1, 1}, {1, 1, 1});
  // A stray vertex at index 0: every tet index moves up by one.
  mesh::Vertices vertices(box.vertices.rows() + 1, 3);
  vertices << Eigen::RowVector3d(5, 5, 5), box.vertices;
  box.vertices = vertices;
  box.tets.array() += 1;
  BakeSettings settings;
  settings.pin_file = test::write_text(dir / "pins.txt", "0\n1\n");
  const BakeInput input = load_bake_input(test::write_medit(dir / "box.mesh", box), settings);
  EXPECT_EQ(input.mesh.vertices.rows(), 8);
  ASSERT_EQ(input.pinned.size(), 1u);  // file vertex 0 is gone, file vertex 1 is now 0
  EXPECT_EQ(input.pinned[0], 0);
  EXPECT_EQ(input.mesh.vertices.row(0), Eigen::RowVector3d(0, 0, 0));
}

TEST(BakeInput, RefusesBadFilesNamingTheProblem) {
  const auto dir = test::scratch_dir("bad");
  const auto mesh_file = test::write_medit(dir / "bar.mesh", two_region_box());
  expect_refusal(dir / "missing.mesh", {}, "no such file");
  expect_refusal(test::write_text(dir / "notes.txt", "hello"), {}, "unknown input type");

  BakeSettings settings;
  settings.pin_file = test::write_text(dir / "pins.txt", "1\n100000\n");
  expect_refusal(mesh_file, settings, "pins.txt:2: vertex 100000 is not in");
  settings.pin_file = test::write_text(dir / "pins.txt", "1.5\n");
  expect_refusal(mesh_file, settings, "not a non-negative integer");

  settings = {};
  settings.youngs_per_tet = test::write_text(dir / "youngs.txt", "1e6\n2e6\n");
  expect_refusal(mesh_file, settings, "holds 2 values, the mesh has 24 tets");

  settings = {};
  settings.region_materials = test::write_text(dir / "materials.txt", "3 1e6 0.6 1000\n");
  expect_refusal(mesh_file, settings, "materials.txt:1: Poisson's ratio");
  settings.region_materials = test::write_text(dir / "materials.txt", "9 1e6 0.3 1000\n");
  expect_refusal(mesh_file, settings, "region 9 has no tet");

  settings = {};
  settings.cubature = 1000;
  expect_refusal(mesh_file, settings, "--cubature 1000");
  // The cubature gives each of the two regions a tet at least.
  settings.cubature = 1;
  expect_refusal(mesh_file, settings,
                 "cubature |C| = 1: the mesh has 2 material regions and the cubature gives each at "
                 "least one tet; ask for at least 2");
  settings.cubature_per_region = 0;  // the paper's clustering of the whole body takes one
  EXPECT_EQ(load_bake_input(mesh_file, settings).cubature, 1);
  settings.cubature_per_region = -1;
  expect_refusal(mesh_file, settings, "--cubature-per-region -1: must be at least 0");
  settings = {};
  settings.target_tets = 100;
  expect_refusal(mesh_file, settings, "--target-tets applies to surface meshes only");
}

}  // namespace
}  // namespace smfem::bake
