#pragma once
// The tets the steps see on a body with patches (patch_set.hpp): its C cubature tets, reading the
// global rows of the extended U only, then the patch set's tets.
#include "smfem/local/patch_set.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::local {

class ExtendedDeformation final : public sim::TetDeformation {
 public:
  // Neither is owned. model: a single body's.
  ExtendedDeformation(const sim::ReducedModel& model, const PatchSet& patches)
      : model_(model), patches_(patches) {}
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
