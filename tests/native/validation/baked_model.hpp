#pragma once
// Bakes a scene recipe in process (the smfem-bake pipeline: recipe, stuffing, eigenmodes,
// cubature, asset bytes) and reads it back the way the stepper does, so that the validation
// tests run the solver on real skinning subspaces, pins and loads.
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "smfem/full/full_model.hpp"
#include "smfem/sim/reduced_model.hpp"

namespace smfem::test {

sim::ReducedModel bake_recipe(const std::string& name, const nlohmann::json& recipe);

// A bake with the full mesh (smfem-bake --full-mesh): both models read from the same asset,
// and the subspace's basis at the tet-mesh vertices (n x 4m, row v = b_v^T, so that vertex v
// moves by U^T b_v), for comparing subspace and full-space states vertex by vertex.
struct BakedScene {
  sim::ReducedModel reduced;
  full::FullModel full;
  Eigen::MatrixXd vertex_basis;
};

BakedScene bake_scene(const std::string& name, const nlohmann::json& recipe);

}  // namespace smfem::test
