#include "smfem/fem/lame_parameters.hpp"

#include <gtest/gtest.h>

namespace smfem::fem {
namespace {

TEST(LameParameters, MatchTheTextbookValues) {
  // E = 2.5, nu = 0.25: mu = 2.5 / 2.5 = 1, lambda = 2.5 * 0.25 / (1.25 * 0.5) = 1.
  const LameParameters lame = lame_parameters(2.5, 0.25);
  EXPECT_DOUBLE_EQ(lame.mu, 1.0);
  EXPECT_DOUBLE_EQ(lame.lambda, 1.0);
  // nu = 0: no lateral coupling, mu = E / 2.
  EXPECT_DOUBLE_EQ(lame_parameters(3.0, 0.0).mu, 1.5);
  EXPECT_DOUBLE_EQ(lame_parameters(3.0, 0.0).lambda, 0.0);
}

TEST(LameParameters, RecoverYoungsModulusAndPoissonsRatio) {
  const double E = 1e6;
  const double nu = 0.45;
  const auto [mu, lambda] = lame_parameters(E, nu);
  EXPECT_NEAR(mu * (3 * lambda + 2 * mu) / (lambda + mu), E, 1e-9 * E);
  EXPECT_NEAR(lambda / (2 * (lambda + mu)), nu, 1e-14);
}

}  // namespace
}  // namespace smfem::fem
