#include "smfem/multibody/composite_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace smfem::multibody {
namespace {

Eigen::VectorXd padded(const Eigen::VectorXd& v, Eigen::Index before, Eigen::Index total) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(total);
  out.segment(before, v.size()) = v;
  return out;
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
  // Every array is allocated once at its full size and filled body by body: growing them body
  // by body copied an island of n bodies' arrays n / 2 times over (a 25-body island's
  // construction was a seventh of a settling pile's time).
  int modes = 0, cubature = 0, widest = 0;
  Eigen::Index surface_vertices = 0, triangles = 0, samples = 0;
  for (const sim::ReducedModel& model : models) {
    composite.first_mode.push_back(modes);
    composite.mode_count.push_back(model.mode_count());
    modes += model.mode_count();
    widest = std::max(widest, model.mode_count());
    cubature += model.cubature_count();
    surface_vertices += model.contact.positions.rows();
    triangles += model.contact.triangles.rows();
    samples += model.contact.samples.size();
  }
  const Eigen::Index n = 4 * modes;
  whole.eigenvalues.resize(modes);
  whole.mass_block = Eigen::MatrixXd::Zero(n, n);
  whole.mass_vector = Eigen::VectorXd::Zero(n);
  whole.first_moment = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, n);
  // Each body's rows over its own modes only (reduced_model.hpp).
  whole.cubature_Y = sim::RowMatrixXd::Zero(3 * cubature, 4 * widest);
  whole.cubature_weights.resize(cubature);
  whole.cubature_youngs.resize(cubature);
  whole.cubature_poisson.resize(cubature);
  contact::ContactSurface& all = whole.contact;
  all.positions.resize(surface_vertices, 3);
  // Each vertex's own body's weights only (contact_surface.hpp).
  all.weights.setZero(surface_vertices, widest);
  all.mode_count = modes;
  all.part_first_mode = composite.first_mode;
  all.triangles.resize(triangles, 3);
  all.samples.resize(samples);
  all.areas.resize(samples);
  all.part.resize(surface_vertices);
  std::uint32_t region_base = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  int first_tet = 0;
  Eigen::Index vertex_base = 0, triangle_base = 0, sample_base = 0;

  for (std::size_t i = 0; i < models.size(); ++i) {
    sim::ReducedModel& model = models[i];
    const int m = model.mode_count();
    const int first_mode = composite.first_mode[i];
    const Eigen::Index first = 4 * first_mode;
    const Eigen::Index size = 4 * m;
    const int C = model.cubature_count();
    const Eigen::Vector3d& offset = offsets[i];

    whole.eigenvalues.segment(first_mode, m) = model.eigenvalues;
    whole.mass_block.block(first, first, size, size) = model.mass_block;
    whole.mass_vector.segment(first, size) = model.mass_vector;
    // Row d: sum_v m_v (X_v + offset)_d b_v.
    whole.first_moment.middleCols(first, size) =
        model.first_moment + offset * model.mass_vector.transpose();
    whole.total_mass += model.total_mass;
    moment += model.total_mass * (model.rest_centroid + offset);

    whole.cubature_Y.block(3 * first_tet, 0, 3 * C, size) = model.cubature_Y;
    whole.bodies.push_back({first_tet, C, first_mode, m});
    whole.cubature_weights.segment(first_tet, C) = model.cubature_weights;
    whole.cubature_youngs.segment(first_tet, C) = model.cubature_youngs;
    whole.cubature_poisson.segment(first_tet, C) = model.cubature_poisson;
    first_tet += C;
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

    // The contact surfaces side by side, each vertex knowing its body.
    const contact::ContactSurface& part = model.contact;
    const Eigen::Index ns = part.positions.rows();
    const Eigen::Index nt = part.triangles.rows();
    const Eigen::Index nk = part.samples.size();
    if (ns == 0) continue;
    all.positions.middleRows(vertex_base, ns) = part.positions;
    all.weights.block(vertex_base, 0, ns, m) = part.weights;
    all.triangles.middleRows(triangle_base, nt) =
        (part.triangles.array() + static_cast<int>(vertex_base)).matrix();
    all.samples.segment(sample_base, nk) =
        (part.samples.array() + static_cast<int>(vertex_base)).matrix();
    all.areas.segment(sample_base, nk) = part.areas;
    all.part.segment(vertex_base, ns).setConstant(static_cast<int>(i));
    vertex_base += ns;
    triangle_base += nt;
    sample_base += nk;
  }
  whole.rest_centroid = moment / whole.total_mass;
  return composite;
}

}  // namespace smfem::multibody
