#include "smfem/sim/model/reduced_model_writer.hpp"

#include <cmath>
#include <span>
#include <string>

namespace smfem::sim {

void add_reduced_model(asset::AssetWriter& writer, const ReducedModel& model) {
  const auto n = static_cast<std::uint64_t>(4 * model.mode_count());
  const auto C = static_cast<std::uint64_t>(model.cubature_count());
  const auto add = [&](const std::string& name, const Eigen::MatrixXd& values,
                       const asset::Shape& shape) {
    // Eigen is column-major: the transpose's storage is the row-major order.
    const Eigen::MatrixXd transposed = values.transpose();
    writer.add(name, std::span<const double>(transposed.data(), transposed.size()), shape);
  };
  add("subspace.eigenvalues", model.eigenvalues, {static_cast<std::uint64_t>(model.mode_count())});
  add("subspace.mass_block", model.mass_block, {n, n});
  add("subspace.mass_vector", model.mass_vector,
      {static_cast<std::uint64_t>(model.mass_vector.size())});
  add("subspace.first_moment", model.first_moment, {3, n});
  add("subspace.total_mass", Eigen::MatrixXd::Constant(1, 1, model.total_mass), {1});
  add("subspace.rest_centroid", model.rest_centroid, {3});
  // cubature.y is [C, 4m, 3]: entry (c, k, j) = (Y_c)(k, j) = cubature_Y(3c + j, k).
  std::vector<double> Y(static_cast<std::size_t>(C * n * 3));
  for (std::uint64_t c = 0; c < C; ++c) {
    for (std::uint64_t k = 0; k < n; ++k) {
      for (std::uint64_t j = 0; j < 3; ++j) {
        Y[static_cast<std::size_t>((c * n + k) * 3 + j)] =
            model.cubature_Y(static_cast<Eigen::Index>(3 * c + j), static_cast<Eigen::Index>(k));
      }
    }
  }
  writer.add("cubature.y", std::span<const double>(Y), {C, n, 3});
  add("cubature.weights", model.cubature_weights, {C});
  add("cubature.youngs", model.cubature_youngs, {C});
  add("cubature.poisson", model.cubature_poisson, {C});
  writer.add("cubature.region", std::span<const std::uint32_t>(model.cubature_region), {C});
  writer.add("cubature.tets", std::span<const std::uint32_t>(model.cubature_tets), {C});
  for (std::size_t i = 0; i < model.loads.size(); ++i) {
    const SceneLoad& load = model.loads[i];
    const std::string prefix = "force." + std::to_string(i) + ".";
    add(prefix + "mass_vector", load.mass_vector, {n});
    if (load.kind != SceneLoad::Kind::springs) continue;
    add(prefix + "mass_block", load.mass_block, {n, n});
    add(prefix + "rest_offset", load.rest_offset, {n, 3});
  }
  if (model.render_weights.rows() > 0) {
    const auto nv = static_cast<std::uint64_t>(model.render_positions.rows());
    const Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor> positions =
        model.render_positions.cast<float>();
    writer.add("render.positions", std::span<const float>(positions.data(), positions.size()),
               {nv, 3});
    writer.add("render.weights",
               std::span<const float>(model.render_weights.data(), model.render_weights.size()),
               {nv, static_cast<std::uint64_t>(model.mode_count())});
  }
  contact::add_contact_surface(writer, model.contact);
  add_eigenfit(writer, model.eigenfit);
}

nlohmann::json scene_loads_meta(const std::vector<SceneLoad>& loads) {
  nlohmann::json forces = nlohmann::json::array();
  for (const SceneLoad& load : loads) {
    if (load.kind == SceneLoad::Kind::periodic) {
      const Eigen::Vector3d& d = load.direction;
      forces.push_back({{"kind", "periodic"},
                        {"amplitude", load.amplitude},
                        {"frequency", load.frequency},
                        {"direction", {d.x(), d.y(), d.z()}}});
      continue;
    }
    nlohmann::json entry = {{"kind", "pull"}, {"stiffness", load.stiffness}};
    if (std::isfinite(load.release)) entry["release"] = load.release;
    forces.push_back(entry);
  }
  return forces;
}

std::vector<std::uint8_t> reduced_model_asset_bytes(const ReducedModel& model,
                                                    const nlohmann::json& meta_extra) {
  asset::AssetWriter writer;
  nlohmann::json meta = {
      {"format", "smfem-asset"}, {"kind", "scene"}, {"generator", "smfem reduced model writer"}};
  if (!meta_extra.is_null()) meta.update(meta_extra);
  if (!model.loads.empty()) meta["forces"] = scene_loads_meta(model.loads);
  writer.set_meta(meta);
  add_reduced_model(writer, model);
  return writer.to_bytes();
}

}  // namespace smfem::sim
