#include "smfem/scene/load_recipe.hpp"

#include <string>

#include <gtest/gtest.h>

#include "geometry/surface_shapes.hpp"
#include "scene/recipe_files.hpp"
#include "smfem/scene/scene_error.hpp"
#include "support/test_paths.hpp"

namespace smfem::scene {
namespace {

using nlohmann::json;

// The error a recipe gives, parsed as "crab.json" from a folder holding a closed and an open
// surface mesh.
class RecipeErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = test::scratch_dir("recipes");
    test::write_text(folder_ / "ball.obj", test::obj_text(test::icosphere(0.5, 2)));
    mesh::SurfaceMesh sheet = test::cube_surface();
    sheet.triangles.conservativeResize(2, 3);  // one face of a cube: no inside
    test::write_text(folder_ / "sheet.obj", test::obj_text(sheet));
  }

  std::string error_of_text(const std::string& text) {
    try {
      parse_scene_recipe(text, "crab.json", folder_);
    } catch (const SceneError& error) {
      EXPECT_EQ(error.file(), "crab.json");
      return error.what();
    }
    ADD_FAILURE() << "accepted: " << text;
    return "";
  }
  std::string error_of(const json& recipe) { return error_of_text(recipe.dump()); }

  std::filesystem::path folder_;
};

TEST_F(RecipeErrors, TheBaseRecipeIsValid) {
  const SceneRecipe recipe = parse_scene_recipe(test::base_recipe().dump(), "bar.json", folder_);
  EXPECT_EQ(recipe.name, "bar");
  ASSERT_EQ(recipe.materials.size(), 2u);
  EXPECT_EQ(recipe.materials[0].youngs, 1e8);
  EXPECT_TRUE(recipe.materials[0].where.has_value());
  EXPECT_FALSE(recipe.materials[1].where.has_value());
  EXPECT_EQ(recipe.pins.size(), 1u);
  ASSERT_EQ(recipe.forces.size(), 1u);
  const auto& periodic = std::get<PeriodicForce>(recipe.forces[0].kind);
  EXPECT_TRUE(periodic.direction.isApprox(Eigen::Vector3d::UnitY()));
  EXPECT_EQ(recipe.subspace.modes, 8);
  EXPECT_EQ(recipe.subspace.cubature_method, cubature::CubatureMethod::kmeans);
  EXPECT_EQ(recipe.solver.method, sim::SolverMethod::mfem);
  EXPECT_EQ(recipe.solver.material_model, sim::MaterialModel::fixed_corotational);
  EXPECT_EQ(*recipe.resolution.edge_length, 0.1);
  EXPECT_TRUE(recipe.camera.has_value());
  EXPECT_LT((*recipe.geometry.sdf)(Eigen::Vector3d::Zero()), 0.0);
}

TEST_F(RecipeErrors, FitResolutionIsAResolution) {
  json r = test::base_recipe();
  r["fit_resolution"] = {{"target_tets", 20000}};
  const SceneRecipe recipe = parse_scene_recipe(r.dump(), "bar.json", folder_);
  ASSERT_TRUE(recipe.fit_resolution.has_value());
  EXPECT_EQ(*recipe.fit_resolution->target_tets, 20000);
  EXPECT_FALSE(parse_scene_recipe(test::base_recipe().dump(), "bar.json", folder_)
                   .fit_resolution.has_value());
  r["fit_resolution"] = {{"target_tets", 20000}, {"edge_length", 0.1}};
  EXPECT_EQ(error_of(r),
            "crab.json: /fit_resolution: give exactly one of \"edge_length\" and \"target_tets\"");
}

TEST_F(RecipeErrors, BadNumbers) {
  json r = test::base_recipe();
  r["materials"][1]["youngs"] = -3;
  EXPECT_EQ(error_of(r), "crab.json: /materials/1/youngs: must lie in [100, 1e+13] Pa, not -3");
  r = test::base_recipe();
  r["materials"][0]["poisson"] = 0.5;
  EXPECT_EQ(error_of(r), "crab.json: /materials/0/poisson: must lie in [0, 0.49], not 0.5");
  r = test::base_recipe();
  r["materials"][0]["density"] = 1e9;
  EXPECT_EQ(error_of(r),
            "crab.json: /materials/0/density: must be at most 100000, got 1000000000.0");
  r = test::base_recipe();
  r["subspace"]["modes"] = 65;
  EXPECT_EQ(error_of(r), "crab.json: /subspace/modes: must be a whole number in [1, 64], not 65");
  r["subspace"]["modes"] = 0;
  EXPECT_EQ(error_of(r), "crab.json: /subspace/modes: must be a whole number in [1, 64], not 0");
  r["subspace"]["modes"] = 2.5;
  EXPECT_EQ(error_of(r), "crab.json: /subspace/modes: must be a whole number in [1, 64], not 2.5");
  r = test::base_recipe();
  r["subspace"]["cubature_method"] = "random";
  EXPECT_EQ(error_of(r),
            "crab.json: /subspace/cubature_method: must be \"kmeans\" or \"nnls\", "
            "got \"random\"");
  r["subspace"]["cubature_method"] = "nnls";
  EXPECT_EQ(parse_scene_recipe(r.dump(), "bar.json", folder_).subspace.cubature_method,
            cubature::CubatureMethod::nnls);
  r = test::base_recipe();
  r["resolution"]["edge_length"] = 0;
  EXPECT_EQ(error_of(r), "crab.json: /resolution/edge_length: must be a positive number, got 0");
  r = test::base_recipe();
  r["solver"]["timestep"] = 2;
  EXPECT_EQ(error_of(r), "crab.json: /solver/timestep: must lie in [1e-05, 0.1] s, not 2");
  r = test::base_recipe();
  r["solver"]["gravity"] = {0, -800, -800};  // each component within the range, its length not
  EXPECT_EQ(error_of(r),
            "crab.json: /solver/gravity: must be at most 1000 m/s^2 long, not 1131.37");
  r = test::base_recipe();
  r["camera"]["target"] = {0, 1, 4};
  EXPECT_EQ(error_of(r), "crab.json: /camera/target: must differ from the camera position");
  r = test::base_recipe();
  r["forces"][0]["periodic"]["direction"] = {0, 0, 0};
  EXPECT_EQ(error_of(r),
            "crab.json: /forces/0/periodic/direction: must be a nonzero direction, got [0, 0, 0]");
  // Not representable as a double: JSON allows it, the recipe does not.
  std::string text = test::base_recipe().dump();
  text.replace(text.find("1200"), 4, "1e999");
  EXPECT_EQ(error_of_text(text), "crab.json: invalid JSON: number overflow parsing '1e999'");
}

TEST_F(RecipeErrors, WrongTypesUnknownAndMissingKeys) {
  json r = test::base_recipe();
  r["subspace"]["modes"] = "16";
  EXPECT_EQ(error_of(r),
            "crab.json: /subspace/modes: must be a whole number in [1, 64], not \"16\"");
  r = test::base_recipe();
  r["camera"]["position"] = {0, 1};
  EXPECT_EQ(error_of(r),
            "crab.json: /camera/position: must be an array of 3 numbers, got an array");
  r = test::base_recipe();
  r["colour"] = "red";
  EXPECT_EQ(error_of(r).rfind("crab.json: /colour: unknown key (expected one of: name, ", 0), 0u);
  // A misspelt rod's recipe reads as a volume's: the error says where the thin kinds are.
  EXPECT_EQ(error_of_text(R"({"rop": {"points": 20, "length": 1}})"),
            "crab.json: /rop: unknown key (expected one of: name, description, geometry, "
            "resolution, fit_resolution, materials, pins, forces, subspace, solver, camera, "
            "render); a shell's or a rod's recipe (npx smfem simulate) has \"shell\", \"rod\" or "
            "\"parts\" instead of \"geometry\"");
  // A thin recipe given to the bake: said to run elsewhere, not answered with the volume's keys.
  EXPECT_EQ(error_of_text(R"({"rod": {"points": 20, "length": 1}})"),
            "crab.json: /rod: a shell's or a rod's recipe is not baked: run it with npx smfem "
            "simulate");
  r = test::base_recipe();
  r["materials"][0]["young"] = 1;
  EXPECT_EQ(error_of(r),
            "crab.json: /materials/0/young: unknown key (expected one of: name, "
            "youngs, poisson, density, where)");
  r = test::base_recipe();
  r.erase("solver");
  EXPECT_EQ(error_of(r), "crab.json: missing required key \"solver\"");
  r = test::base_recipe();
  r["materials"][1].erase("density");
  EXPECT_EQ(error_of(r), "crab.json: /materials/1: missing required key \"density\"");
  r = test::base_recipe();
  r["solver"]["method"] = "rk4";
  EXPECT_EQ(error_of(r), "crab.json: /solver/method: must be \"mfem\" or \"fem\", got \"rk4\"");
  r = test::base_recipe();
  r["solver"]["material_model"] = "neo";
  EXPECT_EQ(error_of(r),
            "crab.json: /solver/material_model: must be \"arap\", \"fcr\" or \"snh\", got \"neo\"");
  // The stepper's long name is no recipe's either, and is told the list (not "at most 16
  // characters long").
  r["solver"]["material_model"] = "fixed_corotational";
  EXPECT_EQ(error_of(r),
            "crab.json: /solver/material_model: must be \"arap\", \"fcr\" or \"snh\", got "
            "\"fixed_corotational\"");
  r = test::base_recipe();
  r["resolution"] = {{"edge_length", 0.1}, {"target_tets", 1000}};
  EXPECT_EQ(error_of(r),
            "crab.json: /resolution: give exactly one of \"edge_length\" and \"target_tets\"");
  r = test::base_recipe();
  r["forces"][0] = {{"gust", json::object()}};
  EXPECT_EQ(error_of(r),
            "crab.json: /forces/0/gust: unknown force (expected one of: periodic, "
            "twist, pull)");
}

TEST_F(RecipeErrors, MaterialsOrder) {
  json r = test::base_recipe();
  r["materials"][0].erase("where");
  EXPECT_EQ(error_of(r).rfind("crab.json: /materials/0: only the last material may omit", 0), 0u);
  r = test::base_recipe();
  r["materials"][1]["name"] = "core";
  EXPECT_EQ(error_of(r), "crab.json: /materials/1/name: repeats the name \"core\"");
  r = test::base_recipe();
  r["materials"] = json::array();
  EXPECT_EQ(error_of(r), "crab.json: /materials: must have at least 1 element");
}

TEST_F(RecipeErrors, GeometryNodes) {
  json r = test::base_recipe();
  r["geometry"] = {{"cube", {{"size", 1}}}};
  EXPECT_EQ(
      error_of(r).rfind("crab.json: /geometry/cube: unknown shape (expected one of: box, ", 0), 0u);
  r["geometry"] = {{"sphere", {{"center", {0, 0, 0}}, {"radius", 1}}}, {"box", json::object()}};
  EXPECT_EQ(error_of(r).rfind("crab.json: /geometry: must be an object with one key", 0), 0u);
  r["geometry"] = {{"union", {{{"sphere", {{"center", {0, 0, 0}}, {"radius", -1}}}}}}};
  EXPECT_EQ(error_of(r),
            "crab.json: /geometry/union/0/sphere/radius: must be a positive number, got -1");
  r["geometry"] = {{"box", {{"center", {0, 0, 0}}, {"half_extents", {1, 1, 1}}, {"rounding", 2}}}};
  EXPECT_EQ(error_of(r), "crab.json: /geometry/box/rounding: must be a number in [0, 1], got 2");
  r["geometry"] = {{"difference", {{{"sphere", {{"center", {0, 0, 0}}, {"radius", 1}}}}}}};
  EXPECT_EQ(error_of(r), "crab.json: /geometry/difference: must have at least 2 elements");
  r["geometry"] = {{"transform",
                    {{"rotate_deg", {0, 0, 90}},
                     {"rotate_axis", {0, 0, 1}},
                     {"rotate_angle_deg", 90},
                     {"of", {{"sphere", {{"center", {0, 0, 0}}, {"radius", 1}}}}}}}};
  EXPECT_EQ(error_of(r),
            "crab.json: /geometry/transform/rotate_deg: give either rotate_deg or "
            "rotate_axis with rotate_angle_deg, not both");
  json deep = {{"sphere", {{"center", {0, 0, 0}}, {"radius", 1}}}};
  for (int i = 0; i < 40; ++i) deep = {{"union", {deep}}};
  r["geometry"] = deep;
  EXPECT_NE(error_of(r).find("geometry nests deeper than 32 levels"), std::string::npos);
}

TEST_F(RecipeErrors, MeshPaths) {
  json r = test::base_recipe();
  r["geometry"] = {{"mesh", "../ball.obj"}};
  EXPECT_EQ(error_of(r),
            "crab.json: /geometry/mesh: must stay inside the recipe's folder, got "
            "\"../ball.obj\"");
  r["geometry"] = {{"mesh", "/etc/passwd.obj"}};
  EXPECT_EQ(error_of(r).rfind("crab.json: /geometry/mesh: must be a path relative to", 0), 0u);
  r["geometry"] = {{"mesh", "missing.obj"}};
  EXPECT_EQ(error_of(r).rfind("crab.json: /geometry/mesh: no such file: ", 0), 0u);
  r["geometry"] = {{"mesh", "ball.txt"}};
  EXPECT_EQ(error_of(r).rfind("crab.json: /geometry/mesh: must name a mesh file", 0), 0u);
  r["geometry"] = {{"mesh", "sheet.obj"}};
  EXPECT_NE(error_of(r).find("/geometry/mesh: sheet.obj: the surface does not enclose a volume"),
            std::string::npos);
  // The closed ball is fine, and usable as a region too.
  r["geometry"] = {{"mesh", "ball.obj"}};
  r["materials"][0]["where"] = {{"mesh", "ball.obj"}};
  const SceneRecipe recipe = parse_scene_recipe(r.dump(), "crab.json", folder_);
  EXPECT_TRUE(recipe.geometry.surface.has_value());
  EXPECT_LT((*recipe.materials[0].where)(Eigen::Vector3d::Zero()), 0.0);
  // A surface mesh file, under a transform or not, is drawn with its own triangles: a render
  // surface of another kind is refused, not ignored; the open sheet is refused under one too.
  for (const json& geometry :
       {json{{"mesh", "ball.obj"}},
        json{{"transform", {{"scale", 2}, {"of", {{"mesh", "ball.obj"}}}}}}}) {
    r["geometry"] = geometry;
    r["render"] = {{"edge_length", 0.01}};
    EXPECT_EQ(error_of(r),
              "crab.json: /render/edge_length: the geometry's surface mesh already is the render "
              "surface")
        << geometry;
    r["render"] = {{"mesh", "ball.obj"}};
    EXPECT_EQ(error_of(r),
              "crab.json: /render/mesh: the geometry's surface mesh already is the render surface")
        << geometry;
  }
  r.erase("render");
  r["geometry"] = {{"transform", {{"scale", 2}, {"of", {{"mesh", "sheet.obj"}}}}}};
  EXPECT_NE(
      error_of(r).find("/geometry/transform/of/mesh: sheet.obj: the surface does not enclose"),
      std::string::npos)
      << error_of(r);
}

TEST_F(RecipeErrors, NotJsonOrNotARecipe) {
  EXPECT_EQ(error_of_text("{\"name\": \"x\",\n  }")
                .rfind("crab.json: invalid JSON: parse error at line 2, column 3", 0),
            0u);
  EXPECT_EQ(error_of_text("[1, 2]"), "crab.json: a recipe must be a JSON object, got an array");
  std::string twice = test::base_recipe().dump();
  twice.insert(1, "\"name\": \"other\", ");
  EXPECT_EQ(error_of_text(twice), "crab.json: the key \"name\" appears twice in one object");
  try {
    load_scene_recipe(folder_ / "nothing.json");
    FAIL();
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot open the recipe file"), std::string::npos);
  }
}

TEST_F(RecipeErrors, LoadsFromAFileRelativeToItsFolder) {
  json r = test::base_recipe();
  r["geometry"] = {{"mesh", "ball.obj"}};
  test::write_text(folder_ / "ball.json", r.dump(2));
  const SceneRecipe recipe = load_scene_recipe(folder_ / "ball.json");
  EXPECT_EQ(recipe.file, (folder_ / "ball.json").string());
  EXPECT_TRUE(recipe.geometry.surface.has_value());
}

}  // namespace
}  // namespace smfem::scene
