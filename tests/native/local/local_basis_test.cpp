// The patch fields of local/local_basis.hpp on the procedural box mesh (sim/fixtures): what they
// are made of (the half-space's Green's tensor, truncated), how they turn with the mesh, what
// they refuse, and what they are for: a static dent that the box's smooth global fields cannot
// show, fitted by adding the patch's three.
#include "smfem/local/local_basis.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numbers>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Dense>
#include <Eigen/Geometry>

#include "local/block_mesh.hpp"
#include "local/static_dent.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/local/patch_grouping.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::local {
namespace {

constexpr HalfSpaceMaterial kSoft{1e5 / 2.6, 0.3};  // E 1e5 Pa

using test::block;
using test::block_surface;
using test::top_frame;
using test::top_patch;

const Eigen::Matrix3d* field_at(const LocalColumns& columns, int v) {
  for (std::size_t k = 0; k < columns.vertices.size(); ++k) {
    if (columns.vertices[k] == v) return &columns.displacements[k];
  }
  return nullptr;
}

TEST(LocalBasis, AOneVertexPatchIsTheGreensTensorTruncated) {
  const sim::BoxModel box = block(8, 4);
  const LoadPatch patch = top_patch(box, 0.0, 0.0, 1e-9, 0.125);
  ASSERT_EQ(patch.vertices.size(), 1u);
  const int j = patch.vertices[0];
  const double support = 0.4;
  const LocalColumns columns = patch_columns(box.rest, box.tets, patch, kSoft, support);
  // Each field is the Green's tensor's column times the truncation, up to one scale per field:
  // the same ratio at every vertex other than the loaded one.
  Eigen::Vector3d scale = Eigen::Vector3d::Constant(std::nan(""));
  int inside = 0, outside = 0;
  for (Eigen::Index v = 0; v < box.rest.rows(); ++v) {
    const Eigen::Vector3d x = box.rest.row(v).transpose();
    const double distance = (x - patch.centre).norm();
    const Eigen::Matrix3d* field = field_at(columns, static_cast<int>(v));
    if (distance >= support) {
      EXPECT_EQ(field, nullptr) << "vertex " << v << " beyond the support";
      ++outside;
      continue;
    }
    ASSERT_NE(field, nullptr) << "vertex " << v << " within the support";
    if (v == j) continue;
    ++inside;
    const Eigen::Matrix3d expected =
        truncation_weight(distance, support) * top_frame() *
        point_load_response(top_frame().transpose() * (x - patch.centre), kSoft);
    for (int a = 0; a < 3; ++a) {
      if (expected.col(a).norm() == 0.0) continue;
      const double ratio = field->col(a).norm() / expected.col(a).norm();
      if (std::isnan(scale(a))) scale(a) = ratio;
      EXPECT_LE((field->col(a) - scale(a) * expected.col(a)).norm(), 1e-12 * field->col(a).norm())
          << "vertex " << v << ", field " << a;
    }
  }
  EXPECT_GT(inside, 20);
  EXPECT_GT(outside, 100);
  // The dent is deepest at the loaded vertex (its mean over the tets around it is within a few
  // per cent of the largest of the field, 1), and points into the body there; the tangential
  // fields there point along their tangents.
  const Eigen::Matrix3d* loaded = field_at(columns, j);
  ASSERT_NE(loaded, nullptr);
  EXPECT_GT(loaded->col(2).norm(), 0.95);
  EXPECT_GT(-loaded->col(2).y(), 0.9);
  EXPECT_GT(loaded->col(0).x(), 0.9 * loaded->col(0).norm());
  EXPECT_GT(loaded->col(1).z(), 0.9 * loaded->col(1).norm());
}

TEST(LocalBasis, ThePatchsVerticesWeighInByTheirAreas) {
  // Two loaded vertices of unequal areas: away from them, each field is the area-weighted sum of
  // their Green's tensors (up to one scale per field), not the plain sum.
  const sim::BoxModel box = block(8, 4);
  LoadPatch patch = top_patch(box, 0.0625, 0.0, 0.07, 0.125);
  ASSERT_EQ(patch.vertices.size(), 2u);
  patch.areas = {1.0, 3.0};
  const double support = 0.45;
  const LocalColumns columns = patch_columns(box.rest, box.tets, patch, kSoft, support);
  Eigen::Vector3d scale = Eigen::Vector3d::Constant(std::nan(""));
  int compared = 0;
  for (std::size_t i = 0; i < columns.vertices.size(); ++i) {
    const int v = columns.vertices[i];
    if (v == patch.vertices[0] || v == patch.vertices[1]) continue;
    const Eigen::Vector3d x = box.rest.row(v).transpose();
    Eigen::Matrix3d sum = Eigen::Matrix3d::Zero();
    for (std::size_t k = 0; k < 2; ++k) {
      const Eigen::Vector3d load = box.rest.row(patch.vertices[k]).transpose();
      sum += patch.areas[k] * point_load_response(top_frame().transpose() * (x - load), kSoft);
    }
    const Eigen::Matrix3d expected =
        truncation_weight((x - patch.centre).norm(), support) * top_frame() * sum;
    for (int a = 0; a < 3; ++a) {
      if (std::isnan(scale(a)))
        scale(a) = columns.displacements[i].col(a).norm() / expected.col(a).norm();
      EXPECT_LE((columns.displacements[i].col(a) - scale(a) * expected.col(a)).norm(),
                1e-12 * columns.displacements[i].col(a).norm())
          << "vertex " << v << ", field " << a;
    }
    ++compared;
  }
  EXPECT_GT(compared, 20);
}

TEST(LocalBasis, APatchRoundAnEdgeDentsWhereItIsLoaded) {
  // Its frame leans 45 degrees between the top face and the side: vertices of both faces lie
  // above its tangent plane. The fields stay finite, and each is largest at one of the patch's
  // vertices.
  const sim::BoxModel box = block(8, 4);
  const geometry::TriangleIndices surface = block_surface(box);
  std::vector<int> active;
  for (Eigen::Index v = 0; v < box.rest.rows(); ++v) {
    const Eigen::Vector3d p = box.rest.row(v).transpose();
    const bool near_edge = std::abs(p.x() - 0.5) < 0.13 && std::abs(p.y() - 0.5) < 0.13;
    const bool on_face = std::abs(p.x() - 0.5) < 1e-12 || std::abs(p.y() - 0.5) < 1e-12;
    if (near_edge && on_face && std::abs(p.z()) < 0.13) active.push_back(static_cast<int>(v));
  }
  const std::vector<LoadPatch> patches = group_into_patches(box.rest, surface, active, 1);
  ASSERT_EQ(patches.size(), 1u);
  const LoadPatch& patch = patches[0];
  EXPECT_LT(patch.frame.col(2).x(), -0.5);
  EXPECT_LT(patch.frame.col(2).y(), -0.5);
  const LocalColumns columns = patch_columns(box.rest, box.tets, patch, kSoft, 0.4);
  for (int a = 0; a < 3; ++a) {
    int deepest = -1;
    double largest = 0.0;
    for (std::size_t i = 0; i < columns.vertices.size(); ++i) {
      ASSERT_TRUE(columns.displacements[i].allFinite());
      if (columns.displacements[i].col(a).norm() > largest) {
        largest = columns.displacements[i].col(a).norm();
        deepest = columns.vertices[i];
      }
    }
    EXPECT_NE(std::find(patch.vertices.begin(), patch.vertices.end(), deepest),
              patch.vertices.end())
        << "field " << a << "'s largest displacement, at vertex " << deepest << ", is not loaded";
  }
}

TEST(LocalBasis, PointsAboveThePatchsPlaneStayFinite) {
  // A frame whose normal points out of the body puts every vertex above the tangent plane, one
  // of them on the outward normal, where the half-space's solution is singular: each takes its
  // mirror image's value, and every field stays finite and largest near the load.
  const sim::BoxModel box = block(8, 4);
  LoadPatch patch = top_patch(box, 0.0, 0.0, 1e-9, 0.125);
  patch.frame = Eigen::AngleAxisd(std::numbers::pi, Eigen::Vector3d::UnitX()) * top_frame();
  const LocalColumns columns = patch_columns(box.rest, box.tets, patch, kSoft, 0.4);
  EXPECT_GT(columns.vertices.size(), 20u);
  for (const Eigen::Matrix3d& d : columns.displacements) EXPECT_TRUE(d.allFinite());
  // Near the axis the continuation is not singular but huge (1e30 where rounding leaves the
  // vertex below the load 1e-17 off it): it would set each field's scale and leave the loaded
  // vertex's displacement next to nothing.
  const Eigen::Matrix3d* loaded = field_at(columns, patch.vertices[0]);
  ASSERT_NE(loaded, nullptr);
  for (int a = 0; a < 3; ++a) EXPECT_GT(loaded->col(a).norm(), 0.5) << "field " << a;
}

TEST(LocalBasis, TurnsWithTheMesh) {
  const sim::BoxModel box = block(6, 4);
  const LoadPatch patch = top_patch(box, 1.0 / 6.0, 0.0, 0.2, 1.0 / 6.0);
  const Eigen::Matrix3d Q =
      Eigen::AngleAxisd(0.9, Eigen::Vector3d(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  MeshPositions turned = box.rest * Q.transpose();
  LoadPatch turned_patch = patch;
  turned_patch.centre = Q * patch.centre;
  turned_patch.frame = Q * patch.frame;
  // A support no vertex lies at (rounding would decide whether it is in).
  const LocalColumns a = patch_columns(box.rest, box.tets, patch, kSoft, 0.47);
  const LocalColumns b = patch_columns(turned, box.tets, turned_patch, kSoft, 0.47);
  ASSERT_EQ(a.vertices, b.vertices);
  for (std::size_t k = 0; k < a.vertices.size(); ++k) {
    EXPECT_LT((b.displacements[k] - Q * a.displacements[k]).norm(), 1e-10);
  }
}

TEST(LocalBasis, RefusesWhatIsNotAPatchOfTheMesh) {
  const sim::BoxModel box = block(4, 4);
  const LoadPatch good = top_patch(box, 0.0, 0.0, 0.3, 0.25);
  ASSERT_GT(good.vertices.size(), 1u);
  const auto refuses = [&](LoadPatch patch, double support = 0.5) {
    EXPECT_THROW(patch_columns(box.rest, box.tets, patch, kSoft, support), std::invalid_argument);
  };
  LoadPatch patch = good;
  patch.vertices.clear();
  patch.areas.clear();
  refuses(patch);
  patch = good;
  patch.areas.pop_back();
  refuses(patch);
  patch = good;
  patch.areas[0] = 0.0;
  refuses(patch);
  patch = good;
  patch.vertices[0] = static_cast<int>(box.rest.rows());
  refuses(patch);
  patch = good;
  patch.vertices[1] = patch.vertices[0];
  refuses(patch);
  patch = good;
  patch.frame.col(2) *= -1.0;  // left-handed
  refuses(patch);
  patch = good;
  patch.frame(0, 0) = 1.1;
  refuses(patch);
  refuses(good, 0.0);
  patch = good;
  patch.centre = Eigen::Vector3d(50.0, 0.0, 0.0);  // no vertex within the support
  refuses(patch);
  EXPECT_THROW(patch_columns(box.rest, box.tets, good, {0.0, 0.3}, 0.5), std::invalid_argument);
  MeshPositions nan_rest = box.rest;
  nan_rest(3, 1) = std::nan("");
  EXPECT_THROW(patch_columns(nan_rest, box.tets, good, kSoft, 0.5), std::invalid_argument);
  EXPECT_THROW(patch_columns(box.rest, box.tets, good, {1e-310, 0.3}, 0.5), std::invalid_argument);
  MeshTets bad = box.tets;
  bad(0, 0) = -1;
  EXPECT_THROW(patch_columns(box.rest, bad, good, kSoft, 0.5), std::invalid_argument);
}

// The relative error, on the top face within `radius` of the patch's centre, of the least-squares
// fit of u by the columns of A (over every vertex).
double near_error(const sim::BoxModel& box, const Eigen::MatrixXd& A, const Eigen::VectorXd& u,
                  const Eigen::Vector3d& centre, double radius) {
  const Eigen::VectorXd fit = A * A.colPivHouseholderQr().solve(u);
  double error = 0.0, size = 0.0;
  for (Eigen::Index v = 0; v < box.rest.rows(); ++v) {
    const Eigen::Vector3d x = box.rest.row(v).transpose();
    if (std::abs(x.y() - 0.5) > 1e-12 || (x - centre).norm() > radius) continue;
    error += (fit - u).segment<3>(3 * v).squaredNorm();
    size += u.segment<3>(3 * v).squaredNorm();
  }
  return std::sqrt(error / size);
}

TEST(LocalBasis, ThePatchFieldsFitAStaticDentTheGlobalFieldsCannot) {
  // A block of 12 x 6 x 12 cubes held at its bottom, pressed (or sheared) on a patch of its top
  // face. Global fields: the box model's 8 smooth skinning weights times every affine map (96
  // columns). The static finite-element dent is fitted (least squares over every vertex) by them
  // alone and with the patch's three fields added, and compared within three patch radii of the
  // load. Measured (2026-11-30, the taper over the whole support, half_space.hpp): the patch's
  // fields take the error from 0.57, 0.57, 0.42, 0.37, 0.39 to 0.22, 0.22, 0.27, 0.18, 0.22
  // (with paper 001's taper in the last tenth: 0.29, 0.29, 0.23, 0.19, 0.23; the off-centre,
  // larger patch fits worse with the longer taper, the other four better); asserted: at most 0.65
  // of it (0.6 before the taper changed). Not shown here: that the half-space's form is the right
  // one. This fit barely tells it from wrong ones (a sign flipped in the coupling terms: 0.20-0.34;
  // the normal field decaying as 1 / r^2 instead of 1 / r: 0.19-0.22, better): a dent of nodal
  // forces on a mesh this coarse is not the continuum's. The half-space tests check the form
  // against elasticity; issue 26's Hertz test is the claim's. The solved dent:
  // local_step_test.cpp.
  constexpr int kCubes = 12, kModes = 8;
  const double h = 1.0 / kCubes;
  const sim::BoxModel box = block(kCubes, kModes);
  const Eigen::Index nv = box.rest.rows();
  Eigen::MatrixXd global(3 * nv, 3 * box.basis.cols());
  global.setZero();
  for (Eigen::Index k = 0; k < box.basis.cols(); ++k) {
    for (int d = 0; d < 3; ++d) {
      for (Eigen::Index v = 0; v < nv; ++v) global(3 * v + d, 3 * k + d) = box.basis(v, k);
    }
  }
  const double mean_volume = 0.5 / static_cast<double>(box.tets.rows());
  const double support = support_radius(kModes, mean_volume);
  struct Case {
    double x, z, radius;
    Eigen::Vector3d force;  // per unit area
    double poisson;
  };
  const std::vector<Case> cases = {
      {0.0, 0.0, 1.1 * h, Eigen::Vector3d(0.0, -1.0, 0.0), 0.3},
      {0.0, 0.0, 1.1 * h, Eigen::Vector3d(0.0, -1.0, 0.0), 0.45},
      {0.25, -1.0 / 6.0, 1.5 * h, Eigen::Vector3d(0.0, -1.0, 0.0), 0.3},
      {0.0, 0.0, 1.1 * h, Eigen::Vector3d(1.0, 0.0, 0.0), 0.3},
      {-1.0 / 6.0, 0.25, 1.1 * h, Eigen::Vector3d(0.6, -0.8, 0.0), 0.2},
  };
  for (const Case& c : cases) {
    const LoadPatch patch = top_patch(box, c.x, c.z, c.radius, h);
    const Eigen::VectorXd u = test::static_dent(box, patch, c.force, 2.6 * kSoft.shear, c.poisson);
    const LocalColumns columns =
        patch_columns(box.rest, box.tets, patch, {kSoft.shear, c.poisson}, support);
    Eigen::MatrixXd both(3 * nv, global.cols() + 3);
    both.leftCols(global.cols()) = global;
    both.rightCols<3>().setZero();
    for (std::size_t k = 0; k < columns.vertices.size(); ++k) {
      both.block<3, 3>(3 * columns.vertices[k], global.cols()) = columns.displacements[k];
    }
    const double radius = 3.0 * c.radius;
    const double alone = near_error(box, global, u, patch.centre, radius);
    const double with_patch = near_error(box, both, u, patch.centre, radius);
    std::cout << "patch at (" << c.x << ", " << c.z << "), force " << c.force.transpose() << ", nu "
              << c.poisson << ": global fields " << alone << ", with the patch's " << with_patch
              << "\n";
    EXPECT_LE(with_patch, 0.65 * alone);
  }
}

}  // namespace
}  // namespace smfem::local
