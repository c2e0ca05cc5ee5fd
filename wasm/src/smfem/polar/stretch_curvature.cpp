#include "smfem/polar/stretch_curvature.hpp"

#include <cmath>

#include "smfem/polar/stretch_vector.hpp"

namespace smfem::polar {
namespace {

// vec(a u_i v_j^T + b u_j v_i^T).
Vector9<double> pair_direction(const SignedSvd<double>& svd, int i, int j, double a, double b) {
  const Matrix3<double> X =
      a * svd.U.col(i) * svd.V.col(j).transpose() + b * svd.U.col(j) * svd.V.col(i).transpose();
  return Eigen::Map<const Vector9<double>>(X.data());
}

}  // namespace

Matrix9<double> coaxial_stretch_curvature(const SignedSvd<double>& svd, const Vector6<double>& m,
                                          CurvatureProjection projection) {
  const Matrix3<double> G = stretch_to_matrix<double>(m.cwiseQuotient(stretch_metric<double>()));
  const Vector3<double> g = (svd.V.transpose() * G * svd.V).diagonal();
  const Vector3<double> kappa = clamped_pair_sums(svd);  // kappa_k for the pair without k
  const Vector3<double>& sigma = svd.sigma;
  constexpr int kPairs[3][3] = {{1, 2, 0}, {0, 2, 1}, {0, 1, 2}};  // i, j, k

  const double root_half = std::sqrt(0.5);
  Matrix9<double> H = Matrix9<double>::Zero();
  for (const auto& [i, j, k] : kPairs) {
    const double c = (g(j) - g(i)) / kappa(k);
    const double d = 2.0 * (sigma(i) * g(j) + sigma(j) * g(i)) / (kappa(k) * kappa(k));
    // flip = (u_i v_j^T + u_j v_i^T) / sqrt(2), twist = (u_i v_j^T - u_j v_i^T) / sqrt(2).
    if (projection == CurvatureProjection::none) {
      const Vector9<double> flip = pair_direction(svd, i, j, root_half, root_half);
      const Vector9<double> twist = pair_direction(svd, i, j, root_half, -root_half);
      H.noalias() +=
          c * (flip * twist.transpose() + twist * flip.transpose()) + d * twist * twist.transpose();
      continue;
    }
    // The positive eigenvalue and its eigenvector (c, lambda) / norm in the (flip, twist) basis.
    // hypot: c grows like 1 / kappa, and its square would overflow near F = 0.
    const double lambda = 0.5 * (d + std::hypot(d, 2.0 * c));
    if (!(lambda > 0.0)) continue;
    const double norm = std::hypot(c, lambda);
    const double a = c / norm, b = lambda / norm;
    const Vector9<double> q = pair_direction(svd, i, j, root_half * (a + b), root_half * (a - b));
    H.noalias() += lambda * q * q.transpose();
  }
  return H;
}

}  // namespace smfem::polar
