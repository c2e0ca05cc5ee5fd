#pragma once
// Several reduced models as one: the bodies of a scene with contact, so that their coupling
// through contact is solved exactly, by the same MFEM and FEM steps as a single body (one
// Newton system, one CCD-limited line search, with the contact pairs between bodies in it).
// Body i's modes are modes [first_mode_i, first_mode_i + m_i) of the whole (rows 4 first_mode_i
// ... of U); every array of reduced_model.hpp is the bodies' arrays side by side, zero between
// bodies (mass block-diagonal, cubature Y_c zero outside the tet's body). The elastic
// energy and the mass matrices are those of the separate bodies, so a body alone in a scene
// steps exactly as it does by itself.
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::multibody {

struct CompositeModel {
  sim::ReducedModel model;
  std::vector<int> first_mode;  // per body
  std::vector<int> mode_count;  // per body
  // Per body: where its rest frame sits in the scene (added to its positions; the model's own
  // arrays stay in each body's rest frame, except first_moment and rest_centroid, which are in
  // the scene's frame so that the angular momentum is about the scene's origin).
  std::vector<Eigen::Vector3d> offsets;
};

// Throws std::invalid_argument if the lists differ in length or are empty. Regions are
// renumbered (body i's region r becomes r plus the regions of the bodies before it); materials
// are named "<body i's source>: <name>"; the solver defaults are body 0's. No render surface: an
// island's drag spring takes its body's own (island.hpp), and the bodies' render weights side by
// side, dense, held 34 MB of zeros for 30 cubes.
CompositeModel combine_models(std::vector<sim::ReducedModel> models,
                              const std::vector<Eigen::Vector3d>& offsets);

// Body i's rows of U, Udot or the mass vector (4 m_i rows; writable where `rows` is).
template <class Rows>
auto body_block(const CompositeModel& composite, int body, Rows& rows) {
  const auto b = static_cast<std::size_t>(body);
  return rows.middleRows(4 * composite.first_mode[b], 4 * composite.mode_count[b]);
}

}  // namespace smfem::multibody
