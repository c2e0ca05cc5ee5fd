// The displacement-basis system against finite differences: the assembled force is the gradient
// of sum_t V_t psi(F_t(q)), K its Hessian, and solve() solves (M_r / h^2 + K) dq = rhs.
#include "smfem/displacement/basis_system.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "displacement/random_basis.hpp"
#include "full/full_box.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"

namespace smfem::displacement {
namespace {

constexpr int kCoordinates = 6;
constexpr double kTimestep = 0.01;

struct Fixture {
  full::FullModel model = full::test::full_box({}, 0.2);  // the x = 0.2 face pinned
  full::TetMeshDeformation mesh{model};
  BasisRows basis = test::random_basis(model, kCoordinates, 3u);
  Quadrature quadrature = exact_quadrature(mesh);
  BasisDeformation deformation{mesh, basis, quadrature};
  BasisDynamics dynamics{Eigen::MatrixXd::Identity(kCoordinates, kCoordinates) * 2.0, kTimestep};
  BasisSystem system{deformation, dynamics};
  parallel::ThreadPool pool{2};

  energies::LameParameters<double> lame(int t) const {
    return energies::lame_from_young_poisson(model.youngs(t), model.poisson(t));
  }
  Matrix3<double> F(int t, const Eigen::VectorXd& q) const {
    return Matrix3<double>::Identity() + deformation.displacement_gradient(t, test::coordinates(q));
  }
  double energy(const Eigen::VectorXd& q) const {
    double sum = 0.0;
    for (int t = 0; t < model.tet_count(); ++t) {
      sum += deformation.weights()(t) * energies::stable_neo_hookean::psi(F(t, q), lame(t));
    }
    return sum;
  }
  // Sets every tet's inputs at q (exact Hessians, not projected) and assembles.
  void assemble_at(const Eigen::VectorXd& q) {
    for (int t = 0; t < model.tet_count(); ++t) {
      system.set_tet_gradient(t, energies::stable_neo_hookean::dpsi_dF(F(t, q), lame(t)));
      system.set_tet_hessian(t, energies::stable_neo_hookean::d2psi_dF2(F(t, q), lame(t)));
    }
    system.assemble(pool);
  }
};

// Over several scales of deformation, up to large (q of 0.3 moves vertices by tens of percent of
// the box).
TEST(BasisSystem, ForceAndStiffnessAreTheGradientAndHessianOfTheElasticEnergy) {
  Fixture f;
  for (const double scale : {1e-3, 3e-2, 0.3}) {
    const Eigen::VectorXd q = test::random_vector(kCoordinates, scale, 5u);
    f.assemble_at(q);
    const Eigen::VectorXd force = f.system.force();
    const Eigen::MatrixXd K = f.system.stiffness();
    EXPECT_LT((K - K.transpose()).norm(), 1e-12 * K.norm());
    const double epsilon = 1e-6;
    Eigen::VectorXd gradient(kCoordinates);
    Eigen::MatrixXd hessian(kCoordinates, kCoordinates);
    for (int i = 0; i < kCoordinates; ++i) {
      Eigen::VectorXd plus = q, minus = q;
      plus(i) += epsilon;
      minus(i) -= epsilon;
      gradient(i) = (f.energy(plus) - f.energy(minus)) / (2 * epsilon);
      f.assemble_at(plus);
      const Eigen::VectorXd force_plus = f.system.force();
      f.assemble_at(minus);
      hessian.col(i) = (force_plus - f.system.force()) / (2 * epsilon);
    }
    EXPECT_LT((gradient - force).norm(), 1e-6 * force.norm()) << "scale " << scale;
    EXPECT_LT((hessian - K).norm(), 1e-6 * K.norm()) << "scale " << scale;
  }
}

TEST(BasisSystem, SolvesTheSystemInColumnZero) {
  Fixture f;
  f.assemble_at(test::random_vector(kCoordinates, 0.03, 6u));
  const sim::ReducedMatrix gradient = test::coordinates(test::random_vector(kCoordinates, 10, 7u));
  sim::ReducedMatrix dU = sim::ReducedMatrix::Constant(kCoordinates, 3, 1.0);
  ASSERT_EQ(f.system.solve(gradient, dU), 0);
  EXPECT_TRUE(dU.rightCols<2>().isZero(0.0));
  EXPECT_TRUE(f.system.rhs().rightCols<2>().isZero(0.0));
  const Eigen::MatrixXd A =
      f.dynamics.reduced_mass() / (kTimestep * kTimestep) + f.system.stiffness();
  const Eigen::VectorXd b = -(gradient.col(0) + f.system.force());
  EXPECT_LT((A * dU.col(0) - b).norm(), 1e-10 * b.norm());
  EXPECT_LT((f.system.rhs().col(0) - b).norm(), 1e-14 * b.norm());
}

TEST(BasisSystem, ResultsDoNotDependOnTheThreadCount) {
  Fixture f;
  const Eigen::VectorXd q = test::random_vector(kCoordinates, 0.03, 8u);
  f.assemble_at(q);
  const Eigen::MatrixXd two = f.system.stiffness();
  parallel::ThreadPool one(1);
  f.system.assemble(one);
  EXPECT_EQ((two - f.system.stiffness()).norm(), 0.0);
}

}  // namespace
}  // namespace smfem::displacement
