// The comparison subspaces of Subspace MFEM (Trusty et al. 2023), Fig. 5 on one body: skinning
// eigenmodes against linear modal analysis and linear modes with modal derivatives (Barbic and
// James 2005), each built from the input's mesh and materials (subspace/comparison_bases.hpp),
// under a large rotation and, optionally, in the same FEM and MFEM steps
// (displacement/displacement_simulator.hpp, every tet a quadrature point) against the full space.
//
//   smfem-subspaces <recipe.json | mesh> [options]
//
//   --modes M              skinning weights m (default: the input's, as smfem-bake takes it)
//   --linear-modes K       linear modes (default 12m: the skinning subspace's coordinate count)
//   --derivative-modes K2  non-rigid modes differentiated (default: the most whose basis fits
//                          12m coordinates)
//   --material fcr|snh     the material of the modal derivatives and the dynamics (default: the
//                          input's solver.material_model; an ARAP input needs one of these, as
//                          ARAP's rest Hessian is not the modes' stiffness)
//   --angles A1,A2,...     rotation angles, degrees (default 0,15,...,180)
//   --axis X,Y,Z           rotation axis through the centre of mass (default 0,0,1)
//   --no-rotation          no rotation table
//   --dynamics             step every basis from rest under the input's gravity and pins
//   --steps N              dynamics steps (default 100), at the input's time step
//   --iters I              solver iterations per step (default: the input's)
//   --methods M1,M2        mfem and/or fem (default mfem,fem)
//   --no-full              no full-space reference (full/full_simulator.hpp) in the dynamics
//   --threads T            threads (default 1)
//
// The rotation table is taken on the body free (its pins dropped, bases built again without
// them): a pinned vertex cannot follow a rotation about the centre of mass in any subspace. The
// dynamics use the bases built with the input's pins. Prints one JSON object (progress on
// stderr); every list is of flat rows:
//
//   input, vertices, tets, pinned (vertex count), modes (m), material_model, timestep (s),
//   gravity [3]
//   bases[]:     basis ("skinning" | "linear" | "modal_derivatives"), pins ("kept" | "dropped";
//                "kept" when the input has none), coordinates (the basis's size), build_seconds
//                (wall clock to build it from the mesh: its training time), modes (weights,
//                linear modes, or non-rigid modes differentiated), rigid_modes (constant or
//                rigid modes of free parts among them), dropped_columns (near-dependent
//                derivatives dropped)
//   rotation_axis [3], rotation_centre [3] (m)
//   rotation[]:  basis, angle_deg, residual (||projected - rotated||_M / ||rotated - rest||_M),
//                volume_mean (volume-weighted mean of |det F - 1| over tets), volume_max (max of
//                |det F - 1|), volume_change (relative change of the total volume), all of the
//                turned rest shape projected onto the basis in the mass norm
//   tip_vertex, tip_rest [3]: the vertex farthest from the pins' centroid (the centre of mass if
//                none), and its rest position
//   dynamics[]:  basis (or "full"), method ("mfem" | "fem"), step (1-based), time (s), tip_x,
//                tip_y, tip_z (the tip's position, m), centroid_y (the mass-weighted mean
//                height of the vertices, m), volume_mean, volume_max, volume_change
//                (as above, of the current shape), iterations, ok (false: the step failed and
//                was undone)
//   runs[]:      basis, method, coordinates, steps, ms_per_step, failed_steps
//
// Exits 2 on bad arguments, 1 on bad input or a failed build, with the message.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/bake/bake_input.hpp"
#include "smfem/displacement/displacement_simulator.hpp"
#include "smfem/full/full_simulator.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/subspace/comparison_bases.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/rotation_artifact.hpp"

namespace {

using namespace smfem;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-subspaces: " << problem
            << "\nusage: smfem-subspaces <recipe.json | mesh> [--modes M] [--linear-modes K] "
               "[--derivative-modes K2] [--material fcr|snh] [--angles A1,A2,...] [--axis X,Y,Z] "
               "[--no-rotation] [--dynamics] [--steps N] [--iters I] [--methods mfem,fem] "
               "[--no-full] [--threads T]\n";
  std::exit(2);
}

double number(const std::string& text, const std::string& option) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value)) {
    usage(option + ": expected a number, got \"" + text + "\"");
  }
  return value;
}

int integer(const std::string& text, const std::string& option, int lowest) {
  const double value = number(text, option);
  if (value != std::floor(value) || value < lowest || value > 1e6) {
    usage(option + ": expected an integer >= " + std::to_string(lowest) + ", got \"" + text + "\"");
  }
  return static_cast<int>(value);
}

std::vector<std::string> items(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) out.push_back(item);
  return out;
}

struct Options {
  std::string input;
  std::optional<int> modes;
  int linear_modes = 0;
  int derivative_modes = 0;
  std::optional<sim::MaterialModel> material;
  std::vector<double> angles;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  bool rotation = true;
  bool dynamics = false;
  int steps = 100;
  std::optional<int> iterations;
  std::vector<sim::SolverMethod> methods{sim::SolverMethod::mfem, sim::SolverMethod::fem};
  bool full = true;
  int threads = 1;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int angle = 0; angle <= 180; angle += 15) options.angles.push_back(angle);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--modes") {
      options.modes = integer(value(), arg, 1);
    } else if (arg == "--linear-modes") {
      options.linear_modes = integer(value(), arg, 1);
    } else if (arg == "--derivative-modes") {
      options.derivative_modes = integer(value(), arg, 1);
    } else if (arg == "--material") {
      const std::string name = value();
      if (name == "fcr") {
        options.material = sim::MaterialModel::fixed_corotational;
      } else if (name == "snh") {
        options.material = sim::MaterialModel::stable_neo_hookean;
      } else {
        usage(arg + ": expected fcr or snh, got \"" + name + "\"");
      }
    } else if (arg == "--angles") {
      options.angles.clear();
      for (const std::string& item : items(value())) options.angles.push_back(number(item, arg));
      if (options.angles.empty()) usage(arg + ": give at least one angle");
    } else if (arg == "--axis") {
      const std::vector<std::string> parts = items(value());
      if (parts.size() != 3) usage(arg + ": expected X,Y,Z");
      for (int d = 0; d < 3; ++d) options.axis(d) = number(parts[d], arg);
      if (!(options.axis.norm() > 0.0)) usage(arg + ": the axis must not be zero");
      options.axis.normalize();
    } else if (arg == "--no-rotation") {
      options.rotation = false;
    } else if (arg == "--dynamics") {
      options.dynamics = true;
    } else if (arg == "--steps") {
      options.steps = integer(value(), arg, 1);
    } else if (arg == "--iters") {
      options.iterations = integer(value(), arg, 1);
    } else if (arg == "--methods") {
      options.methods.clear();
      for (const std::string& item : items(value())) {
        const auto method = sim::solver_method_from_name(item);
        if (!method) usage(arg + ": expected mfem or fem, got \"" + item + "\"");
        options.methods.push_back(*method);
      }
      if (options.methods.empty()) usage(arg + ": give at least one method");
    } else if (arg == "--no-full") {
      options.full = false;
    } else if (arg == "--threads") {
      options.threads = integer(value(), arg, 1);
    } else if (!arg.starts_with("-") && options.input.empty()) {
      options.input = arg;
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (options.input.empty()) usage("give a recipe or a mesh");
  return options;
}

nlohmann::json vector_json(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

// The body as the full-space reference reads it (full/full_model.hpp).
full::FullModel full_model(const bake::BakeInput& input) {
  full::FullModel model;
  model.source = input.source;
  model.positions = input.mesh.vertices;
  model.tets = input.mesh.tets;
  model.youngs = input.youngs;
  model.poisson = input.poisson;
  model.density = input.density;
  model.pinned = input.pinned;
  model.defaults = sim::read_solver_defaults(input.scene, input.source);
  return model;
}

// The vertex farthest from the pins' centroid (from the centre of mass if nothing is pinned).
int tip_vertex(const full::FullModel& model, const Eigen::Vector3d& centre_of_mass) {
  Eigen::Vector3d from = centre_of_mass;
  if (!model.pinned.empty()) {
    from.setZero();
    for (const int v : model.pinned) from += model.positions.row(v).transpose();
    from /= static_cast<double>(model.pinned.size());
  }
  Eigen::Index tip = 0;
  (model.positions.rowwise() - from.transpose()).rowwise().squaredNorm().maxCoeff(&tip);
  return static_cast<int>(tip);
}

nlohmann::json bases_json(const std::vector<subspace::ComparisonBasis>& bases,
                          const std::string& pins) {
  nlohmann::json rows = nlohmann::json::array();
  for (const subspace::ComparisonBasis& basis : bases) {
    rows.push_back({{"basis", basis.name},
                    {"pins", pins},
                    {"coordinates", basis.basis.cols()},
                    {"build_seconds", basis.seconds},
                    {"modes", basis.modes},
                    {"rigid_modes", basis.rigid_modes},
                    {"dropped_columns", basis.dropped}});
  }
  return rows;
}

// One dynamics run: every step's tip and volume distortion, and the run's summary.
template <class Simulator>
void record_run(Simulator& simulator, const std::string& name, sim::SolverMethod method,
                long coordinates, const Options& options, const full::FullModel& model,
                const mesh::TetMesh& mesh, int tip, nlohmann::json& rows, nlohmann::json& runs) {
  std::cerr << "dynamics: " << name << ", " << sim::solver_method_name(method) << "\n";
  const double h = simulator.settings().timestep;
  const Eigen::VectorXd mass = full::lumped_vertex_mass(model);
  double total_ms = 0.0;
  int failed = 0;
  for (int step = 1; step <= options.steps; ++step) {
    const full::FullStepReport& report = simulator.step();
    total_ms += report.step_ms;
    failed += report.ok ? 0 : 1;
    const sim::ReducedMatrix U = simulator.displacements();
    const Eigen::VectorXd u = U.transpose().reshaped();
    const subspace::VolumeDistortion volume = subspace::volume_distortion(mesh, u);
    const Eigen::Vector3d x = model.positions.row(tip).transpose() + U.row(tip).transpose();
    const double centroid_y = (model.positions.col(1) + U.col(1)).dot(mass) / mass.sum();
    rows.push_back({{"basis", name},
                    {"method", sim::solver_method_name(method)},
                    {"step", step},
                    {"time", step * h},
                    {"tip_x", x.x()},
                    {"tip_y", x.y()},
                    {"tip_z", x.z()},
                    {"centroid_y", centroid_y},
                    {"volume_mean", volume.mean},
                    {"volume_max", volume.max},
                    {"volume_change", volume.total_change},
                    {"iterations", report.stats.iterations},
                    {"ok", report.ok}});
  }
  runs.push_back({{"basis", name},
                  {"method", sim::solver_method_name(method)},
                  {"coordinates", coordinates},
                  {"steps", options.steps},
                  {"ms_per_step", total_ms / options.steps},
                  {"failed_steps", failed}});
}

int run(const Options& options) {
  bake::BakeSettings settings;
  settings.modes = options.modes;
  settings.threads = options.threads;
  std::cerr << "reading " << options.input << "\n";
  const bake::BakeInput input = bake::load_bake_input(options.input, settings);
  const full::FullModel model = full_model(input);
  sim::SolverSettings solver = model.defaults;
  if (options.material) solver.material_model = *options.material;
  if (options.iterations) solver.iterations = *options.iterations;

  subspace::BasisSizes sizes;
  sizes.skinning_modes = input.modes;
  sizes.linear_modes = options.linear_modes;
  sizes.derivative_modes = options.derivative_modes;
  sizes.material = solver.material_model;
  sizes.threads = options.threads;
  const Eigen::VectorXd mass = subspace::lumped_mass(input.mesh, input.density);
  const Eigen::Vector3d centre = input.mesh.vertices.transpose() * mass / mass.sum();
  const Eigen::VectorXi pins = Eigen::Map<const Eigen::VectorXi>(
      input.pinned.data(), static_cast<Eigen::Index>(input.pinned.size()));
  const bool has_pins = !input.pinned.empty();

  nlohmann::json out = {{"input", input.source},
                        {"vertices", model.vertex_count()},
                        {"tets", model.tet_count()},
                        {"pinned", input.pinned.size()},
                        {"modes", input.modes},
                        {"material_model", sim::material_model_name(solver.material_model)},
                        {"timestep", solver.timestep},
                        {"gravity", vector_json(solver.gravity)},
                        {"bases", nlohmann::json::array()}};
  const auto build = [&](const Eigen::VectorXi& pinned, const std::string& pins_name) {
    std::cerr << "bases, pins " << pins_name << "\n";
    std::vector<subspace::ComparisonBasis> bases = subspace::comparison_bases(
        input.mesh, input.youngs, input.poisson, input.density, pinned, sizes);
    for (nlohmann::json& row : bases_json(bases, pins_name)) out["bases"].push_back(row);
    return bases;
  };

  std::vector<subspace::ComparisonBasis> pinned_bases;
  if (options.dynamics || !has_pins) pinned_bases = build(pins, "kept");
  if (options.rotation) {
    const std::vector<subspace::ComparisonBasis> free_bases =
        has_pins ? build(Eigen::VectorXi(), "dropped") : pinned_bases;
    nlohmann::json rows = nlohmann::json::array();
    for (const subspace::ComparisonBasis& basis : free_bases) {
      for (const double degrees : options.angles) {
        const subspace::RotationFit fit =
            subspace::fit_rotation(input.mesh, mass, basis.basis, centre, options.axis,
                                   degrees * std::numbers::pi / 180.0);
        rows.push_back({{"basis", basis.name},
                        {"angle_deg", degrees},
                        {"residual", fit.residual},
                        {"volume_mean", fit.volume.mean},
                        {"volume_max", fit.volume.max},
                        {"volume_change", fit.volume.total_change}});
      }
    }
    out["rotation_axis"] = vector_json(options.axis);
    out["rotation_centre"] = vector_json(centre);
    out["rotation"] = rows;
  }

  if (options.dynamics) {
    const int tip = tip_vertex(model, centre);
    out["tip_vertex"] = tip;
    out["tip_rest"] = vector_json(model.positions.row(tip).transpose());
    nlohmann::json rows = nlohmann::json::array();
    nlohmann::json runs = nlohmann::json::array();
    for (const sim::SolverMethod method : options.methods) {
      solver.method = method;
      for (const subspace::ComparisonBasis& basis : pinned_bases) {
        displacement::DisplacementSimulator simulator(model, basis.basis, solver, options.threads);
        record_run(simulator, basis.name, method, basis.basis.cols(), options, model, input.mesh,
                   tip, rows, runs);
      }
      if (options.full) {
        full::FullSimulator simulator(model, solver, options.threads);
        record_run(simulator, "full", method, simulator.dof_count(), options, model, input.mesh,
                   tip, rows, runs);
      }
    }
    out["dynamics"] = rows;
    out["runs"] = runs;
  }
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::cerr << "smfem-subspaces: " << error.what() << "\n";
    return 1;
  }
}
