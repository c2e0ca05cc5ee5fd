#include "smfem/bake/comparison_stage.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "smfem/asset/format.hpp"
#include "smfem/bake/stage_clock.hpp"
#include "smfem/cubature/cubature.hpp"
#include "smfem/cubature/displacement_cubature.hpp"
#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/comparison_bases.hpp"
#include "smfem/subspace/displacement_basis.hpp"
#include "smfem/subspace/elastic_stiffness.hpp"
#include "smfem/subspace/lumped_mass.hpp"

namespace smfem::bake {
namespace {

// The k-means features of comparison_stage.hpp: |T| x 3c mean displacements of the leading
// c columns and their Rayleigh quotients (3c, each column's thrice).
struct DisplacementFeatures {
  Eigen::MatrixXd tet_displacements;
  Eigen::VectorXd quotients;
};

// phi^T K phi / phi^T M phi of each column (>= 0), exactly 0 for the basis's leading rigid
// columns: rounding would make theirs a positive number that grows with the mesh's stiffest
// mode, and the cubatures' relative cuts could then keep them.
Eigen::VectorXd rayleigh_quotients(const BakeInput& input, const Eigen::MatrixXd& columns,
                                   int rigid_columns) {
  const Eigen::SparseMatrix<double> K =
      subspace::elastic_stiffness(input.mesh, input.youngs, input.poisson);
  const Eigen::VectorXd M =
      subspace::unknown_mass(subspace::lumped_mass(input.mesh, input.density));
  Eigen::VectorXd quotients(columns.cols());
  for (Eigen::Index j = 0; j < columns.cols(); ++j) {
    const Eigen::VectorXd phi = columns.col(j);
    quotients(j) =
        j < rigid_columns ? 0.0 : std::max(phi.dot(K * phi) / phi.dot(M.asDiagonal() * phi), 0.0);
  }
  return quotients;
}

DisplacementFeatures displacement_features(const BakeInput& input,
                                           const subspace::ComparisonBasis& basis) {
  const mesh::TetMesh& mesh = input.mesh;
  const auto columns =
      static_cast<int>(std::min<Eigen::Index>(basis.rigid_modes + input.modes, basis.basis.cols()));
  const Eigen::VectorXd quotients =
      rayleigh_quotients(input, basis.basis.leftCols(columns), basis.rigid_modes);
  Eigen::MatrixXd vertex_displacements(mesh.vertices.rows(), 3 * columns);
  DisplacementFeatures features{Eigen::MatrixXd(), Eigen::VectorXd(3 * columns)};
  for (int j = 0; j < columns; ++j) {
    for (int d = 0; d < 3; ++d) {
      features.quotients(3 * j + d) = quotients(j);
      vertex_displacements.col(3 * j + d) =
          basis.basis.col(j)(Eigen::seqN(d, mesh.vertices.rows(), 3));
    }
  }
  features.tet_displacements = subspace::tet_averaged_weights(mesh, vertex_displacements);
  return features;
}

sim::MaterialModel derivative_material(const BakeInput& input) {
  const sim::MaterialModel model = material_model(input);
  // Modal derivatives differentiate the fixed corotational or stable neo-Hookean energy
  // (subspace/modal_derivatives.hpp); ARAP's are the corotational ones without volume terms.
  return model == sim::MaterialModel::stable_neo_hookean ? model
                                                         : sim::MaterialModel::fixed_corotational;
}

}  // namespace

nlohmann::json add_comparison_basis(asset::AssetWriter& writer, const std::string& basis_name,
                                    const BakeInput& input, const BakeResult& result,
                                    const BakeSettings& settings, const Progress& progress) {
  if (!settings.full_mesh) {
    // The stepper evaluates a displacement basis on the mesh's tets (mesh.*, which bake_asset
    // writes with full_mesh).
    throw std::logic_error("add_comparison_basis: the asset needs the full mesh (full_mesh)");
  }
  const auto say = [&](const std::string& message) {
    if (progress) progress(message);
  };
  say("comparison basis: " + basis_name + " with " + std::to_string(12 * input.modes) +
      " coordinates");
  subspace::BasisSizes sizes;
  sizes.skinning_modes = input.modes;
  sizes.material = derivative_material(input);
  sizes.threads = settings.threads;
  Eigen::VectorXi pinned(static_cast<Eigen::Index>(input.pinned.size()));
  for (std::size_t i = 0; i < input.pinned.size(); ++i) {
    pinned(static_cast<Eigen::Index>(i)) = input.pinned[i];
  }
  const subspace::ComparisonBasis basis = subspace::displacement_basis(
      basis_name, input.mesh, input.youngs, input.poisson, input.density, pinned, sizes);

  const auto start = Clock::now();
  const int count = static_cast<int>(result.cubature.tets.size());
  const bool optimized = input.cubature_method == cubature::CubatureMethod::nnls;
  std::optional<cubature::ForceFit> fit;
  cubature::Cubature cubature;
  if (optimized) {
    const Eigen::VectorXd quotients = rayleigh_quotients(input, basis.basis, basis.rigid_modes);
    cubature::OptimizedCubatureOptions options;
    options.tets = count;
    options.seed = settings.seed;
    options.threads = settings.threads;
    cubature::OptimizedCubature fitted = cubature::optimized_displacement_cubature(
        {input.mesh, basis.basis, quotients, result.tet_volumes, input.youngs, input.poisson,
         material_model(input)},
        options);
    cubature = std::move(fitted.cubature);
    fit = fitted.fit;
  } else {
    const DisplacementFeatures features = displacement_features(input, basis);
    cubature::CubatureOptions options;
    options.clusters = count;
    options.seed = settings.seed;
    options.threads = settings.threads;
    cubature = settings.cubature_per_region > 0
                   ? cubature::stratified_kmeans_cubature(
                         result.tet_volumes, features.tet_displacements, features.quotients,
                         input.mesh.regions, input.mesh.tets, options, settings.cubature_per_region)
                   : cubature::kmeans_cubature(result.tet_volumes, features.tet_displacements,
                                               features.quotients, options);
  }
  const double cubature_seconds = seconds_since(start);
  const std::string method(cubature::cubature_method_name(input.cubature_method));
  say("comparison basis: " + std::to_string(basis.basis.cols()) + " columns in " +
      std::to_string(basis.seconds) + " s, " + method + " cubature of " +
      std::to_string(cubature.tets.size()) + " tets in " + std::to_string(cubature_seconds) + " s");

  const auto k = static_cast<std::size_t>(basis.basis.cols());
  const auto rows = static_cast<std::size_t>(basis.basis.rows());
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> row_major =
      basis.basis;
  writer.add("displacement.basis", std::span(row_major.data(), rows * k), asset::Shape{rows, k});
  std::vector<std::uint32_t> tets(cubature.tets.begin(), cubature.tets.end());
  writer.add("displacement.cubature_tets", tets, asset::Shape{tets.size()});
  writer.add("displacement.cubature_weights",
             std::span(cubature.weights.data(), static_cast<std::size_t>(cubature.weights.size())),
             asset::Shape{static_cast<std::size_t>(cubature.weights.size())});

  nlohmann::json summary = {
      {"basis", basis.name},
      {"coordinates", basis.basis.cols()},
      {"modes", basis.modes},
      {"rigid_modes", basis.rigid_modes},
      {"dropped_columns", basis.dropped},
      {"derivatives_of", basis.name == "modal_derivatives"
                             ? nlohmann::json(std::string(sim::material_model_name(sizes.material)))
                             : nlohmann::json(nullptr)},
      {"training_s", basis.seconds},
      {"cubature", method},
      {"cubature_tets", cubature.tets.size()},
      {"cubature_s", cubature_seconds}};
  if (fit) {
    summary["cubature_fit"] = {
        {"training_error", fit->training_error}, {"held_out_error", fit->held_out_error},
        {"training_poses", fit->training_poses}, {"held_out_poses", fit->held_out_poses},
        {"candidates", fit->candidates},         {"greedy_iterations", fit->greedy_iterations}};
  }
  nlohmann::json meta = writer.meta();
  meta["displacement"] = summary;
  writer.set_meta(meta);
  return summary;
}

}  // namespace smfem::bake
