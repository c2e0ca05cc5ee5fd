// Optimized cubature of a displacement basis: exact with every tet, better with more,
// deterministic, and bad input refused.
#include "smfem/cubature/displacement_cubature.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "cubature/test_body.hpp"

namespace smfem::cubature {
namespace {

// Five smooth displacement fields of the test body (bending, shear, twist), with made-up
// quotients: the code needs some basis, not a solved one.
struct DisplacementFixture {
  const test::TestBody& body = test::test_body();
  Eigen::MatrixXd basis;
  Eigen::VectorXd quotients{{1.0, 2.0, 4.0, 8.0, 16.0}};

  DisplacementFixture() {
    const Eigen::Index n = body.mesh.vertices.rows();
    basis.setZero(3 * n, 5);
    for (Eigen::Index v = 0; v < n; ++v) {
      const double x = body.mesh.vertices(v, 0), y = body.mesh.vertices(v, 1),
                   z = body.mesh.vertices(v, 2);
      basis(3 * v + 1, 0) = x * x;
      basis(3 * v + 0, 1) = x * y;
      basis(3 * v + 2, 2) = x * y - 0.5 * x * z;
      basis(3 * v + 1, 3) = x * x * x / 4.0;
      basis(3 * v + 0, 4) = y * z + x;
    }
  }

  DisplacementBody view() const {
    return {body.mesh,
            basis,
            quotients,
            body.volumes,
            body.youngs,
            body.poisson,
            sim::MaterialModel::fixed_corotational};
  }
};

void expect_valid(const Cubature& cubature) {
  ASSERT_GT(cubature.tets.size(), 0);
  ASSERT_EQ(cubature.weights.size(), cubature.tets.size());
  EXPECT_GT(cubature.weights.minCoeff(), 0.0);
  for (Eigen::Index c = 1; c < cubature.tets.size(); ++c)
    EXPECT_LT(cubature.tets(c - 1), cubature.tets(c));
}

TEST(DisplacementCubature, FitsExactlyWhenItMayUseEveryTet) {
  const DisplacementFixture fixture;
  OptimizedCubatureOptions options = test::cubature_options(96);
  options.tolerance = 0.0;
  const OptimizedCubature result = optimized_displacement_cubature(fixture.view(), options);
  expect_valid(result.cubature);
  EXPECT_EQ(result.fit.candidates, 96);
  // The volumes fit exactly; 5 coordinates x 32 poses = 160 rows for 96 weights leave the
  // least-squares problem ill-conditioned enough for the active set to stop at 2e-7.
  EXPECT_LT(result.fit.training_error, 1e-6);
  EXPECT_LT(result.fit.held_out_error, 1e-5);
  EXPECT_GT(result.fit.training_seconds, 0.0);
}

TEST(DisplacementCubature, FitErrorFallsAsTheCountGrowsAndTheSameSeedGivesTheSameTets) {
  const DisplacementFixture fixture;
  double last = 1.0;
  for (const int tets : {1, 2, 4, 8, 16}) {
    SCOPED_TRACE(testing::Message() << tets << " tets");
    const OptimizedCubature result =
        optimized_displacement_cubature(fixture.view(), test::cubature_options(tets));
    expect_valid(result.cubature);
    EXPECT_LE(result.cubature.tets.size(), tets);
    EXPECT_LE(result.fit.training_error, last);
    EXPECT_LT(result.fit.held_out_error, 1.0);
    last = result.fit.training_error;
    const OptimizedCubature again =
        optimized_displacement_cubature(fixture.view(), test::cubature_options(tets, 1));
    EXPECT_EQ(again.cubature.tets, result.cubature.tets);
    EXPECT_EQ(again.cubature.weights, result.cubature.weights);
  }
  EXPECT_LT(last, 0.05);
}

TEST(DisplacementCubature, RefusesBadInput) {
  const DisplacementFixture fixture;
  const Eigen::MatrixXd short_basis = fixture.basis.topRows(fixture.basis.rows() - 3);
  const Eigen::VectorXd few_quotients = fixture.quotients.head(3);
  DisplacementBody body = fixture.view();
  EXPECT_THROW(
      optimized_displacement_cubature({body.mesh, short_basis, body.quotients, body.volumes,
                                       body.youngs, body.poisson, body.model}),
      std::invalid_argument);
  EXPECT_THROW(optimized_displacement_cubature({body.mesh, body.basis, few_quotients, body.volumes,
                                                body.youngs, body.poisson, body.model}),
               std::invalid_argument);
  EXPECT_THROW(optimized_displacement_cubature(body, test::cubature_options(-1)),
               std::invalid_argument);
  OptimizedCubatureOptions no_poses = test::cubature_options(4);
  no_poses.training_poses = 0;
  EXPECT_THROW(optimized_displacement_cubature(body, no_poses), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::cubature
