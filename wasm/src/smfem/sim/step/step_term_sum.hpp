#pragma once
// Two terms of Psi_u beside inertia (discretization.hpp: StepContact) handed to the steps as one:
// their energies, gradients and curvatures summed, the step bounded by the stricter CCD. A body
// with local patches steps with its correction and its contact at once
// (local/local_deformations.hpp).
#include <algorithm>

#include "smfem/sim/step/discretization.hpp"

namespace smfem::sim {

class StepTermSum final : public StepContact {
 public:
  // Neither is owned; both must outlive this.
  StepTermSum(StepContact& first, StepContact& second) : first_(first), second_(second) {}

  void linearize(const ReducedMatrix& U, ReducedMatrix& gradient) override {
    first_.linearize(U, gradient);
    second_.linearize(U, second_gradient_);
    gradient += second_gradient_;
  }
  double curvature(const ReducedMatrix& dU) const override {
    return first_.curvature(dU) + second_.curvature(dU);
  }
  double max_step(const ReducedMatrix& U, const ReducedMatrix& dU) override {
    // Both gather their pairs for energy_along.
    const double first = first_.max_step(U, dU);
    return std::min(first, second_.max_step(U, dU));
  }
  double energy_along(double alpha, const ReducedMatrix& U_trial) override {
    return first_.energy_along(alpha, U_trial) + second_.energy_along(alpha, U_trial);
  }

 private:
  StepContact& first_;
  StepContact& second_;
  ReducedMatrix second_gradient_;
};

}  // namespace smfem::sim
