// The patches' tets as the steps see them (local/patch_set.hpp): each mesh tet once however many
// patches reach it, and the representatives that stand for them when sampled.
#include "smfem/local/patch_set.hpp"

#include <map>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "local/block_mesh.hpp"

namespace smfem::local {
namespace {

struct OverlappingPatches {
  sim::BoxModel box = test::block(8, 4);
  full::FullModel mesh = test::block_mesh(box, 1000.0);
  Eigen::VectorXd vertex_mass = full::lumped_vertex_mass(mesh);
  int n = 4 * box.model.mode_count();
  std::vector<PatchSupport> supports{
      patch_support(mesh, vertex_mass, test::top_patch(box, 0.0, 0.0, 0.13, 0.125), 0.35),
      patch_support(mesh, vertex_mass, test::top_patch(box, 0.25, 0.125, 0.13, 0.125), 0.35)};
};

// sum over the set's tets of weight x sum over the patches reaching it of sum_a |G_a|^2.
double strain(const PatchSet& set) {
  double sum = 0.0;
  for (int t = 0; t < set.tet_count(); ++t) {
    for (const PatchSet::LocalGradient& entry : set.local_gradients(t)) {
      for (const Eigen::Matrix3d& G : entry.G) sum += set.weight(t) * G.squaredNorm();
    }
  }
  return sum;
}

TEST(PatchSet, EachTetOnceWithEveryPatchThatReachesIt) {
  const OverlappingPatches s;
  const PatchSet set(s.supports, s.n);
  std::set<int> expected;
  int shared = 0;
  for (const PatchSupport& support : s.supports) {
    for (const SupportTet& tet : support.tets) shared += !expected.insert(tet.tet).second;
  }
  ASSERT_GT(shared, 0) << "the supports overlap";
  ASSERT_EQ(set.tet_count(), static_cast<int>(expected.size()));
  int reached_twice = 0;
  for (int t = 0; t < set.tet_count(); ++t) {
    EXPECT_EQ(set.mesh_tet(t), *std::next(expected.begin(), t));
    reached_twice += set.local_gradients(t).size() == 2;
  }
  EXPECT_EQ(reached_twice, shared);
  for (int t = 0; t < set.tet_count(); ++t) {
    EXPECT_GT(set.weight(t), 0.0);
  }
}

TEST(PatchSet, SampledTetsStandForTheFieldsStrain) {
  const OverlappingPatches s;
  const PatchSet every(s.supports, s.n), sampled(s.supports, s.n, 24);
  EXPECT_EQ(sampled.tet_count(), 24);
  // Each representative stands for its cluster's sum of v |G|^2, so the total is kept.
  EXPECT_NEAR(strain(sampled), strain(every), 1e-9 * strain(every));
  // More samples than tets: every tet, as without sampling.
  const PatchSet all(s.supports, s.n, 100000);
  EXPECT_EQ(all.tet_count(), every.tet_count());
  EXPECT_EQ(all.weights(), every.weights());
  EXPECT_THROW(PatchSet(s.supports, s.n, -1), std::invalid_argument);
  EXPECT_THROW(PatchSet(s.supports, s.n + 4), std::invalid_argument);
}

// Where the supports reach across two materials (here the block's far half 1e4 times stiffer),
// each representative stands for tets of its own material: each material keeps its own sum of
// v |G|^2. With the tets clustered together a cluster's representative could stand for tets of
// the other modulus: the crab's joint-and-shell patch came out twice too soft and its steps blew
// up.
TEST(PatchSet, SampledTetsStandForTetsOfTheirOwnMaterial) {
  OverlappingPatches s;
  for (int t = 0; t < s.mesh.tet_count(); ++t) {
    const double x =
        (s.mesh.positions.row(s.mesh.tets(t, 0)) + s.mesh.positions.row(s.mesh.tets(t, 1)) +
         s.mesh.positions.row(s.mesh.tets(t, 2)) + s.mesh.positions.row(s.mesh.tets(t, 3)))(0) /
        4;
    if (x > 0.1) s.mesh.youngs(t) *= 1e4;
  }
  const std::vector<PatchSupport> supports = {
      patch_support(s.mesh, s.vertex_mass, test::top_patch(s.box, 0.0, 0.0, 0.13, 0.125), 0.35),
      patch_support(s.mesh, s.vertex_mass, test::top_patch(s.box, 0.25, 0.125, 0.13, 0.125), 0.35)};
  const PatchSet every(supports, s.n), sampled(supports, s.n, 24);
  const auto strain_by_material = [&](const PatchSet& set) {
    std::map<double, double> sums;
    for (int t = 0; t < set.tet_count(); ++t) {
      double& sum = sums[s.mesh.youngs(set.mesh_tet(t))];
      for (const PatchSet::LocalGradient& entry : set.local_gradients(t)) {
        for (const Eigen::Matrix3d& G : entry.G) sum += set.weight(t) * G.squaredNorm();
      }
    }
    return sums;
  };
  const std::map<double, double> exact = strain_by_material(every);
  const std::map<double, double> kept = strain_by_material(sampled);
  ASSERT_EQ(exact.size(), 2u) << "the supports reach both materials";
  ASSERT_EQ(kept.size(), 2u);
  for (const auto& [youngs, sum] : exact) EXPECT_NEAR(kept.at(youngs), sum, 1e-9 * sum) << youngs;
  EXPECT_GE(sampled.tet_count(), 24);
  EXPECT_LE(sampled.tet_count(), 26);  // each material's share rounded
}

}  // namespace
}  // namespace smfem::local
