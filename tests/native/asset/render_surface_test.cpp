#include "smfem/asset/render_surface.hpp"

#include <string>

#include <gtest/gtest.h>

#include "asset/asset_test_bytes.hpp"

namespace smfem::asset::test {
namespace {

// A tetrahedron's surface: 4 vertices, 4 outward counter-clockwise triangles, 2 modes.
RenderSurface tetrahedron() {
  RenderSurface surface;
  surface.vertex_count = 4;
  surface.triangle_count = 4;
  surface.mode_count = 2;
  surface.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  surface.triangles = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  surface.weights = {1, 0, 0.5f, 0.5f, 0, 1, 0.25f, 0.75f};
  return surface;
}

Asset write_and_read(const RenderSurface& surface) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  add_render_surface(writer, surface);
  return Asset::from_bytes(writer.to_bytes(), "demo.smfem");
}

// An asset whose render group is written section by section, bypassing the group's checks.
struct RawGroup {
  std::vector<float> positions = tetrahedron().positions;
  Shape positions_shape = {4, 3};
  std::vector<std::uint32_t> triangles = tetrahedron().triangles;
  Shape triangles_shape = {4, 3};
  std::vector<float> weights = tetrahedron().weights;
  Shape weights_shape = {4, 2};

  Asset write() const {
    AssetWriter writer;
    writer.set_meta(minimal_meta());
    writer.add(kRenderPositions, positions, positions_shape);
    writer.add(kRenderTriangles, triangles, triangles_shape);
    writer.add(kRenderWeights, weights, weights_shape);
    return Asset::from_bytes(writer.to_bytes(), "demo.smfem");
  }
};

void expect_read_refused(const Asset& asset, const std::string& message) {
  try {
    read_render_surface(asset);
    ADD_FAILURE() << "accepted, expected: " << message;
  } catch (const AssetError& error) {
    EXPECT_STREQ(error.what(), message.c_str());
  }
}

TEST(AssetRenderSurface, RoundTrip) {
  const RenderSurface read = read_render_surface(write_and_read(tetrahedron()));
  const RenderSurface expected = tetrahedron();
  EXPECT_EQ(read.vertex_count, 4u);
  EXPECT_EQ(read.triangle_count, 4u);
  EXPECT_EQ(read.mode_count, 2u);
  EXPECT_EQ(read.positions, expected.positions);
  EXPECT_EQ(read.triangles, expected.triangles);
  EXPECT_EQ(read.weights, expected.weights);
  EXPECT_TRUE(read.normals.empty());
}

TEST(AssetRenderSurface, OptionalSections) {
  RenderSurface surface = tetrahedron();
  surface.mode_count = 0;
  surface.weights.clear();
  surface.normals = {-1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  surface.clusters = {0, 3, 3, 1};
  surface.regions = {2, 0, 0, 1};
  const Asset asset = write_and_read(surface);
  EXPECT_FALSE(asset.has(kRenderWeights));
  const RenderSurface read = read_render_surface(asset);
  EXPECT_EQ(read.mode_count, 0u);
  EXPECT_TRUE(read.weights.empty());
  EXPECT_EQ(read.normals, surface.normals);
  EXPECT_EQ(read.clusters, surface.clusters);
  EXPECT_EQ(read.regions, surface.regions);
  EXPECT_TRUE(read_render_surface(write_and_read(tetrahedron())).clusters.empty());
  EXPECT_TRUE(read_render_surface(write_and_read(tetrahedron())).regions.empty());
}

TEST(AssetRenderSurface, RefusesClustersOfTheWrongCount) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add(kRenderPositions, tetrahedron().positions, {4, 3});
  writer.add(kRenderTriangles, tetrahedron().triangles, {4, 3});
  writer.add(kRenderClusters, std::vector<std::uint32_t>{0, 1, 2}, {3});
  expect_read_refused(Asset::from_bytes(writer.to_bytes(), "demo.smfem"),
                      "demo.smfem: section 'render.clusters': expected u32 [4], found u32 [3]");
  RenderSurface surface = tetrahedron();
  surface.clusters = {1, 2};
  AssetWriter refused;
  EXPECT_THROW(add_render_surface(refused, surface), AssetError);
}

TEST(AssetRenderSurface, RefusesRegionsOfTheWrongCount) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add(kRenderPositions, tetrahedron().positions, {4, 3});
  writer.add(kRenderTriangles, tetrahedron().triangles, {4, 3});
  writer.add(kRenderRegions, std::vector<std::uint32_t>{0, 1}, {2});
  expect_read_refused(Asset::from_bytes(writer.to_bytes(), "demo.smfem"),
                      "demo.smfem: section 'render.regions': expected u32 [4], found u32 [2]");
  RenderSurface surface = tetrahedron();
  surface.regions = {1, 2, 3};
  AssetWriter refused;
  EXPECT_THROW(add_render_surface(refused, surface), AssetError);
}

TEST(AssetRenderSurface, RefusesAMissingSection) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add(kRenderPositions, tetrahedron().positions, {4, 3});
  expect_read_refused(Asset::from_bytes(writer.to_bytes(), "demo.smfem"),
                      "demo.smfem: section 'render.triangles': section is missing");
}

TEST(AssetRenderSurface, RefusesWrongShapesAndTypes) {
  RawGroup group;
  group.positions_shape = {6, 2};
  expect_read_refused(
      group.write(),
      "demo.smfem: section 'render.positions': expected f32 [any, 3], found f32 [6, 2]");
  group = RawGroup();
  group.weights_shape = {2, 4};
  expect_read_refused(
      group.write(),
      "demo.smfem: section 'render.weights': expected f32 [4, any], found f32 [2, 4]");
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add(kRenderPositions, tetrahedron().positions, {4, 3});
  writer.add(kRenderTriangles, std::vector<std::int32_t>(12, 0), {4, 3});
  expect_read_refused(
      Asset::from_bytes(writer.to_bytes(), "demo.smfem"),
      "demo.smfem: section 'render.triangles': expected u32 [any, 3], found i32 [4, 3]");
}

TEST(AssetRenderSurface, RefusesIndicesOutOfRange) {
  RawGroup group;
  group.triangles[7] = 4;
  expect_read_refused(group.write(),
                      "demo.smfem: section 'render.triangles': triangle 2 has vertex index 4, but "
                      "render.positions has 4 vertices");
}

TEST(AssetRenderSurface, RefusesDegenerateTriangles) {
  RawGroup group;
  group.triangles[11] = 2;
  expect_read_refused(group.write(),
                      "demo.smfem: section 'render.triangles': triangle 3 repeats a vertex");
}

TEST(AssetRenderSurface, RefusesAnEmptySurface) {
  RawGroup group;
  group.triangles.clear();
  group.triangles_shape = {0, 3};
  expect_read_refused(group.write(),
                      "demo.smfem: section 'render.triangles': the surface has no triangles");
}

TEST(AssetRenderSurface, WriterAppliesTheSameChecks) {
  AssetWriter writer;
  RenderSurface surface = tetrahedron();
  surface.triangles[0] = 9;
  EXPECT_THROW(add_render_surface(writer, surface), AssetError);
  surface = tetrahedron();
  surface.weights.pop_back();
  try {
    add_render_surface(writer, surface);
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_STREQ(error.what(), "asset writer: section 'render.weights': has 7 values, expected 8");
  }
  writer.set_meta(minimal_meta());
  add_render_surface(writer, tetrahedron());  // nothing was added by the failed calls
  EXPECT_EQ(Asset::from_bytes(writer.to_bytes(), "x").sections().size(), 4u);
}

TEST(AssetRenderSurface, TheDrawingPartCompletesPositionsAndWeightsWrittenElsewhere) {
  RenderSurface surface = tetrahedron();
  surface.clusters = {0, 1, 1, 0};
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add(kRenderPositions, surface.positions, {4, 3});  // as sim::add_reduced_model does
  writer.add(kRenderWeights, surface.weights, {4, 2});
  add_render_drawing(writer, surface);
  const Asset asset = Asset::from_bytes(writer.to_bytes(), "demo.smfem");
  EXPECT_EQ(asset.sections().size(), 5u);  // meta, positions, weights, triangles, clusters
  const RenderSurface read = read_render_surface(asset);
  EXPECT_EQ(read.triangles, surface.triangles);
  EXPECT_EQ(read.clusters, surface.clusters);
  EXPECT_EQ(read.weights, surface.weights);

  // The whole group is checked, though positions and weights are not written.
  surface.weights.pop_back();
  AssetWriter refused;
  EXPECT_THROW(add_render_drawing(refused, surface), AssetError);
}

}  // namespace
}  // namespace smfem::asset::test
