#pragma once
// The parts of a body that nothing holds: connected components of a sparse matrix's graph
// that contain no pinned vertex. On each of them the elastic Laplacian has a constant null
// vector (a rigid translation of that part costs no energy).
#include <vector>

#include <Eigen/SparseCore>

namespace smfem::subspace::detail {

// Components of the graph with an edge (i, j) for every stored entry of H (explicit zeros
// count), keeping only those with no vertex where pinned[v] is true. Each component lists its
// vertices ascending; components are ordered by their smallest vertex.
std::vector<std::vector<int>> floating_components(const Eigen::SparseMatrix<double>& H,
                                                  const std::vector<bool>& pinned);

}  // namespace smfem::subspace::detail
