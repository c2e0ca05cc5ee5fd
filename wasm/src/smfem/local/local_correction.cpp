#include "smfem/local/local_correction.hpp"

#include <algorithm>
#include <stdexcept>

#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/step/step_context.hpp"

namespace smfem::local {

LocalCorrection::LocalCorrection(const PatchSet& patches, sim::MaterialModel material,
                                 std::vector<sim::Lame> lame, parallel::ThreadPool& pool)
    : patches_(patches),
      material_(material),
      lame_(std::move(lame)),
      pool_(pool),
      hessian_(static_cast<std::size_t>(patches.tet_count()), Matrix9<double>::Zero()),
      system_hessian_(hessian_),
      V_(static_cast<std::size_t>(patches.tet_count()), Matrix3<double>::Identity()),
      stress_(static_cast<std::size_t>(patches.tet_count()), Matrix3<double>::Zero()),
      global_stress_(stress_),
      psi_(Eigen::VectorXd::Zero(patches.tet_count())) {
  if (lame_.size() != static_cast<std::size_t>(patches.tet_count())) {
    throw std::invalid_argument("LocalCorrection: one material per tet of the patch set");
  }
}

void LocalCorrection::linearize(const sim::ReducedMatrix& U, sim::ReducedMatrix& gradient) {
  sim::parallel_for_tets(pool_, patches_.tet_count(), [&](int e) {
    const auto index = static_cast<std::size_t>(e);
    const Matrix3<double> F =
        Matrix3<double>::Identity() + patches_.displacement_gradient(e, U, true);
    const Matrix3<double> local = local_part(e, U);
    const polar::SignedSvd<double> svd = polar::signed_svd(F, V_[index]);
    V_[index] = svd.V;
    const Vector6<double> s = polar::symmetric_stretch(svd);
    const Vector6<double> dpsi_ds = sim::dpsi_ds(material_, s, lame_[index]);
    const Matrix6x9<double> J = polar::dstretch_dF(svd);
    const Vector9<double> dpsi_dF = J.transpose() * dpsi_ds;
    stress_[index] = Eigen::Map<const Matrix3<double>>(dpsi_dF.data());
    // d/dF_0 of psi(F_0) + P(F_0) : dF = P + (d2psi/dF2) dF, with the exact second derivative.
    const Matrix9<double> exact = J.transpose() * sim::d2psi_ds2(material_, s, lame_[index]) * J +
                                  polar::d2stretch_dF2_contract(svd, dpsi_ds);
    const Vector9<double> pulled =
        dpsi_dF + exact * Eigen::Map<const Vector9<double>>(local.data());
    global_stress_[index] = Eigen::Map<const Matrix3<double>>(pulled.data());
    hessian_[index] = sim::d2psi_dF2_psd(material_, svd, lame_[index]);
  });
  // dE/dU_g(k, d) = -sum_e v_e sum_j Y_e(k, j) (P + Q dF)_e(d, j); dE/dc_p,a = -sum_e v_e G : P.
  const int n = patches_.global_rows();
  gradient.setZero(U.rows(), 3);
  for (int e = 0; e < patches_.tet_count(); ++e) {
    const auto index = static_cast<std::size_t>(e);
    const auto Y = patches_.global_gradients().middleRows(3 * e, 3);  // 3 x 4m: Y^T
    gradient.topRows(n).noalias() -=
        patches_.weight(e) * Y.transpose() * global_stress_[index].transpose();
    for (const PatchSet::LocalGradient& entry : patches_.local_gradients(e)) {
      for (int a = 0; a < 3; ++a) {
        gradient(n + entry.patch, a) -=
            patches_.weight(e) *
            entry.G[static_cast<std::size_t>(a)].cwiseProduct(stress_[index]).sum();
      }
    }
  }
}

Matrix3<double> LocalCorrection::local_part(int tet, const sim::ReducedMatrix& U) const {
  return patches_.displacement_gradient(tet, U) - patches_.displacement_gradient(tet, U, true);
}

double LocalCorrection::curvature(const sim::ReducedMatrix& dU) const {
  double sum = 0.0;
  for (int e = 0; e < patches_.tet_count(); ++e) {
    const Matrix3<double> global = patches_.displacement_gradient(e, dU, true);
    const Matrix3<double> local = local_part(e, dU);
    const Eigen::Map<const Vector9<double>> g(global.data()), l(local.data());
    const auto index = static_cast<std::size_t>(e);
    const Vector9<double> dF = g + l;
    sum += patches_.weight(e) * (dF.dot(system_hessian_[index] * dF) + l.dot(hessian_[index] * l));
  }
  return sum;
}

double LocalCorrection::max_step(const sim::ReducedMatrix&, const sim::ReducedMatrix&) {
  return 1.0;
}

double LocalCorrection::energy_along(double, const sim::ReducedMatrix& U_trial) {
  return energy(U_trial);
}

void LocalCorrection::begin_step() { std::fill(V_.begin(), V_.end(), Matrix3<double>::Identity()); }

double LocalCorrection::energy(const sim::ReducedMatrix& U) {
  sim::parallel_for_tets(pool_, patches_.tet_count(), [&](int e) {
    const auto index = static_cast<std::size_t>(e);
    const Matrix3<double> F =
        Matrix3<double>::Identity() + patches_.displacement_gradient(e, U, true);
    const polar::SignedSvd<double> svd = polar::signed_svd(F, V_[index]);
    const Vector6<double> s = polar::symmetric_stretch(svd);
    const Vector9<double> dpsi_dF =
        polar::dstretch_dF(svd).transpose() * sim::dpsi_ds(material_, s, lame_[index]);
    const Matrix3<double> local = local_part(e, U);
    psi_(e) = patches_.weight(e) * (sim::psi(material_, s, lame_[index]) +
                                    dpsi_dF.dot(Eigen::Map<const Vector9<double>>(local.data())));
  });
  return -psi_.sum();
}

}  // namespace smfem::local
