#pragma once
// Small reduced models for the stepper tests, built here from the definitions in
// sim/reduced_model.hpp (independently of the bake tool): a box of Kuhn-split cubes, weights
// from an affine-complete basis W = [1, x, y, z, x^2, ...] (in centred, scaled coordinates),
// lumped vertex masses, every tet a cubature tet weighted by its volume. Two material regions
// (x below / above the middle).
#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "smfem/sim/cubature_kinematics.hpp"
#include "smfem/sim/reduced_model.hpp"

namespace smfem::sim::test {

struct TestModelOptions {
  int nx = 4, ny = 2, nz = 2;  // cubes per axis
  Eigen::Vector3d lower{0.2, -0.2, 0.1};
  Eigen::Vector3d upper{1.2, 0.2, 0.5};
  int mode_count = 4;  // weight functions, 1..10
  double density = 1000.0;
  double youngs[2] = {1e5, 1e5};  // regions 0 (low x) and 1
  double poisson = 0.3;
};

struct TestModel {
  ReducedModel model;
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> rest;  // nv x 3
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> tets;     // T x 4
  Eigen::VectorXd vertex_mass;                                     // nv
  Eigen::MatrixXd basis;                                           // nv x 4m, row v = b_v^T
};

TestModel make_test_model(const TestModelOptions& options = {});

// x_v(U) = X_v + U^T b_v for every vertex (nv x 3).
Eigen::MatrixXd vertex_positions(const TestModel& test_model, const ReducedMatrix& U);

// The model as an asset (sim/reduced_model.hpp's sections, meta with `meta_extra` merged in).
std::vector<std::uint8_t> model_asset_bytes(const ReducedModel& model,
                                            const nlohmann::json& meta_extra = {});

// A random 4m x 3 matrix with entries uniform in [-scale, scale] (fixed seed).
ReducedMatrix random_reduced(int mode_count, double scale, unsigned seed);

}  // namespace smfem::sim::test
