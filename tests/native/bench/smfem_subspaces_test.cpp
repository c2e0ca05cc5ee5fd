// The smfem-subspaces executable: the JSON it prints for a small cantilever recipe (bases,
// rotation table, dynamics), and its exit codes.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run_tool.hpp"
#include "support/test_paths.hpp"

namespace smfem {
namespace {

// Runs smfem-subspaces with the arguments, its stderr collected in `scratch`.
test::ToolRun run_subspaces_tool(const std::filesystem::path& scratch,
                                 const std::vector<std::string>& args) {
  return test::run_tool(SMFEM_SUBSPACES_EXECUTABLE, scratch, args);
}

// A bar of about 250 tets pinned at its left end.
std::filesystem::path write_cantilever(const std::filesystem::path& dir) {
  const nlohmann::json recipe = {
      {"name", "bar"},
      {"description", "A small cantilever for the smfem-subspaces test."},
      {"geometry", {{"box", {{"center", {0, 0, 0}}, {"half_extents", {0.3, 0.05, 0.05}}}}}},
      {"resolution", {{"target_tets", 250}}},
      {"materials", {{{"name", "bar"}, {"youngs", 2e6}, {"poisson", 0.4}, {"density", 1000}}}},
      {"pins",
       {{{"where", {{"box", {{"center", {-0.3, 0, 0}}, {"half_extents", {0.01, 1, 1}}}}}}}}},
      {"subspace", {{"modes", 2}, {"cubature", 20}}},
      {"solver",
       {{"method", "mfem"},
        {"iterations", 2},
        {"timestep", 0.05},
        {"gravity", {0, -9.8, 0}},
        {"material_model", "fcr"}}}};
  const auto file = dir / "bar.json";
  std::ofstream(file) << recipe.dump(2);
  return file;
}

TEST(SmfemSubspacesCli, PrintsBasesRotationAndDynamics) {
  const auto dir = test::scratch_dir("bar");
  const auto recipe = write_cantilever(dir);
  const test::ToolRun run = run_subspaces_tool(
      dir, {recipe.string(), "--angles", "0,90", "--dynamics", "--steps", "3", "--iters", "2"});
  ASSERT_EQ(run.status, 0);
  const nlohmann::json out = nlohmann::json::parse(run.out);
  EXPECT_EQ(out["modes"], 2);
  EXPECT_EQ(out["material_model"], "fixed_corotational");
  ASSERT_EQ(out["bases"].size(), 6u) << "three bases, pinned and free";
  for (const auto& basis : out["bases"]) {
    EXPECT_GT(basis["build_seconds"].get<double>(), 0.0);
    EXPECT_LE(basis["coordinates"].get<int>(), 24);
  }
  ASSERT_EQ(out["rotation"].size(), 6u) << "three bases at two angles";
  for (const auto& row : out["rotation"]) {
    if (row["angle_deg"] != 90.0) continue;
    if (row["basis"] == "skinning") {
      EXPECT_LT(row["residual"].get<double>(), 1e-9);
      EXPECT_LT(row["volume_max"].get<double>(), 1e-9);
    } else {
      EXPECT_GT(row["residual"].get<double>(), 1e-2) << row["basis"];
      EXPECT_GT(row["volume_mean"].get<double>(), 1e-2) << row["basis"];
    }
  }
  // Four runs (three bases and the full space) of two methods, three steps each.
  EXPECT_EQ(out["runs"].size(), 8u);
  ASSERT_EQ(out["dynamics"].size(), 24u);
  for (const auto& row : out["dynamics"]) {
    EXPECT_TRUE(row["ok"].get<bool>()) << row.dump();
    EXPECT_LT(row["tip_y"].get<double>(), out["tip_rest"][1].get<double>()) << "it should sag";
  }
}

TEST(SmfemSubspacesCli, RefusesBadArgumentsAndBadInput) {
  const auto dir = test::scratch_dir("missing");
  EXPECT_EQ(run_subspaces_tool(dir, {}).status, 2);
  EXPECT_EQ(run_subspaces_tool(dir, {"x.json", "--modes", "0"}).status, 2);
  EXPECT_EQ(run_subspaces_tool(dir, {"x.json", "--material", "arap"}).status, 2);
  EXPECT_EQ(run_subspaces_tool(dir, {"x.json", "--axis", "0,0,0"}).status, 2);
  EXPECT_EQ(run_subspaces_tool(dir, {(dir / "missing.json").string()}).status, 1);
}

}  // namespace
}  // namespace smfem
