#include "smfem/subspace/detail/shift_invert_operator.hpp"

#include <stdexcept>

namespace smfem::subspace::detail {

ShiftInvertOperator::ShiftInvertOperator(const Eigen::SparseMatrix<double>& H,
                                         const Eigen::VectorXd& mass,
                                         const Eigen::MatrixXd& null_vectors)
    : H_(H), mass_(mass), null_vectors_(null_vectors), sqrt_mass_(mass.cwiseSqrt()) {}

void ShiftInvertOperator::set_shift(const double& sigma) {
  Eigen::SparseMatrix<double> shifted = H_;
  shifted.diagonal() -= sigma * mass_;
  cholesky_.compute(shifted);
  if (cholesky_.info() != Eigen::Success) {
    throw std::runtime_error(
        "skinning_eigenmodes: sparse Cholesky of H - sigma M failed (the Laplacian is not "
        "positive semi-definite, or its entries are not finite)");
  }
}

void ShiftInvertOperator::project(Eigen::Ref<Eigen::VectorXd> x) const {
  if (null_vectors_.cols() > 0) x -= null_vectors_ * (null_vectors_.transpose() * x);
}

void ShiftInvertOperator::perform_op(const double* x_in, double* y_out) const {
  work_ = Eigen::Map<const Eigen::VectorXd>(x_in, rows());
  project(work_);
  work_ = cholesky_.solve(work_.cwiseProduct(sqrt_mass_)).cwiseProduct(sqrt_mass_);
  project(work_);
  Eigen::Map<Eigen::VectorXd>(y_out, rows()) = work_;
}

}  // namespace smfem::subspace::detail
