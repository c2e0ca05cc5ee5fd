#include "smfem/claims/scene_claims.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "smfem/sim/simulator.hpp"

namespace smfem::claims {
namespace {

using nlohmann::json;

// The claims, with the margins they are checked at.
constexpr double kPeakKineticLimit = 1.25;  // MFEM never blows up: peak KE / converged peak
constexpr double kLateKineticFloor = 0.5;   // MFEM never stalls: late KE / converged late KE
constexpr double kAgreementLimit = 1e-6;    // converged MFEM = converged FEM
// MFEM at 2 iterations keeps L at least as well as FEM at 2; errors below this are both exact.
constexpr double kAngularMomentumSlack = 1e-4;
constexpr double kEnergyExcessLimit = 0.05;  // stability: energy gained beyond the loads' work

// The spec's solver settings over the model's defaults.
sim::SolverSettings settings_for(const sim::ReducedModel& model, const RunSpec& spec) {
  sim::SolverSettings settings = model.defaults;
  settings.method = spec.method;
  settings.mixed_variant = spec.variant;
  settings.timestep = spec.timestep;
  settings.until_converged = spec.iterations == 0;
  settings.iterations = spec.iterations == 0 ? kConvergedIterations : spec.iterations;
  settings.relative_tolerance = kConvergedTolerance;
  settings.energy_check = spec.energy_check;
  return settings;
}

double mean_of_last_quarter(const std::vector<double>& values) {
  const std::size_t begin = values.size() - values.size() / 4;
  double sum = 0.0;
  for (std::size_t n = begin; n < values.size(); ++n) sum += values[n];
  return sum / static_cast<double>(std::max<std::size_t>(values.size() - begin, 1));
}

double max_of(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

json run_json(const Run& run) {
  return {{"label", run.spec.label()},
          {"solver", std::string(sim::solver_method_name(run.spec.method))},
          {"variant", run.spec.method == sim::SolverMethod::mfem
                          ? json(std::string(sim::mixed_variant_name(run.spec.variant)))
                          : json(nullptr)},
          {"iterations", run.spec.iterations},
          {"timestep", run.spec.timestep},
          {"steps", run.spec.steps},
          {"failedSteps", run.failed_steps},
          {"retriedSteps", run.retried_steps},
          {"iterationsPerStep", run.iterations_per_step},
          {"backtracksPerStep", run.backtracks_per_step},
          {"energyExcess", run.energy_excess},
          {"wallMs", run.wall_ms}};
}

}  // namespace

std::string RunSpec::label() const {
  std::string out(sim::solver_method_name(method));
  if (method == sim::SolverMethod::mfem) out += "-" + std::string(sim::mixed_variant_name(variant));
  out += iterations == 0 ? "-converged" : "-" + std::to_string(iterations);
  return out;
}

namespace {

// Accumulates one run's record step by step.
class Recorder {
 public:
  explicit Recorder(const RunSpec& spec) : start_(std::chrono::steady_clock::now()) {
    run_.spec = spec;
  }

  void record(const sim::Simulator& simulator, const sim::StepReport& report) {
    run_.failed_steps += report.ok ? 0 : 1;
    run_.retried_steps += report.retries > 0 ? 1 : 0;
    iterations_ += report.stats.iterations;
    backtracks_ += report.stats.backtracks;
    if (report.ok) cumulative_gain_ += report.energy_gain;
    worst_gain_ = std::max(worst_gain_, cumulative_gain_);
    const sim::Diagnostics& d = simulator.diagnostics();
    peak_energy_ =
        std::max(peak_energy_, d.kinetic_energy + std::abs(d.elastic_energy) + d.spring_energy);
    run_.angular_momentum.push_back(d.angular_momentum);
    run_.kinetic.push_back(d.kinetic_energy);
    const sim::ReducedMatrix& U = simulator.coordinates();
    run_.coordinates.emplace_back(Eigen::Map<const Eigen::VectorXd>(U.data(), U.size()));
  }

  Run finish() {
    const double steps = std::max(static_cast<double>(run_.kinetic.size()), 1.0);
    run_.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count();
    run_.iterations_per_step = static_cast<double>(iterations_) / steps;
    run_.backtracks_per_step = static_cast<double>(backtracks_) / steps;
    run_.energy_excess = worst_gain_ / std::max(peak_energy_, 1e-300);
    return std::move(run_);
  }

 private:
  Run run_;
  std::chrono::steady_clock::time_point start_;
  double cumulative_gain_ = 0.0, worst_gain_ = 0.0, peak_energy_ = 0.0;
  long iterations_ = 0, backtracks_ = 0;
};

}  // namespace

Run run(const sim::ReducedModel& model, const RunSpec& spec, int threads) {
  sim::Simulator simulator(model, settings_for(model, spec), threads);
  Recorder recorder(spec);
  for (int n = 0; n < spec.steps; ++n) recorder.record(simulator, simulator.step());
  return recorder.finish();
}

ConvergedRuns converged_runs(const sim::ReducedModel& model, int steps, int threads) {
  const RunSpec mfem_spec{
      sim::SolverMethod::mfem, sim::MixedVariant::curvature, 0, kAccuracyTimestep, steps, false};
  RunSpec fem_spec = mfem_spec;
  fem_spec.method = sim::SolverMethod::fem;
  sim::Simulator mfem(model, settings_for(model, mfem_spec), threads);
  sim::Simulator fem(model, settings_for(model, fem_spec), threads);
  Recorder mfem_recorder(mfem_spec), fem_recorder(fem_spec);
  // The mass norm |U|_M^2 = sum_d U_d^T mass_block U_d: the RMS displacement of the body's
  // material (times its mass), whatever the scale of the coordinates of each mode.
  const auto mass_norm = [&](const sim::ReducedMatrix& U) {
    return std::sqrt((U.transpose() * model.mass_block * U).trace());
  };
  double difference = 0.0, size = 0.0;
  for (int n = 0; n < steps; ++n) {
    fem.restore(mfem.snapshot());
    mfem_recorder.record(mfem, mfem.step());
    fem_recorder.record(fem, fem.step());
    difference = std::max(difference, mass_norm(mfem.coordinates() - fem.coordinates()));
    size = std::max(size, mass_norm(mfem.coordinates()));
  }
  return {mfem_recorder.finish(), fem_recorder.finish(), difference / std::max(size, 1e-300)};
}

Comparison compare(const Run& run, const Run& reference) {
  Comparison out;
  double peak_reference_momentum = 0.0, squared_error = 0.0;
  const std::size_t steps = std::min(run.kinetic.size(), reference.kinetic.size());
  for (std::size_t n = 0; n < steps; ++n) {
    peak_reference_momentum =
        std::max(peak_reference_momentum, reference.angular_momentum[n].norm());
    squared_error += (run.angular_momentum[n] - reference.angular_momentum[n]).squaredNorm();
  }
  out.angular_momentum_error =
      std::sqrt(squared_error / static_cast<double>(std::max<std::size_t>(steps, 1))) /
      std::max(peak_reference_momentum, 1e-300);
  const double reference_peak = max_of(reference.kinetic);
  out.peak_kinetic_ratio = max_of(run.kinetic) / std::max(reference_peak, 1e-300);
  const double reference_late = mean_of_last_quarter(reference.kinetic);
  out.late_kinetic_ratio = mean_of_last_quarter(run.kinetic) / std::max(reference_late, 1e-300);
  out.reference_moves_late = reference_late > kStillFraction * reference_peak;
  return out;
}

json evaluate_scene(const std::string& name, const sim::ReducedModel& model,
                    const SceneOptions& options) {
  using sim::MixedVariant;
  using sim::SolverMethod;
  const int steps = options.quick ? kQuickAccuracySteps : kAccuracySteps;
  const auto spec = [&](SolverMethod method, MixedVariant variant, int iterations) {
    return RunSpec{method, variant, iterations, kAccuracyTimestep, steps, false};
  };
  const ConvergedRuns converged = converged_runs(model, steps, options.threads);
  const Run& reference = converged.mfem;

  std::vector<RunSpec> truncated;
  for (const int iterations : {1, 2}) {
    truncated.push_back(spec(SolverMethod::mfem, MixedVariant::curvature, iterations));
    if (!options.quick || iterations == 2) {
      truncated.push_back(spec(SolverMethod::mfem, MixedVariant::paper, iterations));
    }
    if (!options.quick && iterations == 2) {
      truncated.push_back(spec(SolverMethod::mfem, MixedVariant::projected, iterations));
    }
    truncated.push_back(spec(SolverMethod::fem, MixedVariant::curvature, iterations));
  }

  json out = {{"scene", name},
              {"modes", model.mode_count()},
              {"cubature", model.cubature_count()},
              {"material", std::string(sim::material_model_name(model.defaults.material_model))},
              {"runs", json::array({run_json(reference), run_json(converged.fem)})}};
  json& verdicts = out["verdicts"] = json::object();
  out["agreement"] = converged.agreement;
  verdicts["convergedAgree"] = converged.agreement <= kAgreementLimit;

  json errors = json::object();
  bool no_blow_up = true, no_stall = true;
  for (const RunSpec& s : truncated) {
    const Run r = run(model, s, options.threads);
    const Comparison c = compare(r, reference);
    json entry = run_json(r);
    entry["angularMomentumError"] = c.angular_momentum_error;
    entry["peakKineticRatio"] = c.peak_kinetic_ratio;
    entry["lateKineticRatio"] = c.reference_moves_late ? json(c.late_kinetic_ratio) : json(nullptr);
    out["runs"].push_back(entry);
    errors[s.label()] = c.angular_momentum_error;
    if (s.method == SolverMethod::mfem && s.variant == MixedVariant::curvature) {
      no_blow_up = no_blow_up && c.peak_kinetic_ratio <= kPeakKineticLimit && r.failed_steps == 0;
      no_stall = no_stall && (!c.reference_moves_late || c.late_kinetic_ratio >= kLateKineticFloor);
    }
  }
  verdicts["mfem2KeepsMomentum"] = errors["mfem-curvature-2"].get<double>() <=
                                   errors["fem-2"].get<double>() + kAngularMomentumSlack;
  verdicts["paperMfem2KeepsMomentum"] =
      errors["mfem-paper-2"].get<double>() <= errors["fem-2"].get<double>() + kAngularMomentumSlack;
  verdicts["mfemNoBlowUp"] = no_blow_up;
  verdicts["mfemNoStall"] = no_stall;

  if (!options.quick) {
    json stability = json::array();
    bool stable = true;
    for (const double timestep : kStabilityTimesteps) {
      for (const SolverMethod method : {SolverMethod::mfem, SolverMethod::fem}) {
        for (const int iterations : {1, 2}) {
          const Run r = run(
              model,
              RunSpec{method, MixedVariant::curvature, iterations, timestep, kStabilitySteps, true},
              options.threads);
          stability.push_back(run_json(r));
          stable = stable && r.failed_steps == 0 && r.energy_excess <= kEnergyExcessLimit;
        }
      }
    }
    out["stability"] = stability;
    verdicts["stable"] = stable;
  }
  return out;
}

json convergence_study(const sim::ReducedModel& model, const ConvergenceOptions& options) {
  const auto material =
      std::find_if(model.materials.begin(), model.materials.end(),
                   [&](const sim::MaterialRegion& m) { return m.name == options.region; });
  if (material == model.materials.end()) {
    throw std::invalid_argument(model.source + ": no material named " + options.region);
  }
  const std::uint32_t stiff_region = material->region;
  const int iterations = options.iterations;
  const int threads = options.threads;
  double softest = 0.0;
  for (int c = 0; c < model.cubature_count(); ++c) {
    if (model.cubature_region[static_cast<std::size_t>(c)] == stiff_region) continue;
    const double youngs = model.cubature_youngs(c);
    softest = softest == 0.0 ? youngs : std::min(softest, youngs);
  }
  json out = {{"stiffRegion", stiff_region},
              {"softYoungs", softest},
              {"iterations", iterations},
              {"ratios", json::array()}};
  for (const double ratio : options.ratios) {
    sim::ReducedModel varied = model;
    for (int c = 0; c < varied.cubature_count(); ++c) {
      if (varied.cubature_region[static_cast<std::size_t>(c)] == stiff_region) {
        varied.cubature_youngs(c) = ratio * softest;
      }
    }
    // The deformed start: the loads applied by converged steps.
    sim::SolverSettings settings =
        settings_for(varied, RunSpec{sim::SolverMethod::mfem, sim::MixedVariant::curvature, 0,
                                     varied.defaults.timestep, 0, true});
    sim::Simulator simulator(varied, settings, threads);
    // A failed step does not advance time: give up on a start that cannot be reached.
    while (simulator.time() < options.load_time) {
      if (!simulator.step().ok) throw std::runtime_error("convergence study: loading step failed");
    }
    const sim::SimulatorState start = simulator.snapshot();

    json entry = {{"ratio", ratio}};
    for (const auto& [method, variant] :
         {std::pair{sim::SolverMethod::fem, sim::MixedVariant::curvature},
          std::pair{sim::SolverMethod::mfem, sim::MixedVariant::paper},
          std::pair{sim::SolverMethod::mfem, sim::MixedVariant::curvature}}) {
      // Iteration k's decrement, from a step of exactly k iterations (the solvers are
      // deterministic, so it is the k-th decrement of one longer step).
      json decrements = json::array();
      bool failed = false;
      for (int k = 1; k <= iterations; ++k) {
        sim::SolverSettings truncated = settings;
        truncated.method = method;
        truncated.mixed_variant = variant;
        truncated.until_converged = false;
        truncated.iterations = k;
        truncated.energy_check = false;
        simulator.set_settings(truncated);
        simulator.restore(start);
        const sim::StepReport& report = simulator.step();
        failed = !report.ok;
        if (failed || report.stats.iterations < k) break;  // failed, or converged earlier
        decrements.push_back(report.stats.decrement);
      }
      std::string label(sim::solver_method_name(method));
      if (method == sim::SolverMethod::mfem)
        label += "-" + std::string(sim::mixed_variant_name(variant));
      entry[label] = decrements;
      if (failed) entry["failed"].push_back(label);
    }
    out["ratios"].push_back(entry);
  }
  return out;
}

}  // namespace smfem::claims
