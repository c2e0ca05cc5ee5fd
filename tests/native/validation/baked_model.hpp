#pragma once
// Bakes a scene recipe in process (the smfem-bake pipeline: recipe, stuffing, eigenmodes,
// cubature, asset bytes) and reads it back the way the stepper does, so that the validation
// tests run the solver on real skinning subspaces, pins and loads.
#include <string>

#include <nlohmann/json.hpp>

#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::test {

sim::ReducedModel bake_recipe(const std::string& name, const nlohmann::json& recipe);

}  // namespace smfem::test
