#include "smfem/sim/eigenfit_term.hpp"

#include <algorithm>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "smfem/polar/stretch_vector.hpp"

namespace smfem::sim {

EigenFitTerm::EigenFitTerm(const ReducedModel& model)
    : model_(model), block_size_(4 * model.mode_count()) {
  const EigenFitData& fit = model.eigenfit;
  if (fit.empty()) return;
  if (model.bodies.size() > 1) {
    throw std::invalid_argument("EigenFit needs a model of one body");
  }
  const int s = fit.mode_count();
  const int C = model.cubature_count();
  const Eigen::Index n = block_size_;
  modal_strain_.resize(6 * s, C);
  ReducedMatrix mode(n, 3);
  for (int i = 0; i < s; ++i) {
    for (Eigen::Index d = 0; d < 3; ++d) mode.col(d) = fit.modes.col(i).segment(d * n, n);
    for (int c = 0; c < C; ++c) {
      modal_strain_.block<6, 1>(6 * i, c) = polar::stretch_from_matrix(
          Matrix3<double>(displacement_gradient(model.cubature_Y, c, mode)));
    }
  }
  stress_.setZero(6 * s, C);
  weights_.setZero(s);
  stacked_.setZero(3 * C, 3 * s);
  coupling_.setZero(n, 3 * s);
}

void EigenFitTerm::update_materials(MaterialModel material, const std::vector<Lame>& lame) {
  if (empty()) return;
  const EigenFitData& fit = model_.eigenfit;
  const int s = mode_count();
  const int C = model_.cubature_count();
  const Vector6<double> rest = polar::identity_stretch<double>();
  // Unrotated A_c = H0_c E_c U_s, and S = sum_c w_c (E_c U_s)^T A_c.
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(s, s);
  for (int c = 0; c < C; ++c) {
    const Matrix6<double> H = d2psi_ds2_psd(material, rest, lame[static_cast<std::size_t>(c)]);
    const Eigen::Map<const Eigen::MatrixXd> strain(modal_strain_.col(c).data(), 6, s);
    Eigen::Map<Eigen::MatrixXd> stress(stress_.col(c).data(), 6, s);
    stress.noalias() = H * strain;
    S.noalias() += model_.cubature_weights(c) * (strain.transpose() * stress);
  }
  S = 0.5 * (S + S.transpose());
  const Eigen::VectorXd excess = fit.ratios.array() - 1.0;
  Eigen::MatrixXd rotation = Eigen::MatrixXd::Identity(s, s);
  if (excess.cwiseAbs().maxCoeff() == 0.0) {
    // Every ratio 1: no correction, exactly (the step is then the uncorrected one bit for bit).
    weights_.setZero();
  } else {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> stiffness(S);
    const Eigen::VectorXd& values = stiffness.eigenvalues();
    if (stiffness.info() != Eigen::Success || !(values(0) > kNullEigenvalue * values(s - 1))) {
      // A fitted mode without rest energy under these materials: nothing to scale.
      weights_.setZero();
    } else {
      const Eigen::MatrixXd inverse_root = stiffness.eigenvectors() *
                                           values.cwiseSqrt().cwiseInverse().asDiagonal() *
                                           stiffness.eigenvectors().transpose();
      const Eigen::MatrixXd G = inverse_root * excess.asDiagonal() * inverse_root;
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> split(0.5 * (G + G.transpose()));
      weights_ = split.eigenvalues();
      rotation = split.eigenvectors();
    }
  }
  for (int c = 0; c < C; ++c) {
    Eigen::Map<Eigen::MatrixXd> stress(stress_.col(c).data(), 6, s);
    stress = (stress * rotation).eval();
  }
}

void EigenFitTerm::measure(const StretchField& z, Eigen::VectorXd& alpha) const {
  const int s = mode_count();
  alpha.setZero(s);
  const Vector6<double> rest = polar::identity_stretch<double>();
  for (Eigen::Index c = 0; c < z.cols(); ++c) {
    const Eigen::Map<const Eigen::MatrixXd> stress(stress_.col(c).data(), 6, s);
    const Vector6<double> strain = z.col(c) - rest;
    alpha.noalias() += model_.cubature_weights(c) * (stress.transpose() * strain);
  }
}

double EigenFitTerm::energy(const Eigen::VectorXd& alpha) const {
  return 0.5 * alpha.dot(weights_.cwiseProduct(alpha));
}

Vector6<double> EigenFitTerm::stress(int tet, const Eigen::VectorXd& alpha) const {
  const Eigen::Map<const Eigen::MatrixXd> stress(stress_.col(tet).data(), 6, mode_count());
  return stress * weights_.cwiseProduct(alpha);
}

void EigenFitTerm::set_tet_jacobian(int tet, const Matrix6x9<double>& jacobian) {
  const double w = model_.cubature_weights(tet);
  for (int i = 0; i < mode_count(); ++i) {
    const Vector9<double> P = jacobian.transpose() * stress_.block<6, 1>(6 * i, tet);
    for (int j = 0; j < 3; ++j) {
      for (int d = 0; d < 3; ++d) stacked_(3 * tet + j, 3 * i + d) = w * P(d + 3 * j);
    }
  }
}

void EigenFitTerm::assemble(parallel::ThreadPool& pool) {
  const int s = mode_count();
  const CubatureRows& Y = model_.cubature_Y;
  // B = sum over the rows rho of Yhat of Yhat(rho, :)^T stacked(rho, :): rank-1 updates in row
  // order, one pass over Yhat per chunk of modes (a chunk per thread). Every column of B is
  // summed in the same order whatever the chunks, so results do not depend on the thread
  // count; no product kernel, no allocation.
  const int chunks = std::min(pool.thread_count(), s);
  pool.parallel_for(chunks, [&](int chunk) {
    const int first = s * chunk / chunks;
    const int count = s * (chunk + 1) / chunks - first;
    auto B = coupling_.middleCols(3 * first, 3 * count);
    B.setZero();
    for (Eigen::Index row = 0; row < Y.rows(); ++row) {
      B.noalias() += Y.row(row).transpose() * stacked_.row(row).segment(3 * first, 3 * count);
    }
  });
}

void EigenFitTerm::coupling_transpose_times(const ReducedMatrix& dU, Eigen::VectorXd& out) const {
  const Eigen::Map<const Eigen::VectorXd> du(dU.data(), 3 * block_size_);
  out.noalias() = coupling().transpose() * du;
}

void EigenFitTerm::add_to_lower(Eigen::Ref<Eigen::MatrixXd> system) const {
  const Eigen::Map<const Eigen::MatrixXd> B = coupling();
  for (int i = 0; i < mode_count(); ++i) {
    system.selfadjointView<Eigen::Lower>().rankUpdate(B.col(i), weights_(i));
  }
}

}  // namespace smfem::sim
