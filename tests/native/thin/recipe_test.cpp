// Thin bodies' recipes (thin_recipe.hpp) and diagnostics (thin_diagnostics.hpp).
#include "smfem/thin/thin_recipe.hpp"

#include <string>

#include <gtest/gtest.h>

#include "smfem/thin/thin_contact.hpp"
#include "smfem/thin/thin_diagnostics.hpp"
#include "thin/thin_support.hpp"

namespace smfem::thin {
namespace {

std::string refusal(const std::string& text) {
  return test::refusal([&] { read_thin_recipe(text, "cloth.json"); });
}

TEST(ThinRecipe, BuildsTheGridAndRodItDescribes) {
  const ThinRecipe cloth = read_thin_recipe(
      R"({"name": "cloth", "shell": {"grid": [4, 3], "size": [0.6, 0.4], "center": [0, 1, 0],
          "thickness": 2e-3, "youngs": 1e8, "poisson": 0.2, "density": 500, "pins": "corners"},
          "solver": {"iterations": 1, "timestep": 0.01}})",
      "cloth.json");
  EXPECT_EQ(cloth.name, "cloth");
  EXPECT_EQ(cloth.body.vertex_count, 12);
  EXPECT_EQ(cloth.body.model.pinned, (std::vector<int>{0, 3, 8, 11}));
  EXPECT_DOUBLE_EQ(cloth.body.rest(11, 0), 0.3);
  EXPECT_DOUBLE_EQ(cloth.body.rest(11, 1), 1.0);
  EXPECT_DOUBLE_EQ(cloth.body.model.youngs(0), 1e8);
  EXPECT_NEAR(cloth.body.model.translational_mass.sum(), 500 * 2e-3 * 0.6 * 0.4, 1e-12);
  EXPECT_EQ(cloth.body.model.defaults.iterations, 1);
  EXPECT_DOUBLE_EQ(cloth.body.model.defaults.timestep, 0.01);
  // The thin bodies' own default variant stays where the recipe does not name one.
  EXPECT_EQ(cloth.body.model.defaults.mixed_variant, thin_body_defaults().mixed_variant);

  const ThinRecipe over = read_thin_recipe(
      R"({"shell": {"grid": [3, 3], "size": [1, 1], "center": [0, 1, 0]},
          "obstacles": [{"type": "sphere", "center": [0, 0, 0], "radius": 0.5}],
          "contact": {"activation_distance": 0.01}})",
      "over.json");
  ASSERT_EQ(over.obstacles.size(), 1u);
  EXPECT_EQ(over.obstacles[0].kind, contact::ObstacleKind::sphere);
  EXPECT_DOUBLE_EQ(over.contact.activation, 0.01);
  EXPECT_DOUBLE_EQ(
      over.contact.stiffness,
      default_contact_parameters(over.body, over.body.model.defaults.timestep).stiffness);

  const ThinRecipe rope = read_thin_recipe(
      R"({"rod": {"points": 5, "length": 2, "start": [1, 2, 3], "pins": "ends"}})", "rope.json");
  EXPECT_EQ(rope.name, "rope.json");
  EXPECT_EQ(rope.body.vertex_count, 5);
  EXPECT_EQ(rope.body.model.pinned, (std::vector<int>{0, 4}));
  EXPECT_DOUBLE_EQ(rope.body.rest(4, 0), 3.0);
  EXPECT_DOUBLE_EQ(rope.body.rest(4, 2), 3.0);
}

TEST(ThinRecipe, RefusesBadRecipesNamingTheKey) {
  const std::string grid = R"("grid": [3, 3], "size": [1, 1])";
  EXPECT_NE(refusal("{"), "accepted");
  EXPECT_NE(refusal("{}").find("exactly one of \"shell\" and \"rod\""), std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "rod": {"points": 3, "length": 1}})")
                .find("exactly one"),
            std::string::npos);
  const std::string unknown = refusal(R"({"shell": {)" + grid + R"(, "thicknes": 1e-3}})");
  EXPECT_NE(unknown.find("cloth.json: shell: unknown key \"thicknes\""), std::string::npos);
  EXPECT_NE(unknown.find("thickness"), std::string::npos) << "it lists the keys it takes";
  EXPECT_NE(refusal(R"({"shel": {}})").find("unknown key \"shel\""), std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {"grid": [3, 3]}})").find("size"), std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {"grid": [3, 100000], "size": [1, 1]}})").find("grid[1]"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {"grid": [3, 3], "size": [1, -1]}})").find("must be positive"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "pins": "top"}})").find("shell.pins"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "pins": [9]}})").find("shell: "),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "youngs": -5}})").find("shell: "),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "center": [0, 1e400, 0]}})"), "accepted");
  EXPECT_NE(refusal(R"({"shell": {"mesh": "cloth.obj"}})").find("not supported yet"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "obstacles": [{"type": "cone"}]})")
                .find("obstacles[0].type"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "obstacles": [{"type": "sphere",
                "center": [0, 0, 0], "radius": 1, "path": {"times": [0], "offsets": [[0, 0, 0]]}}]})")
                .find("not supported"),
            std::string::npos);
  EXPECT_NE(
      refusal(R"({"shell": {)" + grid + R"(}, "contact": {"stiffness": -1}})").find("contact"),
      std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 1, "length": 1}})").find("rod.points"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 3, "length": 1}, "solver": {"iterations": "two"}})")
                .find("cloth.json: solver.iterations"),
            std::string::npos);
}

// A cloth with no pins falls as implicit Euler falls: after step k its centroid is
// -g h^2 k (k + 1) / 2 below where it started and its momentum M g h k, whatever the solver.
TEST(ThinDiagnostics, AFreeClothFallsAtG) {
  const ThinRecipe cloth = read_thin_recipe(
      R"({"shell": {"grid": [5, 5], "size": [0.5, 0.5], "center": [0, 1, 0]}})", "free.json");
  for (const sim::SolverMethod method : {sim::SolverMethod::mfem, sim::SolverMethod::fem}) {
    sim::SolverSettings settings = cloth.body.model.defaults;
    settings.method = method;
    full::FullSimulator simulator(cloth.body.model, settings);
    const double g = test::gravity(), h = settings.timestep;
    const double mass = cloth.body.model.translational_mass.sum();
    for (int k = 1; k <= 10; ++k) {
      ASSERT_TRUE(simulator.step().ok);
      const sim::Diagnostics d = thin_diagnostics(cloth.body, simulator);
      EXPECT_NEAR(d.centroid.y(), 1.0 - g * h * h * k * (k + 1) / 2.0, 1e-9) << "step " << k;
      EXPECT_NEAR(d.linear_momentum.y(), -mass * g * h * k, 1e-9 * mass) << "step " << k;
      EXPECT_NEAR(d.elastic_energy, 0.0, 1e-12);
      EXPECT_NEAR(d.total_energy, d.kinetic_energy + d.gravity_potential, 1e-12);
    }
  }
}

}  // namespace
}  // namespace smfem::thin
