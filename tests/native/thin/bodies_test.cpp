// Volumes and several bodies in one full-space solver (thin/volume.hpp, combined_body.hpp, the
// recipes' "parts"): a tet volume has its mass, its boundary and falls at g; bodies combined step
// exactly as each alone (they share a solver, not forces); a recipe of a shell, a rod and a volume
// builds that body; bad "parts" and volumes are refused naming the key.
#include "smfem/thin/combined_body.hpp"

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/mesh/medit.hpp"
#include "smfem/thin/rod.hpp"
#include "smfem/thin/shell.hpp"
#include "smfem/thin/thin_recipe.hpp"
#include "smfem/thin/volume.hpp"
#include "thin/thin_support.hpp"

namespace smfem::thin {
namespace {

// A box of nx x ny x nz unit cells of side h, each cut into six tets (Kuhn), from the origin.
struct TetBox {
  Positions X;
  Tets tets;
};
TetBox tet_box(int nx, int ny, int nz, double h) {
  TetBox box;
  const auto id = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  box.X.resize((nx + 1) * (ny + 1) * (nz + 1), 3);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) box.X.row(id(i, j, k)) << h * i, h * j, h * k;
  const int kuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7},
                          {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  box.tets.resize(6 * nx * ny * nz, 4);
  int t = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        int corner[8];
        for (int c = 0; c < 8; ++c)
          corner[c] = id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        for (const auto& tet : kuhn)
          box.tets.row(t++) << corner[tet[0]], corner[tet[1]], corner[tet[2]], corner[tet[3]];
      }
  return box;
}

// The MEDIT text of a tet box.
std::string medit(const TetBox& box) {
  mesh::TetMesh tets;
  tets.vertices = box.X;
  tets.tets = box.tets;
  return mesh::format_medit_mesh(tets, "a box of tets");
}

TEST(Volume, HasItsMassAndBoundaryAndFallsAtG) {
  const TetBox box = tet_box(3, 2, 1, 0.1);
  VolumeMaterial material;
  material.density = 500.0;
  const ThinBody body = make_volume(box.X, box.tets, material, {});
  EXPECT_NEAR(body.model.translational_mass.sum(), 500.0 * 0.3 * 0.2 * 0.1, 1e-12);
  // Every cell face on the box's outside is two triangles, each turned outwards.
  EXPECT_EQ(body.triangles.rows(), 2 * 2 * (3 * 2 + 3 * 1 + 2 * 1));
  EXPECT_NEAR(body.contact_areas.sum(), 2 * (0.3 * 0.2 + 0.3 * 0.1 + 0.2 * 0.1), 1e-12);
  const Eigen::RowVector3d middle(0.15, 0.1, 0.05);
  for (Eigen::Index f = 0; f < body.triangles.rows(); ++f) {
    const Eigen::RowVector3d a = box.X.row(body.triangles(f, 0)),
                             b = box.X.row(body.triangles(f, 1)),
                             c = box.X.row(body.triangles(f, 2));
    EXPECT_GT((b - a).cross(c - a).dot((a + b + c) / 3.0 - middle), 0.0) << "face " << f;
  }
  // Free, converged: implicit Euler's fall, y_n = -g h^2 n (n + 1) / 2, for every vertex.
  const double h = 0.01;
  full::FullSimulator simulator(body.model, test::converging(sim::SolverMethod::mfem, h));
  for (int n = 1; n <= 5; ++n) {
    simulator.step();
    const double expected = -test::gravity() * h * h * n * (n + 1) / 2.0;
    EXPECT_NEAR(simulator.displacements().col(1).maxCoeff(), expected, 1e-9);
    EXPECT_NEAR(simulator.displacements().col(1).minCoeff(), expected, 1e-9);
  }
  EXPECT_NE(test::refusal([&] {
              Tets flat = box.tets;
              flat(0, 3) = flat(0, 2);
              make_volume(box.X, flat, material, {});
            }).find("tet 0"),
            std::string::npos);
}

// Held at one end so that they bend and stretch, a cloth, a rope and a block step together as
// each steps alone, to the solver's tolerance, in both solvers.
TEST(CombinedBody, StepsEachBodyAsItStepsAlone) {
  ShellMaterial cloth_material;
  cloth_material.youngs = 1e5;
  ShellMesh grid = shell_grid(5, 5, 0.4, 0.4);
  const ThinBody cloth = make_shell(grid, cloth_material, {0, 4});
  RodMaterial rope_material;
  rope_material.youngs = 1e7;
  Positions line = rod_line(9, 0.5);
  line.col(2).array() += 1.0;
  const ThinBody rope = make_rods(line, polyline_segments(9), rope_material, {0});
  TetBox box = tet_box(4, 1, 1, 0.05);
  box.X.col(2).array() -= 1.0;
  VolumeMaterial soft;
  soft.youngs = 1e5;
  const ThinBody block = make_volume(box.X, box.tets, soft, {0, 5, 10, 15});
  const std::vector<ThinBody> bodies = {cloth, rope, block};
  const ThinBody all = combine_bodies(bodies);
  EXPECT_EQ(all.vertex_count, cloth.vertex_count + rope.vertex_count + block.vertex_count);
  EXPECT_EQ(all.model.node_count,
            cloth.model.node_count + rope.model.node_count + block.model.node_count);
  EXPECT_EQ(all.lines.rows(), rope.lines.rows());
  EXPECT_EQ(all.triangles.rows(), cloth.triangles.rows() + block.triangles.rows());
  EXPECT_TRUE(all.model.relax_local_nodes);
  for (const sim::SolverMethod method : {sim::SolverMethod::mfem, sim::SolverMethod::fem}) {
    sim::SolverSettings settings = test::converging(method, 0.01);
    settings.relative_tolerance = 1e-12;
    full::FullSimulator together(all.model, settings);
    std::vector<std::unique_ptr<full::FullSimulator>> alone;
    for (const ThinBody& body : bodies)
      alone.push_back(std::make_unique<full::FullSimulator>(body.model, settings));
    for (int step = 0; step < 10; ++step) {
      ASSERT_TRUE(together.step().ok);
      int first = 0;
      for (std::size_t b = 0; b < bodies.size(); ++b) {
        ASSERT_TRUE(alone[b]->step().ok);
        const sim::ReducedMatrix own = alone[b]->displacements().topRows(bodies[b].vertex_count);
        const sim::ReducedMatrix shared =
            together.displacements().middleRows(first, bodies[b].vertex_count);
        EXPECT_LT((own - shared).cwiseAbs().maxCoeff(), 1e-7 * (1.0 + own.cwiseAbs().maxCoeff()))
            << sim::solver_method_name(method) << ", body " << b << ", step " << step;
        first += bodies[b].vertex_count;
      }
    }
    EXPECT_GT(-together.displacements().col(1).minCoeff(), 0.01) << "they move";
  }
}

// A rod recipe's tet mesh becomes rods along every edge of its tets, inside ones too (paper 002's
// rods bunny): a cube cut into six tets has its 12 edges, a diagonal on each of its 6 faces and
// the one through it.
TEST(ThinRecipe, RodsOfATetMeshRunAlongEveryEdgeOfItsTets) {
  const RecipeFiles files = {{"cube.mesh", medit(tet_box(1, 1, 1, 0.1))}};
  const ThinRecipe rods =
      read_thin_recipe(R"({"rod": {"mesh": "cube.mesh", "radius": 1e-3}})", "cube.json", files);
  EXPECT_EQ(rods.body.vertex_count, 8);
  EXPECT_EQ(rods.body.model.element_count(), 12 + 6 + 1);
  const double length = 0.1 * (12 + 6 * std::sqrt(2.0) + std::sqrt(3.0));
  EXPECT_NEAR(rods.body.model.translational_mass.sum(), 1000.0 * std::numbers::pi * 1e-6 * length,
              1e-12);
}

TEST(ThinRecipe, BodiesPutAShellARodAndAVolumeInOneBody) {
  const RecipeFiles files = {{"block.mesh", medit(tet_box(2, 1, 1, 0.1))}};
  const ThinRecipe recipe = read_thin_recipe(R"({"parts": [
      {"shell": {"grid": [3, 3], "size": [0.2, 0.2]}},
      {"rod": {"points": 4, "length": 0.3, "start": [1, 0, 0]}},
      {"volume": {"mesh": "block.mesh", "center": [2, 0, 0], "youngs": 2e6, "density": 800}}]})",
                                             "three.json", files);
  EXPECT_EQ(recipe.body.vertex_count, 9 + 4 + 12);
  EXPECT_EQ(recipe.body.model.element_count(), 8 + 3 + 12);
  EXPECT_NEAR(recipe.body.rest.bottomRows(12).col(0).mean(), 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(recipe.body.model.youngs(8 + 3), 2e6);
  EXPECT_EQ(
      thin_recipe_files(R"({"parts": [{"volume": {"mesh": "a.mesh"}}, {"shell": {"mesh": "b.obj"}},
                                             {"rod": {"mesh": "b.obj"}}]})",
                        "x.json"),
      (std::vector<std::string>{"a.mesh", "b.obj"}));
  const auto refused = [&](const std::string& text) {
    return test::refusal([&] { read_thin_recipe(text, "three.json", files); });
  };
  EXPECT_NE(refused(R"({"parts": []})").find("three.json: parts: must be a list"),
            std::string::npos);
  EXPECT_NE(
      refused(
          R"({"parts": [{"shell": {"grid": [2, 2], "size": [1, 1]}, "rod": {"points": 2, "length": 1}}]})")
          .find("parts[0]: needs exactly one of"),
      std::string::npos);
  EXPECT_NE(refused(R"({"parts": [{"cube": {}}]})").find("parts[0]: unknown key \"cube\""),
            std::string::npos);
  EXPECT_NE(refused(R"({"parts": [{"volume": {}}]})").find("parts[0].volume: needs \"mesh\""),
            std::string::npos);
  EXPECT_NE(
      refused(R"({"parts": [{"volume": {"mesh": "block.obj"}}]})").find("parts[0].volume.mesh"),
      std::string::npos);
  const RecipeFiles surface = {{"block.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"}};
  EXPECT_NE(test::refusal([&] {
              read_thin_recipe(R"({"parts": [{"volume": {"mesh": "block.obj"}}]})", "t.json",
                               surface);
            }).find("is a surface mesh format"),
            std::string::npos);
  EXPECT_NE(
      refused(R"({"parts": [{"volume": {"mesh": "block.mesh", "pins": [99]}}]})").find("pin 99"),
      std::string::npos);
  EXPECT_NE(refused(R"({"parts": [{"shell": {"grid": [3, 3], "size": [1, 1], "thicknes": 1}}]})")
                .find("parts[0].shell: unknown key \"thicknes\""),
            std::string::npos);
}

}  // namespace
}  // namespace smfem::thin
