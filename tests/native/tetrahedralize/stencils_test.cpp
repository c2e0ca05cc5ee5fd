#include "smfem/tetrahedralize/detail/stencils.hpp"

#include <array>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/tetrahedralize/bcc_lattice.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"
#include "smfem/tetrahedralize/tet_quality.hpp"

namespace smfem::tetrahedralize::detail {
namespace {

using Eigen::Vector3d;

// How a corner ends up: its sign and, for a corner on the surface, where warping moved it.
struct CornerState {
  Sign sign;
  Vector3d move = Vector3d::Zero();
};

struct Tally {
  long configurations = 0;
  long inverted = 0;
  double min_angle = 180.0;
  double max_angle = 0.0;
};

// Every configuration one lattice tet can be in after warping, sampled at the ends and middle
// of each continuous range: each corner inside, outside, exactly on the surface, or warped
// along any of its 14 lattice edges by up to alpha of that edge; each inside-outside edge cut
// anywhere in [alpha, 1 - alpha]. Fills the tet with the production stencils and tallies the
// output tets' angles by (inside, zero, outside) counts.
std::array<std::array<Tally, 5>, 5> search(double alpha_long, double alpha_short) {
  const BccLattice lattice(Vector3d::Zero(), 1.0, Eigen::Vector3i(4, 4, 4));
  std::array<int, 4> tet{};
  bool found = false;
  lattice.for_each_tet([&](const std::array<int, 4>& t) {
    if (!found && lattice.doubled_coordinates(t[0]) == Eigen::Vector3i(4, 4, 4))
      tet = t, found = true;
  });
  std::vector<CornerState> on_surface = {{Sign::zero}};
  for (int a = 0; a < 3; ++a) {
    for (int s : {-1, 1}) {
      for (double f : {0.5, 0.999999}) {
        Vector3d d = Vector3d::Zero();
        d[a] = s * f * alpha_long;
        on_surface.push_back({Sign::zero, d});
      }
    }
  }
  for (int c = 0; c < 8; ++c) {
    const Vector3d diagonal(c & 1 ? 0.5 : -0.5, c & 2 ? 0.5 : -0.5, c & 4 ? 0.5 : -0.5);
    for (double f : {0.5, 0.999999}) on_surface.push_back({Sign::zero, diagonal * f * alpha_short});
  }
  const geometry::Sdf everything = geometry::box(Vector3d::Zero(), Vector3d(100, 100, 100));
  const geometry::Points lattice_positions = lattice.positions();

  std::array<std::array<Tally, 5>, 5> tallies{};  // [inside][zero]
  for (int pattern = 0; pattern < 81; ++pattern) {
    std::array<int, 4> code;  // 0 inside, 1 outside, 2 on the surface
    for (int k = 0, p = pattern; k < 4; ++k, p /= 3) code[k] = p % 3;
    std::vector<int> zeros;
    std::vector<std::pair<int, int>> cuts;
    for (int a = 0; a < 4; ++a) {
      if (code[a] == 2) zeros.push_back(a);
      for (int b = 0; b < 4; ++b) {
        if (code[a] == 0 && code[b] == 1) cuts.emplace_back(a, b);
      }
    }
    int inside = 0, zero = static_cast<int>(zeros.size());
    for (int c : code) inside += c == 0;
    if (inside == 0) continue;  // nothing to fill, or all on the surface (tested below)
    // Odometer over the zero corners' states and the cuts' fractions (3 each).
    std::vector<int> digit(zeros.size() + cuts.size(), 0);
    while (true) {
      StuffingState s(lattice);
      s.sdf = &everything;
      s.sign.assign(static_cast<std::size_t>(lattice.vertex_count()), Sign::outside);
      s.position = lattice_positions;
      for (int k = 0; k < 4; ++k) {
        s.sign[tet[k]] = code[k] == 0 ? Sign::inside : code[k] == 1 ? Sign::outside : Sign::zero;
      }
      for (std::size_t i = 0; i < zeros.size(); ++i) {
        s.position.row(tet[zeros[i]]) += on_surface[digit[i]].move.transpose();
      }
      for (std::size_t i = 0; i < cuts.size(); ++i) {
        const auto [a, b] = cuts[i];
        const double alpha =
            lattice.is_black(tet[a]) == lattice.is_black(tet[b]) ? alpha_long : alpha_short;
        const double t = std::array<double, 3>{alpha, 0.5, 1.0 - alpha}[digit[zeros.size() + i]];
        s.cuts.emplace(
            s.edge_key(tet[a], tet[b]),
            Cut{tet[a], tet[b], (1 - t) * lattice.position(tet[a]) + t * lattice.position(tet[b])});
      }
      s.output_of_vertex.assign(static_cast<std::size_t>(lattice.vertex_count()), -1);
      fill_lattice_tet(s, tet);
      Tally& tally = tallies[inside][zero];
      ++tally.configurations;
      for (const auto& out : s.output_tets) {
        std::array<Vector3d, 4> p;
        for (int k = 0; k < 4; ++k) p[k] = s.output_positions[out[k]];
        if (signed_volume(p[0], p[1], p[2], p[3]) <= 0.0) {
          ++tally.inverted;
          continue;
        }
        for (double angle : dihedral_angles_deg(p[0], p[1], p[2], p[3])) {
          tally.min_angle = std::min(tally.min_angle, angle);
          tally.max_angle = std::max(tally.max_angle, angle);
        }
      }
      std::size_t i = 0;
      while (i < digit.size() &&
             ++digit[i] == (i < zeros.size() ? static_cast<int>(on_surface.size()) : 3)) {
        digit[i++] = 0;
      }
      if (i == digit.size()) break;
    }
  }
  return tallies;
}

TEST(Stencils, EveryConfigurationStaysWithinTheStatedBounds) {
  const StuffingOptions defaults;
  const auto tallies = search(defaults.alpha_long, defaults.alpha_short);
  double min_angle = 180.0, max_angle = 0.0;
  for (int inside = 1; inside <= 4; ++inside) {
    for (int zero = 0; inside + zero <= 4; ++zero) {
      const Tally& t = tallies[inside][zero];
      SCOPED_TRACE(testing::Message() << inside << " inside, " << zero << " on the surface");
      EXPECT_GT(t.configurations, 0);
      EXPECT_EQ(t.inverted, 0);
      min_angle = std::min(min_angle, t.min_angle);
      max_angle = std::max(max_angle, t.max_angle);
    }
  }
  EXPECT_GE(min_angle, kMinDihedralBoundDeg);
  EXPECT_LE(max_angle, kMaxDihedralBoundDeg);
  // The bound is tight to the measurement: stencils that got worse would show here first.
  EXPECT_LT(min_angle, kMinDihedralBoundDeg + 0.1);
  EXPECT_GT(max_angle, kMaxDihedralBoundDeg - 0.2);
}

TEST(Stencils, AllZeroTetsAreKeptOnlyWhenGood) {
  // Four warped corners can be nearly coplanar: such tets must be dropped, good ones kept.
  const BccLattice lattice(Vector3d::Zero(), 1.0, Eigen::Vector3i(4, 4, 4));
  std::array<int, 4> tet{};
  bool found = false;
  lattice.for_each_tet([&](const std::array<int, 4>& t) {
    if (!found && lattice.doubled_coordinates(t[0]) == Eigen::Vector3i(4, 4, 4))
      tet = t, found = true;
  });
  const geometry::Sdf everything = geometry::box(Vector3d::Zero(), Vector3d(100, 100, 100));
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  int kept = 0, dropped = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    StuffingState s(lattice);
    s.sdf = &everything;
    s.sign.assign(static_cast<std::size_t>(lattice.vertex_count()), Sign::outside);
    s.position = lattice.positions();
    for (int k = 0; k < 4; ++k) {
      s.sign[tet[k]] = Sign::zero;
      s.position.row(tet[k]) += 0.3 * Vector3d(u(rng), u(rng), u(rng)).transpose();
    }
    s.output_of_vertex.assign(static_cast<std::size_t>(lattice.vertex_count()), -1);
    fill_lattice_tet(s, tet);
    if (s.output_tets.empty()) {
      ++dropped;
      continue;
    }
    ++kept;
    std::array<Vector3d, 4> p;
    for (int k = 0; k < 4; ++k) p[k] = s.output_positions[s.output_tets[0][k]];
    ASSERT_GT(signed_volume(p[0], p[1], p[2], p[3]), 0.0);
    for (double angle : dihedral_angles_deg(p[0], p[1], p[2], p[3])) {
      EXPECT_GE(angle, kMinDihedralBoundDeg);
      EXPECT_LE(angle, kMaxDihedralBoundDeg);
    }
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(dropped, 0);
}

}  // namespace
}  // namespace smfem::tetrahedralize::detail
