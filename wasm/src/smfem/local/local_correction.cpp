#include "smfem/local/local_correction.hpp"

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
      stress_(static_cast<std::size_t>(patches.tet_count()), Matrix3<double>::Zero()),
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
    const polar::SignedSvd<double> svd = polar::signed_svd(F);
    const Vector6<double> s = polar::symmetric_stretch(svd);
    const Vector9<double> dpsi_dF =
        polar::dstretch_dF(svd).transpose() * sim::dpsi_ds(material_, s, lame_[index]);
    stress_[index] = Eigen::Map<const Matrix3<double>>(dpsi_dF.data());
    hessian_[index] = sim::d2psi_dF2_psd(material_, svd, lame_[index]);
  });
  // dE/dU_g(k, d) = -sum_e v_e sum_j Y_e(k, j) P_e(d, j).
  const int n = patches_.global_rows();
  gradient.setZero(U.rows(), 3);
  for (int e = 0; e < patches_.tet_count(); ++e) {
    const auto Y = patches_.global_gradients().middleRows(3 * e, 3);  // 3 x 4m: Y^T
    gradient.topRows(n).noalias() -=
        patches_.weight(e) * Y.transpose() * stress_[static_cast<std::size_t>(e)].transpose();
  }
}

double LocalCorrection::curvature(const sim::ReducedMatrix& dU) const {
  double sum = 0.0;
  for (int e = 0; e < patches_.tet_count(); ++e) {
    const Matrix3<double> dF = patches_.displacement_gradient(e, dU, true);
    const Eigen::Map<const Vector9<double>> change(dF.data());
    sum -= patches_.weight(e) * change.dot(hessian_[static_cast<std::size_t>(e)] * change);
  }
  return sum;
}

double LocalCorrection::max_step(const sim::ReducedMatrix&, const sim::ReducedMatrix&) {
  return 1.0;
}

double LocalCorrection::energy_along(double, const sim::ReducedMatrix& U_trial) {
  return energy(U_trial);
}

double LocalCorrection::energy(const sim::ReducedMatrix& U) {
  sim::parallel_for_tets(pool_, patches_.tet_count(), [&](int e) {
    const Matrix3<double> F =
        Matrix3<double>::Identity() + patches_.displacement_gradient(e, U, true);
    psi_(e) = patches_.weight(e) * sim::psi(material_, polar::symmetric_stretch<double>(F),
                                            lame_[static_cast<std::size_t>(e)]);
  });
  return -psi_.sum();
}

}  // namespace smfem::local
