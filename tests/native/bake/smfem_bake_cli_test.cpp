// The smfem-bake executable: exit codes, messages, the --json summary, and that a failed bake
// leaves an existing output file alone.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "bake/bake_files.hpp"
#include "geometry/surface_shapes.hpp"
#include "scene/recipe_files.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/displacement/displacement_model.hpp"
#include "smfem/displacement/displacement_simulator.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/mesh/read_mesh.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "subspace/box_mesh.hpp"
#include "support/run_tool.hpp"
#include "support/test_paths.hpp"

namespace smfem::bake {
namespace {

using test::ToolRun;

// Runs smfem-bake with the arguments, its stderr collected in `dir`.
ToolRun run_bake_tool(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  return test::run_tool(SMFEM_BAKE_EXECUTABLE, dir, args);
}

std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

int files_in(const std::filesystem::path& dir) {
  return static_cast<int>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

TEST(SmfemBakeCli, BakesAMeshAndPrintsTheJsonSummary) {
  const auto dir = test::scratch_dir("ok");
  const auto mesh = test::write_medit(dir / "box.mesh", test::box_mesh({3, 2, 2}, {1.5, 1, 1}));
  const ToolRun run = run_bake_tool(dir, {mesh.string(), "-o", (dir / "box.smfem").string(),
                                          "--modes", "4", "--cubature", "10", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json summary = nlohmann::json::parse(run.out);
  EXPECT_EQ(summary["modes"], 4);
  EXPECT_EQ(summary["cubature"], 10);
  EXPECT_EQ(summary["tets"], 72);
  EXPECT_EQ(summary["vertices"], 36);
  ASSERT_EQ(summary["eigenvalues"].size(), 4u);
  EXPECT_EQ(summary["eigenvalues"][0], 0.0);
  // The cubature tets of each material region (one here), at least 3 each by default.
  EXPECT_EQ(summary["cubature_per_region"], 3);
  ASSERT_EQ(summary["cubature_by_region"].size(), 1u);
  EXPECT_EQ(summary["cubature_by_region"][0]["region"], 0);
  EXPECT_EQ(summary["cubature_by_region"][0]["cubature_tets"], 10);
  // Clustered per connected component of each region: one piece of one region here.
  EXPECT_EQ(summary["cubature_strata"]["regions"], 1);
  EXPECT_EQ(summary["cubature_strata"]["components"], 1);
  EXPECT_EQ(summary["cubature_strata"]["by_component"], true);
  EXPECT_EQ(summary["cubature_strata"]["minimum"], 3);
  for (const char* stage :
       {"read", "tetrahedralize", "laplacian", "eigensolve", "cubature", "render", "write"}) {
    EXPECT_TRUE(summary["timings_s"].contains(stage)) << stage;
  }
  EXPECT_NE(run.err.find("[smfem-bake] eigensolve"), std::string::npos);  // progress
  EXPECT_TRUE(std::filesystem::exists(dir / "box.smfem"));

  const ToolRun quiet = run_bake_tool(
      dir, {mesh.string(), "-o", (dir / "quiet.smfem").string(), "--modes", "4", "--quiet"});
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, "");
}

// A mesh in millimetres read as metres (a 1.5 m box written as 1500) bakes a 1.5 km body: the bake
// says so, --quiet or not, and names the fix; --scale 0.001 then bakes the box in metres, the
// same model as the file in metres, without the warning, and so does its summary's recipe (the
// file under a transform). Out of range, or on a recipe (which has its transform), --scale is
// refused.
TEST(SmfemBakeCli, WarnsOfAMeshThatIsNotInMetresAndScalesIt) {
  const auto dir = test::scratch_dir("units");
  const auto metres = test::write_medit(dir / "box.mesh", test::box_mesh({3, 2, 2}, {1.5, 1, 1}));
  const auto millimetres =
      test::write_medit(dir / "box_mm.mesh", test::box_mesh({3, 2, 2}, {1500, 1000, 1000}));
  const std::vector<std::string> small = {"--modes", "4", "--cubature", "10", "--json"};
  const auto bake = [&](const std::filesystem::path& mesh, const std::string& out,
                        std::vector<std::string> more) {
    std::vector<std::string> args = {mesh.string(), "-o", (dir / out).string()};
    args.insert(args.end(), more.begin(), more.end());
    return run_bake_tool(dir, args);
  };
  std::vector<std::string> args = small;
  const ToolRun large = bake(millimetres, "mm.smfem", args);
  ASSERT_EQ(large.status, 0) << large.err;
  EXPECT_NE(large.err.find("smfem-bake: warning: box_mm.mesh: the body is 1500 m across"),
            std::string::npos)
      << large.err;
  EXPECT_NE(large.err.find("--scale 0.001"), std::string::npos) << large.err;
  const nlohmann::json large_summary = nlohmann::json::parse(large.out);
  ASSERT_EQ(large_summary["warnings"].size(), 1u);
  const ToolRun quiet = bake(millimetres, "quiet.smfem", {"--modes", "4", "--quiet"});
  EXPECT_NE(quiet.err.find("the body is 1500 m across"), std::string::npos) << quiet.err;

  args.insert(args.end(), {"--scale", "0.001"});
  const ToolRun scaled = bake(millimetres, "scaled.smfem", args);
  ASSERT_EQ(scaled.status, 0) << scaled.err;
  EXPECT_EQ(scaled.err.find("warning"), std::string::npos) << scaled.err;
  const nlohmann::json scaled_summary = nlohmann::json::parse(scaled.out);
  EXPECT_TRUE(scaled_summary["warnings"].empty());
  // Its recipe form: the file under a transform that scales it.
  ASSERT_TRUE(scaled_summary.contains("recipe")) << scaled_summary.value("recipe_unavailable", "");
  EXPECT_EQ(scaled_summary["recipe"]["geometry"]["transform"]["scale"], 0.001);
  std::ofstream(dir / "box_mm.json") << scaled_summary["recipe"].dump();
  const ToolRun from_recipe = bake(dir / "box_mm.json", "from-recipe.smfem", {"--json"});
  ASSERT_EQ(from_recipe.status, 0) << from_recipe.err;
  const nlohmann::json recipe_summary = nlohmann::json::parse(from_recipe.out);
  EXPECT_TRUE(recipe_summary["warnings"].empty());
  const ToolRun plain = bake(metres, "m.smfem", small);
  ASSERT_EQ(plain.status, 0) << plain.err;
  const nlohmann::json plain_summary = nlohmann::json::parse(plain.out);
  for (std::size_t k = 0; k < 4; ++k) {
    const double expected = plain_summary["eigenvalues"][k];
    EXPECT_NEAR(scaled_summary["eigenvalues"][k].get<double>(), expected, 1e-9 * (1 + expected))
        << k;
    EXPECT_NEAR(recipe_summary["eigenvalues"][k].get<double>(), expected, 1e-9 * (1 + expected))
        << k;
  }

  for (const char* factor : {"0", "-1", "1e5", "x"}) {
    const ToolRun refused = bake(millimetres, "refused.smfem", {"--scale", factor});
    EXPECT_EQ(refused.status, 2) << factor;
    EXPECT_NE(refused.err.find("smfem-bake: --scale: expected "), std::string::npos) << refused.err;
  }
  std::ofstream(dir / "box.json") << R"({"name": "box", "geometry": {"mesh": "box.mesh"},
      "materials": [{"name": "all", "youngs": 1e5, "poisson": 0.3, "density": 1000}],
      "subspace": {"modes": 4, "cubature": 10}})";
  const ToolRun recipe = bake(dir / "box.json", "recipe.smfem", {"--scale", "0.001"});
  EXPECT_EQ(recipe.status, 2);
  EXPECT_NE(recipe.err.find("--scale applies to mesh files; a recipe scales its mesh with a "
                            "transform"),
            std::string::npos)
      << recipe.err;
}

// A body smaller than a centimetre is as likely a mistake of units as one larger than 10 m: a box
// in metres baked as millimetres (--scale 0.001, the page's Units), or a file of 5 mm; the bake
// says so and names the fix. A 2 cm box bakes without a word.
TEST(SmfemBakeCli, WarnsOfABodyTooSmallForTheUnitsItIsReadIn) {
  const auto dir = test::scratch_dir("small-units");
  const auto box = [&](const std::string& name, double length) {
    return test::write_medit(dir / name, test::box_mesh({3, 2, 2}, {length, length, length}));
  };
  const auto warnings = [&](const std::filesystem::path& mesh, std::vector<std::string> more) {
    std::vector<std::string> args = {mesh.string(), "-o",    (dir / "out.smfem").string(),
                                     "--modes",     "4",     "--cubature",
                                     "10",          "--json"};
    args.insert(args.end(), more.begin(), more.end());
    const ToolRun run = run_bake_tool(dir, args);
    EXPECT_EQ(run.status, 0) << run.err;
    return nlohmann::json::parse(run.out)["warnings"];
  };
  nlohmann::json said = warnings(box("metres.mesh", 1.5), {"--scale", "0.001"});
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0],
            "metres.mesh: the body is 1.5 mm across (the file's coordinates times --scale "
            "0.001): if they are metres already, bake it without --scale");
  said = warnings(box("tiny.mesh", 0.005), {});
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0],
            "tiny.mesh: the body is 5 mm across (a file's coordinates are read as metres): if "
            "that is not its size, bake it with --scale S, S the file's unit in metres");
  EXPECT_TRUE(warnings(box("small.mesh", 0.02), {}).empty());
}

// A surface mesh in millimetres baked with --scale 0.001 (the page's Units: mm): its summary's
// recipe is the file under a transform that scales it, and baked again it gives the same model,
// the same tets and spectrum, drawn with the file's own triangles (the scaled ball's vertices),
// as the direct bake draws it.
TEST(SmfemBakeCli, ASurfaceMeshBakedWithScaleHasARecipeThatBakesTheSameModel) {
  const auto dir = test::scratch_dir("surface-units");
  const mesh::SurfaceMesh ball = test::icosphere(300.0, 2);
  test::write_text(dir / "ball_mm.obj", test::obj_text(ball));
  const ToolRun direct = run_bake_tool(
      dir, {(dir / "ball_mm.obj").string(), "-o", (dir / "direct.smfem").string(), "--scale",
            "0.001", "--target-tets", "1500", "--modes", "4", "--cubature", "10", "--json"});
  ASSERT_EQ(direct.status, 0) << direct.err;
  const nlohmann::json summary = nlohmann::json::parse(direct.out);
  ASSERT_TRUE(summary.contains("recipe")) << summary.value("recipe_unavailable", "");
  EXPECT_EQ(summary["recipe"]["geometry"]["transform"]["scale"], 0.001);
  EXPECT_EQ(summary["recipe"]["geometry"]["transform"]["of"]["mesh"], "ball_mm.obj");
  test::write_text(dir / "ball.json", summary["recipe"].dump(2));
  const ToolRun again = run_bake_tool(
      dir, {(dir / "ball.json").string(), "-o", (dir / "again.smfem").string(), "--json"});
  ASSERT_EQ(again.status, 0) << again.err;
  const nlohmann::json baked = nlohmann::json::parse(again.out);
  for (const char* key : {"tets", "vertices", "modes", "cubature"}) {
    EXPECT_EQ(baked[key], summary[key]) << key;
  }
  for (std::size_t i = 0; i < summary["eigenvalues"].size(); ++i) {
    EXPECT_NEAR(baked["eigenvalues"][i].get<double>(), summary["eigenvalues"][i].get<double>(),
                1e-9 * summary["eigenvalues"].back().get<double>())
        << i;
  }
  const asset::Asset direct_asset = asset::Asset::from_file(dir / "direct.smfem");
  const asset::Asset recipe_asset = asset::Asset::from_file(dir / "again.smfem");
  for (const char* section : {"render.positions", "render.weights"}) {
    EXPECT_TRUE(std::ranges::equal(recipe_asset.bytes(section), direct_asset.bytes(section)))
        << section;
  }
  const sim::ReducedModel drawn = sim::load_reduced_model(recipe_asset);
  ASSERT_EQ(drawn.render_positions.rows(), ball.vertices.rows());
  for (Eigen::Index v = 0; v < ball.vertices.rows(); ++v) {
    // Single precision in the asset.
    EXPECT_LT((drawn.render_positions.row(v).cast<double>() - 1e-3 * ball.vertices.row(v)).norm(),
              1e-6)
        << v;
  }
}

// --json's recipe (bake/bake_recipe.hpp): baked again, it gives the same model as the bake
// with options it stands for: the same tets, per-tet moduli, pins and spectrum.
TEST(SmfemBakeCli, TheSummarysRecipeBakesTheSameModelAgain) {
  const auto dir = test::scratch_dir("recipe");
  const auto mesh = test::write_medit(dir / "box.mesh", test::box_mesh({6, 2, 2}, {3, 1, 1}));
  // Two painted spheres, the second over part of the first; a pinned sphere and the lowest
  // quarter of the height (the bottom layer) pinned; other moduli, modes and cubature.
  const std::vector<std::string> options = {
      "--modes", "6",         "--cubature",          "30",      "--youngs",
      "2e6",     "--paint",   "2.5,0.5,0.5,0.8,2e4", "--paint", "2.75,0.5,0.5,0.4,5e7",
      "--pin",   "0,1,1,0.2", "--pin-lowest",        "0.25",    "--full-mesh",
      "--json"};
  std::vector<std::string> direct = {mesh.string(), "-o", (dir / "direct.smfem").string()};
  direct.insert(direct.end(), options.begin(), options.end());
  const ToolRun first = run_bake_tool(dir, direct);
  ASSERT_EQ(first.status, 0) << first.err;
  const nlohmann::json summary = nlohmann::json::parse(first.out);
  ASSERT_TRUE(summary.contains("recipe")) << summary.value("recipe_unavailable", "");
  test::write_text(dir / "box.json", summary["recipe"].dump(2));
  const ToolRun again = run_bake_tool(
      dir,
      {(dir / "box.json").string(), "-o", (dir / "again.smfem").string(), "--full-mesh", "--json"});
  ASSERT_EQ(again.status, 0) << again.err;
  const nlohmann::json baked = nlohmann::json::parse(again.out);
  for (const char* key : {"tets", "vertices", "pinned", "modes", "cubature"}) {
    EXPECT_EQ(baked[key], summary[key]) << key;
  }
  EXPECT_EQ(summary["pinned"], 1 + 7 * 3);  // the corner; the bottom layer's 7 x 3 vertices
  const asset::Asset direct_asset = asset::Asset::from_file(dir / "direct.smfem");
  const asset::Asset recipe_asset = asset::Asset::from_file(dir / "again.smfem");
  for (const char* section : {"mesh.positions", "mesh.youngs", "subspace.pinned"}) {
    EXPECT_EQ(recipe_asset.bytes(section).size(), direct_asset.bytes(section).size()) << section;
    EXPECT_TRUE(std::ranges::equal(recipe_asset.bytes(section), direct_asset.bytes(section)))
        << section;
  }
  const std::vector<double> youngs = direct_asset.array<double>("mesh.youngs");
  EXPECT_EQ(std::set<double>(youngs.begin(), youngs.end()), (std::set<double>{2e4, 2e6, 5e7}));
  // mesh.weights are the subspace's own: with them the mesh's lumped masses give the reduced
  // mass block, sum_v m_v b_v b_v^T (to the weights' single precision).
  const full::FullModel mesh_model = full::load_full_model(direct_asset);
  const sim::ReducedModel reduced = sim::load_reduced_model(direct_asset);
  ASSERT_EQ(mesh_model.weights.rows(), mesh_model.vertex_count());
  ASSERT_EQ(mesh_model.weights.cols(), reduced.mode_count());
  const Eigen::VectorXd vertex_mass = full::lumped_vertex_mass(mesh_model);
  Eigen::MatrixXd mass_block =
      Eigen::MatrixXd::Zero(4 * reduced.mode_count(), 4 * reduced.mode_count());
  for (int v = 0; v < mesh_model.vertex_count(); ++v) {
    const Eigen::VectorXd b = full::vertex_basis(mesh_model, v);
    mass_block += vertex_mass(v) * b * b.transpose();
  }
  EXPECT_LT((mass_block - reduced.mass_block).norm(), 1e-6 * reduced.mass_block.norm());
  for (std::size_t i = 0; i < summary["eigenvalues"].size(); ++i) {
    EXPECT_NEAR(baked["eigenvalues"][i].get<double>(), summary["eigenvalues"][i].get<double>(),
                1e-9 * summary["eigenvalues"].back().get<double>())
        << i;
  }

  // The saved recipe painted again, with a first sphere that a second paints over whole: the
  // new materials are named on from the recipe's own painted ones, the covered sphere is left
  // out, and the recipe of that bake again gives the same model.
  const ToolRun repainted = run_bake_tool(
      dir, {(dir / "box.json").string(), "-o", (dir / "repainted.smfem").string(), "--paint",
            "1,0.5,0.5,0.45,3e5", "--paint", "1,0.5,0.5,0.7,4e5", "--full-mesh", "--json"});
  ASSERT_EQ(repainted.status, 0) << repainted.err;
  const nlohmann::json second = nlohmann::json::parse(repainted.out);
  ASSERT_TRUE(second.contains("recipe")) << second.value("recipe_unavailable", "");
  std::vector<std::string> names;
  for (const auto& material : second["recipe"]["materials"]) names.push_back(material["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"painted 4", "painted 2", "painted 1", "region 0"}));
  test::write_text(dir / "again.json", second["recipe"].dump());
  const ToolRun third = run_bake_tool(
      dir, {(dir / "again.json").string(), "-o", (dir / "third.smfem").string(), "--full-mesh"});
  ASSERT_EQ(third.status, 0) << third.err;
  EXPECT_TRUE(
      std::ranges::equal(asset::Asset::from_file(dir / "third.smfem").bytes("mesh.youngs"),
                         asset::Asset::from_file(dir / "repainted.smfem").bytes("mesh.youngs")));

  // What a recipe cannot say: the summary says why instead.
  const auto pins = test::write_text(dir / "pins.txt", "0\n");
  const ToolRun pinned =
      run_bake_tool(dir, {mesh.string(), "-o", (dir / "x.smfem").string(), "--modes", "4",
                          "--pin-file", pins.string(), "--json"});
  ASSERT_EQ(pinned.status, 0) << pinned.err;
  EXPECT_EQ(nlohmann::json::parse(pinned.out)["recipe_unavailable"],
            "--pin-file has no recipe form");
}

// A surface mesh's recipe keeps the resolution it was tetrahedralized at: baked again, the same
// tet mesh.
// A unit cube's surface as an OBJ file.
constexpr const char* kUnitCubeObj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n"
    "f 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\nf 1 2 6\nf 1 6 5\nf 3 7 8\nf 3 8 4\n"
    "f 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\n";

TEST(SmfemBakeCli, ASurfacesRecipeKeepsItsResolution) {
  const auto dir = test::scratch_dir("surface-recipe");
  const auto surface = test::write_text(dir / "box.obj", kUnitCubeObj);
  const ToolRun first =
      run_bake_tool(dir, {surface.string(), "-o", (dir / "direct.smfem").string(), "--modes", "4",
                          "--target-tets", "800", "--full-mesh", "--json"});
  ASSERT_EQ(first.status, 0) << first.err;
  const nlohmann::json summary = nlohmann::json::parse(first.out);
  EXPECT_EQ(summary["recipe"]["resolution"], (nlohmann::json{{"target_tets", 800}}));
  test::write_text(dir / "box.json", summary["recipe"].dump());
  const ToolRun again = run_bake_tool(
      dir,
      {(dir / "box.json").string(), "-o", (dir / "again.smfem").string(), "--full-mesh", "--json"});
  ASSERT_EQ(again.status, 0) << again.err;
  const nlohmann::json baked = nlohmann::json::parse(again.out);
  for (const char* key : {"tets", "vertices", "render_vertices", "modes", "cubature"}) {
    EXPECT_EQ(baked[key], summary[key]) << key;
  }
  for (const char* section : {"mesh.positions", "mesh.tets"}) {
    EXPECT_TRUE(std::ranges::equal(asset::Asset::from_file(dir / "again.smfem").bytes(section),
                                   asset::Asset::from_file(dir / "direct.smfem").bytes(section)))
        << section;
  }
}

// What the readers skip or fix in the meshes a recipe names is said as in a mesh file baked
// directly: a surface mesh's ignored statements (in a material's region too) and a tet mesh
// file's unused vertices, each warning naming its file; those vertices are left out, as from a
// file baked directly (they had no mass, and the bake refused the recipe).
TEST(SmfemBakeCli, WarnsOfWhatTheReadersSkipInARecipesMeshes) {
  const auto dir = test::scratch_dir("recipe-read-notes");
  // Bakes the recipe `name`.json of a box with these geometry and materials.
  const auto bake = [&](const std::string& name, const std::string& geometry_and_materials,
                        const std::string& flag) {
    std::ofstream(dir / (name + ".json"))
        << R"({"name": "box", "description": "a box", )" << geometry_and_materials
        << R"(, "subspace": {"modes": 4, "cubature": 10}, "solver": {"method": "mfem",
            "iterations": 2, "timestep": 0.01, "gravity": [0, -9.8, 0],
            "material_model": "fcr"}})";
    return run_bake_tool(
        dir, {(dir / (name + ".json")).string(), "-o", (dir / (name + ".smfem")).string(), flag});
  };
  const auto warns = [](const ToolRun& run, const std::string& what) {
    return run.err.find("smfem-bake: warning: " + what) != std::string::npos;
  };
  test::write_text(dir / "box.obj", std::string(kUnitCubeObj) + "cstype bspline\ndeg 3\ndeg 3\n");
  // The core: the box's lower half-size corner.
  test::write_text(dir / "core.obj",
                   "v 0 0 0\nv .5 0 0\nv 0 .5 0\nv .5 .5 0\nv 0 0 .5\nv .5 0 .5\nv 0 .5 .5\n"
                   "v .5 .5 .5\n" +
                       std::string(std::strstr(kUnitCubeObj, "f ")) + "bevel off\n");
  const ToolRun surface = bake("surface", R"("geometry": {"mesh": "box.obj"},
      "resolution": {"target_tets": 300},
      "materials": [{"name": "core", "youngs": 1e6, "poisson": 0.3, "density": 1000,
                     "where": {"mesh": "core.obj"}},
                    {"name": "rest", "youngs": 1e5, "poisson": 0.3, "density": 1000}])",
                               "--json");
  ASSERT_EQ(surface.status, 0) << surface.err;
  EXPECT_TRUE(warns(surface, "box.obj: ignored 1 lines starting with")) << surface.err;
  EXPECT_TRUE(warns(surface, "box.obj: ignored 2 lines starting with")) << surface.err;
  EXPECT_TRUE(warns(surface, "core.obj: ignored 1 lines starting with")) << surface.err;
  EXPECT_EQ(nlohmann::json::parse(surface.out)["warnings"].size(), 3u);

  // Two vertices no tet uses, after the box's.
  mesh::TetMesh box = test::box_mesh({2, 2, 2}, {1, 1, 1});
  const Eigen::Index n = box.vertices.rows();
  box.vertices.conservativeResize(n + 2, 3);
  box.vertices.bottomRows(2).setConstant(5.0);
  test::write_medit(dir / "box.mesh", box);
  const ToolRun tets = bake("tets", R"("geometry": {"mesh": "box.mesh"},
      "materials": [{"name": "all", "youngs": 1e5, "poisson": 0.3, "density": 1000}])",
                            "--quiet");
  ASSERT_EQ(tets.status, 0) << tets.err;
  EXPECT_TRUE(warns(tets, "box.mesh: 2 vertices are in no element")) << tets.err;
}

// --tet-mesh writes the tet mesh it baked, which reads back as the asset's own, to the bit.
TEST(SmfemBakeCli, TetMeshWritesTheBakedTetsBackExactly) {
  const auto dir = test::scratch_dir("tet-mesh");
  const auto surface = test::write_text(dir / "box.obj", kUnitCubeObj);
  const ToolRun run = run_bake_tool(
      dir, {surface.string(), "-o", (dir / "box.smfem").string(), "--modes", "4", "--target-tets",
            "300", "--full-mesh", "--tet-mesh", (dir / "box.mesh").string(), "--quiet"});
  ASSERT_EQ(run.status, 0) << run.err;
  const mesh::TetMesh tets = mesh::read_tet_mesh(dir / "box.mesh");
  const asset::Asset baked = asset::Asset::from_file(dir / "box.smfem");
  const std::vector<double> positions = baked.array<double>("mesh.positions");
  const std::vector<std::uint32_t> corners = baked.array<std::uint32_t>("mesh.tets");
  ASSERT_EQ(static_cast<std::size_t>(tets.vertices.size()), positions.size());
  ASSERT_EQ(static_cast<std::size_t>(tets.tets.size()), corners.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    ASSERT_EQ(tets.vertices.data()[i], positions[i]) << "coordinate " << i;
  }
  for (std::size_t i = 0; i < corners.size(); ++i) {
    ASSERT_EQ(static_cast<std::uint32_t>(tets.tets.data()[i]), corners[i]) << "corner " << i;
  }
}

TEST(SmfemBakeCli, NnlsCubatureBakesAValidAssetAndReportsItsFit) {
  const auto dir = test::scratch_dir("nnls");
  const auto mesh = test::write_medit(dir / "box.mesh", test::box_mesh({3, 2, 2}, {1.5, 1, 1}));
  const ToolRun run =
      run_bake_tool(dir, {mesh.string(), "-o", (dir / "box.smfem").string(), "--modes", "4",
                          "--cubature", "10", "--cubature-method", "nnls", "--json", "--quiet"});
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json summary = nlohmann::json::parse(run.out);
  EXPECT_EQ(summary["cubature_method"], "nnls");
  EXPECT_EQ(summary["cubature"], 10);
  const nlohmann::json& fit = summary["cubature_fit"];
  EXPECT_GT(fit["training_s"].get<double>(), 0.0);
  EXPECT_LE(fit["training_s"].get<double>(), summary["timings_s"]["cubature"].get<double>());
  EXPECT_GE(fit["training_error"].get<double>(), 0.0);
  EXPECT_LT(fit["training_error"].get<double>(), 1.0);
  EXPECT_LT(fit["held_out_error"].get<double>(), 1.0);
  EXPECT_EQ(fit["candidates"], 72);

  // The stepper takes the asset as it takes a k-means one.
  const asset::Asset baked = asset::Asset::from_file(dir / "box.smfem");
  const sim::ReducedModel model = sim::load_reduced_model(baked);
  EXPECT_EQ(model.cubature_count(), 10);
  EXPECT_GT(model.cubature_weights.minCoeff(), 0.0);
  EXPECT_EQ(baked.meta()["subspace"]["cubature_method"], "nnls");
  EXPECT_EQ(baked.meta()["subspace"]["cubature_fit"]["training_error"], fit["training_error"]);

  // k-means reports the fit on the same poses when asked, and trains nothing.
  const ToolRun kmeans =
      run_bake_tool(dir, {mesh.string(), "-o", (dir / "kmeans.smfem").string(), "--modes", "4",
                          "--cubature", "10", "--cubature-fit-error", "--json", "--quiet"});
  ASSERT_EQ(kmeans.status, 0) << kmeans.err;
  const nlohmann::json kmeans_summary = nlohmann::json::parse(kmeans.out);
  EXPECT_EQ(kmeans_summary["cubature_method"], "kmeans");
  EXPECT_EQ(kmeans_summary["cubature_fit"]["candidates"], 0);
  EXPECT_EQ(kmeans_summary["cubature_fit"]["training_s"], 0.0);
  EXPECT_GT(kmeans_summary["cubature_fit"]["training_error"].get<double>(),
            fit["training_error"].get<double>());
}

// --comparison-basis: the asset also carries the named displacement basis (M-orthonormal, as
// many coordinates as the skinning subspace's 12 m: 48 here) with a k-means cubature of the
// skinning one's size whose weights add up to the volume, and the whole mesh; the stepper of
// each reads it, and the skinning model is still there for the page.
TEST(SmfemBakeCli, ComparisonBasisBakesADisplacementBasisTheStepperReads) {
  const auto dir = test::scratch_dir("comparison");
  const auto mesh = test::write_medit(dir / "box.mesh", test::box_mesh({3, 2, 2}, {1.5, 1, 1}));
  for (const std::string basis : {"linear", "modal_derivatives"}) {
    const auto out = dir / (basis + ".smfem");
    const ToolRun run =
        run_bake_tool(dir, {mesh.string(), "-o", out.string(), "--modes", "4", "--cubature", "10",
                            "--comparison-basis", basis, "--json", "--quiet"});
    ASSERT_EQ(run.status, 0) << run.err;
    const nlohmann::json summary = nlohmann::json::parse(run.out)["comparison_basis"];
    EXPECT_EQ(summary["basis"], basis);
    EXPECT_EQ(summary["rigid_modes"], 6);  // a free box
    EXPECT_EQ(summary["cubature"], "kmeans");
    EXPECT_EQ(summary["cubature_tets"], 10);
    EXPECT_GT(summary["training_s"].get<double>(), 0.0);
    if (basis == "linear") {
      EXPECT_EQ(summary["coordinates"], 48);
    }
    EXPECT_LE(summary["coordinates"].get<int>(), 48);

    const asset::Asset baked = asset::Asset::from_file(out);
    EXPECT_EQ(baked.meta()["displacement"], summary);
    EXPECT_EQ(sim::load_reduced_model(baked).mode_count(), 4);
    const displacement::DisplacementModel model = displacement::load_displacement_model(baked);
    EXPECT_EQ(model.basis_name, basis);
    ASSERT_EQ(model.basis.rows(), 3 * 36);
    ASSERT_EQ(model.basis.cols(), summary["coordinates"].get<int>());
    const Eigen::VectorXd mass = full::lumped_vertex_mass(model.mesh);
    const Eigen::VectorXd M = mass.replicate(1, 3).transpose().reshaped();
    const Eigen::MatrixXd gram = model.basis.transpose() * M.asDiagonal() * model.basis;
    EXPECT_LT((gram - Eigen::MatrixXd::Identity(gram.rows(), gram.cols())).norm(), 1e-8);
    ASSERT_TRUE(model.quadrature.has_value());
    EXPECT_EQ(model.quadrature->size(), 10);
    EXPECT_NEAR(model.quadrature->weights.sum(), 1.5, 1e-12);

    displacement::DisplacementSimulator simulator(model.mesh, model.basis, model.mesh.defaults, 1,
                                                  model.quadrature);
    for (int step = 0; step < 3; ++step) ASSERT_TRUE(simulator.step().ok) << basis;
    EXPECT_LT(simulator.diagnostics().linear_momentum.y(), 0.0) << "it falls under gravity";
  }
  // NNLS fits the basis's own forces (cubature/displacement_cubature.hpp) and says how well.
  const ToolRun nnls =
      run_bake_tool(dir, {mesh.string(), "-o", (dir / "nnls.smfem").string(), "--modes", "4",
                          "--cubature", "10", "--cubature-method", "nnls", "--comparison-basis",
                          "modal_derivatives", "--json", "--quiet"});
  ASSERT_EQ(nnls.status, 0) << nnls.err;
  const nlohmann::json fitted = nlohmann::json::parse(nnls.out)["comparison_basis"];
  EXPECT_EQ(fitted["cubature"], "nnls");
  EXPECT_LE(fitted["cubature_tets"].get<int>(), 10);
  EXPECT_LT(fitted["cubature_fit"]["held_out_error"].get<double>(), 1.0);
  EXPECT_EQ(fitted["cubature_fit"]["candidates"], 72);
  const ToolRun wrong = run_bake_tool(
      dir, {mesh.string(), "-o", (dir / "x.smfem").string(), "--comparison-basis", "wavelets"});
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.err.find("--comparison-basis: expected \"linear\" or \"modal_derivatives\", "
                           "got \"wavelets\""),
            std::string::npos)
      << wrong.err;
}

// One bake, two files: the page's asset as a bake without the mesh writes it, and a copy with the
// mesh.* group as --full-mesh writes it (what the page loads for local deformations).
TEST(SmfemBakeCli, AFullMeshCopyIsThePlainAssetWithTheMeshOfAFullMeshBake) {
  const auto dir = test::scratch_dir("copy");
  const auto mesh = test::write_medit(dir / "box.mesh", test::box_mesh({4, 2, 2}, {2, 1, 1}));
  const std::vector<std::string> options = {"--modes", "4", "--cubature", "12", "--quiet"};
  const auto bake = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {mesh.string(), "-o", (dir / out).string()};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_bake_tool(dir, args);
    EXPECT_EQ(run.status, 0) << run.err;
  };
  bake("plain.smfem", {});
  bake("full.smfem", {"--full-mesh"});
  bake("page.smfem", {"--full-mesh-copy", (dir / "page.full.smfem").string()});
  EXPECT_EQ(read_all(dir / "page.smfem"), read_all(dir / "plain.smfem"));
  const asset::Asset full = asset::Asset::from_file(dir / "full.smfem");
  const asset::Asset copy = asset::Asset::from_file(dir / "page.full.smfem");
  std::set<std::string> full_sections, copy_sections;
  for (const asset::SectionInfo& section : full.sections()) full_sections.insert(section.name);
  for (const asset::SectionInfo& section : copy.sections()) copy_sections.insert(section.name);
  EXPECT_EQ(copy_sections, full_sections);
  for (const std::string& section : full_sections) {
    EXPECT_TRUE(std::ranges::equal(copy.bytes(section), full.bytes(section))) << section;
  }
  EXPECT_TRUE(copy_sections.contains("mesh.tets"));
  EXPECT_EQ(full::load_full_model(copy).tets.rows(), full::load_full_model(full).tets.rows());
}

TEST(SmfemBakeCli, BadInputExitsWithTwoNamesTheProblemAndLeavesTheOldOutput) {
  const auto dir = test::scratch_dir("bad");
  const auto mesh = test::write_medit(dir / "box.mesh", test::box_mesh({2, 2, 2}, {1, 1, 1}));
  const std::string mesh_text = read_all(mesh);
  const auto out = test::write_text(dir / "old.smfem", "an older asset");
  const std::string target = out.string();
  const auto broken = test::write_text(dir / "broken.json", "{\"name\": ");
  const auto pins = test::write_text(dir / "pins.txt", "999\n");
  // A recipe that names the mesh: the mesh is read too (a user baked onto the mesh of their
  // recipe and lost it).
  const auto recipe = test::write_text(
      dir / "box.json", "{\"name\": \"box\", \"geometry\": {\"mesh\": \"box.mesh\"}}");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{(dir / "nothing.mesh").string(), "-o", target}, "nothing.mesh: no such file"},
      {{mesh.string(), "-o", target, "--modes", "many"}, "--modes: expected an integer"},
      // The same ranges as a recipe's (solver_limits.json).
      {{mesh.string(), "-o", target, "--modes", "65"},
       "--modes: expected an integer in [1, 64], got \"65\""},
      {{mesh.string(), "-o", target, "--cubature", "100001"},
       "--cubature: expected an integer in [1, 100000], got \"100001\""},
      // Materials as a recipe's: where the stepper would clamp them, refused.
      {{mesh.string(), "-o", target, "--poisson", "0.4999"},
       "--poisson: Poisson's ratio must lie in [0, 0.49], not 0.4999"},
      {{mesh.string(), "-o", target, "--youngs", "1e-3"},
       "--youngs: Young's modulus must lie in [100, 1e+13] Pa, not 0.001"},
      {{mesh.string(), "-o", target, "--density", "0"},
       "density must be positive and finite, not 0"},
      {{mesh.string(), "-o", target, "--frobnicate"}, "unknown option --frobnicate"},
      // An option given twice was last-wins, silently.
      {{mesh.string(), "-o", target, "--modes", "4", "--modes", "6"},
       "--modes: given twice (only --paint and --pin may be repeated)"},
      {{mesh.string(), "-o", target, "--output", (dir / "other.smfem").string()},
       "--output: given twice"},
      {{mesh.string()}, "no output file"},
      {{mesh.string(), "-o", (dir / "no" / "such" / "x.smfem").string()}, "does not exist"},
      {{broken.string(), "-o", target}, "broken.json: invalid JSON"},
      {{mesh.string(), "-o", target, "--pin-file", pins.string()}, "vertex 999 is not in"},
      {{mesh.string(), "-o", target, "--modes", "40"}, "only 27 vertices are free"},
      {{mesh.string(), "-o", target, "--collision-triangles", "3"},
       "--collision-triangles: expected 0 (the whole boundary) or at least 4, got 3"},
      {{mesh.string(), "-o", target, "--cubature-method", "random"},
       "--cubature-method: expected \"kmeans\" or \"nnls\", got \"random\""},
      {{mesh.string(), "-o", target, "--cubature-per-region", "-1"},
       "--cubature-per-region: expected an integer in [0, 1000000], got \"-1\""},
      {{mesh.string(), "-o", target, "--full-mesh", "--full-mesh-copy",
        (dir / "copy.smfem").string()},
       "--full-mesh-copy: the asset itself already holds its tet mesh"},
      // Nor one of its outputs another.
      {{mesh.string(), "-o", target, "--full-mesh-copy", target},
       "--full-mesh-copy " + target + " is also -o's file: name another"},
      {{mesh.string(), "-o", target, "--tet-mesh", target},
       "--tet-mesh " + target + " is also -o's file"},
      {{mesh.string(), "-o", target, "--full-mesh-copy", (dir / "copy.smfem").string(),
        "--tet-mesh", (dir / "." / "copy.smfem").string()},
       "is also --full-mesh-copy's file"},
      {{mesh.string(), "-o", target, "--full-mesh-copy", (dir / "no" / "c.smfem").string()},
       "does not exist"},
      // What it reads is never what it writes, nor a folder.
      {{mesh.string(), "-o", mesh.string()}, "the bake reads this file; name another"},
      {{mesh.string(), "-o", target, "--tet-mesh", mesh.string()},
       "--tet-mesh " + mesh.string() + ": the bake reads this file"},
      {{mesh.string(), "-o", dir.string()}, "a folder is there; name a file"},
      {{recipe.string(), "-o", mesh.string()},
       "-o " + mesh.string() + ": the bake reads this file"},
      {{recipe.string(), "-o", target, "--tet-mesh", (dir / "." / "box.mesh").string()},
       ": the bake reads this file"},
      {{mesh.string(), "-o", pins.string(), "--pin-file", pins.string()},
       "-o " + pins.string() + ": the bake reads this file"},
  };
  const int files_before = files_in(dir);
  for (const Case& c : cases) {
    const ToolRun run = run_bake_tool(dir, c.args);
    EXPECT_EQ(run.status, 2) << c.message << "\n" << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_EQ(read_all(out), "an older asset");
    EXPECT_EQ(read_all(mesh), mesh_text);
    EXPECT_EQ(read_all(pins), "999\n");
    EXPECT_EQ(files_in(dir), files_before + 1) << "left a file behind (besides stderr.txt)";
  }
}

}  // namespace
}  // namespace smfem::bake
