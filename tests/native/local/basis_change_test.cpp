// Coordinates carried across a change of patches (local/basis_change.hpp), checked on the whole
// mesh vertex by vertex: what the new basis holds is kept, what it cannot hold goes to its
// nearest combination in the mass norm, and no kinetic energy is made.
#include "smfem/local/basis_change.hpp"

#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "local/block_mesh.hpp"

namespace smfem::local {
namespace {

using sim::ReducedMatrix;

struct TwoPatches {
  sim::BoxModel box = test::block(8, 4);
  full::FullModel mesh = test::block_mesh(box, 1000.0);
  Eigen::VectorXd vertex_mass = full::lumped_vertex_mass(mesh);
  int n = 4 * box.model.mode_count();
  PatchSupport centre =
      patch_support(mesh, vertex_mass, test::top_patch(box, 0.0, 0.0, 0.13, 0.125), 0.35);
  PatchSupport aside =
      patch_support(mesh, vertex_mass, test::top_patch(box, 0.25, 0.125, 0.13, 0.125), 0.35);

  // sum_v m_v |x_v|^2 / 2 of a displacement (or velocity) field.
  double mass_norm(const Eigen::MatrixXd& x) const {
    return 0.5 * (x.rowwise().squaredNorm().transpose() * vertex_mass)(0);
  }
};

ReducedMatrix random_state(int rows, unsigned seed) {
  std::srand(seed);
  return 0.01 * ReducedMatrix::Random(rows, 3);
}

TEST(BasisChange, WhatTheNewBasisHoldsIsKept) {
  const TwoPatches s;
  const PatchSet none({}, s.n), one({s.centre}, s.n), both({s.centre, s.aside}, s.n);
  const ReducedMatrix U = random_state(one.rows(), 1);
  EXPECT_LT((project_coordinates(one, U, one, s.box.model.mass_block) - U).norm(), 1e-9 * U.norm());
  // A patch added: its coefficients start at zero.
  const ReducedMatrix global = random_state(none.rows(), 2);
  const ReducedMatrix added = project_coordinates(none, global, both, s.box.model.mass_block);
  EXPECT_LT((added.topRows(s.n) - global).norm(), 1e-6 * global.norm());
  EXPECT_LT(added.bottomRows(2).norm(), 1e-6 * global.norm());
  // A patch kept beside one added: the same displacement.
  const ReducedMatrix kept = project_coordinates(one, U, both, s.box.model.mass_block);
  EXPECT_LT((test::displacements(s.box, both, kept) - test::displacements(s.box, one, U)).norm(),
            1e-6 * test::displacements(s.box, one, U).norm());
}

TEST(BasisChange, WhatItCannotHoldGoesToTheNearestInTheMassNorm) {
  TwoPatches s;
  PatchSet from({s.centre}, s.n);
  // The old patch turned with a rotated body, the new one elsewhere at rest.
  ReducedMatrix turned = ReducedMatrix::Zero(from.rows(), 3);
  turned.topRows<3>() =
      (Eigen::AngleAxisd(0.8, Eigen::Vector3d::UnitY()).matrix() - Eigen::Matrix3d::Identity())
          .transpose();
  from.set_rotations(turned);
  const PatchSet to({s.aside}, s.n);
  ReducedMatrix U = random_state(from.rows(), 3);
  U.row(s.n) << 0.02, -0.01, 0.03;
  const ReducedMatrix projected = project_coordinates(from, U, to, s.box.model.mass_block);
  const Eigen::MatrixXd target = test::displacements(s.box, from, U);
  const auto misfit = [&](const ReducedMatrix& V) {
    return s.mass_norm(test::displacements(s.box, to, V) - target);
  };
  // Stationary in every direction (the misfit is quadratic: central differences are exact), and
  // it misses something: the new patch cannot hold the old one's dent.
  const double least = misfit(projected);
  EXPECT_GT(least, 1e-3 * s.mass_norm(target));
  for (unsigned seed = 10; seed < 15; ++seed) {
    const ReducedMatrix direction = random_state(to.rows(), seed);
    const double slope = (misfit(projected + direction) - misfit(projected - direction)) / 2.0;
    EXPECT_LT(std::abs(slope), 1e-6 * least) << seed;
    EXPECT_GT(misfit(projected + direction), least);
  }
}

TEST(BasisChange, MakesNoKineticEnergy) {
  const TwoPatches s;
  const PatchSet from({s.centre, s.aside}, s.n);
  const std::vector<PatchSet> targets = {PatchSet({}, s.n), PatchSet({s.aside}, s.n)};
  for (const PatchSet& to : targets) {
    const ReducedMatrix velocity = 100.0 * random_state(from.rows(), 21);
    const ReducedMatrix carried = project_coordinates(from, velocity, to, s.box.model.mass_block);
    const double before = s.mass_norm(test::displacements(s.box, from, velocity));
    const double after = s.mass_norm(test::displacements(s.box, to, carried));
    EXPECT_LE(after, before);
    EXPECT_GT(after, 0.5 * before) << "the global part is kept";
  }
}

TEST(BasisChange, RefusesBasesThatDoNotAgree) {
  const TwoPatches s;
  const PatchSet one({s.centre}, s.n);
  EXPECT_THROW(project_coordinates(one, ReducedMatrix::Zero(s.n, 3), one, s.box.model.mass_block),
               std::invalid_argument);
  EXPECT_THROW(project_coordinates(one, ReducedMatrix::Zero(one.rows(), 3), one,
                                   Eigen::MatrixXd::Identity(3, 3)),
               std::invalid_argument);
  ReducedMatrix U = ReducedMatrix::Zero(one.rows(), 3);
  ReducedMatrix Udot = U;
  EXPECT_THROW(project_across_rotations(one, {Eigen::Matrix3d::Identity()}, U, Udot,
                                        Eigen::MatrixXd::Identity(3, 3)),
               std::invalid_argument);
}

}  // namespace
}  // namespace smfem::local
