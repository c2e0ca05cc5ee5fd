// A rod segment's directors after the local relaxation (full/local_node_relaxation.hpp): the
// minimum of the segment's part of the step energy, whatever the material, the segment's stretch
// and turn, and the directors' start; turned about the segment with the prediction.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "smfem/energies/lame.hpp"
#include "smfem/full/local_node_relaxation.hpp"
#include "smfem/full/tet_mesh_deformation.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/thin/rod.hpp"

namespace smfem::thin {
namespace {

using sim::MaterialModel;
using sim::ReducedMatrix;

constexpr double kTimestep = 1.0 / 60.0;

// One segment from the origin along (1, 2, 2) / 3, 0.1 m long, and its relaxation.
struct Segment {
  ThinBody body;
  full::TetMeshDeformation deformation;
  std::vector<sim::Lame> lame;
  MaterialModel material;

  Segment(double radius, double youngs, MaterialModel model)
      : body(make_segment(radius, youngs)),
        deformation(body.model),
        lame{energies::lame_from_young_poisson(youngs, 0.4)},
        material(model) {}

  static ThinBody make_segment(double radius, double youngs) {
    Positions X(2, 3);
    X << 0, 0, 0, 0.1 / 3, 0.2 / 3, 0.2 / 3;
    RodMaterial rod;
    rod.radius = radius;
    rod.youngs = youngs;
    rod.poisson = 0.4;
    rod.bending = false;
    return make_rods(X, polyline_segments(2), rod, {});
  }

  // The segment's part of the step energy, w psi(s(F)) + sum over the directors (nodes 2, 3) of
  // m / (2 h^2) |u - u~|^2.
  double energy(const ReducedMatrix& U, const ReducedMatrix& predicted) const {
    const Matrix3<double> F = Matrix3<double>::Identity() + deformation.displacement_gradient(0, U);
    double sum =
        deformation.volumes()(0) * sim::psi(material, polar::symmetric_stretch(F), lame[0]);
    for (const int v : {2, 3}) {
      sum += 0.5 * body.model.node_mass(v) / (kTimestep * kTimestep) *
             (U.row(v) - predicted.row(v)).squaredNorm();
    }
    return sum;
  }

  // Its gradient in the directors' six coordinates, by central differences.
  Eigen::Matrix<double, 6, 1> gradient(ReducedMatrix U, const ReducedMatrix& predicted) const {
    Eigen::Matrix<double, 6, 1> g;
    const double h = 1e-7;
    for (int k = 0; k < 6; ++k) {
      double& x = U(2 + k / 3, k % 3);
      const double x0 = x;
      x = x0 + h;
      const double up = energy(U, predicted);
      x = x0 - h;
      const double down = energy(U, predicted);
      x = x0;
      g(k) = (up - down) / (2.0 * h);
    }
    return g;
  }

  ReducedMatrix relaxed(ReducedMatrix U, const ReducedMatrix& predicted) const {
    parallel::ThreadPool pool(1);
    full::LocalNodeRelaxation(body.model, {})
        .relax(deformation, material, lame, predicted, kTimestep, pool, U);
    return U;
  }

  // The rest frame's normals, the directors' "rest positions" (thin/rod.cpp).
  Eigen::Vector3d normal(int k) const { return body.model.shape_gradients[0].row(2 + k); }
};

// Stiff thin rods (as the rods bunny's: inertia 1e-8 of the stiffness) and soft thick ones
// (1e-3), in every material, with the segment stretched by 3 % and turned, the directors started
// sheared and off their length: the gradient of the segment's energy in the directors vanishes
// (to the Newton tolerance, relative to where they started), and no nearby point is lower.
TEST(RodDirectors, RelaxedDirectorsAreTheMinimum) {
  for (const MaterialModel model : {MaterialModel::fixed_corotational,
                                    MaterialModel::stable_neo_hookean, MaterialModel::arap}) {
    for (const auto& [radius, youngs] : {std::pair{2e-3, 1e9}, std::pair{2e-2, 1e5}}) {
      const Segment segment(radius, youngs, model);
      const std::string label = std::string(sim::material_model_name(model)) + " r " +
                                std::to_string(radius) + " E " + std::to_string(youngs);
      const Eigen::Matrix3d turn =
          Eigen::AngleAxisd(0.4, Eigen::Vector3d(0.3, -1.0, 0.5).normalized()).toRotationMatrix();
      const Eigen::Vector3d a(0, 0, 0), b(0.1 / 3, 0.2 / 3, 0.2 / 3);
      ReducedMatrix U = ReducedMatrix::Zero(4, 3);
      U.row(0) = Eigen::Vector3d(0.01, -0.02, 0.005).transpose();
      U.row(1) = (U.row(0).transpose() + 1.03 * turn * (b - a) - b).transpose();
      U.row(2) =
          (0.9 * turn * segment.normal(0) + Eigen::Vector3d(0.05, 0.02, -0.03) - segment.normal(0))
              .transpose();
      U.row(3) = (1.1 * turn * segment.normal(1) - segment.normal(1)).transpose();
      ReducedMatrix predicted = ReducedMatrix::Zero(4, 3);
      const Eigen::Matrix3d twist =
          Eigen::AngleAxisd(0.7, turn * (b - a).normalized()).toRotationMatrix();
      for (const int k : {0, 1}) {
        predicted.row(2 + k) = (twist * turn * segment.normal(k) - segment.normal(k)).transpose();
      }
      const ReducedMatrix relaxed = segment.relaxed(U, predicted);
      const double start_slope = segment.gradient(U, predicted).norm();
      EXPECT_LT(segment.gradient(relaxed, predicted).norm(), 1e-5 * start_slope) << label;
      EXPECT_LT(segment.energy(relaxed, predicted), segment.energy(U, predicted)) << label;
      const double lowest = segment.energy(relaxed, predicted);
      for (int k = 0; k < 6; ++k) {
        for (const double step : {-1e-4, 1e-4}) {
          ReducedMatrix moved = relaxed;
          moved(2 + k / 3, k % 3) += step;
          EXPECT_GE(segment.energy(moved, predicted), lowest) << label << " coordinate " << k;
        }
      }
      EXPECT_TRUE(relaxed.topRows(2) == U.topRows(2)) << "only the directors move";
    }
  }
}

// The segment at rest, the prediction turning the directors about it by 1 rad: nothing but their
// inertia holds the turn (the energy is the same at any), and they end where the prediction
// puts them.
TEST(RodDirectors, DirectorsTurnAboutTheSegmentWithThePrediction) {
  const Segment segment(2e-3, 1e9, MaterialModel::fixed_corotational);
  const Eigen::Vector3d along = Eigen::Vector3d(1, 2, 2) / 3.0;
  const Eigen::Matrix3d twist = Eigen::AngleAxisd(1.0, along).toRotationMatrix();
  ReducedMatrix predicted = ReducedMatrix::Zero(4, 3);
  for (const int k : {0, 1}) {
    predicted.row(2 + k) = (twist * segment.normal(k) - segment.normal(k)).transpose();
  }
  const ReducedMatrix relaxed = segment.relaxed(ReducedMatrix::Zero(4, 3), predicted);
  EXPECT_LT((relaxed - predicted).cwiseAbs().maxCoeff(), 1e-9);
}

}  // namespace
}  // namespace smfem::thin
