#include "smfem/contact/composite_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace smfem::contact {
namespace {

// `to` grown by `block` on its diagonal (square matrices).
void append_diagonal(Eigen::MatrixXd& to, const Eigen::MatrixXd& block) {
  const Eigen::Index n = to.rows();
  Eigen::MatrixXd grown = Eigen::MatrixXd::Zero(n + block.rows(), n + block.cols());
  grown.topLeftCorner(n, n) = to;
  grown.bottomRightCorner(block.rows(), block.cols()) = block;
  to = std::move(grown);
}

Eigen::VectorXd padded(const Eigen::VectorXd& v, Eigen::Index before, Eigen::Index total) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(total);
  out.segment(before, v.size()) = v;
  return out;
}

template <class Vector>
void append(Vector& to, const Vector& tail) {
  Vector grown(to.size() + tail.size());
  grown << to, tail;
  to = std::move(grown);
}

}  // namespace

CompositeModel combine_models(std::vector<sim::ReducedModel> models,
                              const std::vector<Eigen::Vector3d>& offsets) {
  if (models.empty() || models.size() != offsets.size()) {
    throw std::invalid_argument("combine_models: need one offset per model, and a model");
  }
  CompositeModel composite;
  composite.offsets = offsets;
  sim::ReducedModel& whole = composite.model;
  whole.defaults = models.front().defaults;
  whole.source =
      models.size() == 1 ? models.front().source : std::to_string(models.size()) + " bodies";
  int modes = 0;
  for (const sim::ReducedModel& model : models) {
    composite.first_mode.push_back(modes);
    composite.mode_count.push_back(model.mode_count());
    modes += model.mode_count();
  }
  const Eigen::Index n = 4 * modes;
  whole.mass_vector = Eigen::VectorXd::Zero(n);
  whole.first_moment = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, n);
  whole.cubature_Y.resize(0, n);
  whole.contact.weights.resize(0, modes);
  std::uint32_t region_base = 0;
  whole.render_positions.resize(0, 3);
  whole.render_weights.resize(0, modes);
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();

  for (std::size_t i = 0; i < models.size(); ++i) {
    sim::ReducedModel& model = models[i];
    const Eigen::Index first = 4 * composite.first_mode[i];
    const Eigen::Index size = 4 * model.mode_count();
    const Eigen::Vector3d& offset = offsets[i];

    append(whole.eigenvalues, model.eigenvalues);
    append_diagonal(whole.mass_block, model.mass_block);
    whole.mass_vector.segment(first, size) = model.mass_vector;
    // Row d: sum_v m_v (X_v + offset)_d b_v.
    whole.first_moment.middleCols(first, size) =
        model.first_moment + offset * model.mass_vector.transpose();
    whole.total_mass += model.total_mass;
    moment += model.total_mass * (model.rest_centroid + offset);

    sim::RowMatrixXd Y = sim::RowMatrixXd::Zero(model.cubature_Y.rows(), n);
    Y.middleCols(first, size) = model.cubature_Y;
    sim::RowMatrixXd stacked(whole.cubature_Y.rows() + Y.rows(), n);
    stacked << whole.cubature_Y, Y;
    whole.cubature_Y = std::move(stacked);
    whole.bodies.push_back({static_cast<int>(whole.cubature_weights.size()), model.cubature_count(),
                            composite.first_mode[i], model.mode_count()});
    append(whole.cubature_weights, model.cubature_weights);
    append(whole.cubature_youngs, model.cubature_youngs);
    append(whole.cubature_poisson, model.cubature_poisson);
    std::uint32_t regions = 0;
    for (const std::uint32_t region : model.cubature_region) {
      whole.cubature_region.push_back(region_base + region);
      regions = std::max(regions, region + 1);
    }
    whole.cubature_tets.insert(whole.cubature_tets.end(), model.cubature_tets.begin(),
                               model.cubature_tets.end());
    for (sim::MaterialRegion material : model.materials) {
      material.name = model.source + ": " + material.name;
      material.region += region_base;
      regions = std::max(regions, material.region - region_base + 1);
      whole.materials.push_back(material);
    }
    region_base += regions;

    for (sim::SceneLoad load : model.loads) {
      load.mass_vector = padded(load.mass_vector, first, n);
      if (load.kind == sim::SceneLoad::Kind::springs) {
        Eigen::MatrixXd block = Eigen::MatrixXd::Zero(n, n);
        block.block(first, first, size, size) = load.mass_block;
        load.mass_block = std::move(block);
        sim::ReducedMatrix rest = sim::ReducedMatrix::Zero(n, 3);
        rest.middleRows(first, size) = load.rest_offset;
        load.rest_offset = std::move(rest);
      }
      whole.loads.push_back(std::move(load));
    }

    // The render surfaces side by side (for drag springs; a body without one adds nothing).
    composite.first_render_vertex.push_back(static_cast<int>(whole.render_positions.rows()));
    const Eigen::Index nr = model.render_positions.rows();
    if (nr > 0) {
      const Eigen::Index before = whole.render_positions.rows();
      whole.render_positions.conservativeResize(before + nr, 3);
      whole.render_positions.bottomRows(nr) = model.render_positions;
      sim::RowMatrixXf weights = sim::RowMatrixXf::Zero(before + nr, modes);
      weights.topRows(before) = whole.render_weights;
      weights.block(before, composite.first_mode[i], nr, model.mode_count()) = model.render_weights;
      whole.render_weights = std::move(weights);
    }

    // The contact surfaces side by side, each vertex knowing its body.
    const ContactSurface& part = model.contact;
    ContactSurface& all = whole.contact;
    const auto vertex_base = static_cast<int>(all.positions.rows());
    const Eigen::Index ns = part.positions.rows();
    SurfacePositions positions(vertex_base + ns, 3);
    positions << all.positions, part.positions;
    all.positions = std::move(positions);
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights =
        Eigen::MatrixXd::Zero(vertex_base + ns, modes);
    weights.topRows(vertex_base) = all.weights;
    weights.block(vertex_base, composite.first_mode[i], ns, model.mode_count()) = part.weights;
    all.weights = std::move(weights);
    SurfaceTriangles triangles(all.triangles.rows() + part.triangles.rows(), 3);
    triangles << all.triangles, (part.triangles.array() + vertex_base).matrix();
    all.triangles = std::move(triangles);
    append(all.samples, Eigen::VectorXi((part.samples.array() + vertex_base).matrix()));
    append(all.areas, part.areas);
    append(all.part, Eigen::VectorXi(Eigen::VectorXi::Constant(ns, static_cast<int>(i))));
  }
  whole.rest_centroid = moment / whole.total_mass;
  composite.first_render_vertex.push_back(static_cast<int>(whole.render_positions.rows()));
  return composite;
}

}  // namespace smfem::contact
