#include "smfem/subspace/rotation_artifact.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/subspace/displacement_basis.hpp"

namespace smfem::subspace {

Eigen::VectorXd rigid_rotation(const Eigen::Ref<const mesh::Vertices>& positions,
                               const Eigen::Vector3d& centre, const Eigen::Vector3d& axis,
                               double angle) {
  // (R - I) (X - c) rather than c + R (X - c) - X: exactly 0 at angle 0.
  const Eigen::Matrix3d R_minus_I =
      Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix() - Eigen::Matrix3d::Identity();
  Eigen::VectorXd u(3 * positions.rows());
  for (Eigen::Index v = 0; v < positions.rows(); ++v) {
    u.segment<3>(3 * v) = R_minus_I * (positions.row(v).transpose() - centre);
  }
  return u;
}

VolumeDistortion volume_distortion(const mesh::TetMesh& mesh,
                                   const Eigen::Ref<const Eigen::VectorXd>& displacement) {
  VolumeDistortion result;
  double rest_volume = 0.0;
  double deformed_volume = 0.0;
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    fem::TetCorners X;
    fem::TetCorners x;
    for (int j = 0; j < 4; ++j) {
      const int v = mesh.tets(t, j);
      X.row(j) = mesh.vertices.row(v);
      x.row(j) = X.row(j) + displacement.segment<3>(3 * v).transpose();
    }
    const double volume = fem::linear_tet_volume(X);
    const double J =
        fem::linear_tet_deformation_gradient(x, fem::linear_tet_dphi_dX(X)).determinant();
    rest_volume += volume;
    deformed_volume += volume * J;
    result.mean += volume * std::abs(J - 1.0);
    result.max = std::max(result.max, std::abs(J - 1.0));
  }
  result.mean /= rest_volume;
  result.total_change = deformed_volume / rest_volume - 1.0;
  return result;
}

RotationFit fit_rotation(const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& mass,
                         const Eigen::Ref<const Eigen::MatrixXd>& basis,
                         const Eigen::Vector3d& centre, const Eigen::Vector3d& axis, double angle) {
  const Eigen::VectorXd u = rigid_rotation(mesh.vertices, centre, axis, angle);
  const Eigen::VectorXd projected = basis * mass_projection(basis, mass, u);
  const Eigen::VectorXd M = unknown_mass(mass);
  const double target = std::sqrt(u.dot(M.cwiseProduct(u)));
  const Eigen::VectorXd error = projected - u;
  RotationFit fit;
  fit.residual = target > 0.0 ? std::sqrt(error.dot(M.cwiseProduct(error))) / target : 0.0;
  fit.volume = volume_distortion(mesh, projected);
  return fit;
}

}  // namespace smfem::subspace
