// EigenFit's demonstration (Chen et al. 2019): the leading vibration frequencies of a recipe baked
// at several resolutions and cubature sizes, with and without the fit, against the finest mesh's
// (full space, every tet: exact integration):
//
//   smfem-eigenfit-study <recipe.json> --tets 5000,40000 --cubature 100,581 --fine-tets 300000
//                        [--fit-modes S] [--modes K] [--amplitude A] [--swing G [--seconds S]]
//                        [--cubature-method kmeans|nnls] [--threads T]
//
// The recipe is baked at each target tet count (its resolution replaced) and cubature size,
// each bake fitted to the fine mesh's spectrum (computed once; eigenfit/eigenfit_stage.hpp:
// fit_to_spectrum) with S modes (default 6), and the model's K (default 3) lowest vibration
// modes, as its stepper has them with the fit off and on, are measured by small free
// vibrations (study/frequency_study.hpp; A: the RMS displacement per mode, default 1e-4 of the
// bounding box's diagonal): its first K oscillation frequencies, against the fine mesh's first
// K. One JSON object per run, then the whole, on stdout:
//
//   {"recipe", "fine": {"tets", "vertices", "hz": [...], "seconds"},
//    "runs": [{"tets", "cubature", "modes", "bake_seconds", "matched",
//              "fit": [{"coarse_hz", "fine_hz", "fine_mode", "cosine", "ratio"}],
//              "off": {"predicted_hz", "measured_hz", "error", "timestep", "steps"},
//              "on": {...}, "off_from_fine_modes": {...}, "on_from_fine_modes": {...},
//              "refused", "converged"}]}
//
// The *_from_fine_modes runs start each mode's run along the fine mesh's mode instead of the
// model's own (study::fine_modes_in_subspace), one mode at a time: a measurement the fit does
// not set up by construction.
//
// With --swing G: a large-amplitude run instead. The recipe at --fine-tets is the reference, in
// the full space (every tet, full/full_simulator.hpp); each coarse bake is fitted to it
// (study::bake_scene with --eigenfit, and --cubature-method); all start at rest under gravity
// G m/s^2 (down y) and run --seconds (default 2) with the recipe's time step, converged; the
// free end's displacement (the vertex nearest the middle of the bounding box's +x face) is
// compared:
//
//   {"swing": {"gravity", "seconds", "fine": {"tets", "tip_max"}, "runs": [{"tets", "cubature",
//    "off": {"rms_error", "max_error", "tip_max"}, "on": {...} (null where the fit was refused),
//    "refused"}]}}
//
// errors relative to the reference's largest tip displacement.
//
// fit: meta "eigenfit"'s modes (eigenfit_stage.hpp); refused: the stage's message where it
// refused the fit (then "on" is "off"); error: measured / fine - 1, the k-th
// lowest against the k-th lowest. A table on stderr.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/bake/asset_sections.hpp"
#include "smfem/bake/bake_error.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/run_bake.hpp"
#include "smfem/cubature/cubature_method.hpp"
#include "smfem/eigenfit/eigenfit_stage.hpp"
#include "smfem/study/baked_scene.hpp"
#include "smfem/study/frequency_study.hpp"
#include "smfem/study/subspace_study.hpp"

namespace {

using namespace smfem;
using Clock = std::chrono::steady_clock;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-eigenfit-study: " << problem
            << "\nusage: smfem-eigenfit-study <recipe.json> --tets N1,N2 --cubature C1,C2 "
               "--fine-tets N [--fit-modes S] [--modes K] [--amplitude A] [--swing G "
               "[--seconds S]] [--cubature-method kmeans|nnls] [--threads T]\n";
  std::exit(2);
}

std::vector<int> integers(const std::string& text, const std::string& option) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    try {
      out.push_back(std::stoi(item));
    } catch (const std::exception&) {
      usage(option + ": not an integer list: " + text);
    }
    if (out.back() < 1) usage(option + ": values must be positive");
  }
  if (out.empty()) usage(option + ": empty list");
  return out;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The recipe with its resolution replaced (and no fit_resolution), written in `folder` (the
// recipe's own, so that its relative paths resolve) under a hidden name, and removed when this
// goes out of scope, however the study ends. `role` keeps the coarse and the fine recipe apart
// when both have the same resolution.
class RecipeAt {
 public:
  RecipeAt(const nlohmann::json& recipe, int tets, const std::filesystem::path& folder,
           const std::string& role)
      : file_(folder / (".eigenfit-study-" + std::to_string(::getpid()) + "-" + role + "-at-" +
                        std::to_string(tets) + ".json")) {
    nlohmann::json copy = recipe;
    copy["resolution"] = {{"target_tets", tets}};
    copy.erase("fit_resolution");
    std::ofstream(file_) << copy.dump(2);
  }
  ~RecipeAt() {
    std::error_code ignored;
    std::filesystem::remove(file_, ignored);
  }
  RecipeAt(const RecipeAt&) = delete;
  RecipeAt& operator=(const RecipeAt&) = delete;

  const std::filesystem::path& path() const { return file_; }

 private:
  std::filesystem::path file_;
};

nlohmann::json frequencies_json(const study::MeasuredFrequencies& f,
                                const std::vector<double>& fine_hz) {
  std::vector<double> predicted, measured, error;
  for (Eigen::Index i = 0; i < f.measured_hz.size(); ++i) {
    predicted.push_back(f.predicted_hz(i));
    measured.push_back(f.measured_hz(i));
    error.push_back(f.measured_hz(i) / fine_hz[static_cast<std::size_t>(i)] - 1.0);
  }
  return {{"predicted_hz", predicted},
          {"measured_hz", measured},
          {"error", error},
          {"timestep", f.timestep},
          {"steps", f.steps}};
}

// The tip: the vertex nearest the middle of the bounding box's +x face.
Eigen::Index tip_vertex(const mesh::Vertices& vertices, const Eigen::Vector3d& point) {
  Eigen::Index tip = 0;
  (vertices.rowwise() - point.transpose()).rowwise().squaredNorm().minCoeff(&tip);
  return tip;
}

// Tip displacement per step (steps x 3).
Eigen::MatrixXd tip_path(const study::VertexTrajectory& trajectory, Eigen::Index tip) {
  Eigen::MatrixXd path(static_cast<Eigen::Index>(trajectory.size()), 3);
  for (std::size_t k = 0; k < trajectory.size(); ++k) {
    path.row(static_cast<Eigen::Index>(k)) = trajectory[k].row(tip);
  }
  return path;
}

nlohmann::json path_error(const Eigen::MatrixXd& path, const Eigen::MatrixXd& reference) {
  const double scale = reference.rowwise().norm().maxCoeff();
  const Eigen::VectorXd error = (path - reference).rowwise().norm();
  return {{"rms_error", std::sqrt(error.squaredNorm() / static_cast<double>(error.size())) / scale},
          {"max_error", error.maxCoeff() / scale},
          {"tip_max", path.rowwise().norm().maxCoeff()}};
}

template <class Say>
nlohmann::json swing_study(const nlohmann::json& recipe, const std::filesystem::path& here,
                           const std::vector<int>& tets, const std::vector<int>& cubature,
                           int fine_tets, int fit_modes, double gravity, double seconds,
                           const bake::BakeSettings& settings, const Say& say) {
  const int threads = settings.threads;
  const RecipeAt fine_recipe(recipe, fine_tets, here, "fine");
  auto start = Clock::now();
  const study::BakedScene fine = study::bake_scene(fine_recipe.path(), settings);
  const double timestep = fine.full.defaults.timestep;
  const int steps = static_cast<int>(std::lround(seconds / timestep));
  const Eigen::RowVector3d low = fine.full.positions.colwise().minCoeff();
  const Eigen::RowVector3d high = fine.full.positions.colwise().maxCoeff();
  const Eigen::Vector3d point(high.x(), 0.5 * (low.y() + high.y()), 0.5 * (low.z() + high.z()));
  const study::StudyRun reference = study::run_full_space(fine.full, steps, std::max(threads, 1));
  const Eigen::MatrixXd reference_path =
      tip_path(reference.trajectory, tip_vertex(fine.full.positions, point));
  say("fine: " + std::to_string(fine.full.tet_count()) + " tets, full space, " +
      std::to_string(steps) + " steps in " + std::to_string(seconds_since(start)) + " s");
  nlohmann::json out = {{"gravity", gravity},
                        {"seconds", seconds},
                        {"timestep", timestep},
                        {"fine",
                         {{"tets", fine.full.tet_count()},
                          {"tip_max", reference_path.rowwise().norm().maxCoeff()},
                          {"converged", reference.converged}}},
                        {"runs", nlohmann::json::array()}};
  for (const int target : tets) {
    const RecipeAt coarse_recipe(recipe, target, here, "coarse");
    for (const int size : cubature) {
      bake::BakeSettings fitted = settings;
      fitted.cubature = size;
      fitted.eigenfit = fine_recipe.path();
      fitted.eigenfit_modes = fit_modes;
      // A refused fit (eigenfit/eigenfit_stage.hpp) is reported, and the bake run without one.
      std::string refused;
      std::optional<study::BakedScene> baked;
      try {
        baked = study::bake_scene(coarse_recipe.path(), fitted);
      } catch (const bake::BakeInputError& error) {
        refused = error.what();
        say("refused: " + refused);
        fitted.eigenfit.reset();
        fitted.eigenfit_modes.reset();
        baked = study::bake_scene(coarse_recipe.path(), fitted);
      }
      study::BakedScene& coarse = *baked;
      const Eigen::Index tip = tip_vertex(coarse.full.positions, point);
      nlohmann::json on = nullptr;
      if (refused.empty()) {
        on = path_error(
            tip_path(study::run_subspace(coarse, steps, std::max(threads, 1)).trajectory, tip),
            reference_path);
      }
      coarse.reduced.eigenfit = {};
      const Eigen::MatrixXd off =
          tip_path(study::run_subspace(coarse, steps, std::max(threads, 1)).trajectory, tip);
      const nlohmann::json run = {
          {"tets", coarse.full.tet_count()},
          {"cubature", size},
          {"off", path_error(off, reference_path)},
          {"on", on},
          {"refused", refused.empty() ? nlohmann::json(nullptr) : nlohmann::json(refused)}};
      say(run.dump());
      out["runs"].push_back(run);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::filesystem::path recipe_path;
  std::vector<int> tets, cubature;
  int fine_tets = 0, fit_modes = eigenfit::kDefaultModes, modes = 3, threads = 0;
  double amplitude = 0.0, swing = 0.0, seconds = 2.0;
  std::optional<cubature::CubatureMethod> cubature_method;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) usage(args[i] + " needs a value");
      return args[++i];
    };
    if (args[i] == "--tets") {
      tets = integers(value(), "--tets");
    } else if (args[i] == "--cubature") {
      cubature = integers(value(), "--cubature");
    } else if (args[i] == "--fine-tets") {
      fine_tets = integers(value(), "--fine-tets").at(0);
    } else if (args[i] == "--fit-modes") {
      fit_modes = integers(value(), "--fit-modes").at(0);
    } else if (args[i] == "--modes") {
      modes = integers(value(), "--modes").at(0);
    } else if (args[i] == "--amplitude") {
      amplitude = std::stod(value());
    } else if (args[i] == "--swing") {
      swing = std::stod(value());
    } else if (args[i] == "--seconds") {
      seconds = std::stod(value());
    } else if (args[i] == "--threads") {
      threads = integers(value(), "--threads").at(0);
    } else if (args[i] == "--cubature-method") {
      cubature_method = cubature::cubature_method_from_name(value());
      if (!cubature_method)
        usage("--cubature-method must be " + cubature::cubature_method_choices());
    } else if (recipe_path.empty() && !args[i].empty() && args[i][0] != '-') {
      recipe_path = args[i];
    } else {
      usage("unknown argument " + args[i]);
    }
  }
  if (recipe_path.empty() || tets.empty() || cubature.empty() || fine_tets == 0) {
    usage("give a recipe, --tets, --cubature and --fine-tets");
  }
  if (modes > fit_modes) usage("--modes must be at most --fit-modes");
  const auto say = [](const std::string& text) {
    std::cerr << "[eigenfit-study] " << text << std::endl;
  };
  try {
    nlohmann::json recipe;
    std::ifstream(recipe_path) >> recipe;
    const std::filesystem::path here =
        recipe_path.has_parent_path() ? recipe_path.parent_path() : ".";

    bake::BakeSettings settings;
    settings.threads = threads;
    settings.contact_samples = 0;
    settings.cubature_method = cubature_method;
    nlohmann::json out = {{"recipe", recipe_path.string()}, {"runs", nlohmann::json::array()}};
    if (swing > 0.0) {
      recipe["solver"]["gravity"] = {0.0, -swing, 0.0};
      out = {{"recipe", recipe_path.string()},
             {"swing", swing_study(recipe, here, tets, cubature, fine_tets, fit_modes, swing,
                                   seconds, settings, say)}};
      std::cout << out.dump() << std::endl;
      return 0;
    }

    std::optional<eigenfit::FineModel> fine;
    std::optional<eigenfit::FineSpectrum> spectrum;
    for (const int target : tets) {
      const RecipeAt coarse_recipe(recipe, target, here, "coarse");
      for (const int size : cubature) {
        settings.cubature = size;
        auto start = Clock::now();
        const bake::BakeInput input = bake::load_bake_input(coarse_recipe.path(), settings);
        const bake::BakeResult result = bake::run_bake(input, settings);
        sim::ReducedModel model = sim::load_reduced_model(
            asset::Asset::from_bytes(bake::bake_asset(input, result, settings).to_bytes(),
                                     coarse_recipe.path().filename().string()));
        const double bake_seconds = seconds_since(start);
        say(std::to_string(input.mesh.tets.rows()) + " tets, |C| " + std::to_string(size) +
            ": baked in " + std::to_string(bake_seconds) + " s");
        if (!fine) {
          start = Clock::now();
          const RecipeAt fine_recipe(recipe, fine_tets, here, "fine");
          fine = eigenfit::load_fine_model(fine_recipe.path(), false, settings, input);
          spectrum = eigenfit::fine_model_spectrum(*fine, model.defaults.material_model, fit_modes,
                                                   threads);
          std::vector<double> hz;
          for (Eigen::Index i = 0; i < spectrum->eigenvalues.size(); ++i) {
            hz.push_back(std::sqrt(spectrum->eigenvalues(i)) / (2.0 * M_PI));
          }
          out["fine"] = {{"tets", fine->mesh.tets.rows()},
                         {"vertices", fine->mesh.vertices.rows()},
                         {"hz", hz},
                         {"seconds", seconds_since(start)}};
          say("fine: " + std::to_string(fine->mesh.tets.rows()) + " tets, spectrum in " +
              std::to_string(out["fine"]["seconds"].get<double>()) + " s");
        }
        // A refused fit (a failed match, Chen et al. 2019, §3.5) is reported, and the model
        // measured without one.
        eigenfit::FitReport report;
        std::string refused;
        try {
          report =
              eigenfit::fit_to_spectrum(input, result, model, *fine, *spectrum, fit_modes, say);
        } catch (const bake::BakeInputError& error) {
          refused = error.what();
          say("refused: " + refused);
        }
        model.eigenfit = report.fit;
        const Eigen::RowVector3d low = input.mesh.vertices.colwise().minCoeff();
        const Eigen::RowVector3d high = input.mesh.vertices.colwise().maxCoeff();
        const double a = amplitude > 0.0 ? amplitude : 1e-4 * (high - low).norm();
        const int runner_threads = std::max(threads, 1);
        const study::MeasuredFrequencies off =
            study::measure_leading_frequencies(model, false, modes, a, runner_threads);
        const study::MeasuredFrequencies on =
            refused.empty()
                ? study::measure_leading_frequencies(model, true, modes, a, runner_threads)
                : off;
        const std::vector<double> fine_hz(out["fine"]["hz"].begin(),
                                          out["fine"]["hz"].begin() + modes);
        // The same, started along the fine mesh's modes instead of the model's own.
        const Eigen::MatrixXd starts = study::fine_modes_in_subspace(
            model, input.mesh, result.modes.weights, fine->mesh.vertices, *spectrum, modes);
        const study::MeasuredFrequencies off_fine =
            study::measure_frequencies_one_by_one(model, starts, false, a, runner_threads);
        const study::MeasuredFrequencies on_fine =
            refused.empty()
                ? study::measure_frequencies_one_by_one(model, starts, true, a, runner_threads)
                : off_fine;
        nlohmann::json fits = nlohmann::json::array();
        const nlohmann::json details =
            refused.empty() ? report.meta["modes"] : nlohmann::json::array();
        for (const nlohmann::json& detail : details) {
          fits.push_back({{"coarse_hz", detail["coarse_hz"]},
                          {"fine_hz", detail["fine_hz"]},
                          {"fine_mode", detail["fine_mode"]},
                          {"cosine", detail["cosine"]},
                          {"ratio", detail["ratio"]}});
        }
        for (int i = 0; i < modes; ++i) {
          std::ostringstream line;
          line.precision(4);
          line << "  f" << i + 1 << ": fine " << fine_hz[static_cast<std::size_t>(i)] << " Hz; off "
               << off.measured_hz(i) << " Hz ("
               << 100.0 * (off.measured_hz(i) / fine_hz[static_cast<std::size_t>(i)] - 1.0)
               << " %), on " << on.measured_hz(i) << " Hz ("
               << 100.0 * (on.measured_hz(i) / fine_hz[static_cast<std::size_t>(i)] - 1.0)
               << " %); from the fine mode: off "
               << 100.0 * (off_fine.measured_hz(i) / fine_hz[static_cast<std::size_t>(i)] - 1.0)
               << " %, on "
               << 100.0 * (on_fine.measured_hz(i) / fine_hz[static_cast<std::size_t>(i)] - 1.0)
               << " %";
          say(line.str());
        }
        out["runs"].push_back(
            {{"tets", input.mesh.tets.rows()},
             {"cubature", size},
             {"modes", model.mode_count()},
             {"bake_seconds", bake_seconds},
             {"matched", refused.empty() ? report.meta["matched"] : nlohmann::json(0)},
             {"refused", refused.empty() ? nlohmann::json(nullptr) : nlohmann::json(refused)},
             {"fit", fits},
             {"off", frequencies_json(off, fine_hz)},
             {"on", frequencies_json(on, fine_hz)},
             {"off_from_fine_modes", frequencies_json(off_fine, fine_hz)},
             {"on_from_fine_modes", frequencies_json(on_fine, fine_hz)},
             {"converged",
              off.converged && on.converged && off_fine.converged && on_fine.converged}});
        std::cout << out["runs"].back().dump() << std::endl;
      }
    }
    std::cout << out.dump() << std::endl;
  } catch (const std::exception& error) {
    std::cerr << "smfem-eigenfit-study: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
