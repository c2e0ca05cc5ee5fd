#include "smfem/cubature/optimized_cubature.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cubature/test_body.hpp"

namespace smfem::cubature {
namespace {

ElasticBody fcr() { return test::test_body().view(sim::MaterialModel::fixed_corotational); }

OptimizedCubatureOptions with_tets(int tets) {
  OptimizedCubatureOptions options;
  options.tets = tets;
  options.threads = 2;
  return options;
}

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
  OptimizedCubatureOptions options = with_tets(96);
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
    const OptimizedCubature result = optimized_cubature(fcr(), with_tets(tets));
    SCOPED_TRACE(testing::Message() << tets << " tets");
    expect_valid(result.cubature, 96);
    EXPECT_EQ(result.cubature.tets.size(), tets);
    EXPECT_TRUE(result.cubature.converged);
    EXPECT_LE(result.fit.training_error, last);
    last = result.fit.training_error;
    // force_fit on the same poses measures the same error.
    const ForceFit again = force_fit(fcr(), result.cubature, with_tets(tets));
    EXPECT_NEAR(again.training_error, result.fit.training_error, 1e-10);
    EXPECT_NEAR(again.held_out_error, result.fit.held_out_error, 1e-10);
  }
  EXPECT_LT(last, 0.05);
}

TEST(OptimizedCubature, SameSeedGivesTheSameCubatureForAnyThreadCount) {
  OptimizedCubatureOptions one = with_tets(12);
  one.threads = 1;
  OptimizedCubatureOptions three = with_tets(12);
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
  OptimizedCubatureOptions options = with_tets(30);
  options.candidates = 20;
  const OptimizedCubature result = optimized_cubature(fcr(), options);
  expect_valid(result.cubature, 96);
  EXPECT_EQ(result.fit.candidates, 20);
  EXPECT_LE(result.cubature.tets.size(), 20);
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
  EXPECT_EQ(message([] { optimized_cubature(fcr(), with_tets(-1)); }),
            "optimized_cubature: asked for -1 tets");
  OptimizedCubatureOptions no_poses = with_tets(4);
  no_poses.training_poses = 0;
  EXPECT_EQ(message([&] { optimized_cubature(fcr(), no_poses); }),
            "optimized_cubature: training and held-out poses must be at least 1, candidates >= 0");
  const test::TestBody& b = test::test_body();
  const Eigen::VectorXd short_poisson = b.poisson.head(5);
  const ElasticBody mismatched{b.mesh,   b.weights,     b.eigenvalues,           b.volumes,
                               b.youngs, short_poisson, sim::MaterialModel::arap};
  EXPECT_EQ(message([&] { optimized_cubature(mismatched, with_tets(4)); }),
            "sample_poses: volumes, youngs and poisson must have one entry per tet (96)");
  EXPECT_EQ(message([] { force_fit(fcr(), Cubature{}, with_tets(4)); }),
            "force_fit: the cubature has 0 tets and 0 weights");
}

}  // namespace
}  // namespace smfem::cubature
