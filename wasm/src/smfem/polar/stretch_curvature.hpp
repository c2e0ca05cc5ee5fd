#pragma once
// The curvature of the mixed method's constraint term, phi(F) = m^T s(F) (the Hessian that
// polar_derivatives.hpp's d2stretch_dF2_contract evaluates numerically), in closed form and
// projected to positive semi-definite, for the mixed solver's u block (sim/step/mfem_step.hpp).
//
// Write G for the symmetric matrix with G : S = m^T s (diagonal m_k, off-diagonals m_k / 2)
// and g_i = v_i^T G v_i for the right singular vectors v_i of F = U diag(sigma) V^T. When G
// is coaxial with S (G = V diag(g) V^T: at a converged mixed solution, where G is the stress
// dpsi/dS of an isotropic material), phi is linear along every direction U X V^T with X
// symmetric (R does not move), and only the rotations couple. In the orthonormal basis
//   scale  U e_i e_i^T V^T                             (three, curvature 0)
//   flip   U (e_i e_j^T + e_j e_i^T) V^T / sqrt(2)     (one per pair i < j)
//   twist  U (e_i e_j^T - e_j e_i^T) V^T / sqrt(2)     (one per pair i < j)
// the Hessian is block diagonal with one 2 x 2 block per pair, kappa = sigma_i + sigma_j:
//
//   | 0   c |    c = (g_j - g_i) / kappa,
//   | c   d |    d = 2 (sigma_i g_j + sigma_j g_i) / kappa^2.
//
// Its eigenvalues (d +- sqrt(d^2 + 4 c^2)) / 2 have opposite signs (their product is -c^2),
// so the PSD part keeps one direction per pair. (Added to the stretch energy's own J^T H J
// with G = dpsi/dS, these blocks give the known twist and flip eigenvalues of isotropic
// energies, (psi_i + psi_j) / kappa and (psi_i - psi_j) / (sigma_i - sigma_j).)
//
// For a G that is not coaxial (during an iteration, the multipliers need not be the stress of
// the current stretch), only its coaxial part diag(g) enters: exact at convergence, which
// keeps Newton's convergence, and never more than a PSD model away from it.
// kappa is clamped as polar::clamped_pair_sums documents, so the result is always finite.
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::polar {

enum class CurvatureProjection {
  none,  // the coaxial part's Hessian as it is (indefinite in general)
  psd,   // its positive semi-definite part
};

// 9 x 9 on column-major vec(F), symmetric.
Matrix9<double> coaxial_stretch_curvature(const SignedSvd<double>& svd, const Vector6<double>& m,
                                          CurvatureProjection projection);

}  // namespace smfem::polar
