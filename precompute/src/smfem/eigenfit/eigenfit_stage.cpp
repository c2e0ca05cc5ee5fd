#include "smfem/eigenfit/eigenfit_stage.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "smfem/asset/asset.hpp"
#include "smfem/bake/asset_sections.hpp"
#include "smfem/bake/bake_error.hpp"
#include "smfem/eigenfit/fine_spectrum.hpp"
#include "smfem/eigenfit/mode_matching.hpp"
#include "smfem/render/tet_embedding.hpp"
#include "smfem/subspace/lumped_mass.hpp"

namespace smfem::eigenfit {
namespace {

using bake::BakeInputError;

constexpr double kPi = 3.14159265358979323846;
constexpr double kPinCoordinate = 1e-6;

double hertz(double eigenvalue) { return std::sqrt(std::max(eigenvalue, 0.0)) / (2.0 * kPi); }

std::string percent(double value) {
  std::ostringstream out;
  out.precision(3);
  out << 100.0 * value << " %";
  return out.str();
}

// The fine vertices on the coarse pins (load_fine_model).
std::vector<int> pins_from_coarse(const bake::BakeInput& coarse, const mesh::TetMesh& fine) {
  std::vector<char> pinned(static_cast<std::size_t>(coarse.mesh.vertices.rows()), 0);
  for (const int v : coarse.pinned) pinned[static_cast<std::size_t>(v)] = 1;
  const render::TetEmbedding embedding = render::embed_points(coarse.mesh, fine.vertices);
  std::vector<int> out;
  for (Eigen::Index p = 0; p < fine.vertices.rows(); ++p) {
    bool on_pins = true;
    for (int k = 0; k < 4; ++k) {
      const int v = coarse.mesh.tets(embedding.tet(p), k);
      if (std::abs(embedding.barycentric(p, k)) > kPinCoordinate &&
          !pinned[static_cast<std::size_t>(v)]) {
        on_pins = false;
      }
    }
    if (on_pins) out.push_back(static_cast<int>(p));
  }
  return out;
}

}  // namespace

FineModel load_fine_model(const std::filesystem::path& file, bool at_fit_resolution,
                          const bake::BakeSettings& coarse_settings,
                          const bake::BakeInput& coarse) {
  bake::BakeSettings settings = coarse_settings;
  // Options about the coarse mesh's own numbering or size do not carry over.
  settings.pin_file.reset();
  settings.youngs_per_tet.reset();
  settings.target_tets.reset();
  settings.eigenfit.reset();
  settings.at_fit_resolution = at_fit_resolution;
  bake::BakeInput input = bake::load_bake_input(file, settings);
  FineModel fine;
  fine.source = file.filename().string() + (at_fit_resolution ? " (fit_resolution)" : "");
  fine.mesh = std::move(input.mesh);
  fine.youngs = std::move(input.youngs);
  fine.poisson = std::move(input.poisson);
  fine.density = std::move(input.density);
  fine.pinned = std::move(input.pinned);
  if (fine.pinned.empty() && !coarse.pinned.empty()) {
    fine.pinned = pins_from_coarse(coarse, fine.mesh);
    fine.pins_from_coarse = true;
    if (fine.pinned.empty()) {
      throw BakeInputError(fine.source + ": no vertex lies on the " +
                           std::to_string(coarse.pinned.size()) + " pinned vertices of " +
                           coarse.source + " (is it the same object?)");
    }
  }
  return fine;
}

namespace {

// The checks of fit_to_fine before any work: the mode count and the same object. Returns the
// fine mesh's volume.
double check_fit(const bake::BakeInput& coarse, const sim::ReducedModel& model,
                 const FineModel& fine, int modes) {
  const int m = model.mode_count();
  if (modes < 1 || modes > m) {
    throw BakeInputError("--eigenfit-modes: " + std::to_string(modes) +
                         " fitted modes; expected 1 to the m = " + std::to_string(m) +
                         " skinning modes of " + coarse.source);
  }
  // The same object: bounding boxes and volumes.
  const Eigen::RowVector3d coarse_low = coarse.mesh.vertices.colwise().minCoeff();
  const Eigen::RowVector3d coarse_high = coarse.mesh.vertices.colwise().maxCoeff();
  const Eigen::RowVector3d fine_low = fine.mesh.vertices.colwise().minCoeff();
  const Eigen::RowVector3d fine_high = fine.mesh.vertices.colwise().maxCoeff();
  const double diagonal = (coarse_high - coarse_low).norm();
  const double box_gap = std::max((coarse_low - fine_low).cwiseAbs().maxCoeff(),
                                  (coarse_high - fine_high).cwiseAbs().maxCoeff());
  if (box_gap > kSameObjectTolerance * diagonal) {
    throw BakeInputError(fine.source + " is not the same object as " + coarse.source +
                         ": their bounding boxes differ by " + percent(box_gap / diagonal) +
                         " of the coarse one's diagonal (at most " + percent(kSameObjectTolerance) +
                         ")");
  }
  const double coarse_volume = subspace::tet_rest_volumes(coarse.mesh).sum();
  const double fine_volume = subspace::tet_rest_volumes(fine.mesh).sum();
  const double volume_gap = std::abs(fine_volume - coarse_volume) / coarse_volume;
  if (volume_gap > kSameObjectTolerance) {
    throw BakeInputError(fine.source + " is not the same object as " + coarse.source +
                         ": their volumes differ by " + percent(volume_gap) + " (at most " +
                         percent(kSameObjectTolerance) + ")");
  }
  return fine_volume;
}

}  // namespace

FineSpectrum fine_model_spectrum(const FineModel& fine, sim::MaterialModel material, int modes,
                                 int threads) {
  const int free_unknowns = 3 * static_cast<int>(fine.mesh.vertices.rows() -
                                                 static_cast<Eigen::Index>(fine.pinned.size()));
  const int fine_count = std::min(kFineModesPerMode * modes,
                                  free_unknowns - 6 * free_parts(fine.mesh, fine.pinned) - 1);
  if (fine_count < modes) {
    throw BakeInputError(fine.source + ": too few free vertices for " + std::to_string(modes) +
                         " modes");
  }
  return fine_spectrum(fine.mesh, fine.youngs, fine.poisson, fine.density, fine.pinned, material,
                       fine_count, threads);
}

FitReport fit_to_fine(const bake::BakeInput& coarse, const bake::BakeResult& result,
                      const sim::ReducedModel& model, const FineModel& fine, int modes, int threads,
                      const bake::Progress& progress) {
  check_fit(coarse, model, fine, modes);
  if (progress) {
    progress("eigenfit: " + fine.source + ": " + std::to_string(fine.mesh.tets.rows()) + " tets, " +
             std::to_string(fine.mesh.vertices.rows()) + " vertices, " +
             std::to_string(fine.pinned.size()) + " pinned" +
             (fine.pins_from_coarse ? " (on the coarse pins)" : ""));
  }
  const FineSpectrum spectrum =
      fine_model_spectrum(fine, model.defaults.material_model, modes, threads);
  return fit_to_spectrum(coarse, result, model, fine, spectrum, modes, progress);
}

FitReport fit_to_spectrum(const bake::BakeInput& coarse, const bake::BakeResult& result,
                          const sim::ReducedModel& model, const FineModel& fine,
                          const FineSpectrum& spectrum, int modes, const bake::Progress& progress) {
  const auto say = [&](const std::string& message) {
    if (progress) progress("eigenfit: " + message);
  };
  const double fine_volume = check_fit(coarse, model, fine, modes);

  // The coarse modes as the stepper sees them.
  const sim::MaterialModel material = model.defaults.material_model;
  const Eigen::MatrixXd K0 = sim::rest_stiffness(model, material, sim::baked_lame(model));
  sim::ReducedModes coarse_modes;
  try {
    coarse_modes = sim::reduced_rest_modes(model, K0, modes);
  } catch (const std::invalid_argument& error) {
    throw BakeInputError("--eigenfit-modes " + std::to_string(modes) + ": " + error.what() + " (" +
                         coarse.source + ")");
  }

  // The coarse modes on the fine vertices, and their cosines with the fine modes.
  const render::TetEmbedding embedding = render::embed_points(coarse.mesh, fine.mesh.vertices);
  const Eigen::MatrixXd fields = reduced_modes_at(
      fine.mesh.vertices, embedded_weights(coarse.mesh, result.modes.weights, embedding),
      coarse_modes.vectors);
  const Eigen::MatrixXd cosines = mass_cosines(fields, spectrum.vectors, spectrum.vertex_mass);
  const Eigen::VectorXi groups = degenerate_groups(spectrum.eigenvalues);
  const ModeMatch match = match_modes(cosines, groups);
  if (2 * match.matched < modes) {
    throw BakeInputError("the coarse mesh is too coarse: only " + std::to_string(match.matched) +
                         " of the " + std::to_string(modes) + " leading modes of " + coarse.source +
                         " match a mode of " + fine.source +
                         " (mass-weighted cosine above 0.6, Chen et al. 2019 §3.5; at least "
                         "half must); refine the coarse mesh or fit fewer modes "
                         "(--eigenfit-modes)");
  }

  // Half of the modes may match (§3.5) and still leave out one of the object's lowest motions:
  // measured on the bar at 310k tets and |C| 581, the fit then moved f1 from -29 % to +63 %.
  if (const int skipped = skipped_fine_mode(match); skipped >= 0) {
    const Eigen::MatrixXd by_group = group_cosines(cosines, groups);
    const int group = groups(skipped);
    const int in_group = static_cast<int>((groups.array() == group).count());
    std::ostringstream message;
    message.precision(3);
    message << "vibration mode " << skipped << " of " << fine.source << " ("
            << hertz(spectrum.eigenvalues(skipped)) << " Hz; 0 is the lowest";
    if (in_group > 1) message << ", one of " << in_group << " at equal frequencies";
    message << ") has no counterpart among the " << modes << " leading modes of " << coarse.source
            << " while higher ones do: ";
    const double closest = by_group.col(group).maxCoeff();
    if (closest > kMatchCosine) {
      message << "the coarse modes near it (mass-weighted cosine up to " << closest
              << ") each match another mode better";
    } else {
      message << "the closest has a mass-weighted cosine of " << closest << " with it (above "
              << kMatchCosine << " needed)";
    }
    message << ", so the coarse model's leading modes are not the object's. Raise the cubature "
               "if it is small for the mesh, refine the coarse mesh, or fit fewer modes "
               "(--eigenfit-modes)";
    throw BakeInputError(message.str());
  }

  FitReport report;
  sim::EigenFitData& fit = report.fit;
  fit.modes = coarse_modes.vectors;
  fit.coarse_eigenvalues = coarse_modes.eigenvalues;
  fit.ratios = Eigen::VectorXd::Ones(modes);
  fit.fine_eigenvalues = coarse_modes.eigenvalues;
  nlohmann::json detail = nlohmann::json::array();
  for (int i = 0; i < modes; ++i) {
    const int partner = match.partner(i);
    if (partner >= 0) {
      fit.fine_eigenvalues(i) = spectrum.eigenvalues(partner);
      fit.ratios(i) = fit.fine_eigenvalues(i) / fit.coarse_eigenvalues(i);
    }
    detail.push_back({{"coarse_hz", hertz(fit.coarse_eigenvalues(i))},
                      {"fine_hz", partner >= 0 ? nlohmann::json(hertz(fit.fine_eigenvalues(i)))
                                               : nlohmann::json(nullptr)},
                      {"fine_mode", partner},
                      {"cosine", match.cosine(i)},
                      {"ratio", fit.ratios(i)}});
    std::ostringstream line;
    line.precision(4);
    line << "mode " << i << ": " << hertz(fit.coarse_eigenvalues(i)) << " Hz";
    if (partner >= 0) {
      line << " -> fine mode " << partner << ", " << hertz(fit.fine_eigenvalues(i))
           << " Hz (cosine " << match.cosine(i) << "), r = " << fit.ratios(i);
    } else {
      line << ": no match (best cosine " << match.cosine(i) << "), r = 1";
    }
    say(line.str());
  }
  report.meta = {{"fine",
                  {{"source", fine.source},
                   {"vertices", fine.mesh.vertices.rows()},
                   {"tets", fine.mesh.tets.rows()},
                   {"pinned", fine.pinned.size()},
                   {"pins_from_coarse", fine.pins_from_coarse},
                   {"volume", fine_volume}}},
                 {"material_model", std::string(sim::material_model_name(material))},
                 {"fitted_modes", modes},
                 {"matched", match.matched},
                 {"null_modes", coarse_modes.null_modes},
                 {"modes", detail}};
  return report;
}

bool add_eigenfit_stage(asset::AssetWriter& writer, const std::filesystem::path& input_file,
                        const bake::BakeInput& input, const bake::BakeResult& result,
                        const bake::BakeSettings& settings, const bake::Progress& progress) {
  if (!settings.eigenfit && !input.fit_resolution) return false;
  if (settings.youngs_per_tet) {
    throw BakeInputError(
        "--youngs-per-tet gives the coarse mesh's tets moduli a fine mesh cannot have; it does "
        "not go with EigenFit");
  }
  const sim::ReducedModel model =
      sim::load_reduced_model(asset::Asset::from_bytes(writer.to_bytes(), input.source));
  const FineModel fine = settings.eigenfit
                             ? load_fine_model(*settings.eigenfit, false, settings, input)
                             : load_fine_model(input_file, true, settings, input);
  const int modes = settings.eigenfit_modes.value_or(std::min(kDefaultModes, model.mode_count()));
  const FitReport report =
      fit_to_fine(input, result, model, fine, modes, settings.threads, progress);
  sim::add_eigenfit(writer, report.fit);
  nlohmann::json meta = writer.meta();
  meta["eigenfit"] = report.meta;
  writer.set_meta(meta);
  return true;
}

}  // namespace smfem::eigenfit
