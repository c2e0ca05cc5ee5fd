#include "smfem/subspace/detail/check_inputs.hpp"

#include <cmath>
#include <stdexcept>

#include "smfem/fem/linear_tet.hpp"

namespace smfem::subspace::detail {

void check_tet_mesh(const char* caller, const mesh::TetMesh& mesh) {
  const Eigen::Index vertex_count = mesh.vertices.rows();
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) {
      const int v = mesh.tets(t, j);
      if (v < 0 || v >= vertex_count) {
        throw std::invalid_argument(std::string(caller) + ": tet " + std::to_string(t) +
                                    " names vertex " + std::to_string(v) + " of " +
                                    std::to_string(vertex_count));
      }
      X.row(j) = mesh.vertices.row(v);
    }
    const double volume = fem::linear_tet_volume(X);
    if (!(volume > 0.0) || !std::isfinite(volume)) {
      throw std::invalid_argument(std::string(caller) + ": tet " + std::to_string(t) +
                                  " has non-positive or non-finite rest volume");
    }
  }
}

void check_size(const char* caller, const char* what, Eigen::Index size, Eigen::Index expected) {
  if (size != expected) {
    throw std::invalid_argument(std::string(caller) + ": " + what + " has " + std::to_string(size) +
                                " entries, expected " + std::to_string(expected));
  }
}

void check_positive(const char* caller, const char* what,
                    const Eigen::Ref<const Eigen::VectorXd>& values) {
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (!(values(i) > 0.0) || !std::isfinite(values(i))) {
      throw std::invalid_argument(std::string(caller) + ": " + what + " " + std::to_string(i) +
                                  " is " + std::to_string(values(i)) +
                                  ", must be positive and finite");
    }
  }
}

void check_materials(const char* caller, Eigen::Index tet_count,
                     const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
                     const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio) {
  check_size(caller, "youngs_modulus", youngs_modulus.size(), tet_count);
  check_size(caller, "poisson_ratio", poisson_ratio.size(), tet_count);
  check_positive(caller, "Young's modulus of tet", youngs_modulus);
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    if (!(poisson_ratio(t) > -1.0 && poisson_ratio(t) < 0.5)) {
      throw std::invalid_argument(std::string(caller) + ": Poisson ratio of tet " +
                                  std::to_string(t) + " is " + std::to_string(poisson_ratio(t)) +
                                  ", must lie in (-1, 1/2)");
    }
  }
}

FreeVertices free_vertices(const char* caller, const Eigen::Ref<const Eigen::VectorXd>& mass,
                           const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices) {
  const auto n = static_cast<int>(mass.size());
  FreeVertices split{std::vector<bool>(n, false), std::vector<int>(n, -1), {}};
  for (Eigen::Index p = 0; p < pinned_vertices.size(); ++p) {
    const int v = pinned_vertices(p);
    if (v < 0 || v >= n) {
      throw std::invalid_argument(std::string(caller) + ": pinned vertex " + std::to_string(v) +
                                  " is not in 0.." + std::to_string(n - 1));
    }
    split.pinned[v] = true;
  }
  for (int v = 0; v < n; ++v) {
    if (split.pinned[v]) continue;
    if (!(mass(v) > 0.0) || !std::isfinite(mass(v))) {
      throw std::invalid_argument(std::string(caller) + ": free vertex " + std::to_string(v) +
                                  " has mass " + std::to_string(mass(v)) +
                                  " (a vertex used by no tet has mass 0: pin it or drop it)");
    }
    split.free_index[v] = static_cast<int>(split.vertices.size());
    split.vertices.push_back(v);
  }
  return split;
}

std::vector<int> FreeVertices::free_unknowns() const {
  std::vector<int> index(3 * free_index.size(), -1);
  for (std::size_t v = 0; v < free_index.size(); ++v) {
    if (free_index[v] < 0) continue;
    for (int d = 0; d < 3; ++d) index[3 * v + d] = 3 * free_index[v] + d;
  }
  return index;
}

Eigen::VectorXd FreeVertices::free_unknown_mass(
    const Eigen::Ref<const Eigen::VectorXd>& mass) const {
  Eigen::VectorXd result(3 * static_cast<Eigen::Index>(vertices.size()));
  for (std::size_t f = 0; f < vertices.size(); ++f) {
    result.segment<3>(3 * static_cast<Eigen::Index>(f)).setConstant(mass(vertices[f]));
  }
  return result;
}

}  // namespace smfem::subspace::detail
