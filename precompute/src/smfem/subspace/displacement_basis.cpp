#include "smfem/subspace/displacement_basis.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>

namespace smfem::subspace {
namespace {

void check_basis_rows(const char* caller, Eigen::Index rows, Eigen::Index vertices) {
  if (rows != 3 * vertices) {
    throw std::invalid_argument(std::string(caller) + ": the basis has " + std::to_string(rows) +
                                " rows, expected 3 x " + std::to_string(vertices) + " vertices");
  }
}

}  // namespace

Eigen::VectorXd unknown_mass(const Eigen::Ref<const Eigen::VectorXd>& mass) {
  return mass.replicate(1, 3).transpose().reshaped();
}

Eigen::MatrixXd skinning_displacement_basis(const Eigen::Ref<const RowMatrixXd>& B) {
  const Eigen::Index n = B.rows();
  const Eigen::Index r4 = B.cols();
  Eigen::MatrixXd Phi = Eigen::MatrixXd::Zero(3 * n, 3 * r4);
  for (Eigen::Index v = 0; v < n; ++v) {
    for (int d = 0; d < 3; ++d) Phi.row(3 * v + d).segment(d * r4, r4) = B.row(v);
  }
  return Phi;
}

OrthonormalColumns mass_orthonormalize(const Eigen::Ref<const Eigen::MatrixXd>& columns,
                                       const Eigen::Ref<const Eigen::VectorXd>& mass,
                                       double drop_tolerance) {
  const char* caller = "mass_orthonormalize";
  check_basis_rows(caller, columns.rows(), mass.size());
  if (!(drop_tolerance > 0.0 && drop_tolerance < 1.0)) {
    throw std::invalid_argument(std::string(caller) + ": drop_tolerance is " +
                                std::to_string(drop_tolerance) + ", must lie in (0, 1)");
  }
  if (!columns.allFinite()) {
    throw std::invalid_argument(std::string(caller) + ": a column is not finite");
  }
  const Eigen::VectorXd M = unknown_mass(mass);
  OrthonormalColumns result;
  result.basis.resize(columns.rows(), 0);
  for (Eigen::Index c = 0; c < columns.cols(); ++c) {
    Eigen::VectorXd x = columns.col(c);
    const double norm = std::sqrt(x.dot(M.cwiseProduct(x)));
    if (!(norm > 0.0)) continue;
    for (int pass = 0; pass < 2; ++pass) {
      for (Eigen::Index k = 0; k < result.basis.cols(); ++k) {
        x -= result.basis.col(k).dot(M.cwiseProduct(x)) * result.basis.col(k);
      }
    }
    const double remainder = std::sqrt(x.dot(M.cwiseProduct(x)));
    if (!(remainder > drop_tolerance * norm)) continue;
    result.basis.conservativeResize(Eigen::NoChange, result.basis.cols() + 1);
    result.basis.rightCols<1>() = x / remainder;
    result.kept.push_back(static_cast<int>(c));
  }
  return result;
}

Eigen::VectorXd mass_projection(const Eigen::Ref<const Eigen::MatrixXd>& basis,
                                const Eigen::Ref<const Eigen::VectorXd>& mass,
                                const Eigen::Ref<const Eigen::VectorXd>& displacement) {
  const char* caller = "mass_projection";
  check_basis_rows(caller, basis.rows(), mass.size());
  check_basis_rows(caller, displacement.size(), mass.size());
  const Eigen::VectorXd M = unknown_mass(mass);
  const Eigen::MatrixXd MPhi = M.asDiagonal() * basis;
  const Eigen::LLT<Eigen::MatrixXd> gram(basis.transpose() * MPhi);
  if (gram.info() != Eigen::Success) {
    throw std::invalid_argument(std::string(caller) +
                                ": the basis's mass matrix is not positive definite (dependent "
                                "columns?)");
  }
  return gram.solve(MPhi.transpose() * displacement);
}

}  // namespace smfem::subspace
