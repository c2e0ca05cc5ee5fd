#pragma once
// Bending of thin bodies whose rest shape is flat (a shell) or straight (a rod), as the constant
// matrix B of a quadratic energy 1/2 sum_d x_d^T B x_d (full/element_model.hpp). For such rest
// shapes B annihilates every rigid motion and every in-plane (along-line) affine map, so the
// energy is invariant under rotation and translation and zero at rest; for curved rest shapes it
// would not be: curved shells bend by their dihedral angles instead (below), curved rods and
// networks of rods by the change of their segments' frames at each joint (below).
//
// Shells: Kirchhoff's plate energy,
//
//   E_b = D / 2 sum_d integral nu (tr H_d)^2 + (1 - nu) |H_d|^2 dA,   D = E t^3 / (12 (1 - nu^2)),
//
// H_d the in-plane Hessian of coordinate d of the deformed positions (for a bend, the second
// fundamental form times the normal's component d, so the sum over d is nu (k_1 + k_2)^2 +
// (1 - nu)(k_1^2 + k_2^2)). Per triangle, H_t is the Hessian of the quadratic through its patch:
// its three corners and, across each edge, the other triangle's third vertex (the rotation-free
// "basic plate triangle" of Onate and Zarate 2000); across a boundary edge, the nearest vertex of
// the corners' triangles that keeps the six off a common conic. It is linear in the vertices,
// exact for quadratic fields on any mesh, zero for affine maps (rigid motions, in-plane
// stretches), and holds saddles and twists:
//
//   E_b = D / 2 sum_t A_t (nu (tr H_t)^2 + (1 - nu) |H_t|^2).
//
// Tried and dropped: the squared cotangent Laplacian ((k_1 + k_2)^2 alone, Wardetzky et al.
// 2007), no plate at a free edge (every field harmonic inside costs nothing: a cantilever strip
// sagged 18 times too far); the vertex-based weak Hessian (Stein et al. 2018), twice too stiff in
// twist on a grid; leaving boundary triangles out, which left boundary vertices in no patch free
// to flap (the cantilever's tip sagged 5 times too far).
//
// Curved shells: the dihedral angles of full/hinge_bending.hpp, with per edge e
//   k_e = D / 2 |e|^2 / (A_1 + A_2)   (A_1, A_2: the rest areas of the edge's two triangles).
// Why that k: on a fine mesh the triangles interpolate the surface's height over its tangent
// plane, h = 1/2 x^T H x (H the change of the second fundamental form from rest), and a hinge
// turns by the jump of the interpolant's slope across it. On an equilateral mesh of side a that
// is a / (2 sqrt 3) (3 H(m, m) - H(e, e)) (m the edge's in-surface normal, e its direction), and
// summed over the three edge directions, sum_e |e|^2 / (A_1 + A_2) theta_e^2 tends to the
// integral of 4/3 |H|^2 - 1/3 (tr H)^2. So E_b = D / 2 integral (nu' (tr H)^2 + (1 - nu') |H|^2)
// with nu' = -1/3 whatever the material's nu: exact for bending about one direction (a cylinder,
// D / 2 k^2 A, any nu; tested on lattices at three angles), softer than the plate where both
// directions bend alike (a sphere's 2/3 D / R^2 per unit area against the plate's (1 + nu) D /
// R^2).
//
// Rods: with rest lengths l_a, l_b of the segments before and after interior vertex v,
//   kappa_v = 2 / (l_a + l_b) ((x_{v+1} - x_v) / l_b - (x_v - x_{v-1}) / l_a),
//   E_b = EI / 2 sum_v |kappa_v|^2 (l_a + l_b) / 2,   EI = E pi r^4 / 4.
// |kappa_v| is 2 sin(theta / 2) / l-ish for a turn theta between segments of unchanged length:
// exact curvature for small turns, bounded for large.
//
// Curved rods and networks of rods (a mesh's edges): at each vertex v where two or more segments
// meet, the segments' deformation gradients F_s (thin_body.hpp: the segment and its two
// directors, I at rest whatever the rest shape) are held to their mean F_v,
//
//   E_b = sum_v 1 / l_v sum_{s at v} sum_c w_c |(F_s - F_v) c_s|^2,
//
// c_s the three axes of segment s's rest frame (tangent t, normals n and b), w_t = EI - GJ / 2,
// w_n = w_b = GJ / 2, l_v the mean rest length of the segments at v. F is affine in the nodes, so
// this is again 1/2 sum_d U_d^T B U_d with a constant B, and B X_d = 0 for any rest shape: every
// affine map of the rest shape, rigid motions included, makes all F_s equal. Why it is the rod's
// energy: where two segments meet, F_b - F_a = R (R_a^T R_b - I) ~ R [omega]_x for the change
// omega of their relative rotation (omega / l_v the change of curvature and twist), and
// sum_c w_c |omega x c|^2 is (w_t + w_b) omega_n^2 + (w_t + w_n) omega_b^2 + (w_n + w_b)
// omega_t^2: EI about each normal, GJ about the tangent, E_b = sum_v (EI |omega_bend|^2 + GJ
// omega_twist^2) / (2 l_v), the Kirchhoff rod's energy. The directors carry the twist: the
// segments' elasticity keeps them across their segment, and this energy ties them to their
// neighbours'. Where more than two segments meet the joint is welded: each keeps its rest angles
// to the others. A straight polyline keeps the energy above instead: it has no rest plane to
// hold, its bending needs no twist, and its directors then stay local to their segment
// (full/local_node_relaxation.hpp), which these cannot.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/full/element_model.hpp"
#include "smfem/full/hinge_bending.hpp"

namespace smfem::thin {

using Positions = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
using Triangles = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

// B of the shell energy above with bending stiffness D (N m) and Poisson ratio nu,
// node_count x node_count (the vertices first; rows and columns beyond X.rows() are zero), stored
// whole. X must be flat; every vertex in a triangle.
Eigen::SparseMatrix<double> shell_bending(const Positions& X, const Triangles& triangles,
                                          double stiffness, double poisson, int node_count);

// The hinges of the curved-shell energy above with bending stiffness D (N m), one per edge shared
// by two triangles (boundary edges bend nothing), rest rows node_count (the vertices first).
full::HingeSet shell_hinges(const Positions& X, const Triangles& triangles, double stiffness,
                            int node_count);

// B of the rod energy above along the polyline X (vertex order), with bending stiffness EI (N m^2).
Eigen::SparseMatrix<double> rod_bending(const Positions& X, double stiffness, int node_count);

// B of the joints' energy above for the segments of `rods` (elements: the segment's two vertices
// and its two directors, shape gradients as thin/rod.cpp makes them; node_count x node_count),
// with bending stiffness EI and twisting stiffness GJ (N m^2). Throws std::invalid_argument unless
// 0 <= GJ <= 2 EI (w_t >= 0).
Eigen::SparseMatrix<double> rod_joint_bending(const full::ElementModel& rods, int vertex_count,
                                              double bending_stiffness, double twisting_stiffness);

}  // namespace smfem::thin
