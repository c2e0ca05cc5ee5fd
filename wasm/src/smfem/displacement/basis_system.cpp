#include "smfem/displacement/basis_system.hpp"

#include <algorithm>

namespace smfem::displacement {

BasisSystem::BasisSystem(const BasisDeformation& deformation, const BasisDynamics& dynamics)
    : deformation_(deformation),
      dynamics_(dynamics),
      hessians_(static_cast<std::size_t>(deformation.tet_count())),
      gradients_(static_cast<std::size_t>(deformation.tet_count())),
      solver_(deformation.coordinate_count()) {
  const int k = deformation.coordinate_count();
  const int chunks = (deformation.tet_count() + kChunkTets - 1) / kChunkTets;
  chunk_stiffness_.assign(static_cast<std::size_t>(chunks), Eigen::MatrixXd::Zero(k, k));
  chunk_force_.assign(static_cast<std::size_t>(chunks), Eigen::VectorXd::Zero(k));
  stiffness_.setZero(k, k);
  force_.setZero(k);
  matrix_.setZero(k, k);
  solution_.setZero(k);
  rhs_.setZero(k, 3);
}

void BasisSystem::set_tet_hessian(int tet, const Matrix9<double>& hessian) {
  hessians_[static_cast<std::size_t>(tet)] = deformation_.weights()(tet) * hessian;
}

void BasisSystem::set_tet_gradient(int tet, const Matrix3<double>& gradient) {
  gradients_[static_cast<std::size_t>(tet)] =
      deformation_.weights()(tet) * Eigen::Map<const Vector9<double>>(gradient.data());
}

void BasisSystem::assemble(parallel::ThreadPool& pool) {
  const int T = deformation_.tet_count();
  const int k = deformation_.coordinate_count();
  const auto chunks = static_cast<int>(chunk_stiffness_.size());
  const int threads = std::min(pool.thread_count(), std::max(chunks, 1));
  pool.parallel_for(threads, [&](int thread) {
    Eigen::MatrixXd J(9 * kChunkTets, k);
    Eigen::MatrixXd QJ(9 * kChunkTets, k);
    Eigen::VectorXd p(9 * kChunkTets);
    TetJacobian J_t(9, k);
    for (int chunk = thread; chunk < chunks; chunk += threads) {
      const int begin = chunk * kChunkTets;
      const int count = std::min(kChunkTets, T - begin);
      for (int c = 0; c < count; ++c) {
        const auto t = static_cast<std::size_t>(begin + c);
        deformation_.jacobian(begin + c, J_t);
        J.middleRows<9>(9 * c) = J_t;
        QJ.middleRows<9>(9 * c).noalias() = hessians_[t] * J_t;
        p.segment<9>(9 * c) = gradients_[t];
      }
      chunk_stiffness_[static_cast<std::size_t>(chunk)].noalias() =
          J.topRows(9 * count).transpose() * QJ.topRows(9 * count);
      chunk_force_[static_cast<std::size_t>(chunk)].noalias() =
          J.topRows(9 * count).transpose() * p.head(9 * count);
    }
  });
  stiffness_.setZero();
  force_.setZero();
  for (int chunk = 0; chunk < chunks; ++chunk) {
    stiffness_ += chunk_stiffness_[static_cast<std::size_t>(chunk)];
    force_ += chunk_force_[static_cast<std::size_t>(chunk)];
  }
}

int BasisSystem::solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& dU) {
  rhs_.setZero();
  rhs_.col(0) = -(dynamics_gradient.col(0) + force_);
  const double inverse_h2 = 1.0 / (dynamics_.timestep() * dynamics_.timestep());
  matrix_ = inverse_h2 * dynamics_.reduced_mass() + stiffness_;
  const int shifts = solver_.solve(matrix_, rhs_.col(0), solution_);
  dU.setZero();
  if (shifts >= 0) dU.col(0) = solution_;
  return shifts;
}

}  // namespace smfem::displacement
