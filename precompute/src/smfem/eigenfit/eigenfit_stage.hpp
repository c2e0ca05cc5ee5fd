#pragma once
// The EigenFit stage of the bake (Chen et al. 2019; the stepper's side is
// sim/step/eigenfit_term.hpp): the coarse model's leading vibration modes at rest, as the stepper
// sees them (its subspace and its cubature, sim/eigenfit.hpp), matched to a fine mesh's
// (fine_spectrum.hpp) through the mass inner product over the barycentric map from coarse to fine
// (mode_matching.hpp), and the ratios r_i = lambda_fine / lambda_coarse written with the coarse
// modes into the asset (assets/FORMAT.md, eigenfit.*; a mode without a match keeps r_i = 1). So the
// fit corrects the mesh's numerical stiffening, the subspace's and the cubature's error together.
//
// Asked for by `smfem-bake coarse --eigenfit fine [--eigenfit-modes s]` or by a recipe's
// `fit_resolution` (the recipe baked a second time at that resolution, only for its spectrum).
// Refused, with a message naming the problem (bake::BakeInputError): s > m (the skinning
// modes), a fine mesh that is not the same object (bounding boxes apart by more than 5 % of
// the coarse one's diagonal, or volumes by more than 5 %), fewer non-null reduced modes than
// s, and a failed match: fewer than half of the s modes with a fine partner of cosine above
// 0.6 (Chen et al. 2019, §3.5: "the coarse mesh is too coarse").
#include <filesystem>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/run_bake.hpp"
#include "smfem/eigenfit/fine_spectrum.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/sim/eigenfit.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::eigenfit {

// Fitted modes by default (capped at m). The correction's cost per iteration grows with s (its
// rank-s coupling is a (4m x 3C) by (3C x 3s) product each iteration): in wasm at m 16, |C| 581
// it is +6-7 % at s 4 and +11-14 % at s 6, and the first three frequencies of the bar
// (assets/scenes/eigenfit/) come within 0.13 % of the 310k-tet mesh's at either (docs/eigenfit.md).
inline constexpr int kDefaultModes = 4;
inline constexpr double kSameObjectTolerance = 0.05;
// Fine modes computed per fitted mode: a coarse mode may match a fine one further up.
inline constexpr int kFineModesPerMode = 2;

struct FineModel {
  std::string source;  // the file, for messages
  mesh::TetMesh mesh;
  Eigen::VectorXd youngs, poisson, density;  // per tet
  std::vector<int> pinned;
  bool pins_from_coarse = false;  // see load_fine_model
};

// The fine model of `file` (a recipe at its own resolution, or at its fit_resolution with
// at_fit_resolution; a mesh file with the coarse bake's material options). Pins: the fine
// input's own; where it has none and the coarse mesh has some, the fine vertices lying on the
// coarse pins (every coarse vertex with a barycentric coordinate above 1e-6 pinned).
FineModel load_fine_model(const std::filesystem::path& file, bool at_fit_resolution,
                          const bake::BakeSettings& coarse_settings, const bake::BakeInput& coarse);

struct FitReport {
  sim::EigenFitData fit;
  nlohmann::json meta;  // the asset's meta "eigenfit"
};

// Fits `model` (the coarse bake's reduced model as the stepper reads it) to `fine`, with s
// modes. coarse and result: the coarse bake's input and result (mesh, weights, pins).
FitReport fit_to_fine(const bake::BakeInput& coarse, const bake::BakeResult& result,
                      const sim::ReducedModel& model, const FineModel& fine, int modes, int threads,
                      const bake::Progress& progress = {});

// The fine modes fit_to_fine computes for s fitted modes: kFineModesPerMode s of them (fewer
// where the fine mesh has fewer free unknowns), for the given material model.
FineSpectrum fine_model_spectrum(const FineModel& fine, sim::MaterialModel material, int modes,
                                 int threads);

// fit_to_fine with the fine spectrum given (fine_model_spectrum), for studies that fit several
// coarse models to one fine one; the same checks.
FitReport fit_to_spectrum(const bake::BakeInput& coarse, const bake::BakeResult& result,
                          const sim::ReducedModel& model, const FineModel& fine,
                          const FineSpectrum& spectrum, int modes,
                          const bake::Progress& progress = {});

// The stage as smfem-bake and study::bake_scene run it: when settings.eigenfit, or the recipe
// `input_file` with a fit_resolution, asks for it, fits and adds the eigenfit group and meta
// "eigenfit" to `writer` (holding the coarse bake's sections and metadata, bake_asset).
// Returns whether it did.
bool add_eigenfit_stage(asset::AssetWriter& writer, const std::filesystem::path& input_file,
                        const bake::BakeInput& input, const bake::BakeResult& result,
                        const bake::BakeSettings& settings, const bake::Progress& progress = {});

}  // namespace smfem::eigenfit
