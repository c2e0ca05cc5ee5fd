#pragma once
// A volume (a tet mesh) as a body of the thin module's full-space solvers, so that one scene can
// put a volume beside shells and rods in one mixed solver (paper 002's figures 1 and 2;
// combined_body.hpp): one element per tet with its shape gradients, lumped masses, no directors
// and no bending. Drawn, and weighted for contact, by its boundary triangles.
#include <vector>

#include "smfem/thin/bending.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

struct VolumeMaterial {
  double youngs = 1e6;  // Pa
  double poisson = 0.45;
  double density = 1000.0;  // kg / m^3
};

using Tets = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;

// The body of tets (ids into X, 0-based); throws std::invalid_argument naming the problem: no
// tet, non-finite positions, ids out of range, a tet without volume (either orientation is taken),
// a vertex in no tet, a material value out of range, a pin that is not a vertex.
ThinBody make_volume(const Positions& X, const Tets& tets, const VolumeMaterial& material,
                     std::vector<int> pinned);

}  // namespace smfem::thin
