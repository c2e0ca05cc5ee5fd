#pragma once
// Shape measures of linear tets: signed volume and dihedral angles, per tet and over a mesh.
#include <array>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::tetrahedralize {

// det[b - a, c - a, d - a] / 6: positive for a positively oriented tet.
double signed_volume(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                     const Eigen::Vector3d& d);

// The six interior dihedral angles in degrees, at edges ab, ac, ad, bc, bd, cd. A degenerate
// tet gives angles of 0 or 180.
std::array<double, 6> dihedral_angles_deg(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                          const Eigen::Vector3d& c, const Eigen::Vector3d& d);

// The smallest sine of the six dihedral angles: 0 for a flat tet, sqrt(8/9) ~ 0.943 for the
// regular one. Cheap (no trigonometry), so stencils can compare candidates with it.
double min_dihedral_sine(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                         const Eigen::Vector3d& c, const Eigen::Vector3d& d);

struct TetQuality {
  double min_dihedral_deg = 0.0;
  double max_dihedral_deg = 0.0;
  double min_volume = 0.0;  // smallest signed volume
  double max_volume = 0.0;
  double total_volume = 0.0;
};

// Over every tet of the mesh (which must have at least one).
TetQuality measure_quality(const mesh::TetMesh& mesh);

}  // namespace smfem::tetrahedralize
