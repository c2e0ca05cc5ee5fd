#include "smfem/cubature/greedy_cubature.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "smfem/cubature/detail/refuse.hpp"
#include "smfem/cubature/nnls.hpp"

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;

// A best cosine below this is rounding: no candidate lowers the residual.
constexpr double kMinCosine = 1e-10;

}  // namespace

GreedyCubature greedy_cubature(const Eigen::Ref<const Eigen::MatrixXd>& A,
                               const Eigen::Ref<const Eigen::VectorXd>& b, int count,
                               double tolerance) {
  const char* caller = "greedy_cubature";
  if (A.cols() == 0 || A.rows() == 0) detail::refuse(caller, "no candidates or no training rows");
  if (b.size() != A.rows()) {
    detail::refuse(caller, "b has " + std::to_string(b.size()) + " entries for " +
                               std::to_string(A.rows()) + " rows");
  }
  if (count < 1) detail::refuse(caller, "asked for " + std::to_string(count) + " tets; at least 1");
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    detail::refuse(caller, "tolerance must be >= 0");
  }
  if (!A.allFinite() || !b.allFinite()) detail::refuse(caller, "a force is not finite");

  const Eigen::VectorXd norms = A.colwise().norm().transpose();
  const double b_norm = b.norm();
  ActiveSetNnls fit(A, b);
  double residual = b_norm;
  int support = 0;
  GreedyCubature out;
  out.converged = true;
  // Each step adds one candidate and may drop others; the residual falls strictly, so no set
  // repeats, but a cap keeps rounding from running it long.
  const int max_iterations = 4 * count + 16;
  while (support < count && residual > tolerance * b_norm) {
    if (out.iterations == max_iterations) {
      out.converged = false;
      break;
    }
    const Eigen::VectorXd correlation = A.transpose() * fit.residual();
    Index best = -1;
    double best_cosine = kMinCosine;
    for (Index j = 0; j < A.cols(); ++j) {
      if (fit.x()(j) > 0.0 || norms(j) == 0.0) continue;
      const double cosine = correlation(j) / (norms(j) * residual);
      if (cosine > best_cosine) {
        best_cosine = cosine;
        best = j;
      }
    }
    if (best < 0) break;  // no candidate lowers the residual
    ++out.iterations;
    // Refit on the support and the new candidate only; what drops to zero is dropped (it may
    // be chosen again later).
    fit.allow(best);
    fit.solve();
    fit.forbid_zeros();
    const double next = fit.residual().norm();
    support = static_cast<int>((fit.x().array() > 0.0).count());
    if (!(next < residual)) break;  // only rounding was left to fit
    residual = next;
  }

  std::vector<int> columns;
  for (Index j = 0; j < A.cols(); ++j) {
    if (fit.x()(j) > 0.0) columns.push_back(static_cast<int>(j));
  }
  out.columns =
      Eigen::Map<const Eigen::VectorXi>(columns.data(), static_cast<Index>(columns.size()));
  out.weights = fit.x()(out.columns);
  out.relative_residual = b_norm > 0.0 ? fit.residual().norm() / b_norm : 0.0;
  return out;
}

}  // namespace smfem::cubature
