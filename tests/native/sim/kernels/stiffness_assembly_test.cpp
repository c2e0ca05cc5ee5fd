#include "smfem/sim/kernels/stiffness_assembly.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

namespace smfem::sim {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Inputs {
  RowMatrix Y;  // 3C x 4m
  Eigen::VectorXd weights;
  std::vector<Matrix9<double>> hessians;
  std::vector<Matrix3<double>> gradients;
};

Inputs random_inputs(int m, int C, unsigned seed) {
  std::mt19937 generator(seed);
  std::normal_distribution<double> normal;
  Inputs in;
  in.Y.resize(3 * C, 4 * m);
  for (Eigen::Index i = 0; i < in.Y.size(); ++i) in.Y.data()[i] = normal(generator);
  in.weights.resize(C);
  for (int c = 0; c < C; ++c) in.weights(c) = 0.5 + std::abs(normal(generator));
  for (int c = 0; c < C; ++c) {
    Matrix9<double> A;
    for (int i = 0; i < 81; ++i) A.data()[i] = normal(generator);
    in.hessians.push_back(A * A.transpose());  // symmetric (PSD like the solvers' Q_c)
    Matrix3<double> P;
    for (int i = 0; i < 9; ++i) P.data()[i] = normal(generator);
    in.gradients.push_back(P);
  }
  return in;
}

// dvec(F)/du for tet c, column-major vec(F) (9 x 12m): F(d, j) depends on u_d[k] via Y_c(k, j).
Eigen::MatrixXd dF_du(const Inputs& in, int c) {
  const Eigen::Index n = in.Y.cols();
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(9, 3 * n);
  for (int d = 0; d < 3; ++d) {
    for (int j = 0; j < 3; ++j) B.row(d + 3 * j).segment(d * n, n) = in.Y.row(3 * c + j);
  }
  return B;
}

struct Naive {
  Eigen::MatrixXd K;
  Eigen::VectorXd force;
};

Naive naive(const Inputs& in) {
  const Eigen::Index n = in.Y.cols();
  Naive result{Eigen::MatrixXd::Zero(3 * n, 3 * n), Eigen::VectorXd::Zero(3 * n)};
  for (int c = 0; c < static_cast<int>(in.weights.size()); ++c) {
    const Eigen::MatrixXd B = dF_du(in, c);
    result.K += in.weights(c) * B.transpose() * in.hessians[static_cast<std::size_t>(c)] * B;
    const Matrix3<double>& P = in.gradients[static_cast<std::size_t>(c)];
    result.force += in.weights(c) * B.transpose() * Eigen::Map<const Vector9<double>>(P.data());
  }
  return result;
}

// The assembled system (H block zero), made symmetric from its lower triangle.
Eigen::MatrixXd assembled(StiffnessAssembly& assembly, parallel::ThreadPool& pool, int n) {
  assembly.assemble(pool);
  Eigen::MatrixXd system = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  assembly.add_to_lower(Eigen::MatrixXd::Zero(n, n), system);
  return system.selfadjointView<Eigen::Lower>();
}

void set_inputs(StiffnessAssembly& assembly, const Inputs& in) {
  for (int c = 0; c < static_cast<int>(in.weights.size()); ++c) {
    assembly.set_tet_hessian(c, in.hessians[static_cast<std::size_t>(c)]);
    assembly.set_tet_gradient(c, in.gradients[static_cast<std::size_t>(c)]);
  }
}

class StiffnessAssemblySizes : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(StiffnessAssemblySizes, MatchesTheNaiveDenseProduct) {
  const auto [m, C] = GetParam();
  const int n = 4 * m;
  const Inputs in = random_inputs(m, C, 7u + static_cast<unsigned>(m * 100 + C));
  const Naive reference = naive(in);
  parallel::ThreadPool pool(1);
  StiffnessAssembly assembly(in.Y, in.weights, 1);
  set_inputs(assembly, in);
  const Eigen::MatrixXd K = assembled(assembly, pool, n);
  EXPECT_LT((K - reference.K).norm(), 1e-12 * reference.K.norm());
  const Eigen::VectorXd force = Eigen::Map<const Eigen::VectorXd>(assembly.force().data(), 3 * n);
  EXPECT_LT((force - reference.force).norm(), 1e-12 * reference.force.norm());

  // Single precision: the same up to float rounding; the force stays double.
  assembly.set_single_precision(true);
  const Eigen::MatrixXd K_float = assembled(assembly, pool, n);
  const double float_error = (K_float - reference.K).norm() / reference.K.norm();
  EXPECT_LT(float_error, 1e-5);
  EXPECT_GT(float_error, 0.0);
  const Eigen::VectorXd force_float =
      Eigen::Map<const Eigen::VectorXd>(assembly.force().data(), 3 * n);
  EXPECT_EQ(force_float, force);
}

// m = 1 and 3 leave padding columns (4m not a multiple of the panel); natively every m but 3
// leaves padding rows (4m not a multiple of the 6-row tile); C below, at and above the batch of
// tets the kernel streams; m = 16 is the paper's.
INSTANTIATE_TEST_SUITE_P(Sizes, StiffnessAssemblySizes,
                         ::testing::Values(std::pair{1, 1}, std::pair{2, 5}, std::pair{3, 32},
                                           std::pair{4, 33}, std::pair{8, 70}, std::pair{16, 40}));

TEST(StiffnessAssembly, AddsTheBlockDiagonalHessianAndKeepsTheUpperTriangleOut) {
  const int m = 2, n = 8;
  const Inputs in = random_inputs(m, 3, 11u);
  parallel::ThreadPool pool(1);
  StiffnessAssembly assembly(in.Y, in.weights, 1);
  set_inputs(assembly, in);
  assembly.assemble(pool);
  Eigen::MatrixXd H = Eigen::MatrixXd::Random(n, n);
  H = (H * H.transpose()).eval();
  Eigen::MatrixXd system = Eigen::MatrixXd::Constant(3 * n, 3 * n, 12345.0);
  assembly.add_to_lower(H, system);
  Eigen::MatrixXd expected = naive(in).K;
  for (int d = 0; d < 3; ++d) expected.block(d * n, d * n, n, n) += H;
  for (int col = 0; col < 3 * n; ++col) {
    for (int row = 0; row < 3 * n; ++row) {
      if (row >= col) {
        EXPECT_NEAR(system(row, col), expected(row, col), 1e-12 * expected.norm());
      } else {
        EXPECT_EQ(system(row, col), 12345.0);  // untouched
      }
    }
  }
}

TEST(StiffnessAssembly, BitIdenticalForAnyThreadCount) {
  const int m = 4, n = 16, C = 50;
  const Inputs in = random_inputs(m, C, 3u);
  Eigen::MatrixXd reference;
  Eigen::MatrixXd reference_force;
  for (int threads : {1, 2, 3}) {
    parallel::ThreadPool pool(threads);
    StiffnessAssembly assembly(in.Y, in.weights, pool.thread_count());
    set_inputs(assembly, in);
    const Eigen::MatrixXd K = assembled(assembly, pool, n);
    if (threads == 1) {
      reference = K;
      reference_force = assembly.force();
    } else {
      EXPECT_TRUE(K == reference) << threads << " threads";
      EXPECT_TRUE(Eigen::MatrixXd(assembly.force()) == reference_force) << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace smfem::sim
