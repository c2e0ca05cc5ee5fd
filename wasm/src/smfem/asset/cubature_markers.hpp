#pragma once
// The "cubature markers" section pair: where the page draws the representative tets (the
// cubature view) and how each follows the skinning.
//   cubature.centroids         f32 [C, 3]  the representative tets' rest centroids, m
//   cubature.centroid_weights  f32 [C, m]  the skinning weights at those centroids
// Optional as a pair (assets without them have no cubature view). Row-major.
#include <cstddef>
#include <vector>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_writer.hpp"

namespace smfem::asset {

inline constexpr const char* kCubatureCentroids = "cubature.centroids";
inline constexpr const char* kCubatureCentroidWeights = "cubature.centroid_weights";

struct CubatureMarkers {
  std::size_t count = 0;       // C; 0: the asset has none
  std::size_t mode_count = 0;  // m
  std::vector<float> centroids;
  std::vector<float> weights;
};

// Reads the pair (count 0 when neither is there); throws AssetError naming the section when
// only one is there or their shapes disagree.
CubatureMarkers read_cubature_markers(const Asset& asset);
// Adds the pair (nothing for count 0).
void add_cubature_markers(AssetWriter& writer, const CubatureMarkers& markers);

}  // namespace smfem::asset
