// The EigenFit term (smfem/sim/step/eigenfit_term.hpp) and the steps that carry it: the fitted
// stiffness at rest (SPD, the fitted eigenvalues moved to r_i lambda_i, the others unchanged),
// the energy's derivatives against finite differences in z (MFEM's form) and in u (FEM's form,
// through s(F(u))), both solvers converging to the same state, unit ratios giving the
// uncorrected steps bit for bit, and a small vibration swinging at the fitted frequency.
#include "smfem/sim/step/eigenfit_term.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "sim/reference.hpp"
#include "sim/test_model.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/eigenfit.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/step/fem_step.hpp"

namespace smfem::sim {
namespace {

constexpr double kPi = 3.14159265358979323846;

ReducedModel fitted_box(const Eigen::VectorXd& ratios) {
  return test::with_eigenfit(make_box_model(test::small_box()).model, ratios);
}

Eigen::VectorXd some_ratios() { return Eigen::Vector3d(0.5, 0.8, 1.7); }

// F_c(U) and s(F_c(U)) for every tet of the model.
StretchField stretches(const ReducedModel& model, const ReducedMatrix& U) {
  StretchField s(6, model.cubature_count());
  for (int c = 0; c < model.cubature_count(); ++c) {
    s.col(c) = polar::symmetric_stretch(Matrix3<double>(
        Matrix3<double>::Identity() + displacement_gradient(model.cubature_Y, c, U)));
  }
  return s;
}

// The term linearized at U: J_c = ds/dF at F_c(U) for every tet, B assembled.
void linearize(EigenFitTerm& term, const ReducedModel& model, const ReducedMatrix& U,
               parallel::ThreadPool& pool) {
  for (int c = 0; c < model.cubature_count(); ++c) {
    const Matrix3<double> F =
        Matrix3<double>::Identity() + displacement_gradient(model.cubature_Y, c, U);
    term.set_tet_jacobian(c, polar::dstretch_dF(polar::signed_svd(F)));
  }
  term.assemble(pool);
}

// dvec(F_c)/du (9 x 12m) of every cubature tet: F is affine in u.
std::vector<Eigen::MatrixXd> deformation_jacobians(const ReducedModel& model) {
  const int r = model.reduced_size();
  std::vector<Eigen::MatrixXd> jacobians;
  for (int c = 0; c < model.cubature_count(); ++c) {
    Eigen::MatrixXd D(9, r);
    for (int k = 0; k < r; ++k) {
      Eigen::VectorXd unit = Eigen::VectorXd::Zero(r);
      unit(k) = 1.0;
      const Matrix3<double> dF = displacement_gradient(model.cubature_Y, c, test::unflatten(unit));
      D.col(k) = Eigen::Map<const Vector9<double>>(dF.data());
    }
    jacobians.push_back(D);
  }
  return jacobians;
}

Eigen::MatrixXd low_rank(const EigenFitTerm& term) {
  return term.coupling() * term.weights().asDiagonal() * term.coupling().transpose();
}

TEST(EigenFitTerm, FittedStiffnessIsSpdAndMovesOnlyTheFittedEigenvalues) {
  const ReducedModel model = fitted_box(some_ratios());
  const std::vector<Lame> lame = baked_lame(model);
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, lame);
  parallel::ThreadPool pool(test::kThreads);
  const int r = model.reduced_size();
  linearize(term, model, ReducedMatrix::Zero(r / 3, 3), pool);

  const Eigen::MatrixXd K0 = rest_stiffness(model, MaterialModel::fixed_corotational, lame);
  const Eigen::MatrixXd fitted = K0 + low_rank(term);
  const Eigen::MatrixXd M = reduced_mass(model);
  EXPECT_LT((fitted - fitted.transpose()).cwiseAbs().maxCoeff(), 1e-12 * K0.norm());

  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> before(K0, M);
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> after(fitted, M);
  const double scale = before.eigenvalues().maxCoeff();
  // Positive semi-definite (a free body: six rigid motions stay null), and positive definite on
  // the complement of the null space.
  EXPECT_GT(after.eigenvalues().minCoeff(), -1e-10 * scale);
  const Eigen::Index nulls = 6;
  EXPECT_GT(after.eigenvalues()(nulls), 1e-6 * scale);

  // The expected spectrum: K0's with the fitted lambda_i replaced by r_i lambda_i.
  const EigenFitData& fit = model.eigenfit;
  std::vector<double> expected(before.eigenvalues().data(),
                               before.eigenvalues().data() + before.eigenvalues().size());
  for (int i = 0; i < fit.mode_count(); ++i) {
    expected[static_cast<std::size_t>(nulls + i)] = fit.ratios(i) * fit.coarse_eigenvalues(i);
  }
  std::sort(expected.begin(), expected.end());
  for (Eigen::Index k = 0; k < after.eigenvalues().size(); ++k) {
    EXPECT_NEAR(after.eigenvalues()(k), expected[static_cast<std::size_t>(k)], 1e-9 * scale)
        << "eigenvalue " << k;
  }
  // The fitted modes are eigenvectors of the fitted stiffness, and K0's other eigenvectors too.
  for (int i = 0; i < fit.mode_count(); ++i) {
    const Eigen::VectorXd u = fit.modes.col(i);
    EXPECT_LT((fitted * u - fit.ratios(i) * fit.coarse_eigenvalues(i) * (M * u)).norm(),
              1e-9 * scale * (M * u).norm());
  }
  for (Eigen::Index k = nulls + fit.mode_count(); k < r; ++k) {
    const Eigen::VectorXd v = before.eigenvectors().col(k);
    EXPECT_LT((fitted * v - K0 * v).norm(), 1e-9 * scale * (M * v).norm()) << "mode " << k;
  }
}

// Away from rest too: the stiffness the FEM step assembles with the fit (each tet's Q_c from
// the step's own fem_tet_hessian, plus the rank-s B G B^T) stays symmetric positive
// semi-definite, with only the six rigid motions null, from small to large deformations
// (random coordinates of scale 0.03 to 0.4) and ratios on both sides of 1.
TEST(EigenFitTerm, FemStiffnessStaysPositiveSemiDefiniteAwayFromRest) {
  for (const Eigen::Vector3d& ratios :
       {Eigen::Vector3d(0.5, 0.8, 1.7), Eigen::Vector3d(0.2, 0.3, 4.0)}) {
    const ReducedModel model = fitted_box(ratios);
    const std::vector<Lame> lame = baked_lame(model);
    EigenFitTerm term(model);
    term.update_materials(MaterialModel::fixed_corotational, lame);
    parallel::ThreadPool pool(1);
    const int m = model.mode_count();
    const Eigen::MatrixXd M = reduced_mass(model);
    const std::vector<Eigen::MatrixXd> dF_du = deformation_jacobians(model);
    for (const double scale : {0.03, 0.15, 0.4}) {
      const ReducedMatrix U =
          test::random_reduced(m, scale, static_cast<unsigned>(100 * scale) + 3);
      linearize(term, model, U, pool);
      Eigen::VectorXd alpha;
      term.measure(stretches(model, U), alpha);
      Eigen::MatrixXd K = low_rank(term);
      for (int c = 0; c < model.cubature_count(); ++c) {
        const Eigen::MatrixXd& D = dF_du[static_cast<std::size_t>(c)];
        const polar::SignedSvd<double> svd = polar::signed_svd(Matrix3<double>(
            Matrix3<double>::Identity() + displacement_gradient(model.cubature_Y, c, U)));
        const Vector6<double> fit_stress = term.stress(c, alpha);
        const Matrix9<double> hessian = fem_tet_hessian(
            MaterialModel::fixed_corotational, svd, lame[static_cast<std::size_t>(c)], &fit_stress);
        K += model.cubature_weights(c) * D.transpose() * hessian * D;
      }
      EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-12 * K.norm());
      const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> spectrum(K, M);
      const double largest = spectrum.eigenvalues().maxCoeff();
      EXPECT_GT(spectrum.eigenvalues().minCoeff(), -1e-10 * largest)
          << "ratios " << ratios.transpose() << ", strain scale " << scale;
      EXPECT_GT(spectrum.eigenvalues()(6), 1e-8 * largest)
          << "ratios " << ratios.transpose() << ", strain scale " << scale;
    }
  }
}

TEST(EigenFitTerm, StretchBlockStaysPositiveSemiDefiniteAtRest) {
  // blockdiag(w_c H0_c) + A G A^T >= min(1, r_i) blockdiag(w_c H0_c) (eigenfit_term.hpp), here
  // with ratios far below 1.
  const ReducedModel model = fitted_box(Eigen::Vector3d(0.05, 0.1, 0.2));
  const std::vector<Lame> lame = baked_lame(model);
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, lame);
  const int C = model.cubature_count();
  const int s = term.mode_count();
  Eigen::MatrixXd block = Eigen::MatrixXd::Zero(6 * C, 6 * C);
  Eigen::MatrixXd A(6 * C, s);
  for (int c = 0; c < C; ++c) {
    const double w = model.cubature_weights(c);
    block.block<6, 6>(6 * c, 6 * c) =
        w * d2psi_ds2_psd(MaterialModel::fixed_corotational, polar::identity_stretch<double>(),
                          lame[static_cast<std::size_t>(c)]);
    // A's rows for tet c: the term's stress for each unit measure, e_c(unit_i / g_i) = a_ci.
    for (int i = 0; i < s; ++i) {
      Eigen::VectorXd unit = Eigen::VectorXd::Zero(s);
      unit(i) = 1.0 / term.weights()(i);
      A.block(6 * c, i, 6, 1) = w * term.stress(c, unit);
    }
  }
  // The z block: blockdiag(w_c H0_c) + (W A) G (W A)^T, W A the rows w_c a_c above.
  const Eigen::MatrixXd z_block = block + A * term.weights().asDiagonal() * A.transpose();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> spectrum(z_block);
  const double scale =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(block).eigenvalues().maxCoeff();
  EXPECT_GT(spectrum.eigenvalues().minCoeff(), -1e-10 * scale);
  // and the correction is real: ratios below 1 take stiffness away.
  EXPECT_LT(z_block.trace(), block.trace() - 1e-6 * scale);
}

TEST(EigenFitTerm, EnergyIsQuadraticInTheStretches) {
  const ReducedModel model = fitted_box(some_ratios());
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, baked_lame(model));
  const int C = model.cubature_count();
  std::mt19937 generator(3u);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (const double scale : {1e-3, 0.05, 0.3}) {
    StretchField z(6, C), dz(6, C);
    for (int c = 0; c < C; ++c) {
      for (int k = 0; k < 6; ++k) {
        z(k, c) = polar::identity_stretch<double>()(k) + scale * uniform(generator);
        dz(k, c) = uniform(generator);
      }
    }
    Eigen::VectorXd alpha;
    term.measure(z, alpha);
    double slope = 0.0;  // sum_c w_c e_c . dz_c
    for (int c = 0; c < C; ++c)
      slope += model.cubature_weights(c) * term.stress(c, alpha).dot(dz.col(c));
    const auto C_at = [&](double t) {
      Eigen::VectorXd a;
      term.measure(z + t * dz, a);
      return term.energy(a);
    };
    const double h = 1e-4;
    const double fd = (C_at(h) - C_at(-h)) / (2 * h);
    const double second = (C_at(h) - 2 * C_at(0.0) + C_at(-h)) / (h * h);
    // The curvature along dz: beta^T G beta with beta the measure's change.
    Eigen::VectorXd beta;
    term.measure(dz + polar::identity_stretch<double>().replicate(1, C), beta);
    const double curvature = beta.dot(term.weights().cwiseProduct(beta));
    EXPECT_NEAR(fd, slope, 1e-7 * (std::abs(slope) + std::abs(curvature)));
    EXPECT_NEAR(second, curvature, 1e-4 * std::abs(curvature));
  }
}

// C(s(F(u))) as FEM evaluates it.
double fem_energy(const EigenFitTerm& term, const ReducedModel& model, const Eigen::VectorXd& u) {
  Eigen::VectorXd alpha;
  term.measure(stretches(model, test::unflatten(u)), alpha);
  return term.energy(alpha);
}

TEST(EigenFitTerm, FemGradientAndHessianMatchFiniteDifferences) {
  const ReducedModel model = fitted_box(some_ratios());
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, baked_lame(model));
  parallel::ThreadPool pool(1);
  const int m = model.mode_count();
  const int r = model.reduced_size();
  std::mt19937 generator(11u);
  std::normal_distribution<double> normal;
  const std::vector<Eigen::MatrixXd> dF_du = deformation_jacobians(model);
  for (const double scale : {1e-3, 0.03, 0.15}) {
    const ReducedMatrix U = test::random_reduced(m, scale, static_cast<unsigned>(1e4 * scale) + 1);
    const Eigen::VectorXd u = test::flatten(U);
    linearize(term, model, U, pool);
    Eigen::VectorXd alpha;
    term.measure(stretches(model, U), alpha);
    // The gradient: B G alpha, and the exact Hessian: B G B^T + sum_c w_c (dF_c/du)^T
    // d2(e_c . s)/dF2 (dF_c/du).
    const Eigen::VectorXd gradient = term.coupling() * term.weights().cwiseProduct(alpha);
    Eigen::MatrixXd hessian = low_rank(term);
    for (int c = 0; c < model.cubature_count(); ++c) {
      const Matrix3<double> F =
          Matrix3<double>::Identity() + displacement_gradient(model.cubature_Y, c, U);
      const Matrix9<double> curvature =
          polar::d2stretch_dF2_contract(polar::signed_svd(F), term.stress(c, alpha));
      hessian += model.cubature_weights(c) * (dF_du[static_cast<std::size_t>(c)].transpose() *
                                              curvature * dF_du[static_cast<std::size_t>(c)]);
    }
    for (int trial = 0; trial < 4; ++trial) {
      Eigen::VectorXd direction(r);
      for (int k = 0; k < r; ++k) direction(k) = normal(generator);
      const double h = 1e-5;
      const double fd = (-fem_energy(term, model, u + 2 * h * direction) +
                         8 * fem_energy(term, model, u + h * direction) -
                         8 * fem_energy(term, model, u - h * direction) +
                         fem_energy(term, model, u - 2 * h * direction)) /
                        (12 * h);
      const double exact = gradient.dot(direction);
      EXPECT_NEAR(fd, exact, 1e-6 * std::abs(exact) + 1e-12) << "scale " << scale;
      // The Hessian along the direction against differences of the gradient (each from a
      // fresh linearization).
      const auto gradient_at = [&](const Eigen::VectorXd& v) {
        const ReducedMatrix V = test::unflatten(v);
        linearize(term, model, V, pool);
        Eigen::VectorXd a;
        term.measure(stretches(model, V), a);
        return Eigen::VectorXd(term.coupling() * term.weights().cwiseProduct(a));
      };
      const Eigen::VectorXd hd =
          (gradient_at(u + h * direction) - gradient_at(u - h * direction)) / (2 * h);
      const Eigen::VectorXd exact_hd = hessian * direction;
      EXPECT_LT((hd - exact_hd).norm(), 1e-5 * exact_hd.norm()) << "scale " << scale;
      linearize(term, model, U, pool);
    }
  }
}

SolverSettings settings_for(SolverMethod method, bool converged) {
  SolverSettings settings;
  settings.method = method;
  settings.material_model = MaterialModel::fixed_corotational;
  settings.timestep = 1.0 / 60.0;
  settings.gravity = Eigen::Vector3d(0.0, -9.81, 0.0);
  settings.iterations = converged ? 100 : 2;
  settings.until_converged = converged;
  settings.relative_tolerance = 1e-10;
  settings.absolute_tolerance = 0.0;
  return settings;
}

// A state that every step has work to do from: stretched and moving.
void start(Simulator& simulator) {
  const int m = simulator.model().mode_count();
  simulator.set_state(test::random_reduced(m, 0.04, 21u), test::random_reduced(m, 0.3, 22u));
}

TEST(EigenFitTerm, ConvergedMfemAndFemAgree) {
  const ReducedModel model = fitted_box(some_ratios());
  Simulator mfem(model, settings_for(SolverMethod::mfem, true), test::kThreads);
  Simulator fem(model, settings_for(SolverMethod::fem, true), test::kThreads);
  ASSERT_TRUE(mfem.eigen_fit_active());
  start(mfem);
  start(fem);
  const Eigen::MatrixXd& mass = model.mass_block;
  for (int step = 0; step < 10; ++step) {
    ASSERT_TRUE(mfem.step().stats.converged) << step;
    ASSERT_TRUE(fem.step().stats.converged) << step;
    const ReducedMatrix difference = mfem.coordinates() - fem.coordinates();
    const double norm =
        std::sqrt((fem.coordinates().transpose() * mass * fem.coordinates()).trace());
    EXPECT_LT(std::sqrt((difference.transpose() * mass * difference).trace()), 1e-6 * norm) << step;
    // The next step from the same state.
    fem.set_state(mfem.coordinates(), mfem.velocities());
  }
  // And the fit changed the motion (it is not a no-op).
  Simulator plain(make_box_model(test::small_box()).model, settings_for(SolverMethod::mfem, true),
                  test::kThreads);
  start(plain);
  Simulator fitted(model, settings_for(SolverMethod::mfem, true), test::kThreads);
  start(fitted);
  for (int step = 0; step < 10; ++step) {
    plain.step();
    fitted.step();
  }
  EXPECT_GT((plain.coordinates() - fitted.coordinates()).norm(), 1e-3 * plain.coordinates().norm());
}

void expect_same_runs(const ReducedModel& a, const ReducedModel& b, SolverSettings sa,
                      SolverSettings sb) {
  Simulator first(a, sa, test::kThreads);
  Simulator second(b, sb, test::kThreads);
  start(first);
  start(second);
  for (int step = 0; step < 30; ++step) {
    const StepReport& one = first.step();
    const StepReport& two = second.step();
    ASSERT_EQ(one.stats.iterations, two.stats.iterations) << step;
    ASSERT_EQ(one.stats.backtracks, two.stats.backtracks) << step;
    ASSERT_TRUE(first.coordinates() == second.coordinates()) << step;
    ASSERT_TRUE(first.velocities() == second.velocities()) << step;
    ASSERT_TRUE(first.stretches() == second.stretches()) << step;
    ASSERT_TRUE(first.multipliers() == second.multipliers()) << step;
    ASSERT_EQ(one.diagnostics.total_energy, two.diagnostics.total_energy) << step;
  }
}

TEST(EigenFitTerm, UnitRatiosGiveTheUncorrectedStepBitForBit) {
  const ReducedModel plain = make_box_model(test::small_box()).model;
  const ReducedModel unit = fitted_box(Eigen::Vector3d::Ones());
  for (const SolverMethod method : {SolverMethod::mfem, SolverMethod::fem}) {
    for (const bool converged : {false, true}) {
      SCOPED_TRACE(std::string(solver_method_name(method)) + (converged ? " converged" : " 2"));
      const SolverSettings settings = settings_for(method, converged);
      Simulator probe(unit, settings, 1);
      ASSERT_TRUE(probe.eigen_fit_active());
      expect_same_runs(plain, unit, settings, settings);
    }
  }
  // A real fit switched off is no fit.
  SolverSettings off = settings_for(SolverMethod::mfem, false);
  off.eigen_fit = false;
  expect_same_runs(plain, fitted_box(some_ratios()), off, off);
}

// The period of q(t) = U_1^T M u(t) from its zero crossings (linear interpolation), steps of h.
double measured_period(Simulator& simulator, const Eigen::VectorXd& mode, int steps) {
  const Eigen::MatrixXd M = reduced_mass(simulator.model());
  std::vector<double> crossings;
  double previous = mode.dot(M * test::flatten(simulator.coordinates()));
  for (int step = 0; step < steps; ++step) {
    simulator.step();
    const double q = mode.dot(M * test::flatten(simulator.coordinates()));
    if ((previous > 0.0) != (q > 0.0)) {
      crossings.push_back(simulator.time() - simulator.settings().timestep * q / (q - previous));
    }
    previous = q;
  }
  if (crossings.size() < 3) return 0.0;
  return 2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

TEST(EigenFitTerm, SmallVibrationSwingsAtTheFittedFrequency) {
  const Eigen::VectorXd ratios = Eigen::Vector2d(0.6, 1.5);
  const ReducedModel model = fitted_box(ratios);
  const EigenFitData& fit = model.eigenfit;
  for (const SolverMethod method : {SolverMethod::mfem, SolverMethod::fem}) {
    for (const bool on : {true, false}) {
      const double lambda = (on ? fit.ratios(0) : 1.0) * fit.coarse_eigenvalues(0);
      const double period = 2.0 * kPi / std::sqrt(lambda);
      SolverSettings settings = settings_for(method, true);
      settings.gravity.setZero();
      settings.timestep = period / 100.0;
      settings.eigen_fit = on;
      Simulator simulator(model, settings, test::kThreads);
      // A small amplitude: the mode's rest shape scaled to about 1e-4 of the body's size.
      const Eigen::VectorXd u = 1e-3 * fit.modes.col(0);
      simulator.set_state(test::unflatten(u), ReducedMatrix::Zero(u.size() / 3, 3));
      const double measured = measured_period(simulator, fit.modes.col(0), 350);
      // Implicit Euler lengthens the period by about (omega h)^2 / 3 = 0.13 %.
      EXPECT_NEAR(measured, period, 5e-3 * period)
          << solver_method_name(method) << (on ? " with" : " without") << " the fit";
    }
  }
}

// The re-linearized variant (EigenFit, Chen et al. 2019, §3.3).

TEST(EigenFitTerm, RelinearizedAtRestIsTheRestFit) {
  // Equal ratios: the fit does not depend on how degenerate modes are paired.
  const ReducedModel model = fitted_box(Eigen::Vector3d::Constant(0.6));
  const std::vector<Lame> lame = baked_lame(model);
  EigenFitTerm rest(model), relinearized(model);
  rest.update_materials(MaterialModel::fixed_corotational, lame);
  relinearized.update_materials(MaterialModel::fixed_corotational, lame);
  parallel::ThreadPool pool(test::kThreads);
  const int C = model.cubature_count();
  ASSERT_TRUE(relinearized.relinearize(ReducedMatrix::Zero(4 * model.mode_count(), 3),
                                       polar::identity_stretch<double>().replicate(1, C), pool));
  EXPECT_TRUE(relinearized.relinearized());
  std::mt19937 generator(5u);
  std::uniform_real_distribution<double> uniform(-0.05, 0.05);
  StretchField z(6, C);
  for (int c = 0; c < C; ++c) {
    for (int k = 0; k < 6; ++k) z(k, c) = polar::identity_stretch<double>()(k) + uniform(generator);
  }
  Eigen::VectorXd a, b;
  rest.measure(z, a);
  relinearized.measure(z, b);
  EXPECT_NEAR(relinearized.energy(b), rest.energy(a), 1e-9 * std::abs(rest.energy(a)));
  for (int c = 0; c < C; ++c) {
    EXPECT_LT((relinearized.stress(c, b) - rest.stress(c, a)).norm(),
              1e-9 * rest.stress(c, a).norm() + 1e-12);
  }
}

// A deformed state: U and z = s(F(U)).
struct Deformed {
  ReducedMatrix U;
  StretchField z;
};
Deformed deformed(const ReducedModel& model, double scale, unsigned seed) {
  Deformed state{test::random_reduced(model.mode_count(), scale, seed), {}};
  state.z = stretches(model, state.U);
  return state;
}

TEST(EigenFitTerm, RelinearizedTermMatchesItsDerivatives) {
  const ReducedModel model = fitted_box(some_ratios());
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, baked_lame(model));
  parallel::ThreadPool pool(1);
  const Deformed state = deformed(model, 0.02, 31u);
  ASSERT_TRUE(term.relinearize(state.U, state.z, pool));
  const int C = model.cubature_count();
  std::mt19937 generator(9u);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  StretchField z = state.z, dz(6, C);
  for (int c = 0; c < C; ++c) {
    for (int k = 0; k < 6; ++k) {
      z(k, c) += 0.01 * uniform(generator);
      dz(k, c) = uniform(generator);
    }
  }
  Eigen::VectorXd alpha, moved;
  term.measure(z, alpha);
  double slope = 0.0;
  for (int c = 0; c < C; ++c) {
    slope += model.cubature_weights(c) * term.stress(c, alpha).dot(dz.col(c));
  }
  const auto C_at = [&](double t) {
    Eigen::VectorXd m;
    term.measure(z + t * dz, m);
    return term.energy(m);
  };
  const double h = 1e-4;
  EXPECT_NEAR((C_at(h) - C_at(-h)) / (2 * h), slope, 1e-7 * std::abs(slope));
  term.measure(z + dz, moved);
  const Eigen::VectorXd beta = moved - alpha;
  EXPECT_NEAR(term.slope(alpha, beta), slope, 1e-9 * std::abs(slope));
  const double curvature = beta.dot(term.weights().cwiseProduct(beta));
  EXPECT_NEAR((C_at(h) - 2 * C_at(0.0) + C_at(-h)) / (h * h), curvature,
              1e-4 * std::abs(curvature));
}

TEST(EigenFitTerm, RelinearizedForceAndStiffnessAreEq15AtTheAnchor) {
  // Equal ratios, so that R - I = -0.4 I however the modes pair with the rest ones.
  const ReducedModel model = fitted_box(Eigen::Vector3d::Constant(0.6));
  const std::vector<Lame> lame = baked_lame(model);
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, lame);
  parallel::ThreadPool pool(1);
  const Deformed state = deformed(model, 0.03, 41u);
  ASSERT_TRUE(term.relinearize(state.U, state.z, pool));
  linearize(term, model, state.U, pool);
  Eigen::VectorXd alpha;
  term.measure(state.z, alpha);
  ASSERT_LT(alpha.norm(), 1e-14);  // the anchor
  // FEM's gradient of C at the anchor, B (G alpha + c), and its rank-s Hessian B G B^T.
  Eigen::VectorXd weights(term.mode_count());
  for (int i = 0; i < term.mode_count(); ++i) {
    Eigen::VectorXd unit = Eigen::VectorXd::Zero(term.mode_count());
    unit(i) = 1.0;
    weights(i) = term.slope(alpha, unit);
  }
  const Eigen::VectorXd gradient = term.coupling() * weights;
  // grad E = sum_c w_c (dF_c/du)^T J_c^T grad psi(s_c), through the same coupling machinery:
  // dE along each unit direction.
  const int r = model.reduced_size();
  Eigen::VectorXd grad_E(r);
  for (int k = 0; k < r; ++k) {
    Eigen::VectorXd unit = Eigen::VectorXd::Zero(r);
    unit(k) = 1.0;
    double sum = 0.0;
    for (int c = 0; c < model.cubature_count(); ++c) {
      const Matrix3<double> F =
          Matrix3<double>::Identity() + displacement_gradient(model.cubature_Y, c, state.U);
      const Matrix3<double> dF = displacement_gradient(model.cubature_Y, c, test::unflatten(unit));
      const Vector6<double> ds =
          polar::dstretch_dF(polar::signed_svd(F)) * Eigen::Map<const Vector9<double>>(dF.data());
      sum += model.cubature_weights(c) *
             ds.dot(dpsi_ds(MaterialModel::fixed_corotational, Vector6<double>(state.z.col(c)),
                            lame[static_cast<std::size_t>(c)]));
    }
    grad_E(k) = sum;
  }
  const Eigen::MatrixXd M = reduced_mass(model);
  const Eigen::MatrixXd& V = term.current_modes();
  const Eigen::VectorXd expected = -0.4 * (M * V * (V.transpose() * grad_E));
  EXPECT_LT((gradient - expected).norm(), 1e-8 * expected.norm());
  // The Hessian: M V (R - I) Lambda V^T M, Lambda = V^T K_t V = diag(lambda). B is K_t V P, P
  // the rotation that diagonalizes G: any orthogonal P where lambda has repeated values (the
  // box's symmetric pairs), which rounding picks differently natively and in wasm. So Lambda is
  // read off P-free: (V^T B)(V^T B)^T = Lambda P P^T Lambda = Lambda^2.
  const Eigen::MatrixXd VtB = V.transpose() * term.coupling();
  const Eigen::MatrixXd lambda =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(VtB * VtB.transpose()).operatorSqrt();
  const Eigen::MatrixXd hessian_expected = -0.4 * (M * V * lambda * V.transpose() * M);
  EXPECT_LT((low_rank(term) - hessian_expected).norm(), 1e-8 * hessian_expected.norm());
}

TEST(EigenFitTerm, TangledModesFallBackToTheRestFit) {
  // A bar thinner in y than in z: its lowest mode bends it in y. Turned by a quarter about z it
  // bends in x: no longer the rest mode (cosine about 0), where a tenth of that turn keeps it.
  BoxModelOptions options = test::small_box();
  options.upper = Eigen::Vector3d(1.2, 0.05, 0.5);
  const ReducedModel model =
      test::with_eigenfit(make_box_model(options).model, Eigen::VectorXd::Constant(1, 0.7));
  EigenFitTerm term(model);
  term.update_materials(MaterialModel::fixed_corotational, baked_lame(model));
  parallel::ThreadPool pool(1);
  const auto turned = [&](double angle) {
    // Mode 0's weight is 1 everywhere: u_d[k] = A_0(d, k) moves every point by (R - I) X.
    const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    ReducedMatrix U = ReducedMatrix::Zero(4 * model.mode_count(), 3);
    U.topRows<3>() = (R - Eigen::Matrix3d::Identity()).transpose();
    return U;
  };
  const int C = model.cubature_count();
  const StretchField rest_z = polar::identity_stretch<double>().replicate(1, C);
  EXPECT_TRUE(term.relinearize(turned(0.157), stretches(model, turned(0.157)), pool));
  EXPECT_FALSE(term.relinearize(turned(1.5708), stretches(model, turned(1.5708)), pool));
  EXPECT_FALSE(term.relinearized());
  EXPECT_EQ(term.current_modes(), model.eigenfit.modes);
  (void)rest_z;
}

TEST(EigenFitTerm, RelinearizedConvergedMfemAndFemAgree) {
  const ReducedModel model = fitted_box(some_ratios());
  SolverSettings mfem_settings = settings_for(SolverMethod::mfem, true);
  SolverSettings fem_settings = settings_for(SolverMethod::fem, true);
  mfem_settings.eigen_fit_relinearized = fem_settings.eigen_fit_relinearized = true;
  Simulator mfem(model, mfem_settings, test::kThreads);
  Simulator fem(model, fem_settings, test::kThreads);
  start(mfem);
  start(fem);
  const Eigen::MatrixXd& mass = model.mass_block;
  for (int step = 0; step < 8; ++step) {
    ASSERT_TRUE(mfem.step().stats.converged) << step;
    ASSERT_TRUE(fem.step().stats.converged) << step;
    EXPECT_FALSE(mfem.last_report().eigen_fit_tangled) << step;
    const ReducedMatrix difference = mfem.coordinates() - fem.coordinates();
    const double norm =
        std::sqrt((fem.coordinates().transpose() * mass * fem.coordinates()).trace());
    EXPECT_LT(std::sqrt((difference.transpose() * mass * difference).trace()), 1e-6 * norm) << step;
    fem.set_state(mfem.coordinates(), mfem.velocities());
    mfem.set_state(mfem.coordinates(), mfem.velocities());  // z = s(F(u)): the same anchor
  }
}

}  // namespace
}  // namespace smfem::sim
