#pragma once
// A procedural reduced model built from the definitions of reduced_model.hpp, independently of
// the bake tool: a box of Kuhn-split cubes, weights W = [1, plane waves] (box_model.cpp; up to
// 20 functions; the constant one makes every affine map reachable), lumped vertex masses, and as
// cubature either every tet (weighted by its volume) or an evenly spaced subset whose weights are
// scaled to the body's volume. Two material regions (x below / above the middle). Used by the tests
// (which also need the mesh, kept here), by the benchmarks (`--synthetic m C`) and by the wasm
// module, so that the same inputs can be run natively and in WebAssembly.
#include <Eigen/Core>

#include "smfem/sim/cubature_kinematics.hpp"
#include "smfem/sim/reduced_model.hpp"

namespace smfem::sim {

inline constexpr int kMaxBoxModes = 20;

struct BoxModelOptions {
  int nx = 4, ny = 2, nz = 2;  // cubes per axis
  Eigen::Vector3d lower{0.2, -0.2, 0.1};
  Eigen::Vector3d upper{1.2, 0.2, 0.5};
  // Weight functions, 1..kMaxBoxModes; 4m must not exceed the vertex count (else the reduced
  // mass is singular: check_reduced_model refuses it).
  int mode_count = 4;
  // Cubature tets: 0 = every tet; else this many (at most the tet count), evenly spaced.
  int cubature_count = 0;
  double density = 1000.0;
  double youngs[2] = {1e5, 1e5};  // regions 0 (low x) and 1
  double poisson = 0.3;
  // Contact samples (contact/contact_sampling.hpp) on the box's boundary; 0: no contact group.
  int contact_samples = 1 << 20;
};

struct BoxModel {
  ReducedModel model;
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> rest;  // nv x 3
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> tets;     // T x 4, positively oriented
  Eigen::VectorXd vertex_mass;                                     // nv
  Eigen::MatrixXd basis;                                           // nv x 4m, row v = b_v^T
};

// Throws std::invalid_argument for a non-positive grid, mode count outside 1..kMaxBoxModes,
// cubature count outside 0..T, or an empty box.
BoxModel make_box_model(const BoxModelOptions& options = {});

// The options `smfem-bench --synthetic m C` and the wasm module's boxModelAsset use: a 1 m x
// 0.4 m x 0.4 m box fine enough to have at least C tets (6 per cube), regions 1e5 / 1e7 Pa.
BoxModelOptions synthetic_box_options(int mode_count, int cubature_count);

// x_v(U) = X_v + U^T b_v for every vertex (nv x 3).
Eigen::MatrixXd box_vertex_positions(const BoxModel& box, const ReducedMatrix& U);

}  // namespace smfem::sim
