#pragma once
// A scene baked in process (the smfem-bake pipeline: input, stuffing, eigenmodes, cubature,
// asset bytes) and read back both ways the solvers read an asset: the skinning subspace model
// and the full tet mesh (smfem-bake --full-mesh), with the subspace's basis at the tet-mesh
// vertices, so that subspace and full-space states compare vertex by vertex. For the
// validation tests and the report's studies (subspace_study.hpp).
#include <filesystem>

#include <Eigen/Core>

#include "smfem/bake/bake_input.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::study {

struct BakedScene {
  sim::ReducedModel reduced;
  full::FullModel full;
  Eigen::MatrixXd vertex_basis;  // n x 4m, row v = b_v^T: vertex v moves by U^T b_v
  double bake_seconds = 0.0;
};

// Bakes `input` (a recipe or mesh file) with `settings` (full_mesh is forced on), with the
// EigenFit stage where settings or the recipe ask for it. Throws what the bake throws for bad
// input.
BakedScene bake_scene(const std::filesystem::path& input, bake::BakeSettings settings);

}  // namespace smfem::study
