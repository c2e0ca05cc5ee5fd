#include "smfem/full/full_model.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "smfem/asset/asset_error.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/model/detail/asset_arrays.hpp"

namespace smfem::full {
namespace {

using asset::AssetError;
using asset::DType;
using asset::kAnyExtent;
using sim::ModelProblem;

std::optional<ModelProblem> problem(std::string section, std::string text) {
  return ModelProblem{std::move(section), std::move(text)};
}

}  // namespace

std::optional<ModelProblem> check_full_model(const FullModel& model) {
  const int n = model.vertex_count();
  const int T = model.tet_count();
  if (n < 4) return problem("mesh.positions", "needs at least 4 vertices");
  if (!contact::within_coordinate_bound(model.positions)) {
    return problem("mesh.positions", contact::kBeyondCoordinateBound);
  }
  if (T < 1) return problem("mesh.tets", "needs at least one tet");
  for (int t = 0; t < T; ++t) {
    const auto row = model.tets.row(t);
    for (int j = 0; j < 4; ++j) {
      if (row(j) < 0 || row(j) >= n) {
        return problem("mesh.tets", "tet " + std::to_string(t) + " has vertex id " +
                                        std::to_string(row(j)) + ", not below " +
                                        std::to_string(n));
      }
      for (int k = 0; k < j; ++k) {
        if (row(j) == row(k)) {
          return problem("mesh.tets", "tet " + std::to_string(t) + " repeats a vertex");
        }
      }
    }
    if (!(fem::linear_tet_volume(tet_corners(model, t)) > 0.0)) {
      return problem("mesh.tets", "tet " + std::to_string(t) +
                                      " has no positive volume (inverted or degenerate)");
    }
  }
  const auto check_per_tet = [&](const Eigen::VectorXd& values, const std::string& section,
                                 double low, double high) -> std::optional<ModelProblem> {
    if (values.size() != T) {
      return problem(section, "has " + std::to_string(values.size()) + " entries, expected " +
                                  std::to_string(T));
    }
    for (int t = 0; t < T; ++t) {
      if (!(values(t) > low && values(t) < high)) {
        return problem(section, "tet " + std::to_string(t) + ": " + std::to_string(values(t)) +
                                    " outside (" + std::to_string(low) + ", " +
                                    std::to_string(high) + ")");
      }
    }
    return std::nullopt;
  };
  const double infinity = std::numeric_limits<double>::infinity();
  if (auto bad = check_per_tet(model.youngs, "mesh.youngs", 0.0, infinity)) return bad;
  if (auto bad = check_per_tet(model.poisson, "mesh.poisson", -1.0, 0.5)) return bad;
  if (auto bad = check_per_tet(model.density, "mesh.density", 0.0, infinity)) return bad;
  if (model.weights.size() > 0) {
    if (model.weights.rows() != n) {
      return problem("mesh.weights", "has " + std::to_string(model.weights.rows()) +
                                         " rows, expected one per vertex (" + std::to_string(n) +
                                         ")");
    }
    if (!model.weights.allFinite()) return problem("mesh.weights", "not finite");
  }
  std::vector<char> is_pinned(static_cast<std::size_t>(n), 0);
  for (const int v : model.pinned) {
    if (v < 0 || v >= n) {
      return problem("subspace.pinned",
                     "vertex id " + std::to_string(v) + " not below " + std::to_string(n));
    }
    is_pinned[static_cast<std::size_t>(v)] = 1;
  }
  if (std::find(is_pinned.begin(), is_pinned.end(), 0) == is_pinned.end()) {
    return problem("subspace.pinned", "pins every vertex: nothing can move");
  }
  return std::nullopt;
}

fem::TetCorners tet_corners(const FullModel& model, int tet) {
  fem::TetCorners X;
  for (int j = 0; j < 4; ++j) X.row(j) = model.positions.row(model.tets(tet, j));
  return X;
}

Eigen::VectorXd vertex_basis(const FullModel& model, int vertex) {
  const Eigen::Index modes = model.weights.cols();
  Eigen::VectorXd b(4 * modes);
  for (Eigen::Index i = 0; i < modes; ++i) {
    const double w = static_cast<double>(model.weights(vertex, i));
    b.segment<4>(4 * i) << w * model.positions.row(vertex).transpose(), w;
  }
  return b;
}

Eigen::VectorXd lumped_vertex_mass(const FullModel& model) {
  Eigen::VectorXd mass = Eigen::VectorXd::Zero(model.vertex_count());
  for (int t = 0; t < model.tet_count(); ++t) {
    const double share = model.density(t) * fem::linear_tet_volume(tet_corners(model, t)) / 4.0;
    for (int j = 0; j < 4; ++j) mass(model.tets(t, j)) += share;
  }
  return mass;
}

FullModel load_full_model(const asset::Asset& asset) {
  FullModel model;
  model.source = asset.source_name();
  if (!asset.has("mesh.positions")) {
    throw AssetError::in_section(model.source, "mesh.positions",
                                 "missing: the full-space solvers need the tet mesh (bake with "
                                 "smfem-bake --full-mesh)");
  }
  const std::int64_t n = asset.expect("mesh.positions", DType::f64, {kAnyExtent, 3}).shape[0];
  const std::int64_t T = asset.expect("mesh.tets", DType::u32, {kAnyExtent, 4}).shape[0];
  model.positions = sim::detail::read_f64_matrix(asset, "mesh.positions", n, 3);
  const std::vector<std::uint32_t> tets = asset.array<std::uint32_t>("mesh.tets");
  model.tets = Eigen::Map<const Eigen::Matrix<std::uint32_t, Eigen::Dynamic, 4, Eigen::RowMajor>>(
                   tets.data(), static_cast<Eigen::Index>(T), 4)
                   .cast<std::int64_t>()
                   .cwiseMin(std::int64_t{1} << 30)  // out-of-range ids stay out of range
                   .cast<int>();
  model.youngs = sim::detail::read_f64_vector(asset, "mesh.youngs", T);
  model.poisson = sim::detail::read_f64_vector(asset, "mesh.poisson", T);
  model.density = sim::detail::read_f64_vector(asset, "mesh.density", T);
  if (asset.has("mesh.weights")) {
    const auto& shape = asset.expect("mesh.weights", DType::f32, {kAnyExtent, kAnyExtent}).shape;
    const std::vector<float> weights = asset.array<float>("mesh.weights");
    model.weights = Eigen::Map<const sim::RowMatrixXf>(
        weights.data(), static_cast<Eigen::Index>(shape[0]), static_cast<Eigen::Index>(shape[1]));
  }
  if (asset.has("subspace.pinned")) {
    asset.expect("subspace.pinned", DType::u32, {kAnyExtent});
    for (const std::uint32_t v : asset.array<std::uint32_t>("subspace.pinned")) {
      model.pinned.push_back(static_cast<int>(std::min<std::uint32_t>(v, 1u << 30)));
    }
  }
  model.defaults = sim::read_solver_defaults(asset.meta(), model.source);
  if (const auto bad = check_full_model(model)) {
    throw AssetError::in_section(model.source, bad->section, bad->problem);
  }
  return model;
}

}  // namespace smfem::full
