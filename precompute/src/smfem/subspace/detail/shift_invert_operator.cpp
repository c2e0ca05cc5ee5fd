#include "smfem/subspace/detail/shift_invert_operator.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace smfem::subspace::detail {

ShiftInvertOperator::ShiftInvertOperator(const char* caller, const Eigen::SparseMatrix<double>& H,
                                         const Eigen::VectorXd& mass, DissectionTree tree,
                                         int threads)
    : caller_(caller),
      H_(H),
      mass_(mass),
      sqrt_mass_(mass.cwiseSqrt()),
      deflated_(H.rows(), 0),
      tree_(std::move(tree)),
      threads_(threads) {}

void ShiftInvertOperator::set_shift(const double& sigma) {
  if (factored_shift_ == sigma) return;
  Eigen::SparseMatrix<double> shifted = H_;
  shifted.diagonal() -= sigma * mass_;
  try {
    cholesky_.factor(shifted, tree_, threads_);
  } catch (const std::runtime_error&) {
    throw std::runtime_error(std::string(caller_) +
                             ": sparse Cholesky of H - sigma M failed (H is not positive "
                             "semi-definite, or its entries are not finite)");
  }
  factored_shift_ = sigma;
}

void ShiftInvertOperator::deflate(const Eigen::Ref<const Eigen::MatrixXd>& vectors) {
  for (Eigen::Index c = 0; c < vectors.cols(); ++c) {
    Eigen::VectorXd v = vectors.col(c);
    project(v);
    deflated_.conservativeResize(Eigen::NoChange, deflated_.cols() + 1);
    deflated_.rightCols<1>() = v.normalized();
  }
}

void ShiftInvertOperator::project(Eigen::Ref<Eigen::VectorXd> x) const {
  if (deflated_.cols() > 0) x -= deflated_ * (deflated_.transpose() * x);
}

void ShiftInvertOperator::perform_op(const double* x_in, double* y_out) const {
  work_ = Eigen::Map<const Eigen::VectorXd>(x_in, rows());
  project(work_);
  work_.array() *= sqrt_mass_.array();
  cholesky_.solve(work_);
  work_.array() *= sqrt_mass_.array();
  project(work_);
  Eigen::Map<Eigen::VectorXd>(y_out, rows()) = work_;
}

}  // namespace smfem::subspace::detail
