#include "full/full_box.hpp"

#include "smfem/asset/asset_writer.hpp"

namespace smfem::full::test {

FullModel full_box(const sim::BoxModelOptions& options, double pin_below_x) {
  sim::BoxModelOptions every_tet = options;
  every_tet.cubature_count = 0;
  const sim::BoxModel box = sim::make_box_model(every_tet);
  FullModel model;
  model.source = "box";
  model.positions = box.rest;
  model.tets = box.tets;
  model.youngs = box.model.cubature_youngs;
  model.poisson = box.model.cubature_poisson;
  model.density = Eigen::VectorXd::Constant(box.tets.rows(), options.density);
  for (int v = 0; v < model.vertex_count(); ++v) {
    if (model.positions(v, 0) <= pin_below_x) model.pinned.push_back(v);
  }
  return model;
}

std::vector<std::uint8_t> full_model_asset_bytes(const FullModel& model) {
  asset::AssetWriter writer;
  writer.set_meta({{"format", "smfem-asset"},
                   {"kind", "scene"},
                   {"generator", "full_box test"},
                   {"solver", {{"timestep", 0.01}, {"material_model", "stable_neo_hookean"}}}});
  const auto n = static_cast<std::uint64_t>(model.vertex_count());
  const auto T = static_cast<std::uint64_t>(model.tet_count());
  writer.add("mesh.positions",
             std::span<const double>(model.positions.data(), static_cast<std::size_t>(3 * n)),
             {n, 3});
  const Eigen::Matrix<std::uint32_t, Eigen::Dynamic, 4, Eigen::RowMajor> tets =
      model.tets.cast<std::uint32_t>();
  writer.add("mesh.tets",
             std::span<const std::uint32_t>(tets.data(), static_cast<std::size_t>(4 * T)), {T, 4});
  const auto add_vector = [&](const char* name, const Eigen::VectorXd& values) {
    writer.add(name, std::span<const double>(values.data(), static_cast<std::size_t>(T)), {T});
  };
  add_vector("mesh.youngs", model.youngs);
  add_vector("mesh.poisson", model.poisson);
  add_vector("mesh.density", model.density);
  if (model.weights.size() > 0) {
    writer.add("mesh.weights",
               std::span<const float>(model.weights.data(),
                                      static_cast<std::size_t>(model.weights.size())),
               {static_cast<std::uint64_t>(model.weights.rows()),
                static_cast<std::uint64_t>(model.weights.cols())});
  }
  std::vector<std::uint32_t> pinned(model.pinned.begin(), model.pinned.end());
  writer.add("subspace.pinned", pinned, {pinned.size()});
  return writer.to_bytes();
}

}  // namespace smfem::full::test
