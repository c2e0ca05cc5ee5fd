// The contact Hessian's blocks: added to a system in any layout, and as a bilinear form, they
// give the matrix the groups describe.
#include "smfem/sim/contact/contact_hessian.hpp"

#include <gtest/gtest.h>

namespace smfem::contact {
namespace {

// Three bodies' rows of U: [0, 8), [8, 12), [12, 28).
const ContactHessian::Rows kBodies[] = {{0, 8}, {8, 4}, {12, 16}};
constexpr int kRows = 28;

// Groups on body 0 alone, bodies 0 and 2, and bodies 1 and 2, random symmetric blocks.
ContactHessian random_hessian() {
  ContactHessian hessian;
  for (const auto& [p, q] : {std::pair{0, -1}, std::pair{0, 2}, std::pair{1, 2}}) {
    ContactHessian::Group& group =
        hessian.add_group(kBodies[p], q < 0 ? ContactHessian::Rows{} : kBodies[q]);
    const Eigen::MatrixXd R = Eigen::MatrixXd::Random(group.block.rows(), group.block.cols());
    group.block = R + R.transpose();
  }
  return hessian;
}

// The matrix the groups describe, in u = vec(U) ordering, built entry by entry.
Eigen::MatrixXd dense(const ContactHessian& hessian) {
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * kRows, 3 * kRows);
  for (const ContactHessian::Group& group : hessian.groups()) {
    std::vector<int> rows;
    for (const ContactHessian::Rows& r : {group.first, group.second}) {
      for (int i = 0; i < r.count; ++i) rows.push_back(r.first + i);
    }
    const auto w = static_cast<int>(rows.size());
    for (int d = 0; d < 3; ++d) {
      for (int e = 0; e < 3; ++e) {
        for (int i = 0; i < w; ++i) {
          for (int j = 0; j < w; ++j) {
            H(d * kRows + rows[i], e * kRows + rows[j]) += group.block(d * w + i, e * w + j);
          }
        }
      }
    }
  }
  return H;
}

TEST(ContactHessian, AddsItsBlocksInTheStackedLayout) {
  const ContactHessian hessian = random_hessian();
  Eigen::MatrixXd lower = Eigen::MatrixXd::Constant(3 * kRows, 3 * kRows, 7.0);
  hessian.add_to_lower(sim::SystemLayout::stacked(kRows), lower);
  const Eigen::MatrixXd expected = dense(hessian);
  for (int col = 0; col < 3 * kRows; ++col) {
    for (int row = 0; row < 3 * kRows; ++row) {
      // Above the diagonal: untouched.
      EXPECT_DOUBLE_EQ(lower(row, col), row >= col ? 7.0 + expected(row, col) : 7.0);
    }
  }
}

// Body by body, bodies in the order 2, 0, 1: the same matrix, permuted.
TEST(ContactHessian, AddsItsBlocksInABodyByBodyLayout) {
  const ContactHessian hessian = random_hessian();
  sim::SystemLayout layout;
  const int first_unknown[] = {3 * 16, 3 * 16 + 3 * 8, 0};
  for (int b = 0; b < 3; ++b)
    layout.ranges.push_back({kBodies[b].first, kBodies[b].count, first_unknown[b]});
  Eigen::MatrixXd lower = Eigen::MatrixXd::Zero(3 * kRows, 3 * kRows);
  hessian.add_to_lower(layout, lower);
  const Eigen::MatrixXd H = lower.selfadjointView<Eigen::Lower>();
  const Eigen::MatrixXd expected = dense(hessian);
  for (int r = 0; r < kRows; ++r) {
    for (int d = 0; d < 3; ++d) {
      for (int s = 0; s < kRows; ++s) {
        for (int e = 0; e < 3; ++e) {
          EXPECT_DOUBLE_EQ(H(layout.unknown(r, d), layout.unknown(s, e)),
                           expected(d * kRows + r, e * kRows + s));
        }
      }
    }
  }
}

TEST(ContactHessian, FormIsTheBilinearFormOfTheMatrix) {
  const ContactHessian hessian = random_hessian();
  const sim::ReducedMatrix A = sim::ReducedMatrix::Random(kRows, 3);
  const sim::ReducedMatrix B = sim::ReducedMatrix::Random(kRows, 3);
  const Eigen::Map<const Eigen::VectorXd> a(A.data(), A.size()), b(B.data(), B.size());
  const double expected = a.dot(dense(hessian) * b);
  EXPECT_NEAR(hessian.form(A, B), expected, 1e-12 * std::abs(expected));
}

}  // namespace
}  // namespace smfem::contact
