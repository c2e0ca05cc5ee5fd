#include "smfem/scene/detail/geometry_node.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "smfem/geometry/error.hpp"
#include "smfem/geometry/triangle_mesh_sdf.hpp"
#include "smfem/mesh/error.hpp"
#include "smfem/mesh/read_mesh.hpp"

namespace smfem::scene::detail {
namespace {

constexpr const char* kNodeKinds =
    "box, sphere, capsule, ellipsoid, cylinder, mesh, union, intersection, difference, "
    "smooth_union, transform";

Eigen::Vector3d point(const ObjectReader& r, const char* key) {
  return read_vector3(r.required(key), r / key, kMaxCoordinate);
}

double length(const ObjectReader& r, const char* key) {
  return read_length(r.required(key), r / key);
}

std::vector<geometry::Sdf> read_operands(const Json& value, const Place& place,
                                         const std::filesystem::path& folder, int depth,
                                         std::size_t min_size) {
  const Json& array = read_array(value, place, min_size);
  std::vector<geometry::Sdf> operands;
  for (std::size_t i = 0; i < array.size(); ++i) {
    operands.push_back(read_geometry_node(array[i], place / i, folder, depth + 1));
  }
  return operands;
}

// A transform node's map (its "of" left to the caller).
geometry::Similarity read_similarity(const ObjectReader& r) {
  geometry::Similarity t;
  if (const Json* v = r.optional("translate"))
    t.translation = read_vector3(*v, r / "translate", kMaxCoordinate);
  if (r.has("rotate_deg") && (r.has("rotate_axis") || r.has("rotate_angle_deg"))) {
    (r / "rotate_deg")
        .fail("give either rotate_deg or rotate_axis with rotate_angle_deg, not both");
  }
  if (const Json* v = r.optional("rotate_deg")) {
    t.rotation = geometry::rotation_from_euler_deg(read_vector3(*v, r / "rotate_deg", 36000.0));
  }
  if (r.has("rotate_axis") != r.has("rotate_angle_deg")) {
    r.place().fail("rotate_axis and rotate_angle_deg go together");
  }
  if (r.has("rotate_axis")) {
    const Eigen::Vector3d axis = read_direction(r.required("rotate_axis"), r / "rotate_axis");
    const double angle = read_number_in(r.required("rotate_angle_deg"), r / "rotate_angle_deg",
                                        -36000, 36000, false, false);
    t.rotation = geometry::rotation_from_axis_angle_deg(axis, angle);
  }
  if (const Json* v = r.optional("scale")) {
    t.scale = read_number_in(*v, r / "scale", kMinScale, kMaxScale, false, false);
  }
  return t;
}

ObjectReader transform_reader(const Json& value, const Place& place) {
  return ObjectReader(
      value, place, {"translate", "rotate_deg", "rotate_axis", "rotate_angle_deg", "scale", "of"});
}

geometry::Sdf read_transform(const Json& value, const Place& place,
                             const std::filesystem::path& folder, int depth) {
  const ObjectReader r = transform_reader(value, place);
  return geometry::transform(read_geometry_node(r.required("of"), r / "of", folder, depth + 1),
                             read_similarity(r));
}

// The SDF of a closed surface mesh read from `path`; one that encloses nothing is refused at
// `place`, naming the file.
geometry::Sdf surface_sdf(const mesh::SurfaceMesh& surface, const std::filesystem::path& path,
                          const Place& place) {
  try {
    return geometry::triangle_mesh(
        std::make_shared<const geometry::TriangleMeshSdf>(surface.vertices, surface.triangles));
  } catch (const geometry::GeometryError& error) {
    place.fail(path.filename().string() + ": " + error.what());
  }
}

// outer after inner: x -> outer(inner(x)).
geometry::Similarity compose(const geometry::Similarity& outer, const geometry::Similarity& inner) {
  return {outer.rotation * inner.rotation,
          outer.scale * (outer.rotation * inner.translation) + outer.translation,
          outer.scale * inner.scale};
}

// The geometry where it is a mesh file under any number of transforms (or none), which move its
// vertices, `outer` those around this node: a tet mesh has no SDF to transform, and a surface
// mesh's own triangles, placed, are what the body is drawn with. Nothing where it is not.
std::optional<SceneGeometry> read_placed_mesh(const Json& node, const Place& place,
                                              const std::filesystem::path& folder, int depth,
                                              const geometry::Similarity& outer) {
  if (!node.is_object() || node.size() != 1 || depth > kMaxNodeDepth) return std::nullopt;
  if (node.contains("mesh")) {
    const Place mesh_place = place / "mesh";
    const std::filesystem::path path = resolve_mesh_path(node["mesh"], mesh_place, folder);
    SceneGeometry geometry;
    if (mesh::is_tet_mesh_file(path)) {
      geometry.tet_mesh = path;
      geometry.tet_placement = outer;
      return geometry;
    }
    geometry.surface = read_surface(path, mesh_place);
    geometry::place(outer, geometry.surface->vertices);
    geometry.sdf = surface_sdf(*geometry.surface, path, mesh_place);
    return geometry;
  }
  if (!node.contains("transform")) return std::nullopt;
  const ObjectReader r = transform_reader(node["transform"], place / "transform");
  return read_placed_mesh(r.required("of"), r / "of", folder, depth + 1,
                          compose(outer, read_similarity(r)));
}

geometry::Sdf read_shape(const std::string& kind, const Json& value, const Place& place,
                         const std::filesystem::path& folder, int depth) {
  if (kind == "box") {
    const ObjectReader r(value, place, {"center", "half_extents", "rounding"});
    const Eigen::Vector3d center = point(r, "center");
    const Eigen::Vector3d half = read_lengths(r.required("half_extents"), r / "half_extents");
    double rounding = 0.0;
    if (const Json* v = r.optional("rounding")) {
      rounding = read_number_in(*v, r / "rounding", 0.0, half.minCoeff(), false, false);
    }
    return geometry::box(center, half, rounding);
  }
  if (kind == "sphere") {
    const ObjectReader r(value, place, {"center", "radius"});
    const Eigen::Vector3d center = point(r, "center");
    return geometry::capsule(center, center, length(r, "radius"));
  }
  if (kind == "capsule" || kind == "cylinder") {
    const ObjectReader r(value, place, {"from", "to", "radius"});
    const Eigen::Vector3d from = point(r, "from"), to = point(r, "to");
    const double radius = length(r, "radius");
    if (kind == "capsule") return geometry::capsule(from, to, radius);
    if (from == to) (r / "to").fail("must differ from \"from\"");
    return geometry::cylinder(from, to, radius);
  }
  if (kind == "ellipsoid") {
    const ObjectReader r(value, place, {"center", "radii"});
    const Eigen::Vector3d center = point(r, "center");
    const Eigen::Vector3d radii = read_lengths(r.required("radii"), r / "radii");
    return geometry::ellipsoid(center, radii);
  }
  if (kind == "mesh") {
    const std::filesystem::path path = resolve_mesh_path(value, place, folder);
    if (mesh::is_tet_mesh_file(path)) {
      place.fail(
          "a tet mesh can only be the whole geometry (under transforms or none), not part of a "
          "shape or region");
    }
    return surface_sdf(read_surface(path, place), path, place);
  }
  if (kind == "union") return geometry::unite(read_operands(value, place, folder, depth, 1));
  if (kind == "intersection")
    return geometry::intersect(read_operands(value, place, folder, depth, 1));
  if (kind == "difference") {
    // The first operand minus all the others.
    std::vector<geometry::Sdf> operands = read_operands(value, place, folder, depth, 2);
    const geometry::Sdf body = operands.front();
    operands.erase(operands.begin());
    return geometry::subtract(body, geometry::unite(operands));
  }
  if (kind == "smooth_union") {
    const ObjectReader r(value, place, {"radius", "of"});
    const double radius = length(r, "radius");
    return geometry::smooth_unite(read_operands(r.required("of"), r / "of", folder, depth, 1),
                                  radius);
  }
  if (kind == "transform") return read_transform(value, place, folder, depth);
  place.fail("unknown shape (expected one of: " + std::string(kNodeKinds) + ")");
}

}  // namespace

double read_length(const Json& value, const Place& place) {
  return read_positive(value, place, kMinLength, kMaxCoordinate);
}

Eigen::Vector3d read_lengths(const Json& value, const Place& place) {
  if (!value.is_array() || value.size() != 3) {
    place.fail("must be an array of 3 numbers, got " + describe(value));
  }
  Eigen::Vector3d v;
  for (std::size_t i = 0; i < 3; ++i)
    v[static_cast<Eigen::Index>(i)] = read_length(value[i], place / i);
  return v;
}

geometry::Sdf read_geometry_node(const Json& node, const Place& place,
                                 const std::filesystem::path& folder, int depth) {
  if (depth > kMaxNodeDepth) {
    place.fail("geometry nests deeper than " + std::to_string(kMaxNodeDepth) + " levels");
  }
  if (!node.is_object() || node.size() != 1) {
    place.fail("must be an object with one key naming a shape (" + std::string(kNodeKinds) +
               "), got " + describe(node));
  }
  const auto item = node.items().begin();
  return read_shape(item.key(), item.value(), place / item.key(), folder, depth);
}

SceneGeometry read_scene_geometry(const Json& node, const Place& place,
                                  const std::filesystem::path& folder) {
  if (std::optional<SceneGeometry> placed = read_placed_mesh(node, place, folder, 0, {})) {
    return *placed;
  }
  SceneGeometry geometry;
  geometry.sdf = read_geometry_node(node, place, folder);
  return geometry;
}

std::filesystem::path resolve_mesh_path(const Json& value, const Place& place,
                                        const std::filesystem::path& folder) {
  const std::filesystem::path relative(read_string(value, place, 1024));
  if (relative.is_absolute() || relative.has_root_name()) {
    place.fail("must be a path relative to the recipe's folder, got " + describe(value));
  }
  const std::filesystem::path normal = relative.lexically_normal();
  if (normal.empty() || *normal.begin() == "..") {
    place.fail("must stay inside the recipe's folder, got " + describe(value));
  }
  if (!mesh::is_tet_mesh_file(normal) && !mesh::is_surface_mesh_file(normal)) {
    place.fail("must name a mesh file (.mesh, .msh, .node, .ele, .obj, .stl, .off, .ply), got " +
               describe(value));
  }
  const std::filesystem::path path = folder / normal;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    place.fail("no such file: " + path.string());
  }
  return path;
}

mesh::SurfaceMesh read_surface(const std::filesystem::path& path, const Place& place) {
  try {
    mesh::ReadReport report;
    mesh::SurfaceMesh surface = mesh::read_surface_mesh(path, &report);
    for (const std::string& warning : mesh::report_warnings(path, report)) place.note(warning);
    return surface;
  } catch (const mesh::MeshError& error) {
    place.fail(error.what());
  }
}

}  // namespace smfem::scene::detail
