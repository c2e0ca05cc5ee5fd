#include "smfem/command/bake_command.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_error.hpp"
#include "smfem/asset/asset_writer.hpp"
#include "smfem/bake/asset_sections.hpp"
#include "smfem/bake/bake_error.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/bake_recipe.hpp"
#include "smfem/bake/comparison_stage.hpp"
#include "smfem/bake/input_files.hpp"
#include "smfem/bake/run_bake.hpp"
#include "smfem/bake/stage_clock.hpp"
#include "smfem/cubature/cubature_method.hpp"
#include "smfem/eigenfit/eigenfit_stage.hpp"
#include "smfem/geometry/error.hpp"
#include "smfem/mesh/error.hpp"
#include "smfem/mesh/medit.hpp"
#include "smfem/scene/recipe.hpp"
#include "smfem/scene/scene_error.hpp"
#include "smfem/solver_limits.hpp"
#include "smfem/subspace/comparison_bases.hpp"

namespace smfem::command {
namespace {

using bake::BakeInputError;

constexpr const char* kUsage =
    "usage: smfem-bake <mesh file | scene recipe .json> -o <out.smfem>\n"
    "                  [--modes M] [--cubature K] [--cubature-method kmeans|nnls]\n"
    "                  [--cubature-per-region N] [--cubature-fit-error]\n"
    "                  [--youngs E] [--poisson NU] [--density RHO]\n"
    "                  [--youngs-per-tet FILE] [--region-materials FILE] [--pin-file FILE]\n"
    "                  [--paint X,Y,Z,R,E ...] [--pin X,Y,Z,R ...] [--pin-lowest F]\n"
    "                  [--max-tets N] [--max-triangles N]\n"
    "                  [--target-tets N] [--scale S] [--seed S]\n"
    "                  [--threads T (0: one per hardware thread)]\n"
    "                  [--full-mesh | --full-mesh-copy OUT.full.smfem]\n"
    "                  [--tet-mesh OUT.mesh]\n"
    "                  [--contact-samples N] [--collision-triangles N]\n"
    "                  [--eigenfit FINE (mesh file | recipe) [--eigenfit-modes S]]\n"
    "                  [--comparison-basis linear|modal_derivatives] [--json]\n"
    "                  [--quiet]\n";

struct Options {
  std::filesystem::path input;
  std::filesystem::path output;
  smfem::bake::BakeSettings settings;
  // --comparison-basis: also a displacement basis by this name (bake/comparison_stage.hpp).
  std::optional<std::string> comparison_basis;
  // --full-mesh-copy: also write the asset with its tet mesh (mesh.*) to this file, so that one
  // bake gives the page's asset and the larger one its local deformations load when asked.
  std::optional<std::filesystem::path> full_mesh_copy;
  // --tet-mesh: also write the tet mesh baked (the tetrahedralized surface), as MEDIT text.
  std::optional<std::filesystem::path> tet_mesh;
  bool json = false;
  bool quiet = false;
};

long long parse_integer(std::string_view option, const std::string& text, long long low,
                        long long high) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || value < low ||
      value > high) {
    throw BakeInputError(std::string(option) + ": expected an integer in [" + std::to_string(low) +
                         ", " + std::to_string(high) + "], got \"" + text + "\"");
  }
  return value;
}

double parse_real(std::string_view option, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) {
    throw BakeInputError(std::string(option) + ": expected a finite number, got \"" + text + "\"");
  }
  return value;
}

// `count` comma-separated finite numbers (option's value, `form` naming them: "X,Y,Z,R").
std::vector<double> parse_numbers(const std::string& option, const std::string& text,
                                  std::size_t count, const std::string& form) {
  std::vector<double> values;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    values.push_back(parse_real(option, text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (values.size() != count) {
    throw BakeInputError(option + ": expected " + form + " (" + std::to_string(count) +
                         " numbers), got \"" + text + "\"");
  }
  if (!(values[3] > 0.0)) {
    throw BakeInputError(option + ": the radius R must be positive, got \"" + text + "\"");
  }
  return values;
}

// --paint's "X,Y,Z,R,E" (the k-th --paint): a sphere of radius R > 0 and a Young's modulus E.
bake::PaintedSphere parse_paint(const std::string& text, int k) {
  const std::string option = "--paint " + std::to_string(k);
  const std::vector<double> values = parse_numbers(option, text, 5, "X,Y,Z,R,E");
  bake::check_youngs(values[4], option);
  return {Eigen::Vector3d(values[0], values[1], values[2]), values[3], values[4]};
}

// --pin's "X,Y,Z,R" (the k-th --pin): a sphere of radius R > 0.
bake::PinnedSphere parse_pin(const std::string& text, int k) {
  const std::vector<double> values =
      parse_numbers("--pin " + std::to_string(k), text, 4, "X,Y,Z,R");
  return {Eigen::Vector3d(values[0], values[1], values[2]), values[3]};
}

// `file` and, for a recipe (.json), every file it names (any string of it that is a file's path
// from the recipe's folder: its mesh, render surface, tet mesh), and theirs: what a bake of it
// reads. A recipe that does not parse names nothing more (its bake says what is wrong).
void add_files_read(const std::filesystem::path& file, std::vector<std::filesystem::path>& read) {
  std::error_code unknown;
  if (file.empty() || !std::filesystem::is_regular_file(file, unknown)) return;
  for (const std::filesystem::path& seen : read) {
    if (std::filesystem::equivalent(seen, file, unknown)) return;
  }
  read.push_back(file);
  if (file.extension() != ".json") return;
  std::ifstream in(file, std::ios::binary);
  const nlohmann::json recipe = nlohmann::json::parse(
      std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), nullptr, false);
  std::vector<const nlohmann::json*> values = {&recipe};
  while (!values.empty()) {
    const nlohmann::json& value = *values.back();
    values.pop_back();
    if (value.is_string()) {
      add_files_read(file.parent_path() / value.get<std::string>(), read);
    } else if (value.is_structured()) {
      for (const nlohmann::json& item : value) values.push_back(&item);
    }
  }
}

// Throws BakeInputError naming the option at fault. help: set by -h or --help (nothing else
// is checked then).
Options parse_options(const std::vector<std::string>& args, bool& help) {
  Options options;
  auto& s = options.settings;
  const std::size_t count = args.size();
  // An option given twice is a mistake to name, not a choice to make silently (the last won).
  std::set<std::string_view> given;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view arg = args[i];
    const std::string_view name = arg == "-o" ? "--output" : arg;
    const bool repeats = name == "--paint" || name == "--pin";
    if (name.size() > 2 && name.substr(0, 2) == "--" && !repeats && !given.insert(name).second) {
      throw BakeInputError(std::string(arg) +
                           ": given twice (only --paint and --pin may be repeated)");
    }
    const auto value = [&]() -> std::string {
      if (i + 1 >= count) throw BakeInputError(std::string(arg) + ": missing its value");
      return args[++i];
    };
    if (arg == "-o" || arg == "--output") {
      options.output = value();
    } else if (arg == "--modes") {
      s.modes = static_cast<int>(parse_integer(arg, value(), sim::kMinModes, sim::kMaxModes));
    } else if (arg == "--cubature") {
      s.cubature =
          static_cast<int>(parse_integer(arg, value(), sim::kMinCubature, sim::kMaxCubature));
    } else if (arg == "--cubature-method") {
      const std::string name = value();
      s.cubature_method = smfem::cubature::cubature_method_from_name(name);
      if (!s.cubature_method) {
        throw BakeInputError("--cubature-method: expected " +
                             smfem::cubature::cubature_method_choices() + ", got \"" + name + "\"");
      }
    } else if (arg == "--cubature-per-region") {
      s.cubature_per_region = static_cast<int>(parse_integer(arg, value(), 0, 1'000'000));
    } else if (arg == "--cubature-fit-error") {
      s.cubature_fit_error = true;
    } else if (arg == "--youngs") {
      s.youngs = parse_real(arg, value());
      smfem::bake::check_youngs(*s.youngs, "--youngs");
    } else if (arg == "--poisson") {
      s.poisson = parse_real(arg, value());
      smfem::bake::check_poisson(*s.poisson, "--poisson");
    } else if (arg == "--density") {
      s.density = parse_real(arg, value());
      smfem::bake::check_density(*s.density, "--density");
    } else if (arg == "--paint") {
      s.paint.push_back(parse_paint(value(), static_cast<int>(s.paint.size()) + 1));
    } else if (arg == "--youngs-per-tet") {
      s.youngs_per_tet = value();
    } else if (arg == "--region-materials") {
      s.region_materials = value();
    } else if (arg == "--pin-file") {
      s.pin_file = value();
    } else if (arg == "--max-tets") {
      s.max_tets = parse_integer(arg, value(), 1, 100'000'000);
    } else if (arg == "--max-triangles") {
      s.max_triangles = parse_integer(arg, value(), 1, 1'000'000'000);
    } else if (arg == "--pin") {
      s.pin_spheres.push_back(parse_pin(value(), static_cast<int>(s.pin_spheres.size()) + 1));
    } else if (arg == "--pin-lowest") {
      s.pin_lowest = parse_real(arg, value());
      if (!(*s.pin_lowest > 0.0 && *s.pin_lowest <= 1.0)) {
        throw BakeInputError("--pin-lowest: expected a fraction of the body's height in (0, 1]");
      }
    } else if (arg == "--scale") {
      s.scale = parse_real(arg, value());
      if (!(*s.scale >= scene::kMinScale && *s.scale <= scene::kMaxScale)) {
        std::ostringstream range;
        range << "--scale: expected a factor in [" << scene::kMinScale << ", " << scene::kMaxScale
              << "] (0.001 for a mesh in millimetres), got " << *s.scale;
        throw BakeInputError(range.str());
      }
    } else if (arg == "--target-tets") {
      s.target_tets = static_cast<double>(parse_integer(arg, value(), 10, 5'000'000));
    } else if (arg == "--seed") {
      s.seed = static_cast<std::uint64_t>(parse_integer(arg, value(), 0, (1LL << 62)));
    } else if (arg == "--threads") {
      s.threads = static_cast<int>(parse_integer(arg, value(), 0, 1024));
    } else if (arg == "--contact-samples") {
      s.contact_samples = static_cast<int>(parse_integer(arg, value(), 0, 1'000'000));
    } else if (arg == "--collision-triangles") {
      const long long triangles = parse_integer(arg, value(), 0, 100'000'000);
      if (triangles > 0 && triangles < 4) {
        throw BakeInputError(
            "--collision-triangles: expected 0 (the whole boundary) or at least 4, got " +
            std::to_string(triangles));
      }
      s.collision_triangles = static_cast<int>(triangles);
    } else if (arg == "--full-mesh") {
      s.full_mesh = true;
    } else if (arg == "--full-mesh-copy") {
      options.full_mesh_copy = value();
    } else if (arg == "--tet-mesh") {
      options.tet_mesh = value();
    } else if (arg == "--eigenfit") {
      s.eigenfit = value();
    } else if (arg == "--eigenfit-modes") {
      s.eigenfit_modes =
          static_cast<int>(parse_integer(arg, value(), sim::kMinModes, sim::kMaxModes));
    } else if (arg == "--comparison-basis") {
      const std::string name = value();
      const auto& names = smfem::subspace::kDisplacementBasisNames;
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        throw BakeInputError("--comparison-basis: expected " +
                             smfem::subspace::displacement_basis_choices() + ", got \"" + name +
                             "\"");
      }
      options.comparison_basis = name;
      s.full_mesh = true;  // the displacement-basis stepper integrates on the whole mesh
    } else if (arg == "--json") {
      options.json = true;
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (arg == "-h" || arg == "--help") {
      help = true;
      return options;
    } else if (!arg.empty() && arg.front() == '-') {
      throw BakeInputError("unknown option " + std::string(arg));
    } else if (options.input.empty()) {
      options.input = arg;
    } else {
      throw BakeInputError("more than one input file: " + options.input.string() + " and " +
                           std::string(arg));
    }
  }
  if (options.input.empty()) throw BakeInputError("no input file");
  if (options.output.empty()) throw BakeInputError("no output file (-o <out.smfem>)");
  if (options.full_mesh_copy && s.full_mesh) {
    throw BakeInputError(
        "--full-mesh-copy: the asset itself already holds its tet mesh (--full-mesh or "
        "--comparison-basis); leave one of them out");
  }
  // What the bake writes never replaces what it reads, another of its outputs (`--tet-mesh` on
  // `-o` left the asset's name holding the mesh text, and exited 0), nor a folder (`-o
  // victim.obj` replaced the mesh by the asset; `-o .` baked and then failed to rename).
  const std::vector<std::pair<const char*, std::filesystem::path>> outputs = {
      {"-o", options.output},
      {"--full-mesh-copy", options.full_mesh_copy.value_or("")},
      {"--tet-mesh", options.tet_mesh.value_or("")}};
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      const auto& [option, file] = outputs[i];
      const auto& [earlier, earlier_file] = outputs[j];
      if (file.empty() || earlier_file.empty()) continue;
      if (std::filesystem::weakly_canonical(file) ==
          std::filesystem::weakly_canonical(earlier_file)) {
        throw BakeInputError(std::string(option) + " " + file.string() + " is also " + earlier +
                             "'s file: name another");
      }
    }
  }
  std::vector<std::filesystem::path> inputs;
  for (const std::filesystem::path& file :
       {options.input, s.eigenfit.value_or(""), s.youngs_per_tet.value_or(""),
        s.region_materials.value_or(""), s.pin_file.value_or("")}) {
    add_files_read(file, inputs);
  }
  for (const auto& [option, file] : outputs) {
    if (file.empty()) continue;
    const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
    if (!std::filesystem::is_directory(folder)) {
      throw BakeInputError(file.string() + ": the folder " + folder.string() + " does not exist");
    }
    if (std::filesystem::is_directory(file)) {
      throw BakeInputError(std::string(option) + " " + file.string() +
                           ": a folder is there; name a file");
    }
    for (const std::filesystem::path& input : inputs) {
      // The error_code form: libc++'s equivalent() throws where a path does not exist (the
      // output, mostly), and the bake's WebAssembly module cannot catch it.
      std::error_code unknown;
      if (std::filesystem::equivalent(input, file, unknown)) {
        throw BakeInputError(std::string(option) + " " + file.string() +
                             ": the bake reads this file; name another to write");
      }
    }
  }
  return options;
}

using bake::Clock;
using bake::seconds_since;
int bake(const Options& options, std::ostream& out, std::ostream& err) {
  const auto progress = [&](const std::string& message) {
    if (!options.quiet) err << "[smfem-bake] " << message << std::endl;
  };
  progress("reading " + options.input.string());
  const smfem::bake::BakeInput input =
      smfem::bake::load_bake_input(options.input, options.settings);
  // Printed whether --quiet or not: they are about the user's file, not the bake's progress.
  for (const std::string& warning : input.warnings) {
    err << "smfem-bake: warning: " << warning << std::endl;
  }
  progress(std::to_string(input.mesh.vertices.rows()) + " vertices, " +
           std::to_string(input.mesh.tets.rows()) + " tets, " +
           std::to_string(input.pinned.size()) + " pinned");
  const smfem::bake::BakeResult result = smfem::bake::run_bake(input, options.settings, progress);

  smfem::asset::AssetWriter writer = smfem::bake::bake_asset(input, result, options.settings);
  auto start = Clock::now();
  // EigenFit (--eigenfit, or the recipe's fit_resolution): the fine spectrum and the fit.
  const bool fitted = smfem::eigenfit::add_eigenfit_stage(writer, options.input, input, result,
                                                          options.settings, progress);
  if (!fitted && options.settings.eigenfit_modes) {
    throw BakeInputError("--eigenfit-modes needs --eigenfit FINE or a recipe with fit_resolution");
  }
  const double eigenfit_seconds = seconds_since(start);
  start = Clock::now();
  const nlohmann::json comparison =
      options.comparison_basis
          ? smfem::bake::add_comparison_basis(writer, *options.comparison_basis, input, result,
                                              options.settings, progress)
          : nlohmann::json(nullptr);
  const double comparison_seconds = seconds_since(start);

  progress("writing " + options.output.string());
  start = Clock::now();
  writer.write_file(options.output);
  if (options.full_mesh_copy) {
    progress("writing " + options.full_mesh_copy->string());
    smfem::bake::add_full_mesh(writer, input, result);
    writer.write_file(*options.full_mesh_copy);
  }
  if (options.tet_mesh) {
    progress("writing " + options.tet_mesh->string());
    smfem::asset::write_file_atomically(
        *options.tet_mesh,
        smfem::mesh::format_medit_mesh(
            input.mesh, "tet mesh baked by smfem-bake from " + options.input.filename().string()));
  }
  const double write_seconds = seconds_since(start);

  const smfem::bake::StageTimes& t = result.seconds;
  const nlohmann::json timings = {
      {"read", input.read_seconds},   {"tetrahedralize", input.tetrahedralize_seconds},
      {"laplacian", t.laplacian},     {"eigensolve", t.eigensolve},
      {"cubature", t.cubature},       {"render", t.render},
      {"eigenfit", eigenfit_seconds}, {"comparison_basis", comparison_seconds},
      {"write", write_seconds}};
  double total = 0.0;
  for (const auto& [stage, seconds] : timings.items()) total += seconds.get<double>();
  progress("done in " + std::to_string(total) + " s");
  if (options.json) {
    std::vector<double> eigenvalues(result.modes.eigenvalues.begin(),
                                    result.modes.eigenvalues.end());
    nlohmann::json summary = {
        {"input", options.input.string()},
        {"output", options.output.string()},
        {"vertices", input.mesh.vertices.rows()},
        {"tets", input.mesh.tets.rows()},
        {"pinned", input.pinned.size()},
        {"components", result.components},
        {"modes", input.modes},
        {"constant_modes", result.modes.constant_modes},
        {"cubature", result.cubature.tets.size()},
        {"cubature_method", smfem::cubature::cubature_method_name(input.cubature_method)},
        {"render_vertices", input.render_surface.vertices.rows()},
        {"eigenvalues", eigenvalues},
        {"timings_s", timings},
        {"total_s", total},
        {"warnings", input.warnings}};
    // How many cubature tets each material region holds (a region with none is invisible to
    // the solver: its modulus never enters it).
    summary["cubature_per_region"] = options.settings.cubature_per_region;
    nlohmann::json by_region = nlohmann::json::array();
    for (const smfem::bake::MaterialInfo& material : input.materials) {
      long long sampled = 0;
      for (const int tet : result.cubature.tets)
        sampled += input.mesh.regions(tet) == material.region;
      by_region.push_back(
          {{"region", material.region}, {"name", material.name}, {"cubature_tets", sampled}});
    }
    summary["cubature_by_region"] = by_region;
    if (!comparison.is_null()) summary["comparison_basis"] = comparison;
    // The recipe that bakes this model again (bake/bake_recipe.hpp), or why there is none.
    const smfem::bake::BakeRecipe recipe =
        options.comparison_basis
            ? smfem::bake::BakeRecipe{std::nullopt, "--comparison-basis has no recipe form"}
            : smfem::bake::bake_recipe(options.input, options.settings, input);
    if (recipe.recipe) {
      summary["recipe"] = *recipe.recipe;
    } else {
      summary["recipe_unavailable"] = recipe.why_not;
    }
    // k-means per region: each connected component of each region is clustered on its own
    // (by_component) unless |C| is below the number of components, when it falls back to the
    // regions; minimum is the floor each component (or region) got, min(per region, |C| /
    // strata), or its tets if fewer.
    const smfem::cubature::Strata& strata = result.cubature.strata;
    if (strata.regions > 0) {
      summary["cubature_strata"] = {{"regions", strata.regions},
                                    {"components", strata.components},
                                    {"by_component", strata.by_component},
                                    {"minimum", strata.minimum}};
    }
    if (result.cubature_fit) {
      // training_s is part of timings_s.cubature (0 for k-means, which does not train).
      const smfem::cubature::ForceFit& fit = *result.cubature_fit;
      summary["cubature_fit"] = {
          {"training_s", fit.training_seconds},        {"training_error", fit.training_error},
          {"held_out_error", fit.held_out_error},      {"training_poses", fit.training_poses},
          {"held_out_poses", fit.held_out_poses},      {"candidates", fit.candidates},
          {"greedy_iterations", fit.greedy_iterations}};
    }
    out << summary.dump(2) << std::endl;
  }
  return 0;
}

}  // namespace

int bake_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options options;
  bool help = false;
  try {
    options = parse_options(args, help);
  } catch (const BakeInputError& error) {
    err << "smfem-bake: " << error.what() << "\n" << kUsage;
    return 2;
  }
  if (help) {
    out << kUsage;
    return 0;
  }
  try {
    return bake(options, out, err);
  } catch (const BakeInputError& error) {
    err << "smfem-bake: " << error.what() << std::endl;
  } catch (const smfem::scene::SceneError& error) {
    err << "smfem-bake: " << error.what() << std::endl;
  } catch (const smfem::mesh::MeshError& error) {
    err << "smfem-bake: " << error.what() << std::endl;
  } catch (const smfem::geometry::GeometryError& error) {
    err << "smfem-bake: " << options.input.string() << ": " << error.what() << std::endl;
  } catch (const std::invalid_argument& error) {
    // The solvers' refusals of what this input asks (more modes than free vertices, fewer
    // modes than unpinned parts, ...).
    err << "smfem-bake: " << options.input.string() << ": " << error.what() << std::endl;
  } catch (const std::exception& error) {
    err << "smfem-bake: internal error: " << error.what() << std::endl;
    return 1;
  }
  return 2;
}

}  // namespace smfem::command
