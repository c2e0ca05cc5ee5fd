#include "smfem/asset/cubature_markers.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "asset/asset_test_bytes.hpp"

namespace smfem::asset::test {
namespace {

Asset written(void (*fill)(AssetWriter&)) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  fill(writer);
  return Asset::from_bytes(writer.to_bytes(), "demo.smfem");
}

TEST(AssetCubatureMarkers, RoundTripAndAbsentPair) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  CubatureMarkers markers;
  markers.count = 2;
  markers.mode_count = 3;
  markers.centroids = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f};
  markers.weights = {1.f, 0.f, 0.f, 0.25f, 0.5f, 0.25f};
  add_cubature_markers(writer, markers);
  const CubatureMarkers read =
      read_cubature_markers(Asset::from_bytes(writer.to_bytes(), "demo.smfem"));
  EXPECT_EQ(read.count, 2U);
  EXPECT_EQ(read.mode_count, 3U);
  EXPECT_EQ(read.centroids, markers.centroids);
  EXPECT_EQ(read.weights, markers.weights);

  EXPECT_EQ(read_cubature_markers(written([](AssetWriter&) {})).count, 0U);
}

TEST(AssetCubatureMarkers, RefusesHalfAPairAndDisagreeingCounts) {
  const auto message = [](void (*fill)(AssetWriter&)) {
    try {
      read_cubature_markers(written(fill));
    } catch (const AssetError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([](AssetWriter& w) {
              w.add(kCubatureCentroidWeights, std::vector<float>{1.f, 0.f}, Shape{1, 2});
            }).find("cubature.centroids"),
            std::string::npos);
  EXPECT_NE(message([](AssetWriter& w) {
              w.add(kCubatureCentroids, std::vector<float>{0.f, 0.f, 0.f}, Shape{1, 3});
            }).find("cubature.centroid_weights"),
            std::string::npos);
  EXPECT_NE(message([](AssetWriter& w) {
              w.add(kCubatureCentroids, std::vector<float>{0.f, 0.f, 0.f}, Shape{1, 3});
              w.add(kCubatureCentroidWeights, std::vector<float>{1.f, 0.f, 1.f, 0.f}, Shape{2, 2});
            }).find("cubature.centroid_weights"),
            std::string::npos);
}

}  // namespace
}  // namespace smfem::asset::test
