#include "smfem/subspace/modal_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/subspace/detail/check_inputs.hpp"
#include "smfem/subspace/detail/multifrontal_cholesky.hpp"
#include "smfem/subspace/detail/nested_dissection.hpp"
#include "smfem/subspace/detail/smallest_eigenpairs.hpp"
#include "smfem/subspace/elastic_stiffness.hpp"

namespace smfem::subspace {
namespace {

constexpr const char* kDerivatives = "modal_derivatives";
// Refinement of the shifted solves: each step divides the shift's error by about
// (lambda_1 + |sigma|) / |sigma| >= 1000 with the shift chosen below, so a few suffice.
constexpr int kMaxRefinements = 50;
constexpr double kRefinementTolerance = 1e-10;
// The largest relative residual ||b - K psi|| / ||b|| accepted (rounding leaves about machine
// epsilon times K's condition number on the free modes, 1e-10 on the meshes tried).
constexpr double kResidualTolerance = 1e-6;

[[noreturn]] void refuse_derivatives(const std::string& problem) {
  throw std::invalid_argument(std::string(kDerivatives) + ": " + problem);
}

// The unprojected 9 x 9 Hessian d2psi/dF2 (column-major vec(F)) of the material.
Matrix9<double> tangent(sim::MaterialModel material, const Eigen::Matrix3d& F,
                        const sim::Lame& lame) {
  if (material == sim::MaterialModel::stable_neo_hookean) {
    return energies::stable_neo_hookean::d2psi_dF2(F, lame);
  }
  return energies::fixed_corotational::d2psi_dF2(F, lame);
}

// grad u on tet t for a displacement field u (3|V|, unknown 3v + d): sum_j u_j g_j^T.
Eigen::Matrix3d tet_gradient(const mesh::TetMesh& mesh, Eigen::Index t, const fem::TetCorners& G,
                             const Eigen::Ref<const Eigen::VectorXd>& u) {
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
  for (int j = 0; j < 4; ++j) H += u.segment<3>(3 * mesh.tets(t, j)) * G.row(j);
  return H;
}

}  // namespace

ModalDerivatives modal_derivatives(const mesh::TetMesh& mesh,
                                   const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
                                   const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
                                   sim::MaterialModel material,
                                   const Eigen::Ref<const Eigen::VectorXd>& mass,
                                   const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                   const LinearModes& modes,
                                   const ModalDerivativeOptions& options) {
  if (material == sim::MaterialModel::arap) {
    refuse_derivatives(
        "ARAP has no volume term, so its rest Hessian is not the linear elastic K of the "
        "modes; use fixed_corotational or stable_neo_hookean");
  }
  const Eigen::Index n = mesh.vertices.rows();
  detail::check_size(kDerivatives, "mass", mass.size(), n);
  if (modes.vectors.rows() != 3 * n || modes.eigenvalues.size() != modes.vectors.cols()) {
    refuse_derivatives("the modes are " + std::to_string(modes.vectors.rows()) + " x " +
                       std::to_string(modes.vectors.cols()) + " with " +
                       std::to_string(modes.eigenvalues.size()) + " eigenvalues, expected " +
                       std::to_string(3 * n) + " rows and one eigenvalue per column");
  }
  const auto m = static_cast<int>(modes.vectors.cols());
  const int rigid = modes.rigid_modes;
  if (rigid < 0 || rigid >= m) {
    refuse_derivatives(std::to_string(m) + " modes with " + std::to_string(rigid) +
                       " rigid ones leave no mode to differentiate");
  }
  if (!(options.relative_step > 0.0) || !std::isfinite(options.relative_step)) {
    refuse_derivatives("relative_step is " + std::to_string(options.relative_step) +
                       ", must be positive and finite");
  }
  const Eigen::SparseMatrix<double> K = elastic_stiffness(mesh, youngs_modulus, poisson_ratio);
  const detail::FreeVertices split = detail::free_vertices(kDerivatives, mass, pinned_vertices);

  ModalDerivatives result;
  for (int i = rigid; i < m; ++i) {
    for (int j = i; j < m; ++j) result.pairs.push_back({i, j});
  }
  const auto pair_count = static_cast<Eigen::Index>(result.pairs.size());

  // The loads (dK/dphi_i) phi_j, 3|V| each, assembled tet by tet.
  const Eigen::Index T = mesh.tets.rows();
  std::vector<fem::TetCorners> G(static_cast<std::size_t>(T));
  Eigen::VectorXd volume(T);
  std::vector<sim::Lame> lame(static_cast<std::size_t>(T));
  for (Eigen::Index t = 0; t < T; ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = mesh.vertices.row(mesh.tets(t, j));
    G[t] = fem::linear_tet_dphi_dX(X);
    volume(t) = fem::linear_tet_volume(X);
    lame[t] = energies::lame_from_young_poisson(youngs_modulus(t), poisson_ratio(t));
  }
  Eigen::MatrixXd loads = Eigen::MatrixXd::Zero(3 * n, pair_count);
  Eigen::Index column = 0;
  for (int i = rigid; i < m; ++i) {
    double largest = 0.0;
    for (Eigen::Index t = 0; t < T; ++t) {
      largest = std::max(largest,
                         tet_gradient(mesh, t, G[t], modes.vectors.col(i)).cwiseAbs().maxCoeff());
    }
    if (!(largest > 0.0))
      refuse_derivatives("mode " + std::to_string(i) + " does not deform any tet");
    const double e = options.relative_step / largest;
    for (Eigen::Index t = 0; t < T; ++t) {
      const Eigen::Matrix3d H = tet_gradient(mesh, t, G[t], modes.vectors.col(i));
      const Eigen::Matrix3d F_plus = Eigen::Matrix3d::Identity() + e * H;
      const Eigen::Matrix3d F_minus = Eigen::Matrix3d::Identity() - e * H;
      const Matrix9<double> dQ =
          (tangent(material, F_plus, lame[t]) - tangent(material, F_minus, lame[t])) / (2.0 * e);
      for (int j = i; j < m; ++j) {
        const Eigen::Matrix3d dF = tet_gradient(mesh, t, G[t], modes.vectors.col(j));
        const Vector9<double> dP = dQ * Eigen::Map<const Vector9<double>>(dF.data());
        const Eigen::Matrix<double, 3, 4> corner_forces =
            volume(t) * Eigen::Map<const Eigen::Matrix3d>(dP.data()) * G[t].transpose();
        for (int a = 0; a < 4; ++a) {
          loads.col(column + (j - i)).segment<3>(3 * mesh.tets(t, a)) += corner_forces.col(a);
        }
      }
    }
    column += m - i;
  }

  // K Psi = -load on the free unknowns.
  const auto free_count = static_cast<int>(split.vertices.size());
  const int free_unknowns = 3 * free_count;
  const std::vector<int> free_unknown = split.free_unknowns();
  const Eigen::VectorXd free_mass = split.free_unknown_mass(mass);
  const Eigen::SparseMatrix<double> K_free = detail::free_block(K, free_unknown, free_unknowns);
  Eigen::MatrixXd R(free_unknowns, rigid);  // the rigid modes on the free unknowns
  for (Eigen::Index u = 0; u < 3 * n; ++u) {
    if (free_unknown[u] >= 0) R.row(free_unknown[u]) = modes.vectors.row(u).head(rigid);
  }
  // The shift keeps K - sigma M positive definite along R and costs the refinement a factor
  // |sigma| / (lambda_1 + |sigma|) <= 1e-3 per step, but no less than the eigensolve's safety
  // margin of 1e-12 of the stiffest local frequency.
  double sigma = 0.0;
  if (rigid > 0) {
    const double stiffest = (K_free.diagonal().array() / free_mass.array()).maxCoeff();
    sigma = -std::max(1e-3 * modes.eigenvalues(rigid), 1e-12 * stiffest);
  }
  Eigen::SparseMatrix<double> A = K_free;
  A.diagonal() -= sigma * free_mass;
  mesh::Vertices free_positions(free_count, 3);
  for (int f = 0; f < free_count; ++f) free_positions.row(f) = mesh.vertices.row(split.vertices[f]);
  const int threads = parallel::usable_thread_count(options.threads);
  detail::MultifrontalCholesky cholesky;
  try {
    cholesky.factor(A, detail::nested_dissection(K_free, free_positions, 3), threads);
  } catch (const std::runtime_error&) {
    throw std::runtime_error(std::string(kDerivatives) +
                             ": K is singular beyond the rigid modes of the free parts (are all "
                             "pins on one line?)");
  }
  // Every pair at once: each solve reads the factor once for all of them.
  const auto rigid_free = [&](Eigen::MatrixXd& X) {
    if (rigid > 0) X -= R * (R.transpose() * free_mass.asDiagonal() * X);
  };
  const auto mass_norms = [&](const Eigen::MatrixXd& X) {
    return (free_mass.asDiagonal() * X.cwiseAbs2()).colwise().sum().cwiseSqrt().eval();
  };
  Eigen::MatrixXd B(free_unknowns, pair_count);
  for (Eigen::Index u = 0; u < 3 * n; ++u) {
    if (free_unknown[u] >= 0) B.row(free_unknown[u]) = -loads.row(u);
  }
  if (rigid > 0) B -= free_mass.asDiagonal() * (R * (R.transpose() * B));  // inertia relief
  Eigen::MatrixXd X = B;
  cholesky.solve_columns(X);
  rigid_free(X);
  // Refine until the shift's effect is gone: the largest relative correction below
  // kRefinementTolerance, or no longer halving (only rounding is left, at about machine epsilon
  // times K's condition number on the free modes).
  double previous = std::numeric_limits<double>::infinity();
  for (int step = 0; step < kMaxRefinements; ++step) {
    Eigen::MatrixXd dX = B - K_free * X;
    cholesky.solve_columns(dX);
    rigid_free(dX);
    X += dX;
    const double worst = mass_norms(dX).cwiseQuotient(mass_norms(X)).maxCoeff();
    if (!(worst > kRefinementTolerance) || worst > 0.5 * previous) break;
    previous = worst;
  }
  // A solution, unless K is singular beyond the rigid modes (then the load has a part K cannot
  // balance, and the residual stays of the load's size).
  const Eigen::MatrixXd residual = B - K_free * X;
  for (Eigen::Index c = 0; c < pair_count; ++c) {
    if (!(residual.col(c).norm() <= kResidualTolerance * B.col(c).norm())) {
      throw std::runtime_error(std::string(kDerivatives) + ": the solve for pair (" +
                               std::to_string(result.pairs[c][0]) + ", " +
                               std::to_string(result.pairs[c][1]) +
                               ") left a relative residual of " +
                               std::to_string(residual.col(c).norm() / B.col(c).norm()) +
                               " (K is singular beyond the free parts' rigid modes?)");
    }
  }
  result.vectors = Eigen::MatrixXd::Zero(3 * n, pair_count);
  for (Eigen::Index u = 0; u < 3 * n; ++u) {
    if (free_unknown[u] >= 0) result.vectors.row(u) = X.row(free_unknown[u]);
  }
  return result;
}

}  // namespace smfem::subspace
