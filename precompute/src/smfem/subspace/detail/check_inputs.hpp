#pragma once
// Argument checks shared by the subspace functions. Each throws std::invalid_argument whose
// message starts with the calling function's name, so a bake log says who refused what.
#include <string>
#include <vector>

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

// Young's moduli (positive, finite) and Poisson ratios (in (-1, 1/2)), tet_count of each.
void check_materials(const char* caller, Eigen::Index tet_count,
                     const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
                     const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio);

// The split of a mesh's vertices into pinned and free ones.
struct FreeVertices {
  std::vector<bool> pinned;     // per vertex
  std::vector<int> free_index;  // per vertex: its place among the free ones, -1 if pinned
  std::vector<int> vertices;    // the free vertices, ascending

  // For fields of three coordinates per vertex (unknown 3v + d): the free unknowns, numbered
  // 3f + d for the f-th free vertex, as a map from all 3|V| unknowns (-1 where pinned), and
  // the mass of each (its vertex's).
  std::vector<int> free_unknowns() const;
  Eigen::VectorXd free_unknown_mass(const Eigen::Ref<const Eigen::VectorXd>& mass) const;
};

// Every pinned index (repeats allowed) names one of mass.size() vertices, and every free vertex
// has positive, finite mass (a vertex used by no tet has mass 0).
FreeVertices free_vertices(const char* caller, const Eigen::Ref<const Eigen::VectorXd>& mass,
                           const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices);

}  // namespace smfem::subspace::detail
