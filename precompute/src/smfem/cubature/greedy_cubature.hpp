#pragma once
// The greedy cubature of An, Kim and James (Optimizing Cubature for Efficient Integration of
// Subspace Deformations, 2008) on a given force matrix: columns of A are the candidates'
// per-unit-volume forces over the training poses, b the whole body's, both with each pose's
// rows divided by that pose's ||b_p|| so that every pose counts alike.
//
// From an empty set S: add the candidate whose column has the largest cosine with the residual
// r = b - A_S w, refit w >= 0 on S by NNLS (warm-started from the last w), drop the candidates
// whose weight went to zero, and repeat until |S| reaches the requested count, ||r|| / ||b||
// falls to the tolerance, or no candidate has a positive cosine (then w is the NNLS optimum
// over all candidates). The refits share one ActiveSetNnls (nnls.hpp), whose QR of A_S is
// updated as tets come and go: a step costs O(rows candidates) for the cosines and
// O(rows |S|) per change of S, not a new QR of rows x |S|.
#include <Eigen/Core>

namespace smfem::cubature {

struct GreedyCubature {
  Eigen::VectorXi columns;         // the chosen candidates (columns of A), ascending
  Eigen::VectorXd weights;         // > 0, one per chosen column
  double relative_residual = 0.0;  // ||A_S w - b|| / ||b|| (0 when b = 0)
  int iterations = 0;              // candidates added (some may have been dropped again)
  // Stopped at the count, the tolerance or the best fit over all candidates (including a step
  // that rounding kept from lowering the residual); false: the step cap (4 count + 16) ran out.
  bool converged = false;
};

// A: rows x candidates; b: rows; count >= 1; tolerance >= 0. Throws std::invalid_argument for
// mismatched sizes, an empty A, non-finite entries or count, tolerance out of range.
GreedyCubature greedy_cubature(const Eigen::Ref<const Eigen::MatrixXd>& A,
                               const Eigen::Ref<const Eigen::VectorXd>& b, int count,
                               double tolerance);

}  // namespace smfem::cubature
