#include "smfem/bake/asset_sections.hpp"

#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "smfem/asset/cubature_markers.hpp"
#include "smfem/asset/render_surface.hpp"
#include "smfem/bake/collision_surface.hpp"
#include "smfem/config.hpp"
#include "smfem/sim/contact/contact_sampling.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"

namespace smfem::bake {
namespace {

using asset::Shape;
using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<double> row_major(const Eigen::Ref<const Eigen::MatrixXd>& matrix) {
  const RowMatrixXd rows = matrix;
  return {rows.data(), rows.data() + rows.size()};
}

template <class Indices>
std::vector<std::uint32_t> as_u32(const Indices& indices) {
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(indices.size()));
  for (const auto index : indices) out.push_back(static_cast<std::uint32_t>(index));
  return out;
}

std::uint64_t extent(Eigen::Index n) { return static_cast<std::uint64_t>(n); }

asset::RenderSurface render_group(const BakeInput& input, const BakeResult& result) {
  const render::RenderSurface& surface = input.render_surface;
  asset::RenderSurface group;
  group.vertex_count = static_cast<std::size_t>(surface.vertices.rows());
  group.triangle_count = static_cast<std::size_t>(surface.triangles.rows());
  group.mode_count = static_cast<std::size_t>(result.render_weights.cols());
  group.positions.assign(surface.vertices.data(),
                         surface.vertices.data() + surface.vertices.size());
  group.triangles = as_u32(
      std::span(surface.triangles.data(), static_cast<std::size_t>(surface.triangles.size())));
  const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights =
      result.render_weights.cast<float>();
  group.weights.assign(weights.data(), weights.data() + weights.size());
  if (surface.normals.rows() > 0) {
    group.normals.assign(surface.normals.data(), surface.normals.data() + surface.normals.size());
  }

  // For display: each tet-mesh vertex takes the cubature cluster and the material region of
  // (the last) tet using it, each render vertex those of its strongest barycentric vertex.
  const auto vertex_count = static_cast<std::size_t>(input.mesh.vertices.rows());
  std::vector<std::uint32_t> vertex_cluster(vertex_count), vertex_region(vertex_count);
  for (Eigen::Index t = 0; t < input.mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) {
      const auto v = static_cast<std::size_t>(input.mesh.tets(t, k));
      vertex_cluster[v] = static_cast<std::uint32_t>(result.cubature.labels(t));
      vertex_region[v] = static_cast<std::uint32_t>(input.mesh.regions(t));
    }
  }
  for (Eigen::Index v = 0; v < surface.vertices.rows(); ++v) {
    Eigen::Index strongest = 0;
    surface.barycentric.row(v).maxCoeff(&strongest);
    const auto nearest = static_cast<std::size_t>(surface.tet_vertices(v, strongest));
    group.clusters.push_back(vertex_cluster[nearest]);
    group.regions.push_back(vertex_region[nearest]);
  }
  return group;
}

// Where the page draws each representative tet: its centroid, skinned by its weights.
asset::CubatureMarkers cubature_markers(const BakeInput& input, const BakeResult& result) {
  asset::CubatureMarkers markers;
  for (const int t : result.cubature.tets) {
    Eigen::RowVector3d centroid = Eigen::RowVector3d::Zero();
    for (int k = 0; k < 4; ++k) centroid += 0.25 * input.mesh.vertices.row(input.mesh.tets(t, k));
    for (const double x : centroid) markers.centroids.push_back(static_cast<float>(x));
  }
  const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights =
      result.representative_weights.cast<float>();
  markers.count = static_cast<std::size_t>(weights.rows());
  markers.mode_count = static_cast<std::size_t>(weights.cols());
  markers.weights.assign(weights.data(), weights.data() + weights.size());
  return markers;
}

// A scene force as the stepper holds it: the reduced terms and the recipe's parameters (the
// same as meta "forces", bake_metadata).
sim::SceneLoad scene_load(const scene::SceneForce& force, const ReducedForce& reduced) {
  sim::SceneLoad load;
  load.mass_vector = reduced.mass_vector;
  std::visit(
      [&](const auto& kind) {
        using Kind = std::decay_t<decltype(kind)>;
        if constexpr (std::is_same_v<Kind, scene::PeriodicForce>) {
          load.kind = sim::SceneLoad::Kind::periodic;
          load.amplitude = kind.amplitude;
          load.frequency = kind.frequency;
          load.direction = kind.direction.normalized();
        } else {
          load.kind = sim::SceneLoad::Kind::springs;
          load.stiffness = kind.stiffness;
          if (kind.release) load.release = *kind.release;
          load.mass_block = reduced.mass_block;
          load.rest_offset = reduced.rest_offset;
        }
      },
      force.kind);
  return load;
}

}  // namespace

void add_full_mesh(asset::AssetWriter& writer, const BakeInput& input, const BakeResult& result) {
  const auto T = static_cast<std::size_t>(input.mesh.tets.rows());
  writer.add("mesh.positions", row_major(input.mesh.vertices),
             Shape{static_cast<std::size_t>(input.mesh.vertices.rows()), 3});
  std::vector<std::uint32_t> tets;
  tets.reserve(4 * T);
  for (Eigen::Index t = 0; t < input.mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) tets.push_back(static_cast<std::uint32_t>(input.mesh.tets(t, k)));
  }
  writer.add("mesh.tets", tets, Shape{T, 4});
  writer.add("mesh.youngs", std::span(input.youngs.data(), T), Shape{T});
  writer.add("mesh.poisson", std::span(input.poisson.data(), T), Shape{T});
  writer.add("mesh.density", std::span(input.density.data(), T), Shape{T});
  const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights =
      result.modes.weights.cast<float>();
  writer.add(
      "mesh.weights", std::span(weights.data(), static_cast<std::size_t>(weights.size())),
      Shape{static_cast<std::size_t>(weights.rows()), static_cast<std::size_t>(weights.cols())});
}

nlohmann::json bake_metadata(const BakeInput& input, const BakeResult& result,
                             const BakeSettings& settings) {
  nlohmann::json meta = input.scene;
  meta["format"] = "smfem-asset";
  meta["kind"] = "scene";
  meta["generator"] = std::string("smfem-bake ") + config::version;
  meta["units"] = "SI (m, s, kg, Pa)";
  meta["source"] = {{"file", input.source}, {"kind", input.kind}};
  nlohmann::json materials = nlohmann::json::array();
  for (const MaterialInfo& material : input.materials) {
    materials.push_back({{"name", material.name},
                         {"region", material.region},
                         {"youngs", material.youngs},
                         {"poisson", material.poisson},
                         {"density", material.density},
                         {"tets", (input.mesh.regions.array() == material.region).count()}});
  }
  meta["materials"] = materials;
  meta["per_tet_youngs"] = settings.youngs_per_tet.has_value();
  meta["subspace"] = {{"modes", input.modes},
                      {"cubature", result.cubature.tets.size()},
                      {"cubature_method", cubature::cubature_method_name(input.cubature_method)},
                      {"constant_modes", result.modes.constant_modes},
                      {"components", result.components},
                      {"seed", settings.seed}};
  // Seconds stay out: the same input and seed give the same bytes.
  if (result.cubature_fit) {
    const cubature::ForceFit& fit = *result.cubature_fit;
    meta["subspace"]["cubature_fit"] = {{"training_error", fit.training_error},
                                        {"held_out_error", fit.held_out_error},
                                        {"training_poses", fit.training_poses},
                                        {"held_out_poses", fit.held_out_poses},
                                        {"candidates", fit.candidates}};
  }
  meta["mesh"] = {{"vertices", input.mesh.vertices.rows()},
                  {"tets", input.mesh.tets.rows()},
                  {"pinned", input.pinned.size()},
                  {"volume", result.tet_volumes.sum()},
                  {"min_dihedral_deg", input.quality.min_dihedral_deg},
                  {"max_dihedral_deg", input.quality.max_dihedral_deg}};
  return meta;
}

sim::ReducedModel baked_model(const BakeInput& input, const BakeResult& result,
                              const BakeSettings& settings) {
  sim::ReducedModel model;
  model.source = input.source;
  model.eigenvalues = result.modes.eigenvalues;
  model.mass_block = result.mass_block;
  model.mass_vector = result.mass_vector;
  model.first_moment = result.first_moment;
  model.total_mass = result.total_mass;
  model.rest_centroid = result.rest_centroid;

  // TetBasisGradients row c r4 + k is row k of Y_c; the model stacks the columns of Y_c.
  const Eigen::Index r4 = result.mass_block.rows();
  const Eigen::Index C = result.cubature.tets.size();
  model.cubature_Y.resize(3 * C, r4);
  for (Eigen::Index c = 0; c < C; ++c) {
    for (Eigen::Index k = 0; k < r4; ++k) {
      for (Eigen::Index j = 0; j < 3; ++j) model.cubature_Y(3 * c + j, k) = result.Y(c * r4 + k, j);
    }
  }
  model.cubature_weights = result.cubature.weights;
  model.cubature_youngs.resize(C);
  model.cubature_poisson.resize(C);
  for (Eigen::Index c = 0; c < C; ++c) {
    const int t = result.cubature.tets(c);
    model.cubature_youngs(c) = input.youngs(t);
    model.cubature_poisson(c) = input.poisson(t);
    model.cubature_region.push_back(static_cast<std::uint32_t>(input.mesh.regions(t)));
  }
  model.cubature_tets = as_u32(result.cubature.tets);

  model.render_positions = input.render_surface.vertices;
  model.render_weights = result.render_weights.cast<float>();

  if (settings.contact_samples > 0) {
    model.contact = contact::sample_contact_surface(input.mesh.vertices, result.modes.weights,
                                                    input.mesh.tets, settings.contact_samples);
    const int triangles =
        settings.collision_triangles.value_or(2 * static_cast<int>(model.contact.samples.size()));
    if (triangles > 0) coarsen_collision_surface(model.contact, triangles);
  }

  for (std::size_t f = 0; f < result.forces.size(); ++f) {
    model.loads.push_back(scene_load(input.forces[f], result.forces[f]));
  }
  for (const MaterialInfo& material : input.materials) {
    model.materials.push_back({material.name, static_cast<std::uint32_t>(material.region),
                               material.youngs, material.poisson, material.density});
  }
  model.defaults = sim::read_solver_defaults(input.scene, input.source);
  return model;
}

asset::AssetWriter bake_asset(const BakeInput& input, const BakeResult& result,
                              const BakeSettings& settings) {
  asset::AssetWriter writer;
  writer.set_meta(bake_metadata(input, result, settings));
  // What the stepper reads: one writer for the bake and the procedural models.
  sim::add_reduced_model(writer, baked_model(input, result, settings));

  // What only the page and the tools read.
  writer.add("subspace.pinned", as_u32(input.pinned), Shape{input.pinned.size()});
  writer.add("cubature.cluster_of_tet", as_u32(result.cubature.labels),
             Shape{extent(result.cubature.labels.size())});
  asset::add_cubature_markers(writer, cubature_markers(input, result));
  asset::add_render_drawing(writer, render_group(input, result));
  if (settings.full_mesh) add_full_mesh(writer, input, result);
  return writer;
}

}  // namespace smfem::bake
