#include "smfem/energies/lame.hpp"

#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

namespace smfem::test {
namespace {

TEST(MaterialLame, KnownConversions) {
  // nu = 1/4 gives mu = lambda = 2E/5.
  const auto quarter = energies::lame_from_young_poisson(1.0, 0.25);
  EXPECT_DOUBLE_EQ(quarter.mu, 0.4);
  EXPECT_DOUBLE_EQ(quarter.lambda, 0.4);
  // nu = 0: no lateral coupling.
  const auto zero = energies::lame_from_young_poisson(3e9, 0.0);
  EXPECT_DOUBLE_EQ(zero.mu, 1.5e9);
  EXPECT_EQ(zero.lambda, 0.0);
  // The paper's soft material: E = 1e6 Pa, nu = 0.45.
  const auto soft = energies::lame_from_young_poisson(1e6, 0.45);
  EXPECT_NEAR(soft.mu, 344827.5862068966, 1e-8);
  EXPECT_NEAR(soft.lambda, 3103448.275862069, 1e-7);
  // Steel-like: E = 200 GPa, nu = 0.3 -> mu = 76.923 GPa, lambda = 115.385 GPa.
  const auto steel = energies::lame_from_young_poisson(200e9, 0.3);
  EXPECT_NEAR(steel.mu, 76.92307692307692e9, 1e-3);
  EXPECT_NEAR(steel.lambda, 115.3846153846154e9, 1e-3);
}

TEST(MaterialLame, CastKeepsValues) {
  const auto p = energies::lame_from_young_poisson(1e5, 0.3).cast<float>();
  EXPECT_FLOAT_EQ(p.mu, 38461.538f);
  EXPECT_FLOAT_EQ(p.lambda, 57692.308f);
}

TEST(MaterialLame, RejectsNonPhysicalParameters) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(energies::lame_from_young_poisson(0.0, 0.3), std::invalid_argument);
  EXPECT_THROW(energies::lame_from_young_poisson(-1.0, 0.3), std::invalid_argument);
  EXPECT_THROW(energies::lame_from_young_poisson(inf, 0.3), std::invalid_argument);
  EXPECT_THROW(energies::lame_from_young_poisson(nan, 0.3), std::invalid_argument);
  EXPECT_THROW(energies::lame_from_young_poisson(1.0, 0.5), std::invalid_argument);
  EXPECT_THROW(energies::lame_from_young_poisson(1.0, -1.0), std::invalid_argument);
  EXPECT_THROW(energies::lame_from_young_poisson(1.0, nan), std::invalid_argument);
  EXPECT_NO_THROW(energies::lame_from_young_poisson(1.0, 0.499));
  EXPECT_NO_THROW(energies::lame_from_young_poisson(1.0, -0.99));
}

}  // namespace
}  // namespace smfem::test
