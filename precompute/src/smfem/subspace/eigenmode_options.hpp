#pragma once
// Settings of the shift-inverted Lanczos solves behind skinning_eigenmodes.hpp and
// linear_modes.hpp (detail/smallest_eigenpairs.hpp).

namespace smfem::subspace {

struct EigenmodeOptions {
  // Spectra's convergence test: a Ritz value theta of op is accepted when its residual norm is
  // below tolerance * |theta|, i.e. a relative accuracy on 1 / (gamma - sigma).
  double tolerance = 1e-10;
  // Implicit restarts of the Lanczos iteration before giving up (std::runtime_error).
  int max_restarts = 1000;
  // Threads of the sparse factorization; 0: one per hardware thread. Results do not depend
  // on it.
  int threads = 0;
};

}  // namespace smfem::subspace
