#pragma once
// The nonlinear elasticity of a whole small mesh, dense and written out independently of the
// subspace code, to check it: E(u) = sum_t vol_t psi(F_t(u)) over vertex displacements u
// (3|V|, unknown 3v + d), its gradient (the internal force) and its unprojected Hessian (the
// tangent stiffness), from the materials' F forms (energies/).
#include <vector>

#include <Eigen/Core>

#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::test {

struct DenseElasticity {
  const mesh::TetMesh& mesh;
  std::vector<sim::Lame> lame;  // per tet
  sim::MaterialModel material;  // fixed_corotational or stable_neo_hookean

  // F_t, the tet's shape gradients and volume.
  Eigen::Matrix3d F(Eigen::Index t, const Eigen::VectorXd& u, fem::TetCorners& G,
                    double& volume) const {
    fem::TetCorners X;
    fem::TetCorners x;
    for (int j = 0; j < 4; ++j) {
      X.row(j) = mesh.vertices.row(mesh.tets(t, j));
      x.row(j) = X.row(j) + u.segment<3>(3 * mesh.tets(t, j)).transpose();
    }
    G = fem::linear_tet_dphi_dX(X);
    volume = fem::linear_tet_volume(X);
    return fem::linear_tet_deformation_gradient(x, G);
  }

  Eigen::VectorXd force(const Eigen::VectorXd& u) const {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(u.size());
    for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
      fem::TetCorners G;
      double volume = 0.0;
      const Eigen::Matrix3d F_t = F(t, u, G, volume);
      const Eigen::Matrix3d P = material == sim::MaterialModel::stable_neo_hookean
                                    ? energies::stable_neo_hookean::dpsi_dF(F_t, lame[t])
                                    : energies::fixed_corotational::dpsi_dF(F_t, lame[t]);
      for (int a = 0; a < 4; ++a) {
        f.segment<3>(3 * mesh.tets(t, a)) += volume * P * G.row(a).transpose();
      }
    }
    return f;
  }

  Eigen::MatrixXd stiffness(const Eigen::VectorXd& u) const {
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(u.size(), u.size());
    for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
      fem::TetCorners G;
      double volume = 0.0;
      const Eigen::Matrix3d F_t = F(t, u, G, volume);
      const Eigen::Matrix<double, 9, 9> Q =
          material == sim::MaterialModel::stable_neo_hookean
              ? energies::stable_neo_hookean::d2psi_dF2(F_t, lame[t])
              : energies::fixed_corotational::d2psi_dF2(F_t, lame[t]);
      // dvec(F)/du at corner a, coordinate p: entry p + 3k is G(a, k).
      for (int a = 0; a < 4; ++a) {
        for (int p = 0; p < 3; ++p) {
          for (int b = 0; b < 4; ++b) {
            for (int q = 0; q < 3; ++q) {
              double value = 0.0;
              for (int k = 0; k < 3; ++k) {
                for (int l = 0; l < 3; ++l) value += G(a, k) * Q(p + 3 * k, q + 3 * l) * G(b, l);
              }
              K(3 * mesh.tets(t, a) + p, 3 * mesh.tets(t, b) + q) += volume * value;
            }
          }
        }
      }
    }
    return K;
  }
};

// Every tet's (mu, lambda) from uniform E and nu.
inline std::vector<sim::Lame> uniform_lame(const mesh::TetMesh& mesh, double youngs,
                                           double poisson) {
  return std::vector<sim::Lame>(static_cast<std::size_t>(mesh.tets.rows()),
                                energies::lame_from_young_poisson(youngs, poisson));
}

}  // namespace smfem::test
