#pragma once
// What the full-space solvers (full_simulator.hpp) run on: elements of four nodes whose
// deformation gradient is affine in the nodes' displacements,
//
//   F_e - I = sum_j U_{node_j}^T G_e(j, :)        (G_e: 4 x 3, row j the weight of node j),
//
// integrated with one quadrature point of weight w_e (its volume). A tet mesh gives one element
// per tet (G_e its shape gradients, element_model(FullModel)). Thin bodies (thin/) give one per
// triangle or segment: their corners and their directors, nodes of their own whose rest
// "position" is a unit vector (thin/thin_body.hpp). Nodes have a mass for inertia (a director's:
// its rotational inertia, kg m^2) and a translational mass, the one gravity pulls and momentum
// counts (0 for directors).
//
// Psi_u may also hold a constant bending energy 1/2 sum_d U_d^T B U_d (U_d: column d of U; B
// n x n, symmetric PSD, the same for the three coordinates): measured from the rest shape, which
// it must leave unloaded (B X_d = 0 for the rest positions' columns; thin/bending.hpp), and the
// dihedral angles' energy of hinge_bending.hpp (curved shells).
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/full/hinge_bending.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::full {

struct ElementModel {
  std::string source;  // names the model in messages
  int node_count = 0;
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> elements;  // E x 4 node ids, 0-based
  std::vector<fem::TetCorners> shape_gradients;                     // G_e per element
  Eigen::VectorXd weights;                                          // E, m^3
  Eigen::VectorXd youngs;                                           // E, Pa
  Eigen::VectorXd poisson;                                          // E
  Eigen::VectorXd node_mass;                                        // n, > 0
  Eigen::VectorXd translational_mass;                               // n, kg, >= 0
  std::vector<int> pinned;                                          // node ids
  Eigen::SparseMatrix<double> bending;                              // n x n, or 0 x 0 for none
  HingeSet hinges;                                                  // rest n x 3, or none
  // Whether each iteration is followed by the exact solve of the nodes that only one element
  // holds (local_node_relaxation.hpp: rods' directors).
  bool relax_local_nodes = false;
  sim::SolverSettings defaults;

  int element_count() const { return static_cast<int>(elements.rows()); }
};

// Checks: n >= 1, E >= 1, node ids in range and distinct per element, finite gradients, weights
// > 0, per-element E > 0 and nu in (-1, 0.5), node masses > 0 and translational masses >= 0 (n
// entries each), pinned ids in range and a node left free, bending n x n (or empty) and finite,
// hinges on distinct nodes in range with finite rest angles, stiffnesses >= 0 and n rest rows.
std::optional<sim::ModelProblem> check_element_model(const ElementModel& model);

// One element per tet: G its shape gradients, w its volume, the lumped mass
// (lumped_vertex_mass) as both masses, no bending.
ElementModel element_model(const FullModel& model);

}  // namespace smfem::full
