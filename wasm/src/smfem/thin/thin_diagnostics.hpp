#pragma once
// The physical quantities of a thin body's state, as the stepper reports a volume's
// (sim/diagnostics.hpp), summed over the nodes:
//
//   kinetic energy     1/2 sum_n m_n |xdot_n|^2     (directors' turning included)
//   elastic energy     membrane (sum_e w_e psi(s(F_e))) + bending (1/2 sum_d U_d^T B U_d)
//   stretch energy     sum_e w_e psi(z_e) + bending  (MFEM's stretch DOFs; FEM: = elastic)
//   gravity potential  -sum_v m_v g . x_v            (translational masses: vertices)
//   linear momentum    sum_v m_v xdot_v
//   angular momentum   about the origin: sum_v m_v x_v x xdot_v + sum_d I_d d x ddot (a
//                      director's spin, I_d its rotational inertia, d = its direction)
//   centroid           sum_v m_v x_v / M
//   spring energy      the drag spring's (full_simulator.hpp: drag_start)
#include "smfem/full/full_simulator.hpp"
#include "smfem/sim/diagnostics.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

sim::Diagnostics thin_diagnostics(const ThinBody& body, const full::FullSimulator& simulator);

}  // namespace smfem::thin
