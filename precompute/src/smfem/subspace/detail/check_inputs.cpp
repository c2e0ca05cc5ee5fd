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

}  // namespace smfem::subspace::detail
