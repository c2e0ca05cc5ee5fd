#include "smfem/bake/comparison_stage.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "smfem/asset/format.hpp"
#include "smfem/bake/stage_clock.hpp"
#include "smfem/cubature/cubature.hpp"
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

DisplacementFeatures displacement_features(const BakeInput& input,
                                           const subspace::ComparisonBasis& basis) {
  const mesh::TetMesh& mesh = input.mesh;
  const auto columns =
      static_cast<int>(std::min<Eigen::Index>(basis.rigid_modes + input.modes, basis.basis.cols()));
  const Eigen::MatrixXd leading = basis.basis.leftCols(columns);
  const Eigen::SparseMatrix<double> K =
      subspace::elastic_stiffness(mesh, input.youngs, input.poisson);
  const Eigen::VectorXd M =
      subspace::unknown_mass(subspace::lumped_mass(mesh, input.density));
  Eigen::MatrixXd vertex_displacements(mesh.vertices.rows(), 3 * columns);
  DisplacementFeatures features{Eigen::MatrixXd(), Eigen::VectorXd(3 * columns)};
  for (int j = 0; j < columns; ++j) {
    const Eigen::VectorXd phi = leading.col(j);
    const double quotient = phi.dot(K * phi) / phi.dot(M.asDiagonal() * phi);
    for (int d = 0; d < 3; ++d) {
      // Rounding makes a rigid mode's quotient a tiny positive number, not 0: it is dropped
      // by cubature_features's relative cut all the same.
      features.quotients(3 * j + d) = std::max(quotient, 0.0);
      vertex_displacements.col(3 * j + d) =
          phi(Eigen::seqN(d, mesh.vertices.rows(), 3));
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
  const DisplacementFeatures features = displacement_features(input, basis);
  cubature::CubatureOptions options;
  options.clusters = static_cast<int>(result.cubature.tets.size());
  options.seed = settings.seed;
  options.threads = settings.threads;
  const cubature::Cubature cubature =
      settings.cubature_per_region > 0
          ? cubature::stratified_kmeans_cubature(result.tet_volumes, features.tet_displacements,
                                                 features.quotients, input.mesh.regions,
                                                 input.mesh.tets, options,
                                                 settings.cubature_per_region)
          : cubature::kmeans_cubature(result.tet_volumes, features.tet_displacements,
                                      features.quotients, options);
  const double cubature_seconds = seconds_since(start);
  say("comparison basis: " + std::to_string(basis.basis.cols()) + " columns in " +
      std::to_string(basis.seconds) + " s, k-means cubature of " +
      std::to_string(cubature.tets.size()) + " tets in " + std::to_string(cubature_seconds) +
      " s");

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

  const nlohmann::json summary = {
      {"basis", basis.name},
      {"coordinates", basis.basis.cols()},
      {"modes", basis.modes},
      {"rigid_modes", basis.rigid_modes},
      {"dropped_columns", basis.dropped},
      {"derivatives_of", basis.name == "modal_derivatives"
                             ? nlohmann::json(std::string(sim::material_model_name(sizes.material)))
                             : nlohmann::json(nullptr)},
      {"training_s", basis.seconds},
      {"cubature", "kmeans"},
      {"cubature_tets", cubature.tets.size()},
      {"cubature_s", cubature_seconds}};
  nlohmann::json meta = writer.meta();
  meta["displacement"] = summary;
  writer.set_meta(meta);
  return summary;
}

}  // namespace smfem::bake
