// smfem-asset verify: an asset is valid only where every reader that uses it would accept it, so
// sections that disagree with one another are refused by name, not only a broken layout.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/asset/render_surface.hpp"
#include "smfem/sim/fixtures/box_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"
#include "support/run_tool.hpp"
#include "support/test_paths.hpp"

namespace smfem {
namespace {

const nlohmann::json kMeta = {{"format", "smfem-asset"}, {"kind", "scene"}, {"generator", "test"}};

test::ToolRun verify(const std::string& name, const std::vector<std::uint8_t>& bytes) {
  const auto dir = test::scratch_dir("smfem-asset-" + name);
  const auto file = dir / (name + ".smfem");
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return test::run_tool(SMFEM_ASSET_EXECUTABLE, dir, {"verify", file.string()});
}

// A render surface of 3 vertices and one triangle {0, 1, corner}, written section by section
// (add_render_surface refuses a corner past the vertices, as a foreign writer might not).
std::vector<std::uint8_t> one_triangle(std::uint32_t corner) {
  asset::AssetWriter writer;
  writer.set_meta(kMeta);
  writer.add(asset::kRenderPositions, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}, {3, 3});
  writer.add(asset::kRenderTriangles, std::vector<std::uint32_t>{0, 1, corner}, {1, 3});
  return writer.to_bytes();
}

TEST(SmfemAssetCli, VerifyReadsTheRenderSurfaceAndNamesAVertexPastIt) {
  const test::ToolRun valid = verify("triangle", one_triangle(2));
  EXPECT_EQ(valid.status, 0) << valid.err;
  EXPECT_NE(valid.out.find("read: render surface"), std::string::npos) << valid.out;
  const test::ToolRun broken = verify("past", one_triangle(7));
  EXPECT_EQ(broken.status, 2);
  EXPECT_NE(broken.err.find("render.triangles"), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find("vertex index 7"), std::string::npos) << broken.err;
}

TEST(SmfemAssetCli, VerifyReadsTheReducedModelAndNamesItsBrokenSection) {
  const sim::ReducedModel model = sim::make_box_model().model;
  const test::ToolRun valid = verify("box", sim::reduced_model_asset_bytes(model));
  EXPECT_EQ(valid.status, 0) << valid.err;
  EXPECT_NE(valid.out.find("reduced model"), std::string::npos) << valid.out;

  const test::ToolRun past_the_mesh =
      verify("tets", sim::reduced_model_asset_bytes(model, {{"mesh", {{"tets", 3}}}}));
  EXPECT_EQ(past_the_mesh.status, 2);
  EXPECT_NE(past_the_mesh.err.find("cubature.tets"), std::string::npos) << past_the_mesh.err;

  sim::ReducedModel far = model;
  far.contact.positions(0, 2) = 1e300;
  const test::ToolRun far_away = verify("far", sim::reduced_model_asset_bytes(far));
  EXPECT_EQ(far_away.status, 2);
  EXPECT_NE(far_away.err.find("contact.positions"), std::string::npos) << far_away.err;
}

}  // namespace
}  // namespace smfem
