#include "smfem/bake/run_bake.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>

#include "smfem/bake/stage_clock.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/lumped_mass.hpp"

namespace smfem::bake {
namespace {

int find_root(std::vector<int>& parent, int v) {
  while (parent[static_cast<std::size_t>(v)] != v) {
    parent[static_cast<std::size_t>(v)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
    v = parent[static_cast<std::size_t>(v)];
  }
  return v;
}

// The stepper refuses a reduced mass matrix that is not positive definite (sim/model/
// reduced_model.hpp): say so here, before the cubature, with what to change. Each vertex adds a
// rank-one term, so 4m unknowns need at least 4m vertices that move.
void refuse_singular_mass(const Eigen::MatrixXd& mass_block, const BakeInput& input) {
  if (Eigen::LLT<Eigen::MatrixXd>(mass_block).info() == Eigen::Success) return;
  const Eigen::Index free =
      input.mesh.vertices.rows() - static_cast<Eigen::Index>(input.pinned.size());
  const std::string modes = std::to_string(input.modes) + " modes";
  // What to ask instead: the count a default bake takes (bake_input.hpp), below this one.
  const std::string fewer =
      "bake with --modes " +
      std::to_string(std::clamp(modes_carried(input), 1, std::max(input.modes - 1, 1))) +
      " or fewer, or a finer mesh";
  if (free < mass_block.rows()) {
    throw std::invalid_argument(modes + " need at least " + std::to_string(mass_block.rows()) +
                                " free vertices (4 per mode) and the mesh has " +
                                std::to_string(free) + ": " + fewer);
  }
  throw std::invalid_argument("the reduced mass matrix of " + modes + " is singular: its " +
                              std::to_string(free) + " free vertices do not carry them (" + fewer +
                              ")");
}

}  // namespace

sim::MaterialModel material_model(const BakeInput& input) {
  const auto solver = input.scene.find("solver");
  if (solver != input.scene.end() && solver->contains("material_model")) {
    const auto named =
        sim::material_model_from_name(solver->at("material_model").get<std::string>());
    if (named) return *named;
  }
  return sim::SolverSettings{}.material_model;
}

int connected_components(const mesh::TetMesh& mesh) {
  std::vector<int> parent(static_cast<std::size_t>(mesh.vertices.rows()));
  std::iota(parent.begin(), parent.end(), 0);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    const int a = find_root(parent, mesh.tets(t, 0));
    for (int k = 1; k < 4; ++k) {
      const int b = find_root(parent, mesh.tets(t, k));
      if (a != b) parent[static_cast<std::size_t>(b)] = a;
    }
  }
  // One root per part; count each the first time a tet reaches it.
  std::vector<bool> root_seen(parent.size(), false);
  int parts = 0;
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    const auto root = static_cast<std::size_t>(find_root(parent, mesh.tets(t, 0)));
    if (!root_seen[root]) {
      root_seen[root] = true;
      ++parts;
    }
  }
  return parts;
}

BakeResult run_bake(const BakeInput& input, const BakeSettings& settings,
                    const Progress& progress) {
  const auto say = [&](const std::string& message) {
    if (progress) progress(message);
  };
  const mesh::TetMesh& mesh = input.mesh;
  BakeResult result;
  result.components = connected_components(mesh);

  say("Laplacian and lumped mass of " + std::to_string(mesh.tets.rows()) + " tets");
  auto start = Clock::now();
  const Eigen::SparseMatrix<double> H =
      subspace::elastic_laplacian(mesh, input.youngs, input.poisson);
  result.tet_volumes = subspace::tet_rest_volumes(mesh);
  result.vertex_mass = subspace::lumped_mass(mesh, input.density);
  result.seconds.laplacian = seconds_since(start);

  say("eigensolve: " + std::to_string(input.modes) + " modes, " +
      std::to_string(mesh.vertices.rows() - static_cast<Eigen::Index>(input.pinned.size())) +
      " free vertices");
  start = Clock::now();
  subspace::EigenmodeOptions eigen_options;
  eigen_options.threads = settings.threads;
  const Eigen::VectorXi pinned = Eigen::Map<const Eigen::VectorXi>(
      input.pinned.data(), static_cast<Eigen::Index>(input.pinned.size()));
  result.modes = subspace::skinning_eigenmodes(H, result.vertex_mass, mesh.vertices, input.modes,
                                               pinned, eigen_options);
  const subspace::RowMatrixXd B = subspace::vertex_basis(mesh, result.modes.weights);
  result.mass_block = subspace::reduced_mass(B, result.vertex_mass);
  refuse_singular_mass(result.mass_block, input);
  result.mass_vector = subspace::reduced_gravity(B, result.vertex_mass);
  result.first_moment = mesh.vertices.transpose() * result.vertex_mass.asDiagonal() * B;
  result.total_mass = result.vertex_mass.sum();
  result.rest_centroid = (mesh.vertices.transpose() * result.vertex_mass) / result.total_mass;
  result.forces = reduced_forces(input.forces, mesh, B, result.vertex_mass);
  result.seconds.eigensolve = seconds_since(start);

  const std::string_view method = cubature::cubature_method_name(input.cubature_method);
  say("cubature: " + std::to_string(input.cubature) + " tets by " + std::string(method));
  start = Clock::now();
  const cubature::ElasticBody body{
      mesh,         result.modes.weights, result.modes.eigenvalues, result.tet_volumes,
      input.youngs, input.poisson,        material_model(input)};
  cubature::OptimizedCubatureOptions fit_options;
  fit_options.tets = input.cubature;
  fit_options.seed = settings.seed;
  fit_options.threads = settings.threads;
  fit_options.per_region = settings.cubature_per_region;
  const Eigen::MatrixXd tet_weights = subspace::tet_averaged_weights(mesh, result.modes.weights);
  if (input.cubature_method == cubature::CubatureMethod::nnls) {
    cubature::OptimizedCubature optimized = cubature::optimized_cubature(body, fit_options);
    result.cubature = std::move(optimized.cubature);
    result.cubature_fit = optimized.fit;
  } else {
    cubature::CubatureOptions cubature_options;
    cubature_options.clusters = input.cubature;
    cubature_options.seed = settings.seed;
    cubature_options.threads = settings.threads;
    result.cubature =
        settings.cubature_per_region > 0
            ? cubature::stratified_kmeans_cubature(
                  result.tet_volumes, tet_weights, result.modes.eigenvalues, mesh.regions,
                  mesh.tets, cubature_options, settings.cubature_per_region)
            : cubature::kmeans_cubature(result.tet_volumes, tet_weights, result.modes.eigenvalues,
                                        cubature_options);
    if (settings.cubature_fit_error) {
      result.cubature_fit = cubature::force_fit(body, result.cubature, fit_options);
    }
  }
  if (result.cubature_fit) {
    const cubature::ForceFit& fit = *result.cubature_fit;
    std::ostringstream line;
    line << "cubature: " << method << ", " << result.cubature.tets.size()
         << " tets, relative force error " << fit.training_error << " on " << fit.training_poses
         << " training poses, " << fit.held_out_error << " on " << fit.held_out_poses
         << " held out";
    if (fit.candidates > 0) line << "; trained in " << fit.training_seconds << " s";
    if (result.cubature.tets.size() < input.cubature) {
      line << " (" << input.cubature << " asked: "
           << (!result.cubature.converged ? "the greedy ran out of steps"
               : fit.training_error <= fit_options.tolerance
                   ? "the fit reached its tolerance"
                   : "no other candidate improves the fit")
           << ")";
    }
    say(line.str());
  }
  result.representative_weights = tet_weights(result.cubature.tets, Eigen::all);
  result.Y = subspace::tet_basis_gradients(mesh, result.modes.weights, result.cubature.tets);
  result.seconds.cubature = seconds_since(start);

  say("render weights of " + std::to_string(input.render_surface.vertices.rows()) + " vertices");
  start = Clock::now();
  result.render_weights = render::render_weights(input.render_surface, result.modes.weights);
  result.seconds.render = seconds_since(start);
  return result;
}

}  // namespace smfem::bake
