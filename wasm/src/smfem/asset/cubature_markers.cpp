#include "smfem/asset/cubature_markers.hpp"

#include <cstdint>
#include <string>

namespace smfem::asset {

CubatureMarkers read_cubature_markers(const Asset& asset) {
  CubatureMarkers markers;
  const bool centroids = asset.has(kCubatureCentroids);
  if (!centroids && !asset.has(kCubatureCentroidWeights)) return markers;
  if (!centroids) {
    throw AssetError::in_section(
        asset.source_name(), kCubatureCentroids,
        std::string("section is missing, but ") + kCubatureCentroidWeights + " is there");
  }
  const SectionInfo& at = asset.expect(kCubatureCentroids, DType::f32, {kAnyExtent, 3});
  const std::int64_t count = at.shape[0];
  const SectionInfo& weights =
      asset.expect(kCubatureCentroidWeights, DType::f32, {count, kAnyExtent});
  markers.count = static_cast<std::size_t>(count);
  markers.mode_count = static_cast<std::size_t>(weights.shape[1]);
  markers.centroids = asset.array<float>(kCubatureCentroids);
  markers.weights = asset.array<float>(kCubatureCentroidWeights);
  return markers;
}

void add_cubature_markers(AssetWriter& writer, const CubatureMarkers& markers) {
  if (markers.count == 0) return;
  const auto count = static_cast<std::uint64_t>(markers.count);
  writer.add(kCubatureCentroids, markers.centroids, Shape{count, 3});
  writer.add(kCubatureCentroidWeights, markers.weights,
             Shape{count, static_cast<std::uint64_t>(markers.mode_count)});
}

}  // namespace smfem::asset
