#pragma once
// Argument checks shared by the subspace functions. Each throws std::invalid_argument whose
// message starts with the calling function's name, so a bake log says who refused what.
#include <string>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::subspace::detail {

// Every tet index names a vertex, and every tet has positive rest volume.
void check_tet_mesh(const char* caller, const mesh::TetMesh& mesh);

// A per-tet (or per-vertex) array has the expected number of entries.
void check_size(const char* caller, const char* what, Eigen::Index size, Eigen::Index expected);

// Every entry of values is finite and strictly positive.
void check_positive(const char* caller, const char* what,
                    const Eigen::Ref<const Eigen::VectorXd>& values);

}  // namespace smfem::subspace::detail
