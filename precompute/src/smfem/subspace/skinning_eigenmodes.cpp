#include "smfem/subspace/skinning_eigenmodes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <Spectra/SymEigsShiftSolver.h>

#include "smfem/subspace/detail/floating_components.hpp"
#include "smfem/subspace/detail/nested_dissection.hpp"
#include "smfem/subspace/detail/shift_invert_operator.hpp"

namespace smfem::subspace {

namespace {

constexpr const char* kCaller = "skinning_eigenmodes";

[[noreturn]] void refuse(const std::string& problem) {
  throw std::invalid_argument(std::string(kCaller) + ": " + problem);
}

// The free-free block of H: rows and columns of the vertices with free_index >= 0.
Eigen::SparseMatrix<double> free_block(const Eigen::SparseMatrix<double>& H,
                                       const std::vector<int>& free_index, int free_count) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(H.nonZeros()));
  for (int j = 0; j < H.outerSize(); ++j) {
    if (free_index[j] < 0) continue;
    for (Eigen::SparseMatrix<double>::InnerIterator it(H, j); it; ++it) {
      const int i = free_index[it.index()];
      if (i >= 0) entries.emplace_back(i, free_index[j], it.value());
    }
  }
  Eigen::SparseMatrix<double> block(free_count, free_count);
  block.setFromTriplets(entries.begin(), entries.end());
  return block;
}

// A fixed pseudo-random vector in [-1/2, 1/2)^n, one per run. The bits of mt19937_64 are
// specified by the standard; the conversion to double is written out
// (std::uniform_real_distribution is not portable across standard libraries).
Eigen::VectorXd start_vector(Eigen::Index n, int run) {
  std::mt19937_64 bits(0x5eed + static_cast<std::uint64_t>(run));
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    x(i) = static_cast<double>(bits() >> 11) * 0x1.0p-53 - 0.5;
  }
  return x;
}

// The eigenvectors of op's count largest eigenvalues (orthonormal columns, n x count), by
// Spectra's implicitly restarted Lanczos from start_vector(run) projected off the deflated set.
Eigen::MatrixXd lanczos_largest(detail::ShiftInvertOperator& op, int count, double shift, int run,
                                const EigenmodeOptions& options) {
  // Lanczos basis size: ARPACK's usual 2 nev + 1, at least 20, at most the dimension left once
  // the deflated vectors are projected out.
  const Eigen::Index space = op.rows() - op.deflated();
  const auto basis_size = std::min<Eigen::Index>(std::max(2 * count + 1, 20), space);
  Spectra::SymEigsShiftSolver<detail::ShiftInvertOperator> solver(op, count, basis_size, shift);
  Eigen::VectorXd start = start_vector(op.rows(), run);
  op.project(start);
  solver.init(start.data());
  solver.compute(Spectra::SortRule::LargestMagn, options.max_restarts, options.tolerance,
                 Spectra::SortRule::SmallestAlge);
  if (solver.info() != Spectra::CompInfo::Successful) {
    throw std::runtime_error(std::string(kCaller) + ": the Lanczos iteration did not converge to " +
                             std::to_string(count) + " eigenpairs within " +
                             std::to_string(options.max_restarts) + " restarts (tolerance " +
                             std::to_string(options.tolerance) + ")");
  }
  return solver.eigenvectors();
}

// Flips w so that its largest-magnitude entry (the first one on ties) is positive.
void fix_sign(Eigen::Ref<Eigen::VectorXd> w) {
  Eigen::Index largest = 0;
  w.cwiseAbs().maxCoeff(&largest);
  if (w(largest) < 0.0) w = -w;
}

}  // namespace

SkinningModes skinning_eigenmodes(const Eigen::SparseMatrix<double>& H,
                                  const Eigen::Ref<const Eigen::VectorXd>& mass,
                                  const Eigen::Ref<const mesh::Vertices>& positions, int modes,
                                  const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                  const EigenmodeOptions& options) {
  const int n = static_cast<int>(H.rows());
  if (n == 0) refuse("the mesh has no vertices");
  if (H.cols() != n) refuse("H is not square");
  if (mass.size() != n) {
    refuse("mass has " + std::to_string(mass.size()) + " entries, H has " + std::to_string(n) +
           " rows");
  }
  if (positions.rows() != n) {
    refuse("positions has " + std::to_string(positions.rows()) + " rows, H has " +
           std::to_string(n));
  }
  if (!positions.allFinite()) refuse("a vertex position is not finite");
  if (modes < 1) refuse("asked for " + std::to_string(modes) + " modes, need at least 1");

  std::vector<bool> pinned(n, false);
  for (Eigen::Index p = 0; p < pinned_vertices.size(); ++p) {
    const int v = pinned_vertices(p);
    if (v < 0 || v >= n) {
      refuse("pinned vertex " + std::to_string(v) + " is not in 0.." + std::to_string(n - 1));
    }
    pinned[v] = true;
  }
  std::vector<int> free_index(n, -1);
  std::vector<int> free_vertices;
  for (int v = 0; v < n; ++v) {
    if (pinned[v]) continue;
    if (!(mass(v) > 0.0) || !std::isfinite(mass(v))) {
      refuse("free vertex " + std::to_string(v) + " has mass " + std::to_string(mass(v)) +
             " (a vertex used by no tet has mass 0: pin it or drop it)");
    }
    free_index[v] = static_cast<int>(free_vertices.size());
    free_vertices.push_back(v);
  }
  const int free_count = static_cast<int>(free_vertices.size());
  if (modes >= free_count) {
    refuse("asked for " + std::to_string(modes) + " modes, but only " + std::to_string(free_count) +
           " vertices are free (need modes < free vertices)");
  }
  const std::vector<std::vector<int>> floating = detail::floating_components(H, pinned);
  const int constant_count = static_cast<int>(floating.size());
  if (modes < constant_count) {
    refuse("the mesh has " + std::to_string(constant_count) +
           " parts with no pinned vertex, each needing its own constant mode, but only " +
           std::to_string(modes) + " modes were asked for");
  }

  Eigen::VectorXd free_mass(free_count);
  for (int f = 0; f < free_count; ++f) free_mass(f) = mass(free_vertices[f]);
  const Eigen::SparseMatrix<double> H_free = free_block(H, free_index, free_count);

  // Constant modes in the symmetric form v = M^1/2 w: sqrt(m_v / mass of the part).
  Eigen::VectorXd part_mass = Eigen::VectorXd::Zero(constant_count);
  Eigen::MatrixXd null_vectors = Eigen::MatrixXd::Zero(free_count, constant_count);
  for (int c = 0; c < constant_count; ++c) {
    for (int v : floating[c]) part_mass(c) += mass(v);
    for (int v : floating[c]) null_vectors(free_index[v], c) = std::sqrt(mass(v) / part_mass(c));
  }

  const Eigen::ArrayXd frequency = H_free.diagonal().array() / free_mass.array();
  const double shift = -std::max(1e-6 * frequency.minCoeff(), 1e-12 * frequency.maxCoeff());

  SkinningModes result;
  result.shift = shift;
  result.constant_modes = constant_count;
  result.weights = Eigen::MatrixXd::Zero(n, modes);
  result.eigenvalues = Eigen::VectorXd::Zero(modes);
  for (int c = 0; c < constant_count; ++c) {
    for (int v : floating[c]) result.weights(v, c) = 1.0 / std::sqrt(part_mass(c));
  }

  const int wanted = modes - constant_count;
  if (wanted == 0) return result;

  mesh::Vertices free_positions(free_count, 3);
  for (int f = 0; f < free_count; ++f) free_positions.row(f) = positions.row(free_vertices[f]);
  const int threads = options.threads > 0
                          ? options.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  detail::ShiftInvertOperator op(H_free, free_mass,
                                 detail::nested_dissection(H_free, free_positions), threads);
  op.deflate(null_vectors);
  // Found modes as w = M^-1/2 v, with Rayleigh quotients as eigenvalues (more accurate than
  // 1/theta + sigma for the smallest ones); each batch is deflated before the next run.
  Eigen::MatrixXd found(free_count, 0);
  std::vector<double> found_eigenvalues;
  const auto keep = [&](const Eigen::MatrixXd& vectors) {
    for (Eigen::Index c = 0; c < vectors.cols(); ++c) {
      const Eigen::VectorXd w = vectors.col(c).cwiseQuotient(free_mass.cwiseSqrt());
      found.conservativeResize(Eigen::NoChange, found.cols() + 1);
      found.rightCols<1>() = w;
      found_eigenvalues.push_back(w.dot(H_free * w) / w.dot(free_mass.cwiseProduct(w)));
    }
    op.deflate(vectors);
  };
  keep(lanczos_largest(op, wanted, shift, 0, options));
  // A single-vector Lanczos sees one direction of an exactly repeated eigenvalue (symmetric
  // meshes have them) and may stop before rounding reveals the others. A run on what is left
  // after deflating everything found must then find nothing below the m-th eigenvalue; if it
  // does, that mode was missed: keep it and look again.
  for (int round = 1; round <= wanted && op.rows() - op.deflated() >= 2; ++round) {
    std::vector<double> sorted = found_eigenvalues;
    std::nth_element(sorted.begin(), sorted.begin() + (wanted - 1), sorted.end());
    const double mth = sorted[wanted - 1];
    const Eigen::MatrixXd next = lanczos_largest(op, 1, shift, round, options);
    const Eigen::VectorXd w = next.col(0).cwiseQuotient(free_mass.cwiseSqrt());
    const double eigenvalue = w.dot(H_free * w) / w.dot(free_mass.cwiseProduct(w));
    if (!(eigenvalue < mth * (1.0 - 1e-6))) break;
    keep(next);
  }

  std::vector<int> order(found_eigenvalues.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return found_eigenvalues[a] < found_eigenvalues[b]; });
  for (int i = 0; i < wanted; ++i) {
    const int column = constant_count + i;
    result.eigenvalues(column) = found_eigenvalues[order[i]];
    for (int f = 0; f < free_count; ++f) {
      result.weights(free_vertices[f], column) = found(f, order[i]);
    }
    fix_sign(result.weights.col(column));
  }
  return result;
}

}  // namespace smfem::subspace
