#pragma once
// The whole tet mesh of a scene, for the native full-space reference solvers (Mixed FEM,
// Trusty et al. 2022; full_simulator.hpp): the ground truth the subspace stepper approaches as m
// and |C| grow, and the "Full MFEM" column of Table 1; and for the stepper's local deformations
// (local/, paper 001), which integrate their basis fields over the mesh's tets near a load. So
// this reader is in the core (the full-space solvers are not).
//
// Asset sections (written by `smfem-bake --full-mesh`, assets/FORMAT.md):
//   mesh.positions   f64 [n, 3]  rest positions, m, one vertex per row
//   mesh.tets        u32 [T, 4]  corner vertex ids, 0-based, positively oriented
//   mesh.youngs      f64 [T]     Pa
//   mesh.poisson     f64 [T]
//   mesh.density     f64 [T]     kg / m^3
//   mesh.weights     f32 [n, m]  optional: the skinning weights W of the vertices (x_v = X_v +
//                                U^T b_v, b_v[4i + k] = W_vi [X_v; 1]_k,
//                                sim/model/reduced_model.hpp)
//   subspace.pinned  u32 [p]     pinned vertices (optional: none)
// and meta "solver" for the defaults (timestep, gravity, material model), as the stepper
// reads them (sim/model/reduced_model.hpp).
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/asset/asset.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::full {

struct FullModel {
  std::string source;  // names the model in messages
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> positions;  // n x 3
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> tets;          // T x 4
  Eigen::VectorXd youngs;                                               // T
  Eigen::VectorXd poisson;                                              // T
  Eigen::VectorXd density;                                              // T
  sim::RowMatrixXf weights;  // n x m; 0 x 0 when the asset has none (mesh.weights)
  std::vector<int> pinned;   // vertex ids
  sim::SolverSettings defaults;

  int vertex_count() const { return static_cast<int>(positions.rows()); }
  int tet_count() const { return static_cast<int>(tets.rows()); }
};

// Checks: n >= 4, T >= 1, finite positions, corner ids in range and distinct, every tet of
// positive volume, per-tet arrays of T finite entries with E > 0, nu in (-1, 0.5),
// density > 0, pinned ids in range, at least one vertex left free, and weights (if any) of n
// finite rows.
std::optional<sim::ModelProblem> check_full_model(const FullModel& model);

// The rest corners of a tet, one per row (fem/linear_tet.hpp).
fem::TetCorners tet_corners(const FullModel& model, int tet);

// b_v of a vertex from the mesh's skinning weights (4m): b_v[4i + k] = W_vi [X_v; 1]_k, so that
// the vertex moves by U^T b_v (sim/model/reduced_model.hpp). The model must carry its weights.
Eigen::VectorXd vertex_basis(const FullModel& model, int vertex);

// The lumped mass of every vertex, kg: each tet gives density * volume / 4 to each corner (as
// the bake's subspace/lumped_mass.hpp, which the core cannot call).
Eigen::VectorXd lumped_vertex_mass(const FullModel& model);

// Reads the sections above; throws asset::AssetError naming the section at fault (missing
// mesh: "mesh.positions ... bake with --full-mesh").
FullModel load_full_model(const asset::Asset& asset);

}  // namespace smfem::full
