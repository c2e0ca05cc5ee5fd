#include "smfem/local/local_system.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace smfem::local {

LocalSystem::LocalSystem(sim::ReducedSystem& body, int cubature_count,
                         const LocalDynamics& dynamics)
    : body_(body),
      cubature_count_(cubature_count),
      dynamics_(dynamics),
      patches_(dynamics.patches()),
      hessian_(static_cast<std::size_t>(patches_.tet_count()), Matrix9<double>::Zero()),
      gradient_(static_cast<std::size_t>(patches_.tet_count()), Matrix3<double>::Zero()) {
  const int n = patches_.global_rows(), P = patches_.patch_count();
  if (dynamics.global().hessian_block().rows() != n || cubature_count < 1) {
    throw std::invalid_argument("LocalSystem: the body's dynamics are " +
                                std::to_string(dynamics.global().hessian_block().rows()) +
                                " rows wide, the patches' global rows " + std::to_string(n));
  }
  local_block_.setZero(3 * P, 3 * P);
  local_force_.setZero(P, 3);
  matrix_.setZero(3 * n + 3 * P, 3 * n + 3 * P);
  spd_.emplace(3 * n + 3 * P);
  rhs_.setZero(n + P, 3);
  rhs_vector_.setZero(3 * n + 3 * P);
  solution_.setZero(3 * n + 3 * P);
}

void LocalSystem::set_tet_hessian(int tet, const Matrix9<double>& hessian) {
  if (tet < cubature_count_) {
    body_.set_tet_hessian(tet, hessian);
    return;
  }
  hessian_[static_cast<std::size_t>(tet - cubature_count_)] = hessian;
}

void LocalSystem::set_tet_gradient(int tet, const Matrix3<double>& gradient) {
  if (tet < cubature_count_) {
    body_.set_tet_gradient(tet, gradient);
    return;
  }
  gradient_[static_cast<std::size_t>(tet - cubature_count_)] = gradient;
}

void LocalSystem::assemble(parallel::ThreadPool& pool) {
  body_.assemble(pool);
  assemble_local();
  pool_ = &pool;
}

void LocalSystem::assemble_local() {
  local_block_.setZero();
  local_force_.setZero();
  // Per tet, its fields' dF/dc side by side (9 x 3k for the k patches that reach it): its block
  // of K_cc is one product v G^T Q G, added where its patches' rows meet (column by column, with
  // the resting bunny's 48 patches this took 17 % of the steps). The buffers hold the widest
  // tet's, so that no tet allocates.
  std::size_t widest = 0;
  for (int e = 0; e < patches_.tet_count(); ++e) {
    widest = std::max(widest, patches_.local_gradients(e).size());
  }
  Eigen::Matrix<double, 9, Eigen::Dynamic> G(9, 3 * widest), QG(9, 3 * widest);
  Eigen::MatrixXd block(3 * widest, 3 * widest);
  for (int e = 0; e < patches_.tet_count(); ++e) {
    const auto index = static_cast<std::size_t>(e);
    const double v = patches_.weight(e);
    const std::vector<PatchSet::LocalGradient>& local = patches_.local_gradients(e);
    const auto width = static_cast<Eigen::Index>(3 * local.size());
    for (std::size_t i = 0; i < local.size(); ++i) {
      for (int a = 0; a < 3; ++a) {
        G.col(static_cast<Eigen::Index>(3 * i) + a) =
            Eigen::Map<const Vector9<double>>(local[i].G[static_cast<std::size_t>(a)].data());
      }
    }
    const Vector9<double> force = v * Eigen::Map<const Vector9<double>>(gradient_[index].data());
    // Lazy (coefficient-wise) products: at these sizes (9 deep, 3 to 9 wide) Eigen's default is
    // its blocked GEMM, which packs both operands on every call (and in wasm has no vectors).
    QG.leftCols(width).noalias() = (v * hessian_[index]).lazyProduct(G.leftCols(width));
    block.topLeftCorner(width, width).noalias() =
        G.leftCols(width).transpose().lazyProduct(QG.leftCols(width));
    for (std::size_t i = 0; i < local.size(); ++i) {
      const auto column = static_cast<Eigen::Index>(3 * i);
      local_force_.row(local[i].patch) += (G.middleCols<3>(column).transpose() * force).transpose();
      for (std::size_t j = 0; j < local.size(); ++j) {
        local_block_.block<3, 3>(3 * local[j].patch, 3 * local[i].patch) +=
            block.block<3, 3>(static_cast<Eigen::Index>(3 * j), column);
      }
    }
  }
}

int LocalSystem::solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& du) {
  const int n = patches_.global_rows(), P = patches_.patch_count();
  rhs_ = -dynamics_gradient;
  rhs_.topRows(n) -= body_.force();
  rhs_.bottomRows(P) -= local_force_;
  for (int d = 0; d < 3; ++d) rhs_vector_.segment(d * n, n) = rhs_.col(d).head(n);
  for (int p = 0; p < P; ++p) rhs_vector_.segment<3>(3 * n + 3 * p) = rhs_.row(n + p).transpose();
  body_.write_single_body_lower(matrix_.topLeftCorner(3 * n, 3 * n));
  for (int d = 0; d < 3; ++d) {
    matrix_.block(3 * n, d * n, 3 * P, n) = dynamics_.coupling_hessian(d).transpose();
  }
  matrix_.bottomRightCorner(3 * P, 3 * P) = dynamics_.local_hessian() + local_block_;
  if (contact_ != nullptr) contact_->add_to_lower(matrix_);
  const int shifts = spd_->solve(matrix_, rhs_vector_, solution_, pool_);
  du.resize(n + P, 3);
  for (int d = 0; d < 3; ++d) du.col(d).head(n) = solution_.segment(d * n, n);
  for (int p = 0; p < P; ++p) du.row(n + p) = solution_.segment<3>(3 * n + 3 * p).transpose();
  return shifts;
}

}  // namespace smfem::local
