#include "smfem/sim/step/eigenfit_term.hpp"

#include <algorithm>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "smfem/sim/eigenfit.hpp"

#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/kernels/detail/gemm_tile.hpp"

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
  current_strain_.setZero(6 * s, C);
  hessians_.resize(static_cast<std::size_t>(C));
  anchor_ = polar::identity_stretch<double>().replicate(1, C);
  weights_.setZero(s);
  linear_.setZero(s);
  current_modes_ = fit.modes;
  constexpr int kCols = detail::kTileCols<double>;
  stride_ = (3 * s + kCols - 1) / kCols * kCols;
  stacked_.assign(static_cast<std::size_t>(3 * C) * static_cast<std::size_t>(stride_), 0.0);
  coupling_.setZero(n, 3 * s);
  const int row_tiles = (static_cast<int>(n) + detail::kTileRows - 1) / detail::kTileRows;
  tile_sums_.assign(
      static_cast<std::size_t>(row_tiles) * static_cast<std::size_t>(stride_) * detail::kTileRows,
      0.0);
}

void EigenFitTerm::update_materials(MaterialModel material, const std::vector<Lame>& lame) {
  if (empty()) return;
  material_ = material;
  lame_ = lame;
  const Vector6<double> rest = polar::identity_stretch<double>();
  for (int c = 0; c < model_.cubature_count(); ++c) {
    hessians_[static_cast<std::size_t>(c)] =
        d2psi_ds2_psd(material, rest, lame[static_cast<std::size_t>(c)]);
  }
  anchor_ = rest.replicate(1, model_.cubature_count());
  relinearized_ = false;
  current_modes_ = model_.eigenfit.modes;
  set_fit(modal_strain_, model_.eigenfit.ratios, Eigen::VectorXd::Zero(mode_count()));
}

void EigenFitTerm::set_fit(const Eigen::MatrixXd& strain, const Eigen::VectorXd& ratios,
                           const Eigen::VectorXd& modal_force) {
  const int s = mode_count();
  const int C = model_.cubature_count();
  // Unrotated A_c = H_c E_c V, and S = sum_c w_c (E_c V)^T A_c.
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(s, s);
  for (int c = 0; c < C; ++c) {
    const Eigen::Map<const Eigen::MatrixXd> modal(strain.col(c).data(), 6, s);
    Eigen::Map<Eigen::MatrixXd> stress(stress_.col(c).data(), 6, s);
    stress.noalias() = hessians_[static_cast<std::size_t>(c)] * modal;
    S.noalias() += model_.cubature_weights(c) * (modal.transpose() * stress);
  }
  S = 0.5 * (S + S.transpose());
  const Eigen::VectorXd excess = ratios.array() - 1.0;
  Eigen::MatrixXd rotation = Eigen::MatrixXd::Identity(s, s);
  weights_.setZero();
  linear_.setZero(s);
  if (excess.cwiseAbs().maxCoeff() != 0.0) {
    // (Every ratio 1: no correction, exactly; the step is then the uncorrected one bit for bit.)
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> stiffness(S);
    const Eigen::VectorXd& values = stiffness.eigenvalues();
    // A fitted mode without energy under these materials has nothing to scale: no correction.
    if (stiffness.info() == Eigen::Success && values(0) > kNullEigenvalue * values(s - 1)) {
      const Eigen::MatrixXd inverse_root = stiffness.eigenvectors() *
                                           values.cwiseSqrt().cwiseInverse().asDiagonal() *
                                           stiffness.eigenvectors().transpose();
      const Eigen::MatrixXd G = inverse_root * excess.asDiagonal() * inverse_root;
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> split(0.5 * (G + G.transpose()));
      weights_ = split.eigenvalues();
      rotation = split.eigenvectors();
      // The linear term G phi, in the rotated basis.
      linear_ = rotation.transpose() * (G * modal_force);
    }
  }
  for (int c = 0; c < C; ++c) {
    Eigen::Map<Eigen::MatrixXd> stress(stress_.col(c).data(), 6, s);
    stress = (stress * rotation).eval();
  }
}

bool EigenFitTerm::relinearize(const ReducedMatrix& U, const StretchField& z,
                               parallel::ThreadPool& pool) {
  if (empty()) return false;
  const EigenFitData& fit = model_.eigenfit;
  const int s = mode_count();
  const int C = model_.cubature_count();
  const Eigen::Index n = block_size_;
  if (!tangent_) {
    tangent_ = std::make_unique<StiffnessAssembly>(model_.cubature_Y, model_.cubature_weights,
                                                   pool.thread_count());
    mass_ = reduced_mass(model_);
  }
  // The tangent K_t = sum_c w_c (dF_c/du)^T J_c^T H_c J_c (dF_c/du) at (U, z), the solvers' K
  // without the constraint's curvature, and its lowest s non-null modes.
  std::vector<Matrix6x9<double>> jacobian(static_cast<std::size_t>(C));
  for (int c = 0; c < C; ++c) {
    const auto index = static_cast<std::size_t>(c);
    const Matrix3<double> F =
        Matrix3<double>::Identity() + displacement_gradient(model_.cubature_Y, c, U);
    jacobian[index] = polar::dstretch_dF(polar::signed_svd(F));
    hessians_[index] = d2psi_ds2_psd(material_, Vector6<double>(z.col(c)), lame_[index]);
    tangent_->set_tet_hessian(c, jacobian[index].transpose() * hessians_[index] * jacobian[index]);
  }
  tangent_->assemble(pool);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  tangent_->add_to_lower(Eigen::MatrixXd::Zero(n, n), K);
  K.triangularView<Eigen::StrictlyUpper>() = K.transpose();
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(K, mass_);
  const Eigen::VectorXd& values = solver.eigenvalues();
  Eigen::Index first = 0;
  while (first < values.size() && values(first) <= kNullEigenvalue * values.cwiseAbs().maxCoeff()) {
    ++first;
  }
  // EigenFit (Chen et al. 2019) §3.5: the current modes must still be the rest modes, at least half
  // of them (|V^T M U_rest| above 0.6, each rest mode used once); else the rest fit.
  const auto rest_fit = [&]() {
    update_materials(material_, lame_);
    return false;
  };
  if (solver.info() != Eigen::Success || values.size() - first < s) return rest_fit();
  const Eigen::MatrixXd V = solver.eigenvectors().middleCols(first, s);
  const Eigen::MatrixXd cosines = (V.transpose() * mass_ * fit.modes).cwiseAbs();
  Eigen::VectorXd ratios = Eigen::VectorXd::Ones(s);
  std::vector<char> row_used(static_cast<std::size_t>(s), 0), column_used(row_used);
  int matched = 0;
  for (int pair = 0; pair < s; ++pair) {
    Eigen::Index row = 0, column = 0;
    double best = kTangleCosine;
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j < s; ++j) {
        if (!row_used[static_cast<std::size_t>(i)] && !column_used[static_cast<std::size_t>(j)] &&
            cosines(i, j) > best) {
          best = cosines(i, j);
          row = i;
          column = j;
        }
      }
    }
    if (best == kTangleCosine) break;
    row_used[static_cast<std::size_t>(row)] = column_used[static_cast<std::size_t>(column)] = 1;
    ratios(row) = fit.ratios(column);
    ++matched;
  }
  if (2 * matched < s) return rest_fit();

  // The modes' strains J_c dF_c(V_i) and forces V_i^T grad E = sum_c w_c (J_c dF_c(V_i)) .
  // grad psi(z_c), anchored at z.
  Eigen::VectorXd force = Eigen::VectorXd::Zero(s);
  ReducedMatrix mode(n, 3);
  for (int i = 0; i < s; ++i) {
    for (Eigen::Index d = 0; d < 3; ++d) mode.col(d) = V.col(i).segment(d * n, n);
    for (int c = 0; c < C; ++c) {
      const auto index = static_cast<std::size_t>(c);
      const Matrix3<double> dF = displacement_gradient(model_.cubature_Y, c, mode);
      const Vector6<double> strain = jacobian[index] * Eigen::Map<const Vector9<double>>(dF.data());
      current_strain_.block<6, 1>(6 * i, c) = strain;
      force(i) += model_.cubature_weights(c) *
                  strain.dot(dpsi_ds(material_, Vector6<double>(z.col(c)), lame_[index]));
    }
  }
  anchor_ = z;
  relinearized_ = true;
  current_modes_ = V;
  set_fit(current_strain_, ratios, force);
  return true;
}

void EigenFitTerm::measure(const StretchField& z, Eigen::VectorXd& alpha) const {
  const int s = mode_count();
  alpha.setZero(s);
  // Fixed-size products mode by mode: no temporaries, no product kernel.
  for (Eigen::Index c = 0; c < z.cols(); ++c) {
    const Vector6<double> strain = model_.cubature_weights(c) * (z.col(c) - anchor_.col(c));
    for (int i = 0; i < s; ++i) alpha(i) += stress_.block<6, 1>(6 * i, c).dot(strain);
  }
}

double EigenFitTerm::slope(const Eigen::VectorXd& alpha, const Eigen::VectorXd& change) const {
  double slope = 0.0;
  for (int i = 0; i < mode_count(); ++i) {
    slope += (weights_(i) * alpha(i) + linear_(i)) * change(i);
  }
  return slope;
}

double EigenFitTerm::energy(const Eigen::VectorXd& alpha) const {
  return 0.5 * alpha.dot(weights_.cwiseProduct(alpha)) + linear_.dot(alpha);
}

Vector6<double> EigenFitTerm::stress(int tet, const Eigen::VectorXd& alpha) const {
  Vector6<double> e = Vector6<double>::Zero();
  for (int i = 0; i < mode_count(); ++i) {
    e += (weights_(i) * alpha(i) + linear_(i)) * stress_.block<6, 1>(6 * i, tet);
  }
  return e;
}

void EigenFitTerm::set_tet_jacobian(int tet, const Matrix6x9<double>& jacobian) {
  const double w = model_.cubature_weights(tet);
  for (int i = 0; i < mode_count(); ++i) {
    const Vector9<double> P = jacobian.transpose() * stress_.block<6, 1>(6 * i, tet);
    for (int j = 0; j < 3; ++j) {
      double* row = stacked_.data() + static_cast<std::size_t>(3 * tet + j) * stride_;
      for (int d = 0; d < 3; ++d) row[3 * i + d] = w * P(d + 3 * j);
    }
  }
}

void EigenFitTerm::assemble(parallel::ThreadPool& pool) {
  constexpr int kRows = detail::kTileRows;
  constexpr int kCols = detail::kTileCols<double>;
  // Rows of Yhat per batch: a batch of Yhat (kBatch x 4m) and of stacked stays in cache while
  // every tile of a thread takes its product.
  constexpr int kBatch = 128;
  const int n = block_size_;
  const CubatureRows& Y = model_.cubature_Y;
  const int depth = static_cast<int>(Y.rows());
  if (n < kRows) {
    for (int i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < coupling_.cols(); ++j) {
        double sum = 0.0;
        for (int r = 0; r < depth; ++r) {
          sum += Y(r, i) * stacked_[static_cast<std::size_t>(r) * stride_ + j];
        }
        coupling_(i, j) = sum;
      }
    }
    return;
  }
  // Yhat^T stacked by tiles of kRows x kCols, each summed over Yhat's rows batch by batch, in
  // order (fixed batches: results do not depend on how tiles are shared among threads). The
  // last row tile is moved back to end at row n (it overlaps the previous one, and keeps only
  // its own rows), so no read passes Yhat's columns.
  const int row_tiles = (n + kRows - 1) / kRows;
  const int col_tiles = stride_ / kCols;
  const int tiles = row_tiles * col_tiles;
  const int chunks = std::min(pool.thread_count(), tiles);
  pool.parallel_for(chunks, [&](int chunk) {
    const int begin = tiles * chunk / chunks;
    const int end = tiles * (chunk + 1) / chunks;
    std::fill(tile_sums_.begin() + static_cast<std::ptrdiff_t>(begin) * kRows * kCols,
              tile_sums_.begin() + static_cast<std::ptrdiff_t>(end) * kRows * kCols, 0.0);
    for (int r = 0; r < depth; r += kBatch) {
      const int rows = std::min(kBatch, depth - r);
      for (int tile = begin; tile < end; ++tile) {
        const int first = std::min((tile / col_tiles) * kRows, n - kRows);
        const int col = (tile % col_tiles) * kCols;
        detail::gemm_tile_AtB(
            Y.data() + static_cast<std::ptrdiff_t>(r) * n + first, n,
            stacked_.data() + static_cast<std::ptrdiff_t>(r) * stride_ + col, stride_, rows,
            tile_sums_.data() + static_cast<std::ptrdiff_t>(tile) * kRows * kCols, kCols);
      }
    }
    for (int tile = begin; tile < end; ++tile) {
      const int owned = (tile / col_tiles) * kRows;
      const int first = std::min(owned, n - kRows);
      const int col = (tile % col_tiles) * kCols;
      const double* sums = tile_sums_.data() + static_cast<std::ptrdiff_t>(tile) * kRows * kCols;
      for (int i = owned; i < std::min(owned + kRows, n); ++i) {
        for (int j = col; j < std::min(col + kCols, static_cast<int>(coupling_.cols())); ++j) {
          coupling_(i, j) = sums[(i - first) * kCols + (j - col)];
        }
      }
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
