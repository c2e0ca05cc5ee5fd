#include "smfem/sim/model/reduced_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <Eigen/Cholesky>

#include "smfem/asset/asset_error.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/model/detail/asset_arrays.hpp"

namespace smfem::sim {
namespace {

using asset::AssetError;
using asset::DType;
using asset::kAnyExtent;
using detail::read_f64_matrix;
using detail::read_f64_vector;

std::string size_text(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

template <class Derived>
bool all_finite(const Eigen::DenseBase<Derived>& values) {
  return values.allFinite();
}

std::optional<ModelProblem> problem(std::string section, std::string text) {
  return ModelProblem{std::move(section), std::move(text)};
}

std::vector<MaterialRegion> read_materials(const nlohmann::json& meta, const std::string& source) {
  std::vector<MaterialRegion> materials;
  const auto found = meta.find("materials");
  if (found == meta.end()) return materials;
  if (!found->is_array()) throw AssetError::in_section(source, "meta", "materials is not an array");
  for (std::size_t i = 0; i < found->size(); ++i) {
    const nlohmann::json& entry = (*found)[i];
    const auto fail = [&](const std::string& problem) {
      return AssetError::in_section(source, "meta",
                                    "materials[" + std::to_string(i) + "]: " + problem);
    };
    if (!entry.is_object()) throw fail("not an object");
    MaterialRegion material;
    if (const auto it = entry.find("name"); it != entry.end()) {
      if (!it->is_string()) throw fail("name must be a string");
      material.name = it->get<std::string>();
    }
    const auto region = entry.find("region");
    if (region == entry.end() || !region->is_number_unsigned() ||
        region->get<std::uint64_t>() > 0xffffffffu) {
      throw fail("region must be an unsigned 32-bit integer");
    }
    material.region = region->get<std::uint32_t>();
    for (const auto& [key, value] :
         {std::pair{"youngs", &material.youngs}, std::pair{"poisson", &material.poisson},
          std::pair{"density", &material.density}}) {
      if (const auto it = entry.find(key); it != entry.end()) {
        if (!it->is_number()) throw fail(std::string(key) + " must be a number");
        *value = it->get<double>();
      }
    }
    materials.push_back(std::move(material));
  }
  return materials;
}

}  // namespace

SolverSettings read_solver_defaults(const nlohmann::json& meta, const std::string& source,
                                    SolverSettings base, SolverSource from) {
  SolverSettings settings = std::move(base);
  const auto fail = [&](const std::string& problem) {
    return AssetError::in_section(source, "meta", "solver." + problem);
  };
  const auto found = meta.find("solver");
  if (found == meta.end()) return settings;
  const nlohmann::json& solver = *found;
  if (!solver.is_object()) throw AssetError::in_section(source, "meta", "solver is not an object");
  if (from == SolverSource::recipe) {
    constexpr std::array<std::string_view, 5> kRead = {"method", "iterations", "timestep",
                                                       "gravity", "material_model"};
    for (const auto& [key, value] : solver.items()) {
      if (std::find(kRead.begin(), kRead.end(), key) != kRead.end()) continue;
      std::string known;
      for (const std::string_view k : kRead) known += (known.empty() ? "" : ", ") + std::string(k);
      throw fail(key + ": unknown key (it takes " + known + ")");
    }
  }

  if (const auto it = solver.find("method"); it != solver.end()) {
    const auto method =
        it->is_string() ? solver_method_from_name(it->get<std::string>()) : std::nullopt;
    if (!method) throw fail("method must be \"mfem\" or \"fem\"");
    settings.method = *method;
  }
  if (const auto it = solver.find("iterations"); it != solver.end()) {
    if (!it->is_number_integer()) throw fail("iterations must be an integer");
    const auto iterations = it->get<std::int64_t>();
    settings.iterations = static_cast<int>(std::clamp<std::int64_t>(iterations, -1, 1 << 20));
  }
  if (const auto it = solver.find("timestep"); it != solver.end()) {
    if (!it->is_number()) throw fail("timestep must be a number");
    settings.timestep = it->get<double>();
  }
  if (const auto it = solver.find("gravity"); it != solver.end()) {
    if (!it->is_array() || it->size() != 3) throw fail("gravity must be an array of 3 numbers");
    for (int d = 0; d < 3; ++d) {
      if (!(*it)[d].is_number()) throw fail("gravity must be an array of 3 numbers");
      settings.gravity(d) = (*it)[d].get<double>();
    }
  }
  if (const auto it = solver.find("material_model"); it != solver.end()) {
    const bool recipe = from == SolverSource::recipe;
    const auto model = !it->is_string() ? std::nullopt
                       : recipe         ? material_model_from_recipe_name(it->get<std::string>())
                                        : material_model_from_name(it->get<std::string>());
    if (!model) {
      throw fail("material_model must be " +
                 (recipe ? material_model_recipe_choices() : material_model_choices()));
    }
    settings.material_model = *model;
  }
  return settings;
}

namespace {

// M's Cholesky factorization succeeds: body by body where the bodies' modes follow one another
// through all of M and nothing couples them (an island's model, multibody/composite_model.hpp:
// one factorization of the whole is cubic in its bodies, 30 ms natively for 30 cubes), else whole.
bool mass_is_positive_definite(const ReducedModel& model) {
  const Eigen::MatrixXd& M = model.mass_block;
  Eigen::Index next = 0;
  for (const ReducedModel::Body& body : model.bodies) {
    if (4 * body.first_mode != next || body.modes < 1) next = -1;
    if (next >= 0) next += 4 * body.modes;
  }
  if (model.bodies.size() < 2 || next != M.rows()) {
    return Eigen::LLT<Eigen::MatrixXd>(M).info() == Eigen::Success;
  }
  for (const ReducedModel::Body& body : model.bodies) {
    const Eigen::Index first = 4 * body.first_mode, size = 4 * body.modes;
    const auto columns = M.middleCols(first, size);
    if ((columns.topRows(first).array() != 0.0).any() ||
        (columns.bottomRows(M.rows() - first - size).array() != 0.0).any()) {
      return Eigen::LLT<Eigen::MatrixXd>(M).info() == Eigen::Success;
    }
  }
  for (const ReducedModel::Body& body : model.bodies) {
    const Eigen::Index first = 4 * body.first_mode, size = 4 * body.modes;
    const Eigen::MatrixXd block = M.block(first, first, size, size);
    if (Eigen::LLT<Eigen::MatrixXd>(block).info() != Eigen::Success) return false;
  }
  return true;
}

}  // namespace

Eigen::Index cubature_width(const ReducedModel& model) {
  if (model.bodies.size() < 2) return 4 * model.eigenvalues.size();
  int widest = 0;
  for (const ReducedModel::Body& body : model.bodies) widest = std::max(widest, body.modes);
  return 4 * static_cast<Eigen::Index>(widest);
}

std::optional<ModelProblem> check_reduced_model(const ReducedModel& model) {
  const Eigen::Index m = model.eigenvalues.size();
  const Eigen::Index n = 4 * m;
  const Eigen::Index C = model.cubature_weights.size();
  if (m < 1) return problem("subspace.eigenvalues", "there must be at least one mode");
  if (!all_finite(model.eigenvalues)) return problem("subspace.eigenvalues", "not finite");
  if (model.mass_block.rows() != n || model.mass_block.cols() != n) {
    return problem("subspace.mass_block",
                   "is " + size_text(model.mass_block.rows(), model.mass_block.cols()) +
                       ", expected " + size_text(n, n));
  }
  if (!all_finite(model.mass_block)) return problem("subspace.mass_block", "not finite");
  const double mass_scale = model.mass_block.cwiseAbs().maxCoeff();
  if ((model.mass_block - model.mass_block.transpose()).cwiseAbs().maxCoeff() > 1e-9 * mass_scale) {
    return problem("subspace.mass_block", "is not symmetric");
  }
  if (!mass_is_positive_definite(model)) {
    return problem("subspace.mass_block",
                   "is not positive definite (a mode without mass: all its vertices pinned?)");
  }
  if (model.mass_vector.size() != n || !all_finite(model.mass_vector)) {
    return problem("subspace.mass_vector",
                   "must hold 4m = " + std::to_string(n) + " finite values");
  }
  if (model.first_moment.cols() != n || !all_finite(model.first_moment)) {
    return problem("subspace.first_moment",
                   "must be 3 x 4m = 3 x " + std::to_string(n) + " finite values");
  }
  if (!(model.total_mass > 0.0 && std::isfinite(model.total_mass))) {
    return problem("subspace.total_mass", "must be positive and finite");
  }
  if (!contact::within_coordinate_bound(model.rest_centroid)) {
    return problem("subspace.rest_centroid", contact::kBeyondCoordinateBound);
  }

  if (C < 1) return problem("cubature.weights", "there must be at least one cubature tet");
  const Eigen::Index width = cubature_width(model);
  if (model.cubature_Y.rows() != 3 * C || model.cubature_Y.cols() != width) {
    return problem("cubature.y", "holds " +
                                     size_text(model.cubature_Y.rows(), model.cubature_Y.cols()) +
                                     " rows x columns, expected " + size_text(3 * C, width));
  }
  if (!all_finite(model.cubature_Y)) return problem("cubature.y", "not finite");
  if (!(model.cubature_weights.array() > 0.0).all() || !all_finite(model.cubature_weights)) {
    return problem("cubature.weights", "must be positive and finite");
  }
  if (model.cubature_youngs.size() != C || !(model.cubature_youngs.array() > 0.0).all() ||
      !all_finite(model.cubature_youngs)) {
    return problem("cubature.youngs",
                   "must hold C = " + std::to_string(C) + " positive finite values");
  }
  if (model.cubature_poisson.size() != C ||
      !(model.cubature_poisson.array() > -1.0 && model.cubature_poisson.array() < 0.5).all()) {
    return problem("cubature.poisson",
                   "must hold C = " + std::to_string(C) + " values in (-1, 0.5)");
  }
  if (static_cast<Eigen::Index>(model.cubature_region.size()) != C) {
    return problem("cubature.region", "must hold C = " + std::to_string(C) + " values");
  }
  if (static_cast<Eigen::Index>(model.cubature_tets.size()) != C) {
    return problem("cubature.tets", "must hold C = " + std::to_string(C) + " values");
  }

  if (model.render_positions.rows() != model.render_weights.rows() ||
      (model.render_weights.rows() > 0 && model.render_weights.cols() != m)) {
    return problem("render.weights", "must be nv x m with nv the rows of render.positions");
  }
  if (!contact::within_coordinate_bound(model.render_positions))
    return problem("render.positions", contact::kBeyondCoordinateBound);
  if (!all_finite(model.render_weights)) return problem("render.weights", "not finite");

  const contact::ContactSurface& contact = model.contact;
  const Eigen::Index ns = contact.positions.rows();
  // A surface of several bodies holds each vertex's own body's weights (contact_surface.hpp).
  const bool several = !contact.part_first_mode.empty();
  if (contact.weights.rows() != ns ||
      (ns > 0 && (several ? contact.weights.cols() > m || contact.mode_count != m
                          : contact.weights.cols() != m))) {
    return problem("contact.weights", "must be ns x m with ns the rows of contact.positions");
  }
  // Positions within the scenes' bound: a surface at 1e300 m passed as finite and then failed
  // every step without saying why.
  if (!contact::within_coordinate_bound(contact.positions)) {
    return problem("contact.positions", contact::kBeyondCoordinateBound);
  }
  if (!all_finite(contact.weights)) return problem("contact.weights", "not finite");
  if (contact.triangles.size() > 0 &&
      (contact.triangles.minCoeff() < 0 || contact.triangles.maxCoeff() >= ns)) {
    return problem("contact.triangles", "vertex ids must be below ns = " + std::to_string(ns));
  }
  if (contact.samples.size() > 0 &&
      (contact.samples.minCoeff() < 0 || contact.samples.maxCoeff() >= ns)) {
    return problem("contact.samples", "vertex ids must be below ns = " + std::to_string(ns));
  }
  if (contact.areas.size() != contact.samples.size() || !all_finite(contact.areas) ||
      !(contact.areas.array() > 0.0).all()) {
    return problem("contact.areas", "must hold one positive finite area per sample");
  }

  if (!model.eigenfit.empty()) {
    if (model.bodies.size() > 1) return problem("eigenfit.modes", "needs a model of one body");
    if (auto fit_problem = check_eigenfit(model.eigenfit, model.mass_block)) {
      return problem(std::move(fit_problem->section), std::move(fit_problem->problem));
    }
  }

  for (std::size_t i = 0; i < model.loads.size(); ++i) {
    const SceneLoad& load = model.loads[i];
    const std::string prefix = "force." + std::to_string(i) + ".";
    if (load.mass_vector.size() != n || !all_finite(load.mass_vector)) {
      return problem(prefix + "mass_vector",
                     "must hold 4m = " + std::to_string(n) + " finite values");
    }
    if (load.kind != SceneLoad::Kind::springs) continue;
    if (load.mass_block.rows() != n || load.mass_block.cols() != n ||
        !all_finite(load.mass_block)) {
      return problem(prefix + "mass_block", "must be 4m x 4m finite values");
    }
    if (load.rest_offset.rows() != n || !all_finite(load.rest_offset)) {
      return problem(prefix + "rest_offset", "must be 4m x 3 finite values");
    }
  }
  return std::nullopt;
}

namespace {

// meta "mesh"'s count under `key` (the source mesh the bake wrote it from), where it says one.
std::optional<std::uint64_t> mesh_count(const nlohmann::json& meta, const char* key) {
  const auto mesh = meta.find("mesh");
  if (mesh == meta.end() || !mesh->is_object()) return std::nullopt;
  const auto count = mesh->find(key);
  if (count == mesh->end() || !count->is_number_unsigned()) return std::nullopt;
  return count->get<std::uint64_t>();
}

// The ids the stepper carries but never follows (cubature.tets and subspace.pinned name the
// source mesh's tets and vertices, cubature.region a material of meta "materials"): checked
// against what the asset says of them, so that sections which disagree are refused here, not
// passed on to a reader that trusts them.
std::optional<ModelProblem> check_references(const ReducedModel& model, const asset::Asset& asset) {
  const nlohmann::json& meta = asset.meta();
  if (const auto tets = mesh_count(meta, "tets")) {
    for (const std::uint32_t tet : model.cubature_tets) {
      if (tet >= *tets) {
        return problem("cubature.tets", "tet id " + std::to_string(tet) +
                                            " is not below the mesh's " + std::to_string(*tets) +
                                            " tets (meta mesh.tets)");
      }
    }
  }
  if (asset.has("subspace.pinned")) {
    asset.expect("subspace.pinned", DType::u32, {kAnyExtent});
    if (const auto vertices = mesh_count(meta, "vertices")) {
      for (const std::uint32_t v : asset.array<std::uint32_t>("subspace.pinned")) {
        if (v >= *vertices) {
          return problem("subspace.pinned",
                         "vertex id " + std::to_string(v) + " is not below the mesh's " +
                             std::to_string(*vertices) + " vertices (meta mesh.vertices)");
        }
      }
    }
  }
  if (model.materials.empty()) return std::nullopt;
  for (const std::uint32_t region : model.cubature_region) {
    const bool listed = std::any_of(model.materials.begin(), model.materials.end(),
                                    [&](const MaterialRegion& m) { return m.region == region; });
    if (!listed) {
      std::string regions;
      for (const MaterialRegion& m : model.materials) {
        regions += (regions.empty() ? "" : ", ") + std::to_string(m.region);
      }
      return problem("cubature.region", "region " + std::to_string(region) +
                                            " is not among meta materials' regions (" + regions +
                                            ")");
    }
  }
  return std::nullopt;
}

}  // namespace

ReducedModel load_reduced_model(const asset::Asset& asset) {
  const std::string& source = asset.source_name();
  ReducedModel model;
  model.source = source;

  const auto& eigenvalue_info = asset.expect("subspace.eigenvalues", DType::f64, {kAnyExtent});
  // Eigen's index type (32 bits in wasm): the reader has checked every shape against the file.
  const auto m = static_cast<Eigen::Index>(eigenvalue_info.shape[0]);
  const Eigen::Index n = 4 * m;
  model.eigenvalues = read_f64_vector(asset, "subspace.eigenvalues", m);

  model.mass_block = read_f64_matrix(asset, "subspace.mass_block", n, n);
  model.mass_vector = read_f64_vector(asset, "subspace.mass_vector", n);
  model.first_moment = read_f64_matrix(asset, "subspace.first_moment", 3, n);
  model.total_mass = read_f64_vector(asset, "subspace.total_mass", 1)(0);
  model.rest_centroid = read_f64_vector(asset, "subspace.rest_centroid", 3);

  const auto& y_info = asset.expect("cubature.y", DType::f64, {kAnyExtent, n, 3});
  const auto C = static_cast<Eigen::Index>(y_info.shape[0]);
  const std::vector<double> Y = asset.array<double>("cubature.y");
  model.cubature_Y.resize(3 * C, n);
  for (Eigen::Index c = 0; c < C; ++c) {
    for (Eigen::Index k = 0; k < n; ++k) {
      for (Eigen::Index j = 0; j < 3; ++j) {
        model.cubature_Y(3 * c + j, k) = Y[static_cast<std::size_t>((c * n + k) * 3 + j)];
      }
    }
  }
  model.cubature_weights = read_f64_vector(asset, "cubature.weights", C);
  model.cubature_youngs = read_f64_vector(asset, "cubature.youngs", C);
  model.cubature_poisson = read_f64_vector(asset, "cubature.poisson", C);
  asset.expect("cubature.region", DType::u32, {C});
  model.cubature_region = asset.array<std::uint32_t>("cubature.region");
  asset.expect("cubature.tets", DType::u32, {C});
  model.cubature_tets = asset.array<std::uint32_t>("cubature.tets");

  if (asset.has("render.weights")) {
    const auto& position_info = asset.expect("render.positions", DType::f32, {kAnyExtent, 3});
    const auto nv = static_cast<Eigen::Index>(position_info.shape[0]);
    asset.expect("render.weights", DType::f32, {nv, m});
    const std::vector<float> positions = asset.array<float>("render.positions");
    model.render_positions =
        Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor>>(positions.data(),
                                                                                   nv, 3)
            .cast<double>();
    const std::vector<float> weights = asset.array<float>("render.weights");
    model.render_weights = Eigen::Map<const RowMatrixXf>(weights.data(), nv, m);
  }

  if (asset.has("contact.samples")) model.contact = contact::read_contact_surface(asset, m);
  model.eigenfit = read_eigenfit(asset, static_cast<int>(m));

  model.defaults = read_solver_defaults(asset.meta(), source);
  model.materials = read_materials(asset.meta(), source);
  model.loads = read_scene_loads(asset, n);

  auto problem = check_reduced_model(model);
  if (!problem) problem = check_references(model, asset);
  if (problem) throw AssetError::in_section(source, problem->section, problem->problem);
  return model;
}

Eigen::VectorXd render_vertex_basis(const ReducedModel& model, int render_vertex) {
  if (render_vertex < 0 || render_vertex >= model.render_positions.rows()) {
    throw std::out_of_range("render vertex " + std::to_string(render_vertex) + " is not in [0, " +
                            std::to_string(model.render_positions.rows()) + ")");
  }
  const int m = model.mode_count();
  Eigen::VectorXd b(4 * m);
  const Eigen::Vector3d X = model.render_positions.row(render_vertex).transpose();
  for (int i = 0; i < m; ++i) {
    const double w = model.render_weights(render_vertex, i);
    b.segment<3>(4 * i) = w * X;
    b(4 * i + 3) = w;
  }
  return b;
}

}  // namespace smfem::sim
