#include "smfem/asset/render_surface.hpp"

namespace smfem::asset {
namespace {

// The rules that hold between the sections, on arrays whose sizes match the counts.
void check_triangles(const RenderSurface& surface, const std::string& source) {
  const auto fail = [&](std::string problem) {
    return AssetError::in_section(source, kRenderTriangles, std::move(problem));
  };
  if (surface.triangle_count == 0) throw fail("the surface has no triangles");
  for (std::size_t t = 0; t < surface.triangle_count; ++t) {
    const std::uint32_t* corner = &surface.triangles[3 * t];
    for (int k = 0; k < 3; ++k) {
      if (corner[k] >= surface.vertex_count) {
        throw fail("triangle " + std::to_string(t) + " has vertex index " +
                   std::to_string(corner[k]) + ", but " + kRenderPositions + " has " +
                   std::to_string(surface.vertex_count) + " vertices");
      }
    }
    if (corner[0] == corner[1] || corner[1] == corner[2] || corner[2] == corner[0]) {
      throw fail("triangle " + std::to_string(t) + " repeats a vertex");
    }
  }
}

}  // namespace

RenderSurface read_render_surface(const Asset& asset) {
  RenderSurface surface;
  const SectionInfo& positions = asset.expect(kRenderPositions, DType::f32, {kAnyExtent, 3});
  surface.vertex_count = static_cast<std::size_t>(positions.shape[0]);
  const auto nv = static_cast<std::int64_t>(surface.vertex_count);
  surface.triangle_count = static_cast<std::size_t>(
      asset.expect(kRenderTriangles, DType::u32, {kAnyExtent, 3}).shape[0]);
  if (asset.has(kRenderWeights)) {
    surface.mode_count = static_cast<std::size_t>(
        asset.expect(kRenderWeights, DType::f32, {nv, kAnyExtent}).shape[1]);
    surface.weights = asset.array<float>(kRenderWeights);
  }
  if (asset.has(kRenderNormals)) {
    asset.expect(kRenderNormals, DType::f32, {nv, 3});
    surface.normals = asset.array<float>(kRenderNormals);
  }
  if (asset.has(kRenderClusters)) {
    asset.expect(kRenderClusters, DType::u32, {nv});
    surface.clusters = asset.array<std::uint32_t>(kRenderClusters);
  }
  if (asset.has(kRenderRegions)) {
    asset.expect(kRenderRegions, DType::u32, {nv});
    surface.regions = asset.array<std::uint32_t>(kRenderRegions);
  }
  surface.positions = asset.array<float>(kRenderPositions);
  surface.triangles = asset.array<std::uint32_t>(kRenderTriangles);
  check_triangles(surface, asset.source_name());
  return surface;
}

namespace {

// add_render_surface's cross-checks of the whole group.
void check_for_writing(const RenderSurface& surface) {
  const std::size_t nv = surface.vertex_count, nt = surface.triangle_count;
  const auto check_size = [](const char* name, std::size_t actual, std::size_t expected) {
    if (actual != expected) {
      throw AssetError::in_section(
          "asset writer", name,
          "has " + std::to_string(actual) + " values, expected " + std::to_string(expected));
    }
  };
  check_size(kRenderPositions, surface.positions.size(), 3 * nv);
  check_size(kRenderTriangles, surface.triangles.size(), 3 * nt);
  check_size(kRenderWeights, surface.weights.size(), surface.mode_count * nv);
  if (!surface.normals.empty()) check_size(kRenderNormals, surface.normals.size(), 3 * nv);
  if (!surface.clusters.empty()) check_size(kRenderClusters, surface.clusters.size(), nv);
  if (!surface.regions.empty()) check_size(kRenderRegions, surface.regions.size(), nv);
  check_triangles(surface, "asset writer");
}

void add_optional_sections(AssetWriter& writer, const RenderSurface& surface) {
  const std::size_t nv = surface.vertex_count;
  if (!surface.normals.empty()) writer.add(kRenderNormals, surface.normals, {nv, 3});
  if (!surface.clusters.empty()) writer.add(kRenderClusters, surface.clusters, {nv});
  if (!surface.regions.empty()) writer.add(kRenderRegions, surface.regions, {nv});
}

}  // namespace

void add_render_surface(AssetWriter& writer, const RenderSurface& surface) {
  check_for_writing(surface);
  const std::size_t nv = surface.vertex_count, nt = surface.triangle_count;
  writer.add(kRenderPositions, surface.positions, {nv, 3});
  writer.add(kRenderTriangles, surface.triangles, {nt, 3});
  if (surface.mode_count > 0) writer.add(kRenderWeights, surface.weights, {nv, surface.mode_count});
  add_optional_sections(writer, surface);
}

void add_render_drawing(AssetWriter& writer, const RenderSurface& surface) {
  check_for_writing(surface);
  writer.add(kRenderTriangles, surface.triangles, {surface.triangle_count, 3});
  add_optional_sections(writer, surface);
}

}  // namespace smfem::asset
