#pragma once
// Nodes that belong to one element only and to nothing else (a thin body's directors,
// thin/thin_body.hpp: no gravity, no bending, no contact, no pin), moved after a step's global
// iterations to the minimum of their own part of the step energy,
//
//   sum_j m_j / (2 h^2) |u_j - u~_j|^2 + w_e psi(s(F_e)),
//
// the element's other nodes held: a block of the incremental potential solved exactly, which
// can only lower it. Why: the directors carry a tiny rotational inertia (rho pi r^4 / 4 per
// length of a rod), so they are fast, stiff unknowns that turn with their element; one or two
// Newton iterations move them along the rotation's tangent, leave a shear that is not there,
// and the step gains energy: on a net of rods (a mesh's edges) at 2 iterations, 27 of 60 steps
// gained up to 1.5 J; relaxed after every iteration, none did (docs/thin.md). Each element's are
// independent of every other's, so the elements are relaxed in parallel; Newton's method on 3 or 6
// unknowns with a halving line search on that energy, from where the iterations left them, or for
// a rod segment's two directors from their minimum with the inertia neglected in all but their
// turn about the segment (closed form, .cpp): the energy does not change as they turn together,
// and Newton's method, which only their tiny inertia held along that turn, wandered there (on the
// rods bunny 2.6 iterations and 4.0 energy evaluations a segment, 5.5 % of them stopped at the
// iteration limit; from the closed form 1.0 and 1.1, and the mixed step 1.6 times faster).
//
// The mixed step only (full_simulator.cpp says why). Rods ask for it (thin/rod.cpp), shells do not:
// no shell scene or test gained energy without it (cloths, drape, the shell bunny), and it costs
// about a fifth of a 32 x 32 cloth's step (natively, one thread: 62 ms a step without, 74 with).
#include <vector>

#include <Eigen/Core>

#include "smfem/full/element_model.hpp"
#include "smfem/full/tet_mesh_deformation.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::full {

class LocalNodeRelaxation {
 public:
  // Empty unless model.relax_local_nodes. contact_nodes: nodes a contact potential acts on
  // (never local).
  LocalNodeRelaxation(const ElementModel& model, const std::vector<int>& contact_nodes);

  bool empty() const { return elements_.empty(); }

  // Moves the local nodes' rows of U; predicted: the inertia's u~ (n x 3); timestep h.
  void relax(const TetMeshDeformation& deformation, sim::MaterialModel material,
             const std::vector<sim::Lame>& lame, const sim::ReducedMatrix& predicted,
             double timestep, parallel::ThreadPool& pool, sim::ReducedMatrix& U) const;

 private:
  struct Element {
    int element = 0;
    std::vector<int> slots;  // the element's corners (0..3) that are local nodes
    // A segment's two directors (thin/rod.cpp): started from segment_directors() (.cpp).
    bool segment = false;
  };
  // Newton's method on the element's Nodes local nodes (1 or 2).
  template <int Nodes>
  void relax_element(const Element& local, const TetMeshDeformation& deformation,
                     sim::MaterialModel material, const sim::Lame& params,
                     const sim::ReducedMatrix& predicted, double inv_h2,
                     sim::ReducedMatrix& U) const;
  const ElementModel& model_;
  std::vector<Element> elements_;
};

}  // namespace smfem::full
