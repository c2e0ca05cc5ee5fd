// The EigenFit stage of the bake (smfem/eigenfit/eigenfit_stage.hpp): a coarse bar fitted to a
// fine one (pins carried over from the coarse mesh), the fitted stepper's eigenvalues at the
// fine mesh's, a recipe's fit_resolution, and the refusals: another object (bounding box,
// volume), more fitted modes than skinning modes, a failed match.
#include "smfem/eigenfit/eigenfit_stage.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include "bake/bake_files.hpp"
#include "scene/recipe_files.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/bake/asset_sections.hpp"
#include "smfem/bake/bake_error.hpp"
#include "smfem/eigenfit/fine_spectrum.hpp"
#include "smfem/eigenfit/mode_matching.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/render/tet_embedding.hpp"
#include "smfem/sim/eigenfit.hpp"
#include "smfem/sim/step/eigenfit_term.hpp"
#include "smfem/study/baked_scene.hpp"
#include "smfem/study/frequency_study.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"
#include "support/test_paths.hpp"

namespace smfem::eigenfit {
namespace {

const Eigen::Vector3d kSize(0.6, 0.1, 0.1);

// A bar along x, pinned at x = 0 (pin file), as coarse.mesh and fine.mesh (cells x 2).
class EigenFitStage : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::scratch_dir("bars");
    const mesh::TetMesh coarse = test::box_mesh(Eigen::Vector3i(12, 2, 2), kSize);
    coarse_ = test::write_medit(dir_ / "coarse.mesh", coarse);
    fine_mesh_ = test::box_mesh(Eigen::Vector3i(24, 4, 4), kSize);
    fine_ = test::write_medit(dir_ / "fine.mesh", fine_mesh_);
    std::string pins;
    for (Eigen::Index v = 0; v < coarse.vertices.rows(); ++v) {
      if (coarse.vertices(v, 0) == 0.0) pins += std::to_string(v) + "\n";
    }
    settings_.pin_file = test::write_text(dir_ / "pins.txt", pins);
    settings_.modes = 8;
    settings_.cubature = 288;  // every tet
    settings_.contact_samples = 0;
    settings_.threads = 2;
    input_ = bake::load_bake_input(coarse_, settings_);
    result_ = bake::run_bake(input_, settings_);
  }

  // The coarse bake's asset with the stage run with `settings` (and the stage's return).
  asset::Asset bake_with(const bake::BakeSettings& settings, bool* fitted = nullptr) {
    asset::AssetWriter writer = bake::bake_asset(input_, result_, settings);
    const bool did = add_eigenfit_stage(writer, coarse_, input_, result_, settings);
    if (fitted != nullptr) *fitted = did;
    return asset::Asset::from_bytes(writer.to_bytes(), "coarse.smfem");
  }

  // The message of the BakeInputError the stage throws with `settings`.
  std::string refusal(const bake::BakeSettings& settings) {
    try {
      bake_with(settings);
    } catch (const bake::BakeInputError& error) {
      return error.what();
    }
    ADD_FAILURE() << "the stage did not refuse";
    return "";
  }

  std::filesystem::path dir_, coarse_, fine_;
  mesh::TetMesh fine_mesh_;
  bake::BakeSettings settings_;
  bake::BakeInput input_;
  bake::BakeResult result_;
};

TEST_F(EigenFitStage, FitsACoarseBarToAFineOne) {
  bake::BakeSettings settings = settings_;
  settings.eigenfit = fine_;
  settings.eigenfit_modes = 4;
  bool fitted = false;
  const asset::Asset asset = bake_with(settings, &fitted);
  ASSERT_TRUE(fitted);
  const sim::ReducedModel model = sim::load_reduced_model(asset);
  const sim::EigenFitData& fit = model.eigenfit;
  ASSERT_EQ(fit.mode_count(), 4);
  const nlohmann::json& meta = asset.meta().at("eigenfit");
  EXPECT_TRUE(meta.at("fine").at("pins_from_coarse").get<bool>());
  EXPECT_EQ(meta.at("fine").at("pinned").get<int>(), 25);  // the fine mesh's x = 0 face
  EXPECT_GE(meta.at("matched").get<int>(), 2);

  // The fine truth, independently.
  const Eigen::VectorXd youngs = Eigen::VectorXd::Constant(fine_mesh_.tets.rows(), 1e6);
  std::vector<int> pinned;
  for (Eigen::Index v = 0; v < fine_mesh_.vertices.rows(); ++v) {
    if (fine_mesh_.vertices(v, 0) == 0.0) pinned.push_back(static_cast<int>(v));
  }
  const FineSpectrum truth =
      fine_spectrum(fine_mesh_, youngs, Eigen::VectorXd::Constant(youngs.size(), 0.45),
                    Eigen::VectorXd::Constant(youngs.size(), 1000.0), pinned,
                    sim::MaterialModel::fixed_corotational, 8, 2);

  // The stepper's fitted stiffness at rest: the matched modes at the fine eigenvalues.
  sim::EigenFitTerm term(model);
  term.update_materials(model.defaults.material_model, sim::baked_lame(model));
  for (int c = 0; c < model.cubature_count(); ++c) {
    term.set_tet_jacobian(
        c, polar::dstretch_dF(polar::signed_svd(Matrix3<double>(Matrix3<double>::Identity()))));
  }
  parallel::ThreadPool pool(1);
  term.assemble(pool);
  const Eigen::MatrixXd K =
      sim::rest_stiffness(model, model.defaults.material_model, sim::baked_lame(model)) +
      term.coupling() * term.weights().asDiagonal() * term.coupling().transpose();
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> fitted_spectrum(
      K, sim::reduced_mass(model));
  for (int i = 0; i < fit.mode_count(); ++i) {
    const int partner = meta.at("modes")[static_cast<std::size_t>(i)].at("fine_mode").get<int>();
    if (partner < 0) continue;
    // Numerical stiffening: the coarse bar is stiffer.
    EXPECT_LT(fit.ratios(i), 1.0) << "mode " << i;
    const double target = truth.eigenvalues(partner);
    EXPECT_NEAR(fit.fine_eigenvalues(i), target, 1e-6 * target);
    const Eigen::VectorXd& values = fitted_spectrum.eigenvalues();
    Eigen::Index nearest = 0;
    (values.array() - target).abs().minCoeff(&nearest);
    EXPECT_NEAR(values(nearest), target, 1e-6 * target) << "mode " << i;
  }
}

// The frequency study's independent start (study/frequency_study.hpp): a field the coarse
// subspace holds exactly (coarse reduced modes carried to the fine vertices) comes back as
// itself, normalized in the reduced mass; a field with no part in the subspace is refused.
TEST_F(EigenFitStage, FineFieldsOfTheSubspaceProjectBackToTheirCoordinates) {
  const sim::ReducedModel model = sim::load_reduced_model(bake_with(settings_));
  const sim::ReducedModes rest = sim::reduced_rest_modes(
      model, sim::rest_stiffness(model, model.defaults.material_model, sim::baked_lame(model)), 3);
  const render::TetEmbedding embedding = render::embed_points(input_.mesh, fine_mesh_.vertices);
  FineSpectrum spectrum;
  spectrum.vectors = reduced_modes_at(
      fine_mesh_.vertices, embedded_weights(input_.mesh, result_.modes.weights, embedding),
      2.0 * rest.vectors);
  spectrum.eigenvalues = Eigen::Vector3d::Ones();
  spectrum.vertex_mass = subspace::lumped_mass(
      fine_mesh_, Eigen::VectorXd::Constant(fine_mesh_.tets.rows(), input_.density(0)));
  const Eigen::MatrixXd starts = study::fine_modes_in_subspace(
      model, input_.mesh, result_.modes.weights, fine_mesh_.vertices, spectrum, 3);
  const Eigen::MatrixXd M = sim::reduced_mass(model);
  EXPECT_LT((starts - rest.vectors).norm(), 1e-8 * rest.vectors.norm());
  EXPECT_LT((starts.transpose() * M * starts - Eigen::Matrix3d::Identity()).norm(), 1e-8);

  spectrum.vectors.col(1).setZero();
  EXPECT_THROW(study::fine_modes_in_subspace(model, input_.mesh, result_.modes.weights,
                                             fine_mesh_.vertices, spectrum, 3),
               std::invalid_argument);
}

TEST_F(EigenFitStage, WithoutAFineMeshThereIsNoStage) {
  bool fitted = true;
  const asset::Asset asset = bake_with(settings_, &fitted);
  EXPECT_FALSE(fitted);
  EXPECT_TRUE(sim::load_reduced_model(asset).eigenfit.empty());
  EXPECT_FALSE(asset.meta().contains("eigenfit"));
}

TEST_F(EigenFitStage, RefusesAnotherObject) {
  bake::BakeSettings settings = settings_;
  settings.eigenfit_modes = 4;
  // Longer by a fifth.
  settings.eigenfit =
      test::write_medit(dir_ / "long.mesh",
                        test::box_mesh(Eigen::Vector3i(24, 4, 4), Eigen::Vector3d(0.72, 0.1, 0.1)));
  EXPECT_NE(refusal(settings).find("is not the same object as coarse.mesh: their bounding boxes"),
            std::string::npos)
      << refusal(settings);
  // The same box with a quarter of its first half missing: the same bounding box, less volume.
  mesh::TetMesh notched = fine_mesh_;
  std::vector<int> kept;
  for (Eigen::Index t = 0; t < notched.tets.rows(); ++t) {
    Eigen::RowVector3d centroid = Eigen::RowVector3d::Zero();
    for (int k = 0; k < 4; ++k) centroid += 0.25 * notched.vertices.row(notched.tets(t, k));
    if (!(centroid.x() > 0.1 && centroid.x() < 0.3 && centroid.y() > 0.05 && centroid.z() > 0.05)) {
      kept.push_back(static_cast<int>(t));
    }
  }
  mesh::Tets tets(static_cast<Eigen::Index>(kept.size()), 4);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    tets.row(static_cast<Eigen::Index>(i)) = notched.tets.row(kept[i]);
  }
  notched.tets = tets;
  notched.regions = Eigen::VectorXi::Zero(tets.rows());
  settings.eigenfit = test::write_medit(dir_ / "notched.mesh", notched);
  EXPECT_NE(refusal(settings).find("their volumes differ by"), std::string::npos)
      << refusal(settings);
}

TEST_F(EigenFitStage, RefusesMoreFittedModesThanSkinningModes) {
  bake::BakeSettings settings = settings_;
  settings.eigenfit = fine_;
  settings.eigenfit_modes = 9;
  EXPECT_NE(refusal(settings).find("--eigenfit-modes: 9 fitted modes; expected 1 to the m = 8"),
            std::string::npos)
      << refusal(settings);
}

TEST_F(EigenFitStage, RefusesAFailedMatch) {
  // The fine bar pinned at the other end: the same object, but no mode of the same shape.
  FineModel fine;
  fine.source = "mirrored";
  fine.mesh = fine_mesh_;
  const Eigen::Index T = fine_mesh_.tets.rows();
  fine.youngs = Eigen::VectorXd::Constant(T, 1e6);
  fine.poisson = Eigen::VectorXd::Constant(T, 0.45);
  fine.density = Eigen::VectorXd::Constant(T, 1000.0);
  for (Eigen::Index v = 0; v < fine_mesh_.vertices.rows(); ++v) {
    if (fine_mesh_.vertices(v, 0) > kSize.x() - 1e-9) fine.pinned.push_back(static_cast<int>(v));
  }
  const sim::ReducedModel model = sim::load_reduced_model(bake_with(settings_));
  try {
    fit_to_fine(input_, result_, model, fine, 4, 2);
    ADD_FAILURE() << "matched a mirrored bar";
  } catch (const bake::BakeInputError& error) {
    EXPECT_NE(std::string(error.what()).find("the coarse mesh is too coarse: only "),
              std::string::npos)
        << error.what();
  }
}

TEST(EigenFitRecipe, FitResolutionFitsTheRecipeToItselfFiner) {
  const auto dir = test::scratch_dir("recipe");
  const auto recipe = test::write_text(dir / "bar.json", R"({
    "name": "bar",
    "description": "A pinned bar, fitted to itself at a finer resolution.",
    "geometry": {"box": {"center": [0.3, 0, 0], "half_extents": [0.3, 0.1, 0.1]}},
    "resolution": {"target_tets": 1500},
    "fit_resolution": {"target_tets": 6000},
    "materials": [{"name": "bar", "youngs": 1e6, "poisson": 0.4, "density": 1000}],
    "pins": [{"where": {"box": {"center": [0, 0, 0], "half_extents": [0.01, 1, 1]}}}],
    "subspace": {"modes": 8, "cubature": 300},
    "solver": {"method": "mfem", "iterations": 2, "timestep": 0.01, "gravity": [0, 0, 0],
               "material_model": "fcr"}
  })");
  bake::BakeSettings settings;
  settings.contact_samples = 0;
  settings.threads = 2;
  settings.eigenfit_modes = 3;
  const study::BakedScene scene = study::bake_scene(recipe, settings);
  // (A coarser stuffing of a box loses volume at its edges: the same-object check allows 5 %.)
  ASSERT_EQ(scene.reduced.eigenfit.mode_count(), 3);
  EXPECT_GT(scene.full.tet_count(), 0);
}

// Symmetric bodies have pairs of equal frequencies, whose mode shapes each mesh picks its own
// way within the pair: matched mode by mode, a square beam's fit was refused at the default
// count of fitted modes. Each body at two coarse resolutions, fitted to itself finer with the
// default count: the fit is made, and every fitted frequency is its partner's at the fine mesh.
struct SymmetricBody {
  const char* name;
  const char* geometry;
  const char* pin;  // where it is pinned: a thin box
  std::array<int, 2>
      tets;  // coarse resolutions (a coarser stuffing loses too much of a thin box's volume)
};

class EigenFitSymmetric : public ::testing::TestWithParam<SymmetricBody> {};

TEST_P(EigenFitSymmetric, FitsAtTheDefaultModeCountAtEveryResolution) {
  const SymmetricBody& body = GetParam();
  for (const int tets : body.tets) {
    const auto dir = test::scratch_dir(std::string("symmetric-") + body.name);
    const auto recipe = test::write_text(
        dir / "body.json",
        std::string(R"({"name": ")") + body.name +
            R"(", "description": "A symmetric body, fitted to itself finer.", "geometry": )" +
            body.geometry + R"(, "resolution": {"target_tets": )" + std::to_string(tets) +
            R"(}, "fit_resolution": {"target_tets": 9000},
    "materials": [{"name": "rubber", "youngs": 1e6, "poisson": 0.4, "density": 1000}],
    "pins": [{"where": )" +
            body.pin + R"(}],
    "subspace": {"modes": 8, "cubature": 300},
    "solver": {"method": "mfem", "iterations": 2, "timestep": 0.01, "gravity": [0, 0, 0],
               "material_model": "fcr"}})");
    bake::BakeSettings settings;
    settings.contact_samples = 0;
    settings.threads = 2;
    const study::BakedScene scene = study::bake_scene(recipe, settings);
    const sim::EigenFitData& fit = scene.reduced.eigenfit;
    ASSERT_GT(fit.mode_count(), 0) << body.name << " at " << tets << " tets";
    // Some pair among the matched modes (unmatched ones keep ratio 1), and most modes matched.
    int matched = 0, paired = 0;
    for (int i = 0; i < fit.mode_count(); ++i) {
      if (fit.ratios(i) == 1.0) continue;
      ++matched;
      for (int j = 0; j < fit.mode_count(); ++j) {
        if (j != i && fit.ratios(j) != 1.0 &&
            std::abs(fit.fine_eigenvalues(j) / fit.fine_eigenvalues(i) - 1) < kDegenerateGap)
          ++paired;
      }
    }
    EXPECT_GT(paired, 0) << body.name << ": no two fitted modes at one frequency";
    EXPECT_GE(2 * matched, fit.mode_count()) << body.name;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, EigenFitSymmetric,
    ::testing::Values(
        SymmetricBody{"square-beam",
                      R"({"box": {"center": [0.5, 0, 0], "half_extents": [0.5, 0.1, 0.1]}})",
                      R"({"box": {"center": [0, 0, 0], "half_extents": [0.01, 1, 1]}})",
                      {2500, 5000}},
        SymmetricBody{"cylinder",
                      R"({"cylinder": {"from": [0, 0, 0], "to": [1, 0, 0], "radius": 0.1}})",
                      R"({"box": {"center": [0, 0, 0], "half_extents": [0.01, 1, 1]}})",
                      {1500, 3000}},
        SymmetricBody{"sphere",
                      R"({"sphere": {"center": [0, 0.2, 0], "radius": 0.2}})",
                      R"({"box": {"center": [0, 0, 0], "half_extents": [1, 0.02, 1]}})",
                      {1500, 3000}}),
    [](const ::testing::TestParamInfo<SymmetricBody>& body) {
      std::string name = body.param.name;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

}  // namespace
}  // namespace smfem::eigenfit
