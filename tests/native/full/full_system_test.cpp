// The full-space system against finite differences: the assembled force is the gradient of
// sum_t V_t psi(F_t(U)), K its Hessian, and solve() solves (M / h^2 + K) dU = rhs over the free
// vertices, leaving the pinned ones still.
#include "smfem/full/full_system.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "full/full_box.hpp"
#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/lame.hpp"

namespace smfem::full {
namespace {

constexpr double kTimestep = 0.01;

struct Fixture {
  FullModel model = test::full_box({}, 0.2);  // the x = 0.2 face pinned
  TetMeshDeformation deformation{model};
  FullDynamics dynamics{Eigen::VectorXd::Constant(model.vertex_count(), 0.5), pinned(), kTimestep};
  FullSystem system{deformation, dynamics};
  parallel::ThreadPool pool{1};

  std::vector<char> pinned() const {
    std::vector<char> flags(static_cast<std::size_t>(model.vertex_count()), 0);
    for (const int v : model.pinned) flags[static_cast<std::size_t>(v)] = 1;
    return flags;
  }
  energies::LameParameters<double> lame(int t) const {
    return energies::lame_from_young_poisson(model.youngs(t), model.poisson(t));
  }
  Matrix3<double> F(int t, const sim::ReducedMatrix& U) const {
    return Matrix3<double>::Identity() + deformation.displacement_gradient(t, U);
  }
  double energy(const sim::ReducedMatrix& U) const {
    double sum = 0.0;
    for (int t = 0; t < model.tet_count(); ++t) {
      sum += deformation.volumes()(t) * energies::fixed_corotational::psi(F(t, U), lame(t));
    }
    return sum;
  }
  // Sets every tet's inputs at U (exact Hessians, not projected) and assembles.
  void assemble_at(const sim::ReducedMatrix& U) {
    for (int t = 0; t < model.tet_count(); ++t) {
      system.set_tet_gradient(t, energies::fixed_corotational::dpsi_dF(F(t, U), lame(t)));
      system.set_tet_hessian(t, energies::fixed_corotational::d2psi_dF2(F(t, U), lame(t)));
    }
    system.assemble(pool);
  }
  // The free DOF 3k + d of vertex v, or -1.
  int dof(int v, int d) const {
    int k = 0;
    const std::vector<char> flags = pinned();
    for (int u = 0; u < v; ++u) k += flags[static_cast<std::size_t>(u)] ? 0 : 1;
    return flags[static_cast<std::size_t>(v)] ? -1 : 3 * k + d;
  }
};

sim::ReducedMatrix random_displacements(const Fixture& f, double scale, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  sim::ReducedMatrix U(f.model.vertex_count(), 3);
  for (Eigen::Index i = 0; i < U.size(); ++i) U.data()[i] = uniform(generator);
  for (const int v : f.model.pinned) U.row(v).setZero();
  return U;
}

TEST(FullSystem, ForceIsTheGradientOfTheElasticEnergy) {
  Fixture f;
  const sim::ReducedMatrix U = random_displacements(f, 0.03, 1u);
  f.assemble_at(U);
  const double epsilon = 1e-7;
  double worst = 0.0;
  for (int v = 0; v < f.model.vertex_count(); ++v) {
    for (int d = 0; d < 3; ++d) {
      sim::ReducedMatrix plus = U, minus = U;
      plus(v, d) += epsilon;
      minus(v, d) -= epsilon;
      const double difference = (f.energy(plus) - f.energy(minus)) / (2 * epsilon);
      worst = std::max(worst, std::abs(difference - f.system.force()(v, d)));
    }
  }
  const double scale = f.system.force().cwiseAbs().maxCoeff();
  EXPECT_LT(worst, 1e-6 * scale) << "force scale " << scale;
}

TEST(FullSystem, StiffnessIsTheHessianOfTheElasticEnergyOverTheFreeVertices) {
  Fixture f;
  const sim::ReducedMatrix U = random_displacements(f, 0.03, 2u);
  f.assemble_at(U);
  const Eigen::MatrixXd K_lower = Eigen::MatrixXd(f.system.stiffness());
  const Eigen::MatrixXd K =
      K_lower + K_lower.transpose() - Eigen::MatrixXd(K_lower.diagonal().asDiagonal());
  const double epsilon = 1e-6;
  double worst = 0.0;
  for (int v = 0; v < f.model.vertex_count(); ++v) {
    for (int d = 0; d < 3; ++d) {
      if (f.dof(v, d) < 0) continue;
      sim::ReducedMatrix plus = U, minus = U;
      plus(v, d) += epsilon;
      minus(v, d) -= epsilon;
      f.assemble_at(plus);
      const sim::ReducedMatrix force_plus = f.system.force();
      f.assemble_at(minus);
      const sim::ReducedMatrix column = (force_plus - f.system.force()) / (2 * epsilon);
      for (int w = 0; w < f.model.vertex_count(); ++w) {
        for (int e = 0; e < 3; ++e) {
          if (f.dof(w, e) < 0) continue;
          worst = std::max(worst, std::abs(column(w, e) - K(f.dof(w, e), f.dof(v, d))));
        }
      }
    }
  }
  EXPECT_LT(worst, 1e-5 * K.cwiseAbs().maxCoeff()) << "stiffness scale " << K.cwiseAbs().maxCoeff();
}

// The relative residual of the last solve (dU for dynamics_gradient), checking that the pinned
// vertices stayed still and rhs() is the system's right-hand side.
double relative_residual(const Fixture& f, const sim::ReducedMatrix& dynamics_gradient,
                         const sim::ReducedMatrix& dU) {
  const Eigen::MatrixXd K_lower = Eigen::MatrixXd(f.system.stiffness());
  Eigen::MatrixXd A =
      K_lower + K_lower.transpose() - Eigen::MatrixXd(K_lower.diagonal().asDiagonal());
  Eigen::VectorXd x(A.rows()), b(A.rows());
  for (int v = 0; v < f.model.vertex_count(); ++v) {
    for (int d = 0; d < 3; ++d) {
      const int i = f.dof(v, d);
      if (i < 0) {
        EXPECT_EQ(dU(v, d), 0.0) << "pinned vertex " << v << " moved";
        continue;
      }
      A(i, i) += 0.5 / (kTimestep * kTimestep);
      x(i) = dU(v, d);
      b(i) = -(dynamics_gradient(v, d) + f.system.force()(v, d));
      EXPECT_EQ(f.system.rhs()(v, d), b(i));
    }
  }
  return (A * x - b).norm() / b.norm();
}

// Factored in float and refined in double (sim/kernels/refined_cholesky.hpp): the residual within
// the refinement's target.
TEST(FullSystem, SolvesTheSystemOverTheFreeVerticesAndKeepsThePinsStill) {
  Fixture f;
  const sim::ReducedMatrix U = random_displacements(f, 0.03, 3u);
  f.assemble_at(U);
  const sim::ReducedMatrix dynamics_gradient = random_displacements(f, 10.0, 4u);
  sim::ReducedMatrix dU = sim::ReducedMatrix::Zero(U.rows(), 3);
  ASSERT_EQ(f.system.solve(dynamics_gradient, dU), 0);
  EXPECT_LT(relative_residual(f, dynamics_gradient, dU), sim::RefinedCholesky::kTargetResidual);
}

}  // namespace
}  // namespace smfem::full
