#include "smfem/multibody/island.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace smfem::multibody {

Eigen::VectorXd rigid_translation(const sim::ReducedModel& model,
                                  const std::vector<int>& first_mode,
                                  const std::vector<int>& mode_count) {
  // Per body, M_b^-1 m_b (M is block-diagonal: one factorization of the whole was cubic in the
  // bodies, 21 ms natively for 30 cubes).
  Eigen::VectorXd t(model.mass_vector.size());
  for (std::size_t b = 0; b < first_mode.size(); ++b) {
    const Eigen::Index first = 4 * first_mode[b], size = 4 * mode_count[b];
    t.segment(first, size) = model.mass_block.block(first, first, size, size)
                                 .ldlt()
                                 .solve(model.mass_vector.segment(first, size));
  }
  // Exact where every surface vertex moves by exactly 1: b_v . t = 1 (b_v over its body's
  // modes: it is zero elsewhere).
  const contact::ContactSurface& surface = model.contact;
  std::vector<char> exact(first_mode.size(), 1);
  Eigen::VectorXd row;
  for (Eigen::Index v = 0; v < surface.positions.rows(); ++v) {
    const auto body = static_cast<std::size_t>(surface.part.size() > 0 ? surface.part(v) : 0);
    const int first = first_mode[body], modes = mode_count[body];
    row.resize(4 * modes);
    contact::surface_basis_row(surface, v, first, modes, row.data());
    if (std::abs(row.dot(t.segment(4 * first, 4 * modes)) - 1.0) > 1e-6) exact[body] = 0;
  }
  for (std::size_t b = 0; b < exact.size(); ++b) {
    if (!exact[b]) t.segment(4 * first_mode[b], 4 * mode_count[b]).setZero();
  }
  return t;
}

Eigen::VectorXd rigid_translation(const CompositeModel& composite) {
  return rigid_translation(composite.model, composite.first_mode, composite.mode_count);
}

Island::Island(std::vector<int> bodies, const std::vector<sim::ReducedModel>& models,
               const SceneLayout& layout, const sim::SolverSettings& settings,
               std::shared_ptr<parallel::ThreadPool> pool,
               const std::vector<contact::Obstacle>* obstacles,
               const contact::ContactParameters& parameters, double timestep)
    : bodies_(std::move(bodies)), layout_(layout), obstacles_(obstacles) {
  std::vector<sim::ReducedModel> parts;
  std::vector<Eigen::Vector3d> offsets;
  for (const int b : bodies_) {
    parts.push_back(models[static_cast<std::size_t>(b)]);
    offsets.push_back(layout.offsets[static_cast<std::size_t>(b)]);
  }
  composite_ = combine_models(std::move(parts), offsets);
  potential_ = std::make_unique<contact::ContactPotential>(composite_.model.contact, offsets);
  potential_->set_environment(obstacles, parameters, timestep);
  const Eigen::VectorXd translation = rigid_translation(composite_);
  // The model moves into the simulator: a large island's dense arrays are not copied.
  simulator_ =
      std::make_unique<sim::Simulator>(std::move(composite_.model), settings, std::move(pool));
  simulator_->set_contact(potential_.get(), translation);
}

void Island::set_parameters(const contact::ContactParameters& parameters,
                            const std::vector<double>& body_stiffness, double timestep) {
  potential_->set_environment(obstacles_, parameters, timestep);
  std::vector<double> stiffness;
  for (const int b : bodies_) stiffness.push_back(body_stiffness[static_cast<std::size_t>(b)]);
  potential_->set_part_stiffness(std::move(stiffness));
}

std::size_t Island::index_of(int body) const {
  const auto found = std::lower_bound(bodies_.begin(), bodies_.end(), body);
  if (found == bodies_.end() || *found != body) {
    throw std::logic_error("body " + std::to_string(body) + " is not in this island");
  }
  return static_cast<std::size_t>(found - bodies_.begin());
}

void Island::gather(const sim::ReducedMatrix& scene_U, sim::ReducedMatrix& out) const {
  out.resize(4 * model().mode_count(), 3);
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const auto b = static_cast<std::size_t>(bodies_[k]);
    out.middleRows(4 * composite_.first_mode[k], 4 * composite_.mode_count[k]) =
        scene_U.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]);
  }
}

void Island::load(const SceneState& scene) {
  sim::SimulatorState state;
  gather(scene.U, state.U);
  gather(scene.Udot, state.Udot);
  const int C = model().cubature_count();
  state.z.resize(6, C);
  state.lambda.resize(6, C);
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const auto b = static_cast<std::size_t>(bodies_[k]);
    const sim::ReducedModel::Body& part = model().bodies[k];
    state.z.middleCols(part.first_tet, part.tets) =
        scene.z.middleCols(layout_.first_tet[b], layout_.tet_count[b]);
    state.lambda.middleCols(part.first_tet, part.tets) =
        scene.lambda.middleCols(layout_.first_tet[b], layout_.tet_count[b]);
  }
  if (bodies_.size() == 1) state.patches = scene.patches[static_cast<std::size_t>(bodies_[0])];
  state.time = scene.time;
  state.step_count = scene.step_count;
  simulator_->restore(state);
  synced_step = scene.step_count;
}

void Island::store(SceneState& scene) const {
  const sim::SimulatorState& state = simulator_->snapshot();
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const auto b = static_cast<std::size_t>(bodies_[k]);
    const Eigen::Index first = 4 * composite_.first_mode[k];
    const Eigen::Index rows = 4 * composite_.mode_count[k];
    scene.U.middleRows(4 * layout_.first_mode[b], rows) = state.U.middleRows(first, rows);
    scene.Udot.middleRows(4 * layout_.first_mode[b], rows) = state.Udot.middleRows(first, rows);
    const sim::ReducedModel::Body& part = model().bodies[k];
    scene.z.middleCols(layout_.first_tet[b], part.tets) =
        state.z.middleCols(part.first_tet, part.tets);
    scene.lambda.middleCols(layout_.first_tet[b], part.tets) =
        state.lambda.middleCols(part.first_tet, part.tets);
    scene.patches[b] = bodies_.size() == 1 ? state.patches : local::PatchState{};
  }
}

void Island::drag(const sim::ReducedModel& body_model, int body, int vertex,
                  const Eigen::Vector3d& target, double stiffness) {
  const std::size_t k = index_of(body);
  const Eigen::Vector3d local = target - layout_.offsets[static_cast<std::size_t>(body)];
  if (body == dragged_body_ && vertex == dragged_vertex_ && stiffness == drag_stiffness_) {
    simulator_->drag_move(local);
    return;
  }
  // The body's own render vertex (the island's model holds no render surface).
  Eigen::VectorXd basis = Eigen::VectorXd::Zero(4 * model().mode_count());
  basis.segment(4 * composite_.first_mode[k], 4 * composite_.mode_count[k]) =
      sim::render_vertex_basis(body_model, vertex);
  simulator_->drag_start(basis, body_model.render_positions.row(vertex).transpose(), local,
                         stiffness);
  dragged_body_ = body;
  dragged_vertex_ = vertex;
  drag_stiffness_ = stiffness;
}

void Island::drag_end() {
  if (dragged_body_ < 0) return;
  simulator_->drag_end();
  dragged_body_ = -1;
}

}  // namespace smfem::multibody
