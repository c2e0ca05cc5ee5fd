#pragma once
// EigenFit (Chen, Levin, Kaufman, Ascher and Pai 2019; docs/papers.md): the data an asset carries
// to rescale the leading vibration modes of a coarse model to a fine model's eigenvalues, and
// the rest-state modal analysis of the reduced model that the bake fits and the tests check.
//
// The reduced model at rest, as the stepper sees it (its subspace and its cubature), vibrates
// in the generalized eigenpairs of
//
//   K0 U = M U Lambda,   U^T M U = I,
//
// M = I_3 (x) mass_block the reduced mass and K0 the rest Hessian of the cubature's elastic
// energy, sum_c w_c E_c^T H0_c E_c, with E_c (6 x 12m) the map u -> s(F_c(u)) - s(I) at rest
// (the symmetric part of F_c - I, polar/stretch_vector.hpp) and H0_c = d2psi/ds2 at s = I (the
// PSD part the solvers use, equal to the Hessian at rest). For isotropic materials this is also
// the rest Hessian of FEM's energy in F, so both solvers see the same K0. Its eigenvalues are
// omega^2 (1/s^2). A free body has zero eigenvalues (rigid motions), and so does a cubature too
// small for the subspace (zero-energy modes); both are "null" here and never fitted.
//
// The fit: s reduced modes U_s (the leading non-null columns of U, 12m x s, in u = vec(U)
// order: column i holds [u_0; u_1; u_2] of mode i), their coarse eigenvalues lambda_i, and the
// ratios r_i = lambda_fine / lambda_i (1 for a mode the fine model has no match for). The
// stepper (eigenfit_term.hpp) moves the fitted eigenvalues to r_i lambda_i and leaves the others.
//
// Asset sections (all four or none; assets/FORMAT.md, eigenfit.*):
//   eigenfit.modes               f64 [s, 4m, 3]   entry (i, k, d) = U_i(k, d), U_i the 4m x 3
//                                                 matrix of mode i (reduced_model.hpp)
//   eigenfit.ratios              f64 [s]          r_i > 0
//   eigenfit.coarse_eigenvalues  f64 [s]          lambda_i > 0, ascending, 1/s^2
//   eigenfit.fine_eigenvalues    f64 [s]          the matched fine eigenvalue (informational;
//                                                 lambda_i where unmatched)
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/energies/lame.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::asset {
class Asset;
class AssetWriter;
}  // namespace smfem::asset

namespace smfem::sim {

struct ReducedModel;

struct EigenFitData {
  Eigen::MatrixXd modes;               // 12m x s, M-orthonormal
  Eigen::VectorXd ratios;              // s
  Eigen::VectorXd coarse_eigenvalues;  // s
  Eigen::VectorXd fine_eigenvalues;    // s

  int mode_count() const { return static_cast<int>(ratios.size()); }
  bool empty() const { return ratios.size() == 0; }
};

// What is wrong with a fit for a model of the given mass block (4m x 4m), naming the section:
// sizes (1 <= s <= 12m, every section of s modes), finite values, positive ratios and
// eigenvalues, modes orthonormal under the reduced mass (to 1e-6).
struct EigenFitProblem {
  std::string section;
  std::string problem;
};
std::optional<EigenFitProblem> check_eigenfit(const EigenFitData& fit,
                                              const Eigen::MatrixXd& mass_block);

// Reads the eigenfit.* group if the asset has it (else returns an empty fit); throws
// asset::AssetError naming the section at fault (a partial group, shapes).
EigenFitData read_eigenfit(const asset::Asset& asset, int mode_count);
// Adds the group (nothing for an empty fit).
void add_eigenfit(asset::AssetWriter& writer, const EigenFitData& fit);

// I_3 (x) mass_block, 12m x 12m.
Eigen::MatrixXd reduced_mass(const ReducedModel& model);

// The Lame parameters of the cubature tets' baked materials.
std::vector<Lame> baked_lame(const ReducedModel& model);

// E_c: the 6 x 12m map from u to the symmetric part of F_c(u) - I, stored as a stretch vector.
Eigen::Matrix<double, 6, Eigen::Dynamic> rest_strain_map(const ReducedModel& model, int tet);

// K0 above (12m x 12m, symmetric positive semi-definite).
Eigen::MatrixXd rest_stiffness(const ReducedModel& model, MaterialModel material,
                               const std::vector<Lame>& lame);

struct ReducedModes {
  Eigen::MatrixXd vectors;      // 12m x k, M-orthonormal, in the order of the eigenvalues
  Eigen::VectorXd eigenvalues;  // k, ascending, 1/s^2
  int null_modes = 0;           // eigenvalues below kNullEigenvalue * the largest, skipped
};

// Relative size below which a reduced eigenvalue counts as null (a rigid motion or a mode the
// cubature does not see).
inline constexpr double kNullEigenvalue = 1e-9;

// The `count` smallest non-null generalized eigenpairs of (stiffness, reduced_mass(model)),
// each vector's largest-magnitude entry positive. Throws std::invalid_argument when there are
// fewer than `count` non-null modes.
ReducedModes reduced_rest_modes(const ReducedModel& model, const Eigen::MatrixXd& stiffness,
                                int count);

}  // namespace smfem::sim
