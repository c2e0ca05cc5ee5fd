#include "smfem/subspace/detail/smallest_eigenpairs.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include <Spectra/SymEigsShiftSolver.h>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/subspace/detail/shift_invert_operator.hpp"

namespace smfem::subspace::detail {
namespace {

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
Eigen::MatrixXd lanczos_largest(const char* caller, ShiftInvertOperator& op, int count,
                                double shift, int run, const EigenmodeOptions& options) {
  // Lanczos basis size: ARPACK's usual 2 nev + 1, at least 20, at most the dimension left once
  // the deflated vectors are projected out.
  const Eigen::Index space = op.rows() - op.deflated();
  const auto basis_size = std::min<Eigen::Index>(std::max(2 * count + 1, 20), space);
  Spectra::SymEigsShiftSolver<ShiftInvertOperator> solver(op, count, basis_size, shift);
  Eigen::VectorXd start = start_vector(op.rows(), run);
  op.project(start);
  solver.init(start.data());
  solver.compute(Spectra::SortRule::LargestMagn, options.max_restarts, options.tolerance,
                 Spectra::SortRule::SmallestAlge);
  if (solver.info() != Spectra::CompInfo::Successful) {
    throw std::runtime_error(std::string(caller) + ": the Lanczos iteration did not converge to " +
                             std::to_string(count) + " eigenpairs within " +
                             std::to_string(options.max_restarts) + " restarts (tolerance " +
                             std::to_string(options.tolerance) + ")");
  }
  return solver.eigenvectors();
}

}  // namespace

void fix_sign(Eigen::Ref<Eigen::VectorXd> w) {
  Eigen::Index largest = 0;
  w.cwiseAbs().maxCoeff(&largest);
  if (w(largest) < 0.0) w = -w;
}

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

double shift_below_spectrum(const Eigen::SparseMatrix<double>& A, const Eigen::VectorXd& mass) {
  const Eigen::ArrayXd frequency = A.diagonal().array() / mass.array();
  return -std::max(1e-6 * frequency.minCoeff(), 1e-12 * frequency.maxCoeff());
}

Eigenpairs smallest_eigenpairs(const char* caller, const Eigen::SparseMatrix<double>& A,
                               const Eigen::VectorXd& mass, DissectionTree tree,
                               const Eigen::Ref<const Eigen::MatrixXd>& null_vectors, int wanted,
                               double shift, const EigenmodeOptions& options) {
  const Eigen::Index n = A.rows();
  const int threads = parallel::usable_thread_count(options.threads);
  ShiftInvertOperator op(caller, A, mass, std::move(tree), threads);
  op.deflate(null_vectors);
  // Found modes as w = M^-1/2 v, with Rayleigh quotients as eigenvalues (more accurate than
  // 1/theta + sigma for the smallest ones); each batch is deflated before the next run.
  Eigen::MatrixXd found(n, 0);
  std::vector<double> found_eigenvalues;
  const auto keep = [&](const Eigen::MatrixXd& vectors) {
    for (Eigen::Index c = 0; c < vectors.cols(); ++c) {
      const Eigen::VectorXd w = vectors.col(c).cwiseQuotient(mass.cwiseSqrt());
      found.conservativeResize(Eigen::NoChange, found.cols() + 1);
      found.rightCols<1>() = w;
      found_eigenvalues.push_back(w.dot(A * w) / w.dot(mass.cwiseProduct(w)));
    }
    op.deflate(vectors);
  };
  keep(lanczos_largest(caller, op, wanted, shift, 0, options));
  // A single-vector Lanczos sees one direction of an exactly repeated eigenvalue (symmetric
  // meshes have them) and may stop before rounding reveals the others. A run on what is left
  // after deflating everything found must then find nothing below the wanted-th eigenvalue; if
  // it does, that mode was missed: keep it and look again.
  for (int round = 1; round <= wanted && op.rows() - op.deflated() >= 2; ++round) {
    std::vector<double> sorted = found_eigenvalues;
    std::nth_element(sorted.begin(), sorted.begin() + (wanted - 1), sorted.end());
    const double mth = sorted[wanted - 1];
    const Eigen::MatrixXd next = lanczos_largest(caller, op, 1, shift, round, options);
    const Eigen::VectorXd w = next.col(0).cwiseQuotient(mass.cwiseSqrt());
    const double eigenvalue = w.dot(A * w) / w.dot(mass.cwiseProduct(w));
    if (!(eigenvalue < mth * (1.0 - 1e-6))) break;
    keep(next);
  }

  std::vector<int> order(found_eigenvalues.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return found_eigenvalues[a] < found_eigenvalues[b]; });
  Eigenpairs result{Eigen::MatrixXd(n, wanted), Eigen::VectorXd(wanted)};
  for (int i = 0; i < wanted; ++i) {
    result.eigenvalues(i) = found_eigenvalues[order[i]];
    result.vectors.col(i) = found.col(order[i]);
  }
  return result;
}

}  // namespace smfem::subspace::detail
