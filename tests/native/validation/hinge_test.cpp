// The paper's central claim, measured on a baked hinge (Subspace MFEM, Trusty et al. 2023, §7 and
// Fig. 9; the crab's situation): stiff blocks (1e10 Pa) joined by a thin soft joint (1e5 Pa), one
// block pinned, the other swinging down under gravity. With 2 iterations per step, mixed FEM keeps
// the converged trajectory's angular momentum far better than FEM with 2; at 1 and 2 iterations it
// neither blows up nor stalls. Every figure is printed, so a regression shows what changed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/sim/simulator.hpp"
#include "validation/baked_model.hpp"

namespace smfem::sim {
namespace {

constexpr int kThreads = 2;
constexpr double kTimestep = 1.0 / 60.0;
constexpr int kSteps = 90;  // 1.5 s: the block swings down and back

nlohmann::json hinge_recipe() {
  const auto box = [](double x, double half_x, double half_y, double half_z) {
    return nlohmann::json{
        {"box", {{"center", {x, 0.0, 0.0}}, {"half_extents", {half_x, half_y, half_z}}}}};
  };
  return {
      {"name", "hinge"},
      {"description", "Two stiff blocks joined by a thin soft slab; the left one pinned."},
      {"geometry",
       {{"union",
         {box(-0.3, 0.2, 0.1, 0.1), box(-0.05, 0.05, 0.035, 0.08), box(0.2, 0.2, 0.1, 0.1)}}}},
      {"resolution", {{"target_tets", 6000}}},
      {"materials",
       {{{"name", "joint"},
         {"youngs", 1e5},
         {"poisson", 0.45},
         {"density", 1000},
         {"where", box(-0.05, 0.05, 0.5, 0.5)}},
        {{"name", "stiff"}, {"youngs", 1e10}, {"poisson", 0.3}, {"density", 1000}}}},
      {"pins", {{{"where", box(-0.5, 0.01, 1.0, 1.0)}}}},
      {"subspace", {{"modes", 12}, {"cubature", 120}}},
      {"solver",
       {{"method", "mfem"},
        {"iterations", 2},
        {"timestep", kTimestep},
        {"gravity", {0.0, -9.8, 0.0}},
        {"material_model", "fcr"}}},
  };
}

const ReducedModel& hinge() {
  static const ReducedModel model = test::bake_recipe("hinge", hinge_recipe());
  return model;
}

struct Trajectory {
  std::vector<double> angular_momentum;  // about z, the swing's axis
  std::vector<double> kinetic_energy;
  int iterations = 0;
  bool ok = true;
};

// float_K: the stiffness assembled in single precision (the fast option for real time).
Trajectory run(SolverMethod method, int iterations, bool converged, bool float_K = false) {
  SolverSettings settings = hinge().defaults;
  settings.method = method;
  settings.single_precision_stiffness = float_K;
  settings.iterations = converged ? 200 : iterations;
  settings.until_converged = converged;
  settings.relative_tolerance = 1e-9;
  settings.absolute_tolerance = 1e-20;
  Simulator simulator(hinge(), settings, kThreads);
  Trajectory out;
  for (int step = 0; step < kSteps; ++step) {
    const StepReport& report = simulator.step();
    out.ok = out.ok && report.ok;
    out.iterations += report.stats.iterations;
    out.angular_momentum.push_back(report.diagnostics.angular_momentum.z());
    out.kinetic_energy.push_back(report.diagnostics.kinetic_energy);
  }
  return out;
}

const Trajectory& reference() {
  static const Trajectory trajectory = run(SolverMethod::mfem, 0, true);
  return trajectory;
}

// RMS over the steps of the difference to the converged angular momentum, relative to the
// latter's peak.
double angular_momentum_error(const Trajectory& t) {
  const std::vector<double>& L = reference().angular_momentum;
  double sum = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < L.size(); ++i) {
    sum += (t.angular_momentum[i] - L[i]) * (t.angular_momentum[i] - L[i]);
    peak = std::max(peak, std::abs(L[i]));
  }
  return std::sqrt(sum / static_cast<double>(L.size())) / peak;
}

double peak(const std::vector<double>& values) {
  return *std::max_element(values.begin(), values.end());
}

// Also with K in single precision for both solvers: the claim must survive the fast option.
TEST(Hinge, MixedFemKeepsTheConvergedAngularMomentumBetterThanFemAtTwoIterations) {
  ASSERT_TRUE(reference().ok);
  for (const bool float_K : {false, true}) {
    const Trajectory mixed = run(SolverMethod::mfem, 2, false, float_K);
    const Trajectory standard = run(SolverMethod::fem, 2, false, float_K);
    ASSERT_TRUE(mixed.ok && standard.ok) << "float K " << float_K;
    const double mixed_error = angular_momentum_error(mixed);
    const double standard_error = angular_momentum_error(standard);
    std::printf(
        "hinge, 2 iterations per step%s: angular momentum error (RMS / peak) MFEM %.4f, "
        "FEM %.4f; converged run: %.1f iterations per step\n",
        float_K ? ", float K" : "", mixed_error, standard_error,
        double(reference().iterations) / kSteps);
    EXPECT_LT(2.0 * mixed_error, standard_error)
        << "MFEM " << mixed_error << ", FEM " << standard_error << ", float K " << float_K;
  }
}

TEST(Hinge, MixedFemAtOneAndTwoIterationsNeitherBlowsUpNorStalls) {
  ASSERT_TRUE(reference().ok);
  const double converged_peak = peak(reference().kinetic_energy);
  for (const int iterations : {1, 2}) {
    for (const bool float_K : {false, true}) {
      const Trajectory mixed = run(SolverMethod::mfem, iterations, false, float_K);
      ASSERT_TRUE(mixed.ok) << iterations << " iterations, float K " << float_K;
      const double mixed_peak = peak(mixed.kinetic_energy);
      // Stalling: the block stops swinging while the converged one still moves.
      double late_mixed = 0.0, late_reference = 0.0;
      for (int i = kSteps / 2; i < kSteps; ++i) {
        late_mixed += mixed.kinetic_energy[static_cast<std::size_t>(i)];
        late_reference += reference().kinetic_energy[static_cast<std::size_t>(i)];
      }
      std::printf(
          "hinge, MFEM %d iterations%s: peak kinetic energy %.4g J (converged %.4g J); "
          "second half %.4g J (converged %.4g J)\n",
          iterations, float_K ? ", float K" : "", mixed_peak, converged_peak, late_mixed,
          late_reference);
      EXPECT_LT(mixed_peak, 1.25 * converged_peak)
          << iterations << " iterations, float K " << float_K;
      EXPECT_GT(late_mixed, 0.5 * late_reference)
          << iterations << " iterations, float K " << float_K;
    }
  }
}

}  // namespace
}  // namespace smfem::sim
