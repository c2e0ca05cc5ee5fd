#pragma once
// The tets the steps see on a body with patches (patch_set.hpp): its C cubature tets, reading the
// global rows of the extended U only, then the patch set's tets.
#include <stdexcept>
#include <string>

#include "smfem/local/patch_set.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::local {

class ExtendedDeformation final : public sim::TetDeformation {
 public:
  // Neither is owned. model: a single body's, 4m = patches.global_rows(); throws
  // std::invalid_argument otherwise.
  ExtendedDeformation(const sim::ReducedModel& model, const PatchSet& patches)
      : model_(model), patches_(patches) {
    if (model.bodies.size() > 1 || sim::cubature_width(model) != patches.global_rows()) {
      throw std::invalid_argument("ExtendedDeformation: patches on a single body of 4m = " +
                                  std::to_string(sim::cubature_width(model)) + " global rows");
    }
  }
  Matrix3<double> displacement_gradient(int tet, const sim::ReducedMatrix& U) const override {
    const int C = model_.cubature_count();
    if (tet < C) {
      return sim::displacement_gradient(model_.cubature_Y, tet, U, 0, patches_.global_rows());
    }
    return patches_.displacement_gradient(tet - C, U);
  }

 private:
  const sim::ReducedModel& model_;
  const PatchSet& patches_;
};

}  // namespace smfem::local
