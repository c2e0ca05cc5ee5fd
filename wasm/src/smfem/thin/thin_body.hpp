#pragma once
// Thin bodies (Trusty et al. 2022, §3.5): shells (triangle meshes) and rods (polylines) solved by
// the full-space mixed and FEM steps (full/full_simulator.hpp), with the volumetric materials
// unchanged; and, for scenes that put them beside a volume (paper 002's figure 2), tet meshes
// (volume.hpp) in the same terms, several bodies combined into one (combined_body.hpp).
//
// The paper pins each element's stretch normal to the surface (rods: both normal stretches) at 1:
// its shells are in plane strain, its rods in uniaxial strain, and in-plane (axial) stiffness
// is then that of E / (1 - nu^2)-like moduli, not E. We free them instead: each triangle has a
// director d, a node of its own, and
//
//   F = sum_j x_j grad phi_j^T + d n^T          (phi_j: the corners' in-plane barycentric
//                                                  coordinates, n: the rest normal)
//
// (a rod segment: F = (x_b - x_a) t^T / l + d_1 b_1^T + d_2 b_2^T, t its rest tangent, b_1 and
// b_2 its rest normals). F is affine in the nodes (full/element_model.hpp), equals I at rest
// (d = n), and the energy's minimum over d is the plane-stress membrane (rods: uniaxial stress):
// with zero transverse shear, |d| is the thickness stretch that leaves the normal stress 0. So a
// strip stretched by its weight stretches by rho g L^2 / (2 E) and contracts across by nu, as
// cloth and ropes do. Directors carry the rotational inertia of the material through the
// thickness (rho A t^3 / 12; rods rho l pi r^4 / 4 each), which gravity does not pull; a straight
// rod's two directors can turn together about the rod at no elastic cost, and that inertia is
// what holds the turn (a curved rod's are tied to their neighbours' by its twist, bending.hpp).
//
// Bending is not in the membrane: a constant quadratic energy (bending.hpp), the element model's B.
#include <Eigen/Core>

#include "smfem/full/element_model.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::thin {

struct ThinBody {
  // Nodes: the vertices (0 .. vertex_count - 1), then the directors.
  full::ElementModel model;
  int vertex_count = 0;
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> rest;  // vertex_count x 3, m
  // The directors' rest directions (unit), one row per director node, in node order.
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> directions;
  Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor> edges;  // the mesh's edges, once each
  // What the page draws: a shell's triangles (a volume's boundary's), and a rod's segments as
  // lines (none for a shell or a volume, whose edges are not drawn).
  Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> triangles;
  Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor> lines;
  Eigen::VectorXd line_radii;  // per line, its rod's radius, m (the page draws it a tube so thick)
  // Per vertex, the area its contact barrier is weighted by (thin_contact.hpp), m^2: a shell's
  // lumped area, a rod's lumped length times its diameter, a volume's boundary's lumped area (0
  // inside: no contact).
  Eigen::VectorXd contact_areas;
  // Per vertex, how far the body's surface lies beyond it towards an obstacle (thin_contact.hpp),
  // m: a rod's radius, half a shell's thickness, 0 on a volume's boundary. The barrier keeps the
  // surface, not the midline, off the obstacles: a 2 cm hose rested 17 mm into the floor.
  Eigen::VectorXd contact_skins;
};

// The solver settings thin bodies start from (ElementModel::defaults): the defaults with the
// mixed step's `projected` curvature (sim/solver_settings.hpp). The default `curvature` variant
// fell back to the paper's direction in most iterations of soft cloth, whose membranes are in
// compression where they fold (the curvature is then indefinite), and the paper's direction
// gains energy there. Measured at 2 iterations, 60 steps per second, 60 steps (2026-11-29): a
// 21 x 21 cloth at E = 1e5 held by two corners: with `curvature`, 1022 of 1032 iterations fell
// back, without the energy check it gained 9.2 J and stretched edges 139 %, with it 18 steps were
// retried (19 iterations a step on average) and it stayed 9.6 cm (rms) from the converged run;
// with `projected` no step was retried, 1.8 cm (FEM at 2 iterations: 3.9 mm). A 15 x 15 cloth at
// E = 1e6 held by one corner: 15 steps retried (12.8 iterations a step) against none. On stiff
// cloth (E = 1e9) `curvature` follows the converged run more closely (0.2 mm against 0.5 mm;
// FEM 9.8 cm), and on ropes the two agree.
sim::SolverSettings thin_body_defaults();

// The largest |l / L - 1| over the edges (l deformed, L rest length) at node displacements U
// (node_count x 3).
double max_edge_strain(const ThinBody& body, const sim::ReducedMatrix& U);

}  // namespace smfem::thin
