#include "sim/reference.hpp"

#include "smfem/energies/arap.hpp"
#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/polar/polar.hpp"

namespace smfem::sim::test {

Eigen::VectorXd flatten(const ReducedMatrix& U) {
  return Eigen::Map<const Eigen::VectorXd>(U.data(), U.size());
}

ReducedMatrix unflatten(const Eigen::VectorXd& u) {
  return Eigen::Map<const ReducedMatrix>(u.data(), u.size() / 3, 3);
}

Reference::Reference(const BoxModel& model_, MaterialModel material_, double timestep_,
                     const Eigen::Vector3d& gravity_, const Eigen::VectorXd& predicted_)
    : model(model_),
      material(material_),
      timestep(timestep_),
      gravity(gravity_),
      predicted(predicted_) {
  for (int t = 0; t < tet_count(); ++t) {
    lame.push_back(energies::lame_from_young_poisson(model.model.cubature_youngs(t),
                                                     model.model.cubature_poisson(t)));
  }
}

Matrix3<double> Reference::F(int tet, const Eigen::VectorXd& u) const {
  fem::TetCorners X, x;
  const ReducedMatrix U = unflatten(u);
  for (int corner = 0; corner < 4; ++corner) {
    const int v = model.tets(tet, corner);
    X.row(corner) = model.rest.row(v);
    x.row(corner) = model.rest.row(v) + model.basis.row(v) * U;
  }
  return fem::linear_tet_deformation_gradient(x, fem::linear_tet_dphi_dX(X));
}

Eigen::MatrixXd Reference::dF_du(int tet) const {
  Eigen::MatrixXd B(9, size());
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(size());
  const Matrix3<double> F0 = F(tet, zero);
  for (int i = 0; i < size(); ++i) {
    const Matrix3<double> dF = F(tet, Eigen::VectorXd::Unit(size(), i)) - F0;
    B.col(i) = Eigen::Map<const Vector9<double>>(dF.data());
  }
  return B;
}

Vector6<double> Reference::stretch(int tet, const Eigen::VectorXd& u) const {
  return polar::symmetric_stretch(F(tet, u));
}

Eigen::MatrixXd Reference::dstretch_du(int tet, const Eigen::VectorXd& u) const {
  Eigen::MatrixXd J(6, size());
  const double h = 1e-6;
  for (int i = 0; i < size(); ++i) {
    Eigen::VectorXd plus = u, minus = u;
    plus(i) += h;
    minus(i) -= h;
    J.col(i) = (stretch(tet, plus) - stretch(tet, minus)) / (2.0 * h);
  }
  return J;
}

Eigen::VectorXd Reference::force() const {
  const int n = size() / 3;
  Eigen::VectorXd f(size());
  for (int d = 0; d < 3; ++d) f.segment(d * n, n) = gravity(d) * model.model.mass_vector;
  return f;
}

double Reference::psi_u(const Eigen::VectorXd& u) const {
  const Eigen::VectorXd d = u - predicted;
  return 0.5 * d.dot(hessian_psi_u() * d) - force().dot(u);
}

Eigen::VectorXd Reference::grad_psi_u(const Eigen::VectorXd& u) const {
  return hessian_psi_u() * (u - predicted) - force();
}

Eigen::MatrixXd Reference::hessian_psi_u() const {
  const int n = size() / 3;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(size(), size());
  for (int d = 0; d < 3; ++d) {
    H.block(d * n, d * n, n, n) = model.model.mass_block / (timestep * timestep);
  }
  return H;
}

namespace {

double psi_F(MaterialModel material, const Matrix3<double>& F, const Lame& lame) {
  switch (material) {
    case MaterialModel::arap:
      return energies::arap::psi(F, lame);
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::psi(F, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::psi(F, lame);
  }
  return 0.0;
}

Matrix3<double> dpsi_dF(MaterialModel material, const Matrix3<double>& F, const Lame& lame) {
  switch (material) {
    case MaterialModel::arap:
      return energies::arap::dpsi_dF(F, lame);
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::dpsi_dF(F, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::dpsi_dF(F, lame);
  }
  return Matrix3<double>::Zero();
}

}  // namespace

double Reference::fem_energy(const Eigen::VectorXd& u) const {
  double energy = psi_u(u);
  for (int t = 0; t < tet_count(); ++t) {
    energy += weight(t) * psi_F(material, F(t, u), lame[static_cast<std::size_t>(t)]);
  }
  return energy;
}

Eigen::VectorXd Reference::fem_gradient(const Eigen::VectorXd& u) const {
  Eigen::VectorXd gradient = grad_psi_u(u);
  for (int t = 0; t < tet_count(); ++t) {
    const Matrix3<double> P = dpsi_dF(material, F(t, u), lame[static_cast<std::size_t>(t)]);
    gradient += weight(t) * dF_du(t).transpose() * Eigen::Map<const Vector9<double>>(P.data());
  }
  return gradient;
}

Eigen::MatrixXd Reference::fem_hessian(const Eigen::VectorXd& u) const {
  Eigen::MatrixXd H(size(), size());
  const double h = 1e-6;
  for (int i = 0; i < size(); ++i) {
    Eigen::VectorXd plus = u, minus = u;
    plus(i) += h;
    minus(i) -= h;
    H.col(i) = (fem_gradient(plus) - fem_gradient(minus)) / (2.0 * h);
  }
  return 0.5 * (H + H.transpose());
}

}  // namespace smfem::sim::test
