#pragma once
// An independent, slow evaluation of the step's energies for the solver tests: deformation
// gradients from the test mesh's vertex positions (not from cubature.y), the energies from
// energies/*.hpp, derivatives by finite differences where the solver uses closed forms.
// u is the 12m vector vec(U).
#include <vector>

#include <Eigen/Core>

#include "sim/test_model.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::sim::test {

struct Reference {
  const BoxModel& model;
  MaterialModel material;
  double timestep;
  Eigen::Vector3d gravity;
  Eigen::VectorXd predicted;  // u~
  std::vector<Lame> lame;     // per tet

  Reference(const BoxModel& model, MaterialModel material, double timestep,
            const Eigen::Vector3d& gravity, const Eigen::VectorXd& predicted);

  int size() const { return static_cast<int>(predicted.size()); }
  int tet_count() const { return static_cast<int>(model.tets.rows()); }
  double weight(int tet) const { return model.model.cubature_weights(tet); }

  Matrix3<double> F(int tet, const Eigen::VectorXd& u) const;
  // dvec(F_t)/du (9 x 12m, column-major vec(F)), F being affine in u.
  Eigen::MatrixXd dF_du(int tet) const;
  Vector6<double> stretch(int tet, const Eigen::VectorXd& u) const;
  // ds(F_t(u))/du (6 x 12m) by central differences.
  Eigen::MatrixXd dstretch_du(int tet, const Eigen::VectorXd& u) const;

  // The gravity force (12m).
  Eigen::VectorXd force() const;
  // Psi_u without springs: 1/(2h^2) (u - u~)^T M (u - u~) - f . u, f = gravity force.
  double psi_u(const Eigen::VectorXd& u) const;
  Eigen::VectorXd grad_psi_u(const Eigen::VectorXd& u) const;
  Eigen::MatrixXd hessian_psi_u() const;  // I_3 (x) mass_block / h^2

  // FEM: E(u) = Psi_u(u) + sum_t w_t psi(F_t(u)), its gradient by the chain rule through
  // energies::*::dpsi_dF, and the Hessian of E by central differences of that gradient.
  double fem_energy(const Eigen::VectorXd& u) const;
  Eigen::VectorXd fem_gradient(const Eigen::VectorXd& u) const;
  Eigen::MatrixXd fem_hessian(const Eigen::VectorXd& u) const;
};

// vec(U) and back.
Eigen::VectorXd flatten(const ReducedMatrix& U);
ReducedMatrix unflatten(const Eigen::VectorXd& u);

}  // namespace smfem::sim::test
