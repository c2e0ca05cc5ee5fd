#pragma once
// Geometry nodes of a recipe: JSON objects with one key naming a shape or an operation,
// turned into an Sdf (the grammar is in assets/scenes/README.md).
#include <filesystem>

#include "smfem/geometry/sdf.hpp"
#include "smfem/scene/detail/json_reader.hpp"
#include "smfem/scene/recipe.hpp"

namespace smfem::scene::detail {

// Nodes nest at most this deep (a recipe is written by hand; this bounds the recursion).
inline constexpr int kMaxNodeDepth = 32;
// Coordinates and sizes beyond this many metres, and sizes below kMinLength, are taken for
// mistakes.
inline constexpr double kMaxCoordinate = 1e4;
inline constexpr double kMinLength = 1e-6;

// A length (size, radius, edge length) in [kMinLength, kMaxCoordinate].
double read_length(const Json& value, const Place& place);
// Three lengths, as for half extents and radii.
Eigen::Vector3d read_lengths(const Json& value, const Place& place);

// A node as an Sdf. Mesh nodes must name closed surface meshes; `folder` is the recipe's.
geometry::Sdf read_geometry_node(const Json& node, const Place& place,
                                 const std::filesystem::path& folder, int depth = 0);

// The recipe's "geometry": a node, or {"mesh": path} under any number of transforms (or none),
// which move the file's vertices, naming a tet mesh (used as is) or a surface mesh (filled, and
// kept as the render surface).
SceneGeometry read_scene_geometry(const Json& node, const Place& place,
                                  const std::filesystem::path& folder);

// A mesh path: relative, inside the recipe's folder (no "..", not absolute), an existing file.
std::filesystem::path resolve_mesh_path(const Json& value, const Place& place,
                                        const std::filesystem::path& folder);

// Reads the surface mesh at `path` (already resolved); failures are reported at `place`.
mesh::SurfaceMesh read_surface(const std::filesystem::path& path, const Place& place);

}  // namespace smfem::scene::detail
