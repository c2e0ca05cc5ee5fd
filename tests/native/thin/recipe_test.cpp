// Thin bodies' recipes (thin_recipe.hpp) and diagnostics (thin_diagnostics.hpp).
#include "smfem/thin/thin_recipe.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/thin/shell.hpp"
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
          "obstacles": [{"type": "sphere", "center": [0, 0, 0], "radius": 0.5},
                        {"type": "plane", "point": [0, -1, 0], "normal": [0, 1, 0],
                         "friction": 0.1}],
          "contact": {"activation_distance": 0.01}, "friction": 0.4})",
      "over.json");
  ASSERT_EQ(over.obstacles.size(), 2u);
  EXPECT_EQ(over.obstacles[0].kind, contact::ObstacleKind::sphere);
  EXPECT_DOUBLE_EQ(over.contact.activation, 0.01);
  EXPECT_DOUBLE_EQ(over.contact.friction, 0.4);
  EXPECT_LT(over.obstacles[0].friction, 0.0) << "the recipe's against the sphere";
  EXPECT_DOUBLE_EQ(over.obstacles[1].friction, 0.1);
  EXPECT_DOUBLE_EQ(cloth.contact.friction, 0.0) << "none by default";
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

  const ThinRecipe hook = read_thin_recipe(
      R"({"rod": {"points": [[0, 0, 0], [0.1, 0, 0], [0.15, 0.05, 0], [0.1, 0.1, 0]],
          "pins": "first"}})",
      "hook.json");
  EXPECT_EQ(hook.body.vertex_count, 4);
  EXPECT_DOUBLE_EQ(hook.body.rest(2, 0), 0.15);
  EXPECT_DOUBLE_EQ(hook.body.rest(3, 1), 0.1);
  EXPECT_EQ(hook.body.model.pinned, std::vector<int>{0});
  EXPECT_GT(hook.body.model.bending.nonZeros(), 0) << "a curved rod bends";
}

TEST(ThinRecipe, RefusesBadRecipesNamingTheKey) {
  const std::string grid = R"("grid": [3, 3], "size": [1, 1])";
  EXPECT_NE(refusal("{"), "accepted");
  EXPECT_NE(refusal("{}").find("exactly one of \"shell\", \"rod\" and \"parts\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "rod": {"points": 3, "length": 1}})")
                .find("exactly one"),
            std::string::npos);
  const std::string unknown = refusal(R"({"shell": {)" + grid + R"(, "thicknes": 1e-3}})");
  EXPECT_NE(unknown.find("cloth.json: shell: unknown key \"thicknes\""), std::string::npos);
  EXPECT_NE(unknown.find("thickness"), std::string::npos) << "it lists the keys it takes";
  EXPECT_NE(refusal(R"({"shel": {}})").find("unknown key \"shel\""), std::string::npos);
  // A misspelt key of "solver" or "camera" ran the defaults unsaid.
  const std::string rope = R"({"rod": {"points": 3, "length": 1}, )";
  EXPECT_EQ(refusal(rope + R"("solver": {"iteratons": 3}})"),
            "cloth.json: solver.iteratons: unknown key (it takes method, iterations, timestep, "
            "gravity, material_model)");
  EXPECT_NE(refusal(rope + R"("camera": {"positon": [1, 1, 1], "target": [0, 0, 0]}})")
                .find("cloth.json: camera: unknown key \"positon\""),
            std::string::npos);
  EXPECT_EQ(refusal(rope + R"("solver": {"iterations": 3}, )" +
                    R"("camera": {"position": [1, 1, 1], "target": [0, 0, 0]}})"),
            "accepted");
  // The material model by a recipe's name, as in a body's recipe (it took only the stepper's
  // "fixed_corotational", and refused "fcr").
  EXPECT_EQ(read_thin_recipe(rope + R"("solver": {"material_model": "snh"}})", "rope.json")
                .body.model.defaults.material_model,
            sim::MaterialModel::stable_neo_hookean);
  EXPECT_EQ(refusal(rope + R"("solver": {"material_model": "fixed_corotational"}})"),
            "cloth.json: solver.material_model must be \"arap\", \"fcr\" or \"snh\"");
  EXPECT_NE(refusal(R"({"shell": {"grid": [3, 3]}})").find("size"), std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {"grid": [3, 100000], "size": [1, 1]}})").find("grid[1]"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {"grid": [3, 3], "size": [1, -1]}})").find("must be positive"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "pins": "top"}})").find("shell.pins"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "pins": [9]}})").find("shell: "),
            std::string::npos);
  // Everything pinned: said in the recipe's terms, a curved rod's too (whose directors, pinned
  // with its segments, are nodes the simulator would name instead).
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "pins": [0, 1, 2, 3, 4, 5, 6, 7, 8]}})")
                .find("cloth.json: shell.pins: pins every one of its 9 vertices: nothing can move"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": [[0, 0, 0], [1, 0, 0], [1, 1, 0]], "pins": [0, 1, 2]}})")
                .find("rod.pins: pins every one of its 3 vertices"),
            std::string::npos);
  EXPECT_EQ(refusal(R"({"rod": {"points": [[0, 0, 0], [1, 0, 0], [1, 1, 0]], "pins": [0, 1]}})"),
            "accepted");
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "youngs": -5}})").find("shell: "),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "center": [0, 1e400, 0]}})"), "accepted");
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "obstacles": [{"type": "cone"}]})")
                .find("obstacles[0].type"),
            std::string::npos);
  const std::string backwards = refusal(R"({"shell": {)" + grid + R"(}, "obstacles": [{"type":
      "sphere", "center": [0, 0, 0], "radius": 1, "path": {"times": [1, 0],
      "offsets": [[0, 0, 0], [0, 1, 0]]}}]})");
  EXPECT_NE(backwards.find("obstacles[0]"), std::string::npos) << backwards;
  EXPECT_NE(backwards.find("path times must increase"), std::string::npos) << backwards;
  EXPECT_NE(
      refusal(R"({"shell": {)" + grid + R"(}, "contact": {"stiffness": -1}})").find("contact"),
      std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "friction": 11})")
                .find("cloth.json: friction: must be in [0, 10]"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(}, "friction": -0.1})").find("friction"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 1, "length": 1}})").find("rod.points"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 3, "length": 1}, "solver": {"iterations": "two"}})")
                .find("cloth.json: solver.iterations"),
            std::string::npos);
}

// Materials outside the stepper's ranges (sim/solver_limits.json) and shapes beyond a scene's
// coordinates are refused, naming the key and the range: the stepper clamped each element's
// membrane but made the bending from the value given, so a 1e300 Pa cloth stood still in the air
// (and printed a warning per element); a 1e30 m rope was stepped.
TEST(ThinRecipe, RefusesMaterialsAndShapesBeyondTheStepperRanges) {
  const std::string grid = R"("grid": [3, 3], "size": [1, 1])";
  const std::string stiff = refusal(R"({"shell": {)" + grid + R"(, "youngs": 1e300}})");
  EXPECT_NE(stiff.find("cloth.json: shell: youngs must lie in [100, 1e+13] Pa, not 1e+300"),
            std::string::npos)
      << stiff;
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "youngs": 50}})").find("youngs must lie in"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 3, "length": 1, "poisson": 0.499}})")
                .find("rod: poisson must lie in [0, 0.49], not 0.499"),
            std::string::npos);
  EXPECT_NE(
      refusal(R"({"rod": {"points": 3, "poisson": 0.4900001, "length": 1}})").find("not 0.4900001"),
      std::string::npos)
      << "the refused value, not the range's end it rounds to";
  EXPECT_NE(refusal(R"({"rod": {"points": 3, "length": 1e30}})")
                .find("rod: a vertex has a coordinate beyond +-1000000 m"),
            std::string::npos);
  EXPECT_NE(
      refusal(R"({"shell": {)" + grid + R"(, "center": [0, 2e6, 0]}})").find("shell: a vertex"),
      std::string::npos);
  EXPECT_NE(refusal(R"({"shell": {)" + grid + R"(, "thickness": 1e7}})").find("shell.thickness"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 3, "length": 1, "radius": 0}})").find("rod.radius"),
            std::string::npos);
  // So are the solver's settings (a body recipe's are too): clamped, a timestep of 0 ran every
  // step into a failure, and a key given twice kept its last value unsaid.
  const std::string rope = R"({"rod": {"points": 3, "length": 1}, )";
  EXPECT_NE(refusal(rope + R"("solver": {"timestep": 0}})")
                .find("cloth.json: solver.timestep: must lie in [1e-05, 0.1] s, not 0"),
            std::string::npos);
  EXPECT_NE(refusal(rope + R"("solver": {"iterations": 0}})")
                .find("solver.iterations: must be a whole number in [1, 200], not 0"),
            std::string::npos);
  EXPECT_NE(refusal(rope + R"("solver": {"gravity": [0, -1e6, 0]}})").find("solver.gravity"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"rod": {"points": 3, "length": 1, "youngs": 1e6, "youngs": 2e6}})")
                .find("the key \"youngs\" appears twice in one object"),
            std::string::npos);
  // The ranges' ends are the stepper's own, and taken.
  EXPECT_EQ(refusal(R"({"shell": {)" + grid + R"(, "youngs": 1e13, "poisson": 0.49}})"),
            "accepted");
  EXPECT_EQ(refusal(rope + R"("solver": {"timestep": 0.1, "iterations": 200}})"), "accepted");
  EXPECT_EQ(refusal(R"({"rod": {"points": 3, "length": 1, "youngs": 100, "poisson": 0}})"),
            "accepted");
  // The bodies' own constructors hold the same ranges.
  ShellMaterial material;
  material.youngs = 2e13;
  EXPECT_THROW(make_shell(shell_grid(3, 3, 1.0, 1.0), material, {}), std::invalid_argument);
}

// The grid's vertices and triangles as an OBJ file (1-based ids, every digit of the positions).
std::string grid_obj(int nx, int ny, double width, double height) {
  const ShellMesh grid = shell_grid(nx, ny, width, height);
  std::string obj;
  char line[128];
  for (Eigen::Index v = 0; v < grid.positions.rows(); ++v) {
    std::snprintf(line, sizeof line, "v %.17g %.17g %.17g\n", grid.positions(v, 0),
                  grid.positions(v, 1), grid.positions(v, 2));
    obj += line;
  }
  for (Eigen::Index t = 0; t < grid.triangles.rows(); ++t) {
    std::snprintf(line, sizeof line, "f %d %d %d\n", grid.triangles(t, 0) + 1,
                  grid.triangles(t, 1) + 1, grid.triangles(t, 2) + 1);
    obj += line;
  }
  return obj;
}

// An octahedron of unit half-diagonal at the origin: a closed surface, 6 vertices, 12 edges.
constexpr const char* kOctahedron =
    "v 1 0 0\nv -1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nv 0 0 -1\n"
    "f 1 3 5\nf 3 2 5\nf 2 4 5\nf 4 1 5\nf 3 1 6\nf 2 3 6\nf 4 2 6\nf 1 4 6\n";

TEST(ThinRecipe, AShellFromAMeshFileIsTheSameBodyAsTheGridItHolds) {
  const RecipeFiles files = {{"grid.obj", grid_obj(4, 3, 0.6, 0.4)}};
  const ThinRecipe from_grid = read_thin_recipe(
      R"({"shell": {"grid": [4, 3], "size": [0.6, 0.4], "pins": "corners", "youngs": 1e7}})",
      "grid.json");
  const std::string text =
      R"({"shell": {"mesh": "grid.obj", "pins": [0, 3, 8, 11], "youngs": 1e7}})";
  EXPECT_EQ(thin_recipe_files(text, "mesh.json"), std::vector<std::string>{"grid.obj"});
  const ThinRecipe from_mesh = read_thin_recipe(text, "mesh.json", files);
  const ThinBody &a = from_grid.body, &b = from_mesh.body;
  EXPECT_EQ(b.rest, a.rest);
  EXPECT_EQ(b.triangles, a.triangles);
  EXPECT_EQ(b.edges, a.edges);
  EXPECT_EQ(b.model.elements, a.model.elements);
  EXPECT_EQ(b.model.pinned, a.model.pinned);
  EXPECT_TRUE(b.model.node_mass.isApprox(a.model.node_mass, 1e-14));
  ASSERT_EQ(b.model.bending.nonZeros(), a.model.bending.nonZeros()) << "a flat mesh bends";
  EXPECT_LT((b.model.bending - a.model.bending).norm(), 1e-12 * a.model.bending.norm());

  full::FullSimulator grid(a.model, a.model.defaults), mesh(b.model, b.model.defaults);
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(grid.step().ok && mesh.step().ok);
  }
  EXPECT_LT((mesh.displacements() - grid.displacements()).norm(),
            1e-12 * grid.displacements().norm());
}

TEST(ThinRecipe, AMeshIsScaledAndCentredAndItsEdgesBecomeRods) {
  const RecipeFiles files = {{"octahedron.obj", kOctahedron}};
  const ThinRecipe shell = read_thin_recipe(
      R"({"shell": {"mesh": "octahedron.obj", "scale": 0.1, "center": [0, 1, 0],
          "bending": false, "thickness": 1e-3, "density": 500}})",
      "ball.json", files);
  EXPECT_EQ(shell.body.vertex_count, 6);
  EXPECT_EQ(shell.body.triangles.rows(), 8);
  EXPECT_DOUBLE_EQ(shell.body.rest(2, 1), 1.1);
  EXPECT_DOUBLE_EQ(shell.body.rest(0, 0), 0.1);
  // Eight equilateral triangles of side 0.1 sqrt 2.
  const double side = 0.1 * std::sqrt(2.0);
  EXPECT_NEAR(shell.body.model.translational_mass.sum(),
              500 * 1e-3 * 8 * std::sqrt(3.0) / 4 * side * side, 1e-12);

  const ThinRecipe rods = read_thin_recipe(
      R"({"rod": {"mesh": "octahedron.obj", "scale": 0.1, "radius": 1e-3, "density": 1000,
          "pins": [3]}})",
      "truss.json", files);
  EXPECT_EQ(rods.body.vertex_count, 6);
  ASSERT_EQ(rods.body.edges.rows(), 12) << "each edge once";
  EXPECT_EQ(rods.body.model.element_count(), 12);
  EXPECT_EQ(rods.body.model.pinned, std::vector<int>{3});
  EXPECT_EQ(rods.body.model.bending.nonZeros(), 0) << "a network does not bend";
  EXPECT_NEAR(rods.body.model.translational_mass.sum(), 1000 * std::numbers::pi * 1e-6 * 12 * side,
              1e-12);
  EXPECT_DOUBLE_EQ(rods.body.rest(2, 1), 0.1) << "no center: the file's coordinates";
  const ThinRecipe welded =
      read_thin_recipe(R"({"rod": {"mesh": "octahedron.obj", "bending": true}})", "w.json", files);
  EXPECT_GT(welded.body.model.bending.nonZeros(), 0) << "asked, a network bends at its joints";
}

TEST(ThinRecipe, RefusesBadMeshRecipesNamingTheKeyAndTheFile) {
  const RecipeFiles files = {
      {"ball.obj", kOctahedron}, {"broken.obj", "v 0 0 0\nf 1 2 3\n"}, {"ball.xyz", kOctahedron}};
  // Each recipe, and what its refusal says.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {R"({"shell": {"mesh": "ball.obj", "grid": [3, 3]}})",
       "\"mesh\" and \"grid\" exclude each other"},
      {R"({"shell": {"mesh": "gone.obj", "bending": false}})",
       "ball.json: shell.mesh: the file \"gone.obj\" was not given"},
      {R"({"shell": {"mesh": "broken.obj", "bending": false}})", "shell.mesh: broken.obj:2"},
      {R"({"shell": {"mesh": "ball.xyz", "bending": false}})",
       "unsupported surface mesh extension '.xyz'"},
      {R"({"shell": {"mesh": "ball.obj", "bending": false, "pins": "corners"}})",
       "shell.pins: must be a list of vertex ids"},
      {R"({"shell": {"mesh": "ball.obj", "bending": false, "pins": [6]}})",
       "pin 6 is not a vertex"},
      {R"({"shell": {"mesh": 3}})", "shell.mesh: must be a file name"},
      {R"({"shell": {"grid": [3, 3], "size": [1, 1], "scale": 2}})",
       "shell.scale: scales a \"mesh\" only"},
      {R"({"shell": {"mesh": "ball.obj", "bending": false, "scale": 0}})",
       "shell.scale: must be positive"},
      {R"({"rod": {"mesh": "ball.obj", "points": 3}})", "exclude each other"},
      {R"({"rod": {"points": 3, "length": 1, "center": [0, 0, 0]}})",
       "rod.center: places a \"mesh\""},
      {R"({"rod": {"points": [[0, 0, 0]]}})", "rod.points: must list 2 to 1000000 points"},
      {R"({"rod": {"points": "many"}})", "rod.points: must be a count of points or a list"},
      {R"({"rod": {"points": [[0, 0, 0], [1, 0, 0]], "center": [0, 0, 0]}})",
       "a list of points is where it says"},
      {R"({"rod": {"points": [[0, 0, 0], [1, 0]]}})", "rod.points[1]: must be [x, y, z]"},
      {R"({"rod": {"points": [[0, 0, 0], [1, 0, "x"]]}})",
       "rod.points[1]: must be three finite numbers"},
      {R"({"rod": {"points": [[0, 0, 0], [1, 0, 0]], "length": 1}})",
       "rod.length: places a straight line of \"points\": N"},
      {R"({"rod": {"points": [[0, 0, 0], [0, 0, 0]]}})", "segment 0 has no length"},
      {R"({"rod": {"points": [[0, 0, 0], [1e9, 0, 0]]}})", "beyond +-1000000 m"},
      {R"({"rod": {"mesh": "ball.obj", "pins": "first"}})",
       "rod.pins: must be a list of vertex ids"},
  };
  for (const auto& entry : refused) {
    // (Not a structured binding: the lambda below captures it, which clang 14 refuses.)
    const std::string& recipe = entry.first;
    const std::string& message = entry.second;
    const std::string refusal =
        test::refusal([&] { read_thin_recipe(recipe, "ball.json", files); });
    EXPECT_NE(refusal.find(message), std::string::npos) << recipe << "\n" << refusal;
  }
  EXPECT_TRUE(thin_recipe_files(R"({"rod": {"points": 3, "length": 1}})", "r.json").empty());
  EXPECT_NE(test::refusal([] { thin_recipe_files("{", "r.json"); }).find("invalid JSON"),
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
