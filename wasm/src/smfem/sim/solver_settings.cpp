#include "smfem/sim/solver_settings.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>

#include "smfem/json/json_text.hpp"

namespace smfem::sim {
namespace {

template <class T>
std::string format(T value) {
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

template <class T>
void clamp_into(T& value, T low, T high, T fallback, std::string_view what,
                std::vector<std::string>& warnings) {
  T clamped = value;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value)) clamped = fallback;
  }
  clamped = std::clamp(clamped, low, high);
  if (clamped != value) {
    warnings.push_back(std::string(what) + " " + format(value) + " is outside [" + format(low) +
                       ", " + format(high) + "]; using " + format(clamped));
    value = clamped;
  }
}

}  // namespace

std::string_view solver_method_name(SolverMethod method) {
  return method == SolverMethod::mfem ? "mfem" : "fem";
}

std::optional<SolverMethod> solver_method_from_name(std::string_view name) {
  if (name == "mfem") return SolverMethod::mfem;
  if (name == "fem") return SolverMethod::fem;
  return std::nullopt;
}

std::string_view mixed_variant_name(MixedVariant variant) {
  switch (variant) {
    case MixedVariant::paper:
      return "paper";
    case MixedVariant::projected:
      return "projected";
    case MixedVariant::curvature:
      break;
  }
  return "curvature";
}

std::optional<MixedVariant> mixed_variant_from_name(std::string_view name) {
  for (const MixedVariant variant :
       {MixedVariant::paper, MixedVariant::projected, MixedVariant::curvature}) {
    if (name == mixed_variant_name(variant)) return variant;
  }
  return std::nullopt;
}

SolverSettings clamp_settings(const SolverSettings& settings, std::vector<std::string>& warnings) {
  const SolverSettings defaults;
  SolverSettings out = settings;
  clamp_into(out.timestep, kMinTimestep, kMaxTimestep, defaults.timestep, "timestep", warnings);
  clamp_into(out.iterations, kMinIterations, kMaxIterations, defaults.iterations, "iterations",
             warnings);
  clamp_into(out.relative_tolerance, 0.0, 1.0, defaults.relative_tolerance, "relative tolerance",
             warnings);
  clamp_into(out.absolute_tolerance, 0.0, 1e300, defaults.absolute_tolerance, "absolute tolerance",
             warnings);
  clamp_into(out.max_backtracks, 0, kMaxBacktracks, defaults.max_backtracks, "max backtracks",
             warnings);
  if (!out.gravity.allFinite()) {
    warnings.push_back("gravity is not finite; using the default");
    out.gravity = defaults.gravity;
  } else if (const double length = out.gravity.norm(); length > kMaxGravity) {
    // Its direction kept: beyond this no contact holds a body (the barrier cannot carry
    // 1e12 m/s^2) and a step is all gravity.
    out.gravity *= kMaxGravity / length;
    warnings.push_back("gravity " + format(length) + " m/s^2 is beyond " + format(kMaxGravity) +
                       "; using " + format(kMaxGravity) + " in the same direction");
  }
  return out;
}

void clamp_material(double& youngs, double& poisson, std::string_view what,
                    std::vector<std::string>& warnings) {
  const double youngs_fallback = std::isnan(youngs) ? kMinYoungs
                                 : youngs > 0.0     ? kMaxYoungs
                                                    : kMinYoungs;
  clamp_into(youngs, kMinYoungs, kMaxYoungs, youngs_fallback,
             std::string(what) + ": Young's modulus", warnings);
  clamp_into(poisson, kMinPoisson, kMaxPoisson, 0.3, std::string(what) + ": Poisson's ratio",
             warnings);
}

std::string limits_wanted(double least, double most, std::string_view unit) {
  return "must lie in [" + json::format_number(least) + ", " + json::format_number(most) + "]" +
         (unit.empty() ? "" : " ") + std::string(unit);
}

std::string whole_limits_wanted(int least, int most) {
  return "must be a whole number in [" + std::to_string(least) + ", " + std::to_string(most) + "]";
}

std::string outside_limits(double value, double least, double most, std::string_view unit) {
  if (value >= least && value <= most) return {};
  return limits_wanted(least, most, unit) + ", not " + json::format_number(value);
}

std::string outside_whole_limits(double value, int least, int most) {
  if (value >= least && value <= most && std::floor(value) == value) return {};
  return whole_limits_wanted(least, most) + ", not " + json::format_number(value);
}

std::string gravity_outside_limits(const Eigen::Vector3d& gravity) {
  const double length = gravity.norm();
  if (length <= kMaxGravity) return {};  // false for NaN
  // The length is computed, not typed: six digits of it, as format() gives.
  return "must be at most " + json::format_number(kMaxGravity) + " m/s^2 long, not " +
         format(length);
}

}  // namespace smfem::sim
