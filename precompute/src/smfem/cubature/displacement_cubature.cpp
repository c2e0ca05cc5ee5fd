#include "smfem/cubature/displacement_cubature.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "smfem/cubature/detail/parallel_chunks.hpp"
#include "smfem/cubature/detail/refuse.hpp"
#include "smfem/cubature/detail/uniform_random.hpp"
#include "smfem/cubature/greedy_cubature.hpp"
#include "smfem/cubature/training_forces.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;
using Jacobian = Eigen::Matrix<double, 9, Eigen::Dynamic>;

void check_body(const DisplacementBody& body) {
  const Index tets = body.mesh.tets.rows();
  if (tets == 0) detail::refuse("optimized_displacement_cubature", "the mesh has no tets");
  if (body.basis.rows() != 3 * body.mesh.vertices.rows() || body.basis.cols() == 0 ||
      body.quotients.size() != body.basis.cols()) {
    detail::refuse("optimized_displacement_cubature",
                   "the basis (" + std::to_string(body.basis.rows()) + " x " +
                       std::to_string(body.basis.cols()) + ") and its quotients (" +
                       std::to_string(body.quotients.size()) + ") do not fit " +
                       std::to_string(body.mesh.vertices.rows()) + " vertices");
  }
  if (body.volumes.size() != tets || body.youngs.size() != tets || body.poisson.size() != tets) {
    detail::refuse(
        "optimized_displacement_cubature",
        "volumes, youngs and poisson must have one entry per tet (" + std::to_string(tets) + ")");
  }
}

// J_t: entry (d + 3c, i) = sum_j Phi(3 v_j + d, i) G_t(j, c), G_t = dphi/dX.
Jacobian tet_jacobian(const DisplacementBody& body, Index t) {
  fem::TetCorners X;
  for (int j = 0; j < 4; ++j) X.row(j) = body.mesh.vertices.row(body.mesh.tets(t, j));
  const fem::TetCorners G = fem::linear_tet_dphi_dX(X);
  Jacobian J = Jacobian::Zero(9, body.basis.cols());
  for (int j = 0; j < 4; ++j) {
    const auto rows = body.basis.middleRows<3>(3 * body.mesh.tets(t, j));
    for (int c = 0; c < 3; ++c) J.middleRows<3>(3 * c) += G(j, c) * rows;
  }
  return J;
}

// Adds scale g_t(q) (k) to out.
void add_tet_force(const DisplacementBody& body, Index t, const Jacobian& J,
                   const Eigen::VectorXd& q, double scale, Eigen::Ref<Eigen::VectorXd> out) {
  const Vector9<double> strain = J * q;
  const Matrix3<double> F =
      Matrix3<double>::Identity() + Eigen::Map<const Matrix3<double>>(strain.data());
  const polar::SignedSvd<double> svd = polar::signed_svd(F);
  const sim::Lame lame = energies::lame_from_young_poisson(body.youngs(t), body.poisson(t));
  const Vector9<double> dpsi_dF = polar::dstretch_dF(svd).transpose() *
                                  sim::dpsi_ds(body.model, polar::symmetric_stretch(svd), lame);
  out.noalias() += scale * J.transpose() * dpsi_dF;
}

std::vector<Eigen::VectorXd> sample_poses(const DisplacementBody& body, int count, int skip,
                                          std::uint64_t seed) {
  const Index k = body.basis.cols();
  const Index tets = body.mesh.tets.rows();
  // sum_t V_t ||J_t q||^2 = q^T S q: one k x k matrix measures every pose.
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(k, k);
  for (Index t = 0; t < tets; ++t) {
    const Jacobian J = tet_jacobian(body, t);
    S.noalias() += body.volumes(t) * J.transpose() * J;
  }
  const double volume = body.volumes.sum();
  const PoseAmplitudes scale = pose_amplitudes(body.quotients);
  const std::vector<Index>& deforming = scale.deforming;
  const Eigen::VectorXd& amplitude = scale.amplitude;
  const int training = count - skip;
  const int pure = std::min(static_cast<int>(deforming.size()), training / 4);
  std::mt19937_64 bits(seed);
  std::vector<Eigen::VectorXd> poses;
  for (int p = 0; p < count; ++p) {
    const bool single = p < pure;
    Eigen::VectorXd q = Eigen::VectorXd::Zero(k);
    for (Index i = 0; i < k; ++i) {
      if (single && i != deforming[static_cast<std::size_t>(p)]) continue;
      q(i) = (single ? 1.0 : amplitude(i)) * (2.0 * detail::uniform_01(bits) - 1.0);
    }
    const double strain = std::sqrt(q.dot(S * q) / volume);
    const double target = kMinStrain * std::pow(kMaxStrain / kMinStrain, detail::uniform_01(bits));
    if (strain > 0.0) q *= target / strain;
    poses.push_back(std::move(q));
  }
  return poses;
}

// (k poses) x tets.size(): column c is g_t(q_p) of tet t = tets(c), pose by pose.
Eigen::MatrixXd tet_forces(const DisplacementBody& body, const Eigen::VectorXi& tets,
                           const std::vector<Eigen::VectorXd>& poses, int threads) {
  const Index k = body.basis.cols();
  Eigen::MatrixXd forces = Eigen::MatrixXd::Zero(k * static_cast<Index>(poses.size()), tets.size());
  detail::parallel_chunks(tets.size(), detail::resolve_thread_count(threads),
                          [&](Index, Index begin, Index end) {
                            for (Index c = begin; c < end; ++c) {
                              const Jacobian J = tet_jacobian(body, tets(c));
                              for (std::size_t p = 0; p < poses.size(); ++p) {
                                add_tet_force(body, tets(c), J, poses[p], 1.0,
                                              forces.col(c).segment(k * static_cast<Index>(p), k));
                              }
                            }
                          });
  return forces;
}

// g(q_p) = sum over all tets of V_t g_t(q_p), stacked by pose; the chunks summed in order.
Eigen::VectorXd body_forces(const DisplacementBody& body, const std::vector<Eigen::VectorXd>& poses,
                            int threads) {
  const Index k = body.basis.cols();
  const Index rows = k * static_cast<Index>(poses.size());
  const Index tets = body.mesh.tets.rows();
  std::vector<Eigen::VectorXd> partial(static_cast<std::size_t>(detail::chunk_count(tets)),
                                       Eigen::VectorXd::Zero(rows));
  detail::parallel_chunks(tets, detail::resolve_thread_count(threads),
                          [&](Index chunk, Index begin, Index end) {
                            Eigen::VectorXd& sum = partial[static_cast<std::size_t>(chunk)];
                            for (Index t = begin; t < end; ++t) {
                              const Jacobian J = tet_jacobian(body, t);
                              for (std::size_t p = 0; p < poses.size(); ++p) {
                                add_tet_force(body, t, J, poses[p], body.volumes(t),
                                              sum.segment(k * static_cast<Index>(p), k));
                              }
                            }
                          });
  Eigen::VectorXd total = Eigen::VectorXd::Zero(rows);
  for (const Eigen::VectorXd& sum : partial) total += sum;
  return total;
}

// Divides each pose's rows by its ||b_p|| (a pose without force keeps zero rows); returns
// how many poses have a force.
int normalize_poses(Eigen::MatrixXd& A, Eigen::VectorXd& b, Index k) {
  int forced = 0;
  for (Index p = 0; p < b.size() / k; ++p) {
    const double norm = b.segment(k * p, k).norm();
    const double scale = norm > 0.0 ? 1.0 / norm : 0.0;
    forced += norm > 0.0;
    A.middleRows(k * p, k) *= scale;
    b.segment(k * p, k) *= scale;
  }
  return forced;
}

Eigen::VectorXi candidate_tets(Index tets, int count, std::uint64_t seed) {
  std::vector<int> all(static_cast<std::size_t>(tets));
  std::iota(all.begin(), all.end(), 0);
  if (count < tets) {
    // The first count steps of a Fisher-Yates shuffle: a uniform sample without replacement.
    std::mt19937_64 bits(seed + 1);
    for (int i = 0; i < count; ++i) {
      const auto left = static_cast<int>(tets) - i;
      const int j = i + std::min(left - 1, static_cast<int>(detail::uniform_01(bits) * left));
      std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
    }
    all.resize(static_cast<std::size_t>(count));
    std::sort(all.begin(), all.end());
  }
  return Eigen::Map<const Eigen::VectorXi>(all.data(), static_cast<Index>(all.size()));
}

}  // namespace

OptimizedCubature optimized_displacement_cubature(const DisplacementBody& body,
                                                  const OptimizedCubatureOptions& options) {
  const char* caller = "optimized_displacement_cubature";
  check_body(body);
  if (options.tets < 0 || options.training_poses < 1 || options.held_out_poses < 1 ||
      options.candidates < 0 || !(options.tolerance >= 0.0)) {
    detail::refuse(caller, "tets and candidates must be >= 0, poses >= 1, the tolerance >= 0");
  }
  const auto start = std::chrono::steady_clock::now();
  const Index k = body.basis.cols();
  const Index tets = body.mesh.tets.rows();
  const int requested =
      options.tets > 0 ? options.tets : std::max(1, static_cast<int>(20 * k / 12));
  const int count = static_cast<int>(std::min<Index>(
      tets, options.candidates > 0 ? options.candidates
                                   : std::max(kMinCandidates, kCandidatesPerTet * requested)));
  const Eigen::VectorXi candidates = candidate_tets(tets, count, options.seed);
  const std::vector<Eigen::VectorXd> poses = sample_poses(
      body, options.training_poses + options.held_out_poses, options.held_out_poses, options.seed);
  const std::vector<Eigen::VectorXd> training(poses.begin(),
                                              poses.begin() + options.training_poses);
  const std::vector<Eigen::VectorXd> held_out(poses.begin() + options.training_poses, poses.end());

  Eigen::MatrixXd A = tet_forces(body, candidates, training, options.threads);
  Eigen::VectorXd b = body_forces(body, training, options.threads);
  if (normalize_poses(A, b, k) == 0) {
    detail::refuse(caller, "the sampled poses strain no tet of the body (is every vertex pinned?)");
  }
  const GreedyCubature greedy =
      greedy_cubature(A, b, std::min(requested, count), options.tolerance);
  if (greedy.columns.size() == 0)
    detail::refuse(caller, "no candidate tet fits the sampled forces");

  OptimizedCubature out;
  out.cubature.tets = candidates(greedy.columns);
  out.cubature.weights = greedy.weights;
  out.cubature.iterations = greedy.iterations;
  out.cubature.converged = greedy.converged;
  out.fit.training_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.fit.training_error = greedy.relative_residual;
  Eigen::MatrixXd A_held = tet_forces(body, out.cubature.tets, held_out, options.threads);
  Eigen::VectorXd b_held = body_forces(body, held_out, options.threads);
  const int forced = normalize_poses(A_held, b_held, k);
  // The normalized residual's squared norm is the sum over poses of their relative errors.
  out.fit.held_out_error =
      forced > 0 ? (A_held * out.cubature.weights - b_held).norm() / std::sqrt(forced) : 0.0;
  out.fit.training_poses = options.training_poses;
  out.fit.held_out_poses = options.held_out_poses;
  out.fit.candidates = count;
  out.fit.greedy_iterations = greedy.iterations;
  return out;
}

}  // namespace smfem::cubature
