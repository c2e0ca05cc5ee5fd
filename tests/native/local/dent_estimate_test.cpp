// Which contact loads attach patches (local/dent_estimate.hpp): a load region where its dent can
// reach the contact's resolution, or that holds a patched vertex.
#include <cmath>
#include <numbers>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/local/dent_estimate.hpp"

namespace smfem::local {
namespace {

// Three triangles apart: 0-1-2, 3-4-5 and 6-7-8.
SurfaceNeighbours strips() {
  geometry::TriangleIndices surface(3, 3);
  surface << 0, 1, 2, 3, 4, 5, 6, 7, 8;
  return SurfaceNeighbours(surface, 9);
}

// The force at which a region of `area` (m^2) of modulus E* dents `resolution`: 2 F / (pi a E*).
double threshold_force(double area, double modulus, double resolution) {
  return resolution * std::numbers::pi * std::sqrt(area / std::numbers::pi) * modulus / 2.0;
}

TEST(DentEstimate, SurfaceNeighboursAreEachVertexsEdgesOnce) {
  // Two triangles sharing the edge 1-2; vertex 4 is on none.
  geometry::TriangleIndices surface(2, 3);
  surface << 0, 1, 2, 2, 1, 3;
  const SurfaceNeighbours neighbours(surface, 5);
  const auto of = [&](int v) {
    const std::span<const int> list = neighbours.of(v);
    return std::vector<int>(list.begin(), list.end());
  };
  EXPECT_EQ(of(0), (std::vector<int>{1, 2}));
  EXPECT_EQ(of(1), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(of(2), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(of(3), (std::vector<int>{1, 2}));
  EXPECT_TRUE(of(4).empty());
}

TEST(DentEstimate, ARegionAttachesPatchesWhereItsDentReachesTheResolution) {
  const Eigen::VectorXd modulus = Eigen::VectorXd::Constant(9, 1e6);
  const double resolution = 1e-3, area = 0.01;  // three samples of 0.01 m^2: 0.03 m^2
  const double F = threshold_force(3 * area, 1e6, resolution);
  for (const double scale : {0.99, 1.01}) {
    const std::vector<ContactLoad> loads = {
        {0, scale * F / 3, area}, {1, scale * F / 3, area}, {2, scale * F / 3, area}};
    const std::vector<int> denting = denting_loads(loads, strips(), modulus, resolution, {});
    if (scale < 1.0) {
      EXPECT_TRUE(denting.empty());
    } else {
      EXPECT_EQ(denting, (std::vector<int>{0, 1, 2}));
    }
  }
}

TEST(DentEstimate, OnlyTheRegionsThatCanDentAttach) {
  // The same force on a soft region (0-1-2) and a stiff one (3-4-5): only the soft one dents.
  Eigen::VectorXd modulus = Eigen::VectorXd::Constant(9, 1e5);
  modulus.segment(3, 3).setConstant(1e10);
  const double F = 2.0 * threshold_force(0.03, 1e5, 1e-3);
  std::vector<ContactLoad> loads;
  for (const int v : {0, 1, 2, 3, 4, 5}) loads.push_back({v, F / 3, 0.01});
  EXPECT_EQ(denting_loads(loads, strips(), modulus, 1e-3, {}), (std::vector<int>{0, 1, 2}));
  // A region holding a patched vertex keeps attaching, whatever its force.
  EXPECT_EQ(denting_loads(loads, strips(), modulus, 1e-3, {4}),
            (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // A lone loaded vertex is a region of its own: vertex 6 alone, with its own area.
  const std::vector<ContactLoad> lone = {{6, threshold_force(0.01, 1e5, 1e-3) * 1.01, 0.01}};
  EXPECT_EQ(denting_loads(lone, strips(), modulus, 1e-3, {}), (std::vector<int>{6}));
}

TEST(DentEstimate, AVertexLoadedTwiceCountsBothForces) {
  // Two obstacles press vertex 6, each with 0.6 of the threshold force: 1.2 together.
  const Eigen::VectorXd modulus = Eigen::VectorXd::Constant(9, 1e6);
  const double F = threshold_force(0.01, 1e6, 1e-3);
  const std::vector<ContactLoad> loads = {{6, 0.6 * F, 0.01}, {6, 0.6 * F, 0.01}};
  EXPECT_EQ(denting_loads(loads, strips(), modulus, 1e-3, {}), (std::vector<int>{6}));
  EXPECT_TRUE(denting_loads({loads[0]}, strips(), modulus, 1e-3, {}).empty());
}

TEST(DentEstimate, AVertexTakesItsSoftestTetsPlaneStrainModulus) {
  full::FullModel mesh;
  mesh.positions.resize(5, 3);
  mesh.positions << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  mesh.tets.resize(2, 4);
  mesh.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  mesh.youngs = Eigen::Vector2d(1e6, 1e8);
  mesh.poisson = Eigen::Vector2d(0.3, 0.45);
  const Eigen::VectorXd modulus = vertex_plane_strain_modulus(mesh);
  EXPECT_DOUBLE_EQ(modulus(0), 1e6 / (1 - 0.09));
  EXPECT_DOUBLE_EQ(modulus(1), 1e6 / (1 - 0.09));  // in both tets: the softer
  EXPECT_DOUBLE_EQ(modulus(4), 1e8 / (1 - 0.45 * 0.45));
}

}  // namespace
}  // namespace smfem::local
