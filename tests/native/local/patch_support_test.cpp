// A patch's support on a body's mesh (local/patch_support.hpp), checked against the vertices it
// stands for: its tets' deformation gradients against their corners' positions, its inertia
// against the kinetic energy of every vertex of the mesh, its gravity against the work on each
// vertex, and the patch's rotation against rigid motions of the body.
#include "smfem/local/patch_support.hpp"

#include <numbers>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "local/block_mesh.hpp"
#include "smfem/fem/linear_tet.hpp"

namespace smfem::local {
namespace {

using test::block;
using test::block_mesh;
using test::top_patch;

constexpr double kSupport = 0.35;

// The local displacement R B_v c of mesh vertex v (zero outside the support).
Eigen::Vector3d local_displacement(const PatchSupport& support, int v, const Eigen::Matrix3d& R,
                                   const Eigen::Vector3d& c) {
  for (std::size_t k = 0; k < support.vertices.size(); ++k) {
    if (support.vertices[k] == v) return R * support.fields[k] * c;
  }
  return Eigen::Vector3d::Zero();
}

struct LoadedBlock {
  sim::BoxModel box = block(8, 4);
  full::FullModel mesh = block_mesh(box, 1000.0);
  Eigen::VectorXd vertex_mass = full::lumped_vertex_mass(mesh);
};

TEST(PatchSupport, ItsTetsDeformAsTheirCornersMove) {
  const LoadedBlock s;
  const PatchSupport support =
      patch_support(s.mesh, s.vertex_mass, top_patch(s.box, 0.0, 0.0, 0.13, 0.125), kSupport);
  ASSERT_GT(support.tets.size(), 20u);
  std::srand(7);
  const sim::ReducedMatrix U = 0.05 * sim::ReducedMatrix::Random(4 * s.mesh.weights.cols(), 3);
  const Eigen::Vector3d c = 0.01 * Eigen::Vector3d::Random();
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, -1).normalized()).matrix();
  int with_local_part = 0;
  for (const SupportTet& tet : support.tets) {
    fem::TetCorners X, x;
    for (int k = 0; k < 4; ++k) {
      const int v = s.mesh.tets(tet.tet, k);
      X.row(k) = s.mesh.positions.row(v);
      x.row(k) = X.row(k) + (U.transpose() * full::vertex_basis(s.mesh, v)).transpose() +
                 local_displacement(support, v, R, c).transpose();
    }
    const Eigen::Matrix3d expected =
        fem::linear_tet_deformation_gradient(x, fem::linear_tet_dphi_dX(X));
    Eigen::Matrix3d local = Eigen::Matrix3d::Zero();
    for (int a = 0; a < 3; ++a) local += c(a) * tet.G[static_cast<std::size_t>(a)];
    const Eigen::Matrix3d F = Eigen::Matrix3d::Identity() + U.transpose() * tet.Y + R * local;
    EXPECT_LT((F - expected).norm(), 1e-12) << "tet " << tet.tet;
    EXPECT_NEAR(tet.volume, fem::linear_tet_volume(X), 1e-15);
    with_local_part += local.norm() > 1e-6;
  }
  EXPECT_GT(with_local_part, 20);
}

TEST(PatchSupport, ItsInertiaIsTheKineticEnergyOfTheMeshsVertices) {
  const LoadedBlock s;
  // Two overlapping patches, turned differently.
  const PatchSupport p =
      patch_support(s.mesh, s.vertex_mass, top_patch(s.box, 0.0, 0.0, 0.13, 0.125), kSupport);
  const PatchSupport q =
      patch_support(s.mesh, s.vertex_mass, top_patch(s.box, 0.25, 0.125, 0.13, 0.125), kSupport);
  const Eigen::Matrix3d Rp = Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()).matrix();
  const Eigen::Matrix3d Rq =
      Eigen::AngleAxisd(-1.1, Eigen::Vector3d(1, 1, 0).normalized()).matrix();
  std::srand(11);
  const sim::ReducedMatrix Udot = sim::ReducedMatrix::Random(4 * s.mesh.weights.cols(), 3);
  const Eigen::Vector3d cp = Eigen::Vector3d::Random(), cq = Eigen::Vector3d::Random();

  double expected = 0.0;
  Eigen::MatrixXd mass_block = Eigen::MatrixXd::Zero(Udot.rows(), Udot.rows());
  for (int v = 0; v < s.mesh.vertex_count(); ++v) {
    const Eigen::VectorXd b = full::vertex_basis(s.mesh, v);
    const Eigen::Vector3d velocity =
        Udot.transpose() * b + local_displacement(p, v, Rp, cp) + local_displacement(q, v, Rq, cq);
    expected += 0.5 * s.vertex_mass(v) * velocity.squaredNorm();
    mass_block += s.vertex_mass(v) * b * b.transpose();
  }
  double kinetic = 0.0;
  for (int d = 0; d < 3; ++d) kinetic += 0.5 * Udot.col(d).dot(mass_block * Udot.col(d));
  Eigen::MatrixXd Np(Udot.rows(), 3), Nq(Udot.rows(), 3);
  for (int d = 0; d < 3; ++d) {
    mass_coupling(p, Rp, d, Np);
    mass_coupling(q, Rq, d, Nq);
    kinetic += Udot.col(d).dot(Np * cp) + Udot.col(d).dot(Nq * cq);
  }
  kinetic += 0.5 * cp.dot(p.mass_matrix * cp) + 0.5 * cq.dot(q.mass_matrix * cq) +
             cp.dot(pair_mass(p, Rp, q, Rq) * cq);
  EXPECT_NEAR(kinetic, expected, 1e-12 * expected);
  EXPECT_GT(std::abs(cp.dot(pair_mass(p, Rp, q, Rq) * cq)),
            1e-2 * (cp.dot(p.mass_matrix * cp) + cq.dot(q.mass_matrix * cq)))
      << "the supports overlap, so the patches' coefficients couple";
  EXPECT_LT((pair_mass(p, Rp, q, Rq) - pair_mass(q, Rq, p, Rp).transpose()).norm(),
            1e-12 * p.mass_matrix.norm());
}

TEST(PatchSupport, GravityDoesTheWorkOfEachVertexsWeight) {
  const LoadedBlock s;
  const PatchSupport p =
      patch_support(s.mesh, s.vertex_mass, top_patch(s.box, 0.0, 0.0, 0.13, 0.125), kSupport);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(2.0, Eigen::Vector3d(0, 1, 1).normalized()).matrix();
  const Eigen::Vector3d g(0.3, -9.81, 0.2), c(0.2, -0.7, 1.1);
  double work = 0.0;
  for (int v = 0; v < s.mesh.vertex_count(); ++v) {
    work += s.vertex_mass(v) * g.dot(local_displacement(p, v, R, c));
  }
  EXPECT_NEAR(c.dot((R * p.weight).transpose() * g), work, 1e-12 * std::abs(work));
  EXPECT_GT(std::abs(work), 1e-3);
}

TEST(PatchSupport, ThePatchTurnsWithTheBodyAndNotWithItsStretch) {
  const LoadedBlock s;
  const PatchSupport p =
      patch_support(s.mesh, s.vertex_mass, top_patch(s.box, 0.125, -0.125, 0.13, 0.125), kSupport);
  const sim::ReducedMatrix rest = sim::ReducedMatrix::Zero(4 * s.mesh.weights.cols(), 3);
  EXPECT_LT((patch_rotation(p, rest) - Eigen::Matrix3d::Identity()).norm(), 1e-14);
  // The box's first weight function is 1: A_0 = [F - I, t] moves every vertex to F X + t.
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(2.5, Eigen::Vector3d(-1, 2, 0.5).normalized()).matrix();
  Eigen::Matrix3d stretch;
  stretch << 1.3, 0.1, 0.0, 0.1, 0.8, 0.05, 0.0, 0.05, 1.1;
  for (const Eigen::Matrix3d& F : {Eigen::Matrix3d(R), Eigen::Matrix3d(R * stretch)}) {
    sim::ReducedMatrix U = rest;
    U.topRows<3>() = (F - Eigen::Matrix3d::Identity()).transpose();
    U.row(3) = Eigen::RowVector3d(0.4, -2.0, 7.0);
    EXPECT_LT((patch_rotation(p, U) - R).norm(), 1e-6) << F;
  }
}

// A vertex the scene pins does not move with the fields: a support reaching a pinned vertex has
// no field there, and the others keep theirs.
TEST(PatchSupport, PinnedVerticesStayPut) {
  LoadedBlock s;
  const LoadPatch patch = top_patch(s.box, 0.0, 0.0, 0.13, 0.125);
  const PatchSupport free = patch_support(s.mesh, s.vertex_mass, patch, kSupport);
  const int pinned = free.vertices[free.vertices.size() / 2];
  ASSERT_GT(field_at_vertex(free, pinned).norm(), 0.0);
  full::FullModel mesh = s.mesh;
  mesh.pinned = {pinned};
  const PatchSupport held = patch_support(mesh, s.vertex_mass, patch, kSupport);
  EXPECT_EQ(field_at_vertex(held, pinned).norm(), 0.0);
  for (const int v : free.vertices) {
    if (v != pinned) {
      EXPECT_EQ(field_at_vertex(held, v), field_at_vertex(free, v)) << v;
    }
  }
}

TEST(PatchSupport, RefusesWhatItCannotBuild) {
  const LoadedBlock s;
  const LoadPatch patch = top_patch(s.box, 0.0, 0.0, 0.13, 0.125);
  const auto refusal = [&](const full::FullModel& mesh, const Eigen::VectorXd& mass,
                           const LoadPatch& load, double support) -> std::string {
    try {
      patch_support(mesh, mass, load, support);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  };
  ASSERT_EQ(refusal(s.mesh, s.vertex_mass, patch, kSupport), "");
  full::FullModel unweighted = s.mesh;
  unweighted.weights.resize(0, 0);
  EXPECT_NE(refusal(unweighted, s.vertex_mass, patch, kSupport).find("mesh.weights"),
            std::string::npos);
  EXPECT_NE(refusal(s.mesh, s.vertex_mass.head(5), patch, kSupport).find("5 vertex masses"),
            std::string::npos);
  EXPECT_NE(refusal(s.mesh, s.vertex_mass, patch, 0.1).find("does not reach patch vertex"),
            std::string::npos);
  LoadPatch outside = patch;
  outside.vertices[0] = s.mesh.vertex_count();
  EXPECT_NE(refusal(s.mesh, s.vertex_mass, outside, kSupport).find("is not one of the mesh's"),
            std::string::npos);
}

}  // namespace
}  // namespace smfem::local
