#include "smfem/cubature/optimized_cubature.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "cubature/test_body.hpp"

namespace smfem::cubature {
namespace {

ElasticBody fcr() { return test::test_body().view(sim::MaterialModel::fixed_corotational); }

void expect_valid(const Cubature& cubature, Eigen::Index tet_count) {
  ASSERT_GT(cubature.tets.size(), 0);
  ASSERT_EQ(cubature.weights.size(), cubature.tets.size());
  EXPECT_GT(cubature.weights.minCoeff(), 0.0);
  for (Eigen::Index c = 1; c < cubature.tets.size(); ++c)
    EXPECT_LT(cubature.tets(c - 1), cubature.tets(c));
  ASSERT_EQ(cubature.labels.size(), tet_count);
  EXPECT_GE(cubature.labels.minCoeff(), 0);
  EXPECT_LT(cubature.labels.maxCoeff(), cubature.tets.size());
  // Each cubature tet is nearest itself in feature space.
  for (Eigen::Index c = 0; c < cubature.tets.size(); ++c)
    EXPECT_EQ(cubature.labels(cubature.tets(c)), c);
}

TEST(OptimizedCubature, FitsExactlyWhenItMayUseEveryTet) {
  OptimizedCubatureOptions options = test::cubature_options(96);
  options.tolerance = 0.0;
  const OptimizedCubature result = optimized_cubature(fcr(), options);
  expect_valid(result.cubature, 96);
  EXPECT_EQ(result.fit.candidates, 96);
  EXPECT_LT(result.fit.training_error, 1e-8);
  EXPECT_LT(result.fit.held_out_error, 1e-6);
  EXPECT_GT(result.fit.training_seconds, 0.0);
  EXPECT_EQ(result.fit.training_poses, 32);
  EXPECT_EQ(result.fit.held_out_poses, 8);
}

TEST(OptimizedCubature, FitErrorFallsAsTheCountGrows) {
  double last = 1.0;
  for (const int tets : {1, 2, 4, 8, 16, 32}) {
    const OptimizedCubature result = optimized_cubature(fcr(), test::cubature_options(tets));
    SCOPED_TRACE(testing::Message() << tets << " tets");
    expect_valid(result.cubature, 96);
    EXPECT_EQ(result.cubature.tets.size(), tets);
    EXPECT_TRUE(result.cubature.converged);
    EXPECT_LE(result.fit.training_error, last);
    last = result.fit.training_error;
    // force_fit on the same poses measures the same error.
    const ForceFit again = force_fit(fcr(), result.cubature, test::cubature_options(tets));
    EXPECT_NEAR(again.training_error, result.fit.training_error, 1e-10);
    EXPECT_NEAR(again.held_out_error, result.fit.held_out_error, 1e-10);
  }
  EXPECT_LT(last, 0.05);
}

TEST(OptimizedCubature, SameSeedGivesTheSameCubatureForAnyThreadCount) {
  OptimizedCubatureOptions one = test::cubature_options(12);
  one.threads = 1;
  OptimizedCubatureOptions three = test::cubature_options(12);
  three.threads = 3;
  const OptimizedCubature a = optimized_cubature(fcr(), one);
  const OptimizedCubature b = optimized_cubature(fcr(), three);
  EXPECT_EQ(a.cubature.tets, b.cubature.tets);
  EXPECT_EQ(a.cubature.weights, b.cubature.weights);
  EXPECT_EQ(a.cubature.labels, b.cubature.labels);
  EXPECT_EQ(a.fit.training_error, b.fit.training_error);
  OptimizedCubatureOptions other = one;
  other.seed = 99;
  EXPECT_NE(optimized_cubature(fcr(), other).cubature.weights, a.cubature.weights);
}

TEST(OptimizedCubature, ChoosesAmongASampleOfCandidatesOnLargeMeshes) {
  OptimizedCubatureOptions options = test::cubature_options(30);
  options.candidates = 20;
  const OptimizedCubature result = optimized_cubature(fcr(), options);
  expect_valid(result.cubature, 96);
  EXPECT_EQ(result.fit.candidates, 20);
  EXPECT_LE(result.cubature.tets.size(), 20);
}

// The test body with its soft half x < 1 as region 0, its stiff half as region 4 and one cell
// of the stiff half (6 tets) as region 9.
test::TestBody region_body() {
  test::TestBody body = test::test_body();
  for (Eigen::Index t = 0; t < body.mesh.tets.rows(); ++t) {
    const Eigen::Vector3d c = test::tet_centroid(body.mesh, t);
    body.mesh.regions(t) = c.x() < 1.0 ? 0 : (c.x() > 1.5 && c.y() < 0.5 && c.z() < 0.5 ? 9 : 4);
  }
  return body;
}

int tets_in(const Cubature& cubature, const mesh::TetMesh& mesh, int region) {
  int count = 0;
  for (const int t : cubature.tets) count += mesh.regions(t) == region;
  return count;
}

TEST(OptimizedCubature, FitsEachMaterialRegionWithItsOwnTets) {
  const test::TestBody body = region_body();
  ASSERT_EQ((body.mesh.regions.array() == 9).count(), 6);
  const ElasticBody view = body.view(sim::MaterialModel::fixed_corotational);
  OptimizedCubatureOptions options = test::cubature_options(15);
  const OptimizedCubature result = optimized_cubature(view, options);
  expect_valid(result.cubature, 96);
  for (const int region : {0, 4, 9}) {
    EXPECT_GE(tets_in(result.cubature, body.mesh, region), kDefaultTetsPerRegion)
        << "region " << region;
  }
  EXPECT_LE(result.cubature.tets.size(), 15);

  // Each region fitted on its own: with the small region's modulus scaled by 100 after the fit,
  // the cubature still fits the body's force about as well (measured: held-out error 0.052
  // baked, 0.049 changed).
  test::TestBody stiffer = body;
  for (Eigen::Index t = 0; t < 96; ++t) {
    if (body.mesh.regions(t) == 9) stiffer.youngs(t) *= 100.0;
  }
  const ForceFit baked = force_fit(view, result.cubature, options);
  const ForceFit changed =
      force_fit(stiffer.view(sim::MaterialModel::fixed_corotational), result.cubature, options);
  std::printf("[ measured ] per region: held-out error %.3g baked, %.3g with region 9 x100\n",
              baked.held_out_error, changed.held_out_error);
  EXPECT_LT(changed.held_out_error, 3.0 * baked.held_out_error + 1e-3);

  // per_region 0: one fit of the whole body, as for a body of one region.
  options.per_region = 0;
  const OptimizedCubature whole = optimized_cubature(view, options);
  const OptimizedCubature one_region = optimized_cubature(fcr(), test::cubature_options(15));
  EXPECT_TRUE(whole.cubature.tets == one_region.cubature.tets);
  EXPECT_TRUE(whole.cubature.weights == one_region.cubature.weights);
  std::printf("[ measured ] whole body: region 9 holds %d tets\n",
              tets_in(whole.cubature, body.mesh, 9));

  // Deterministic for any thread count.
  options.per_region = kDefaultTetsPerRegion;
  options.threads = 1;
  const OptimizedCubature again = optimized_cubature(view, options);
  EXPECT_TRUE(again.cubature.tets == result.cubature.tets);
  EXPECT_TRUE(again.cubature.weights == result.cubature.weights);
}

TEST(OptimizedCubature, RefusesBadInputNamingIt) {
  const auto message = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message([] { optimized_cubature(fcr(), test::cubature_options(-1)); }),
            "optimized_cubature: asked for -1 tets");
  OptimizedCubatureOptions no_poses = test::cubature_options(4);
  no_poses.training_poses = 0;
  EXPECT_EQ(message([&] { optimized_cubature(fcr(), no_poses); }),
            "optimized_cubature: training and held-out poses must be at least 1, candidates >= 0");
  const test::TestBody& b = test::test_body();
  const Eigen::VectorXd short_poisson = b.poisson.head(5);
  const ElasticBody mismatched{b.mesh,   b.weights,     b.eigenvalues,           b.volumes,
                               b.youngs, short_poisson, sim::MaterialModel::arap};
  EXPECT_EQ(message([&] { optimized_cubature(mismatched, test::cubature_options(4)); }),
            "sample_poses: volumes, youngs and poisson must have one entry per tet (96)");
  EXPECT_EQ(message([] { force_fit(fcr(), Cubature{}, test::cubature_options(4)); }),
            "force_fit: the cubature has 0 tets and 0 weights");
  const test::TestBody regions = region_body();
  EXPECT_EQ(message([&] {
              optimized_cubature(regions.view(sim::MaterialModel::fixed_corotational),
                                 test::cubature_options(2));
            }),
            "optimized_cubature: asked for 2 tets for a mesh of 3 material regions: every region "
            "needs at least one (ask for at least 3)");
  OptimizedCubatureOptions negative = test::cubature_options(4);
  negative.per_region = -1;
  EXPECT_EQ(message([&] { optimized_cubature(fcr(), negative); }),
            "optimized_cubature: per_region is -1, must be at least 0");
}

}  // namespace
}  // namespace smfem::cubature
