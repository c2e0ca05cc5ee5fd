// Matching coarse modes to fine ones (smfem/eigenfit/mode_matching.hpp): the greedy match and
// its threshold, cosines in the mass inner product, and reduced modes as vertex fields.
#include "smfem/eigenfit/mode_matching.hpp"

#include <gtest/gtest.h>

#include "subspace/box_mesh.hpp"

namespace smfem::eigenfit {
namespace {

TEST(ModeMatching, GreedyByCosineEachModeOnceAboveThreshold) {
  Eigen::MatrixXd cosines(3, 3);
  cosines << 0.9, 0.7, 0.1,  //
      0.8, 0.3, 0.2,         //
      0.1, 0.6, 0.65;
  const ModeMatch match = match_modes(cosines, Eigen::Vector3i(0, 1, 2));  // distinct frequencies
  EXPECT_EQ(match.partner(0), 0);
  EXPECT_EQ(match.partner(1), -1);  // its best column is taken, the rest below 0.6
  EXPECT_DOUBLE_EQ(match.cosine(1), 0.8);
  EXPECT_EQ(match.partner(2), 2);  // 0.6 itself is not above the threshold
  EXPECT_EQ(match.matched, 2);
}

TEST(ModeMatching, GroupsModesOfNearlyEqualFrequency) {
  EXPECT_EQ(degenerate_groups(Eigen::Vector4d(1.0, 1.04, 1.2, 1.25)), Eigen::Vector4i(0, 0, 1, 1));
  // A chain of small gaps is one group; a gap above 5 % starts the next.
  EXPECT_EQ(degenerate_groups(Eigen::Vector4d(1.0, 1.04, 1.08, 1.2)), Eigen::Vector4i(0, 0, 0, 1));
  EXPECT_EQ(degenerate_groups(Eigen::Vector3d(1.0, 2.0, 3.0)), Eigen::Vector3i(0, 1, 2));
}

TEST(ModeMatching, MatchesModesOfEqualFrequencyAsOnePair) {
  // A square beam: fine modes 0 and 1 bend at one frequency, and the coarse mesh picked other
  // directions within their plane, so no single cosine reaches 0.6 (the matching of single
  // modes refused this beam); each coarse mode lies mostly in the pair's span.
  Eigen::MatrixXd cosines(4, 3);
  cosines << 0.55, 0.55, 0.10,  //
      0.50, 0.52, 0.05,         //
      0.10, 0.05, 0.90,         //
      0.45, 0.45, 0.20;         // also near the pair, but the pair has only two modes
  const Eigen::Vector3i groups(0, 0, 1);
  const Eigen::MatrixXd by_group = group_cosines(cosines, groups);
  EXPECT_NEAR(by_group(0, 0), std::sqrt(2 * 0.55 * 0.55), 1e-15);
  EXPECT_NEAR(by_group(2, 1), 0.90, 1e-15);
  const ModeMatch match = match_modes(cosines, groups);
  EXPECT_EQ(match.partner,
            Eigen::Vector4i(0, 1, 2, -1));  // the lower coarse mode, the lower fine one
  EXPECT_EQ(match.matched, 3);
  EXPECT_NEAR(match.cosine(1), std::hypot(0.50, 0.52), 1e-15);
  EXPECT_EQ(skipped_fine_mode(match), -1);
  // As single modes (every frequency apart), only the third matches.
  EXPECT_EQ(match_modes(cosines, Eigen::Vector3i(0, 1, 2)).matched, 1);
}

TEST(ModeMatching, SaysWhichLowFineModeIsSkipped) {
  // The bar at 310k tets and |C| 581: its lowest coarse modes pair with fine modes 1, 3, 4, 2:
  // fine mode 0, the object's lowest motion, has no counterpart.
  ModeMatch spurious;
  spurious.partner = Eigen::Vector4i(1, 3, 4, 2);
  EXPECT_EQ(skipped_fine_mode(spurious), 0);
  // Crossed pairs that cover every fine mode up to the highest matched: nothing skipped.
  ModeMatch crossed;
  crossed.partner = Eigen::Vector4i(0, 1, 3, 2);
  EXPECT_EQ(skipped_fine_mode(crossed), -1);
  // Unmatched coarse modes leave no gap by themselves; a gap below a match does.
  ModeMatch unmatched;
  unmatched.partner = Eigen::Vector4i(0, -1, 1, -1);
  EXPECT_EQ(skipped_fine_mode(unmatched), -1);
  unmatched.partner = Eigen::Vector4i(0, -1, 3, -1);
  EXPECT_EQ(skipped_fine_mode(unmatched), 1);
  ModeMatch none;
  none.partner = Eigen::Vector4i::Constant(-1);
  EXPECT_EQ(skipped_fine_mode(none), -1);
}

TEST(ModeMatching, CosinesAreMassWeightedAndScaleFree) {
  const Eigen::VectorXd mass = Eigen::Vector3d(1.0, 2.0, 3.0);
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(9, 2);
  a(0, 0) = 1.0;  // vertex 0, x
  a(4, 1) = 1.0;  // vertex 1, y
  Eigen::MatrixXd b(9, 3);
  b.col(0) = 5.0 * a.col(0);
  b.col(1) = -a.col(1);
  b.col(2) = a.col(0) + a.col(1);
  const Eigen::MatrixXd cosines = mass_cosines(a, b, mass);
  EXPECT_NEAR(cosines(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(cosines(1, 1), 1.0, 1e-15);
  EXPECT_NEAR(cosines(0, 1), 0.0, 1e-15);
  // (1, 1) with masses 1 and 2: <e_x, f> = 1, |f|^2 = 1 + 2.
  EXPECT_NEAR(cosines(0, 2), 1.0 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(cosines(1, 2), 2.0 / std::sqrt(2.0 * 3.0), 1e-15);
}

TEST(ModeMatching, ReducedModesMoveVerticesByTheirAffineMaps) {
  const mesh::TetMesh box =
      test::box_mesh(Eigen::Vector3i(2, 1, 1), Eigen::Vector3d(1.0, 0.5, 0.5));
  const Eigen::Index n = box.vertices.rows();
  // One constant weight (m = 1): u_d[k] = A(d, k), x = A [X; 1].
  const Eigen::MatrixXd weights = Eigen::MatrixXd::Ones(n, 1);
  Eigen::Matrix<double, 3, 4> A;
  A << 0.1, 0.2, 0.3, 0.4,  //
      -0.5, 0.6, 0.7, 0.8,  //
      0.9, -1.0, 1.1, 1.2;
  Eigen::VectorXd mode(12);
  for (int d = 0; d < 3; ++d) mode.segment<4>(4 * d) = A.row(d).transpose();
  const Eigen::MatrixXd fields = reduced_modes_at(box.vertices, weights, mode);
  for (Eigen::Index p = 0; p < n; ++p) {
    const Eigen::Vector3d expected = A * box.vertices.row(p).transpose().homogeneous();
    EXPECT_LT((fields.col(0).segment<3>(3 * p) - expected).norm(), 1e-14);
  }
  // Embedding the mesh in itself gives back the weights.
  const Eigen::MatrixXd W = Eigen::MatrixXd::Random(n, 3);
  const Eigen::MatrixXd embedded =
      embedded_weights(box, W, render::embed_points(box, box.vertices));
  EXPECT_LT((embedded - W).cwiseAbs().maxCoeff(), 1e-9);
}

}  // namespace
}  // namespace smfem::eigenfit
