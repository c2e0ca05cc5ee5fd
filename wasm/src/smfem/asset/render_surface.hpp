#pragma once
// The "render surface" section group: the triangle mesh the page draws and skins.
//   render.positions  f32 [nv, 3]  rest positions
//   render.triangles  u32 [nt, 3]  0-based vertex indices, counter-clockwise seen from outside
//   render.weights    f32 [nv, m]  optional: per-vertex weights of the m skinning modes
//   render.normals    f32 [nv, 3]  optional: rest normals
//   render.clusters   u32 [nv]     optional: the cubature cluster of each vertex (for display)
//   render.regions    u32 [nv]     optional: the material region of each vertex (for display)
// All arrays are row-major (one vertex or triangle per row). Rules beyond each section's own:
// the same nv throughout, nt >= 1, every index < nv, no triangle repeating a vertex.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_writer.hpp"

namespace smfem::asset {

inline constexpr const char* kRenderPositions = "render.positions";
inline constexpr const char* kRenderTriangles = "render.triangles";
inline constexpr const char* kRenderWeights = "render.weights";
inline constexpr const char* kRenderNormals = "render.normals";
inline constexpr const char* kRenderClusters = "render.clusters";
inline constexpr const char* kRenderRegions = "render.regions";

struct RenderSurface {
  std::size_t vertex_count = 0;
  std::size_t triangle_count = 0;
  std::size_t mode_count = 0;            // m; 0 when the asset has no render.weights
  std::vector<float> positions;          // vertex_count x 3
  std::vector<std::uint32_t> triangles;  // triangle_count x 3
  std::vector<float> weights;            // vertex_count x mode_count (empty when m = 0)
  std::vector<float> normals;            // vertex_count x 3, or empty when absent
  std::vector<std::uint32_t> clusters;   // vertex_count, or empty when absent
  std::vector<std::uint32_t> regions;    // vertex_count, or empty when absent
};

// Reads and cross-checks the group; throws AssetError naming the offending section.
RenderSurface read_render_surface(const Asset& asset);

// Adds the group (render.weights only when mode_count > 0; render.normals, render.clusters and
// render.regions only when given), after the same cross-checks; throws AssetError from "asset
// writer".
void add_render_surface(AssetWriter& writer, const RenderSurface& surface);

// The part of the group the stepper does not read: render.triangles and the optional normals,
// clusters and regions, after add_render_surface's cross-checks of the whole `surface`. For a
// writer that holds render.positions and render.weights already (sim::add_reduced_model, which
// owns them: the bake), from the same positions and weights as `surface`.
void add_render_drawing(AssetWriter& writer, const RenderSurface& surface);

}  // namespace smfem::asset
