#include "smfem/full/element_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace smfem::full {
namespace {

using sim::ModelProblem;

std::optional<ModelProblem> model_problem(std::string section, std::string text) {
  return ModelProblem{std::move(section), std::move(text)};
}

// values has `count` entries, each in (low, high) (low itself allowed where closed_low).
std::optional<ModelProblem> check_range(const Eigen::VectorXd& values, Eigen::Index count,
                                        const std::string& what, double low, double high,
                                        bool closed_low = false) {
  if (values.size() != count) {
    return model_problem(what, "has " + std::to_string(values.size()) + " entries, expected " +
                                   std::to_string(count));
  }
  for (Eigen::Index i = 0; i < count; ++i) {
    const double v = values(i);
    if (!((v > low || (closed_low && v == low)) && v < high)) {
      return model_problem(what, "entry " + std::to_string(i) + ": " + std::to_string(v) +
                                     " outside " + (closed_low ? "[" : "(") + std::to_string(low) +
                                     ", " + std::to_string(high) + ")");
    }
  }
  return std::nullopt;
}

std::optional<ModelProblem> check_hinges(const HingeSet& set, int n) {
  if (set.empty()) return std::nullopt;
  if (set.rest.rows() != n || !set.rest.allFinite()) {
    return model_problem("hinges",
                         "rest positions need " + std::to_string(n) + " finite rows, one per node");
  }
  for (std::size_t h = 0; h < set.hinges.size(); ++h) {
    const Hinge& hinge = set.hinges[h];
    const std::string name = "hinge " + std::to_string(h);
    for (std::size_t j = 0; j < 4; ++j) {
      const int node = hinge.nodes[j];
      if (node < 0 || node >= n) {
        return model_problem("hinges", name + " has node id " + std::to_string(node) +
                                           ", not below " + std::to_string(n));
      }
      for (std::size_t k = 0; k < j; ++k) {
        if (hinge.nodes[k] == node) return model_problem("hinges", name + " repeats a node");
      }
    }
    if (!std::isfinite(hinge.rest_angle) || !std::isfinite(hinge.stiffness) ||
        hinge.stiffness < 0.0) {
      return model_problem("hinges", name + " needs a finite rest angle and stiffness >= 0");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ModelProblem> check_element_model(const ElementModel& model) {
  const int n = model.node_count;
  const int E = model.element_count();
  if (n < 1) return model_problem("nodes", "needs at least one node");
  if (E < 1) return model_problem("elements", "needs at least one element");
  if (static_cast<int>(model.shape_gradients.size()) != E) {
    return model_problem("elements", "one shape gradient matrix per element expected");
  }
  for (int e = 0; e < E; ++e) {
    for (int j = 0; j < 4; ++j) {
      const int node = model.elements(e, j);
      if (node < 0 || node >= n) {
        return model_problem("elements", "element " + std::to_string(e) + " has node id " +
                                             std::to_string(node) + ", not below " +
                                             std::to_string(n));
      }
      for (int k = 0; k < j; ++k) {
        if (model.elements(e, k) == node) {
          return model_problem("elements", "element " + std::to_string(e) + " repeats a node");
        }
      }
    }
    if (!model.shape_gradients[static_cast<std::size_t>(e)].allFinite()) {
      return model_problem("elements",
                           "element " + std::to_string(e) + " has non-finite gradients");
    }
  }
  const double infinity = std::numeric_limits<double>::infinity();
  if (auto bad = check_range(model.weights, E, "weights", 0.0, infinity)) return bad;
  if (auto bad = check_range(model.youngs, E, "youngs", 0.0, infinity)) return bad;
  if (auto bad = check_range(model.poisson, E, "poisson", -1.0, 0.5)) return bad;
  if (auto bad = check_range(model.node_mass, n, "node mass", 0.0, infinity)) return bad;
  if (auto bad =
          check_range(model.translational_mass, n, "translational mass", 0.0, infinity, true)) {
    return bad;
  }
  if (auto bad = check_hinges(model.hinges, n)) return bad;
  std::vector<char> is_pinned(static_cast<std::size_t>(n), 0);
  for (const int v : model.pinned) {
    if (v < 0 || v >= n) {
      return model_problem("pinned",
                           "node id " + std::to_string(v) + " not below " + std::to_string(n));
    }
    is_pinned[static_cast<std::size_t>(v)] = 1;
  }
  if (std::find(is_pinned.begin(), is_pinned.end(), 0) == is_pinned.end()) {
    return model_problem("pinned", "pins every node: nothing can move");
  }
  const bool no_bending = model.bending.rows() == 0 && model.bending.cols() == 0;
  if (!no_bending && (model.bending.rows() != n || model.bending.cols() != n)) {
    return model_problem("bending", "must be " + std::to_string(n) + " x " + std::to_string(n));
  }
  for (Eigen::Index k = 0; k < model.bending.nonZeros(); ++k) {
    if (!std::isfinite(model.bending.valuePtr()[k])) return model_problem("bending", "not finite");
  }
  return std::nullopt;
}

ElementModel element_model(const FullModel& model) {
  ElementModel out;
  out.source = model.source;
  out.node_count = model.vertex_count();
  out.elements = model.tets;
  out.weights.resize(model.tet_count());
  for (int t = 0; t < model.tet_count(); ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = model.positions.row(model.tets(t, j));
    out.shape_gradients.push_back(fem::linear_tet_dphi_dX(X));
    out.weights(t) = fem::linear_tet_volume(X);
  }
  out.youngs = model.youngs;
  out.poisson = model.poisson;
  out.node_mass = lumped_vertex_mass(model);
  out.translational_mass = out.node_mass;
  out.pinned = model.pinned;
  out.defaults = model.defaults;
  return out;
}

}  // namespace smfem::full
