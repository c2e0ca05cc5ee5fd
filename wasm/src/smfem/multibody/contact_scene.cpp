#include "smfem/multibody/contact_scene.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "smfem/geometry/point_triangle.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/multibody/body_groups.hpp"
#include "smfem/multibody/obstacle_push.hpp"
#include "smfem/sim/kernels/detail/reduced_dot.hpp"

namespace smfem::multibody {
namespace {

// Whether x is inside the closed surface (winding number by solid angles).
bool inside(const Eigen::Vector3d& x, const contact::SurfacePositions& points,
            const contact::SurfaceTriangles& triangles) {
  double angle = 0.0;
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    angle += geometry::triangle_solid_angle(x, points.row(triangles(t, 0)).transpose(),
                                            points.row(triangles(t, 1)).transpose(),
                                            points.row(triangles(t, 2)).transpose());
  }
  return angle > 2.0 * std::numbers::pi;
}

Eigen::AlignedBox3d grown(Eigen::AlignedBox3d box, double margin) {
  box.min().array() -= margin;
  box.max().array() += margin;
  return box;
}

std::string body_name(const sim::ReducedModel& model, int body) {
  return "body " + std::to_string(body) + " (" + model.source + ")";
}

void add_stats(const sim::StepStats& from, sim::StepStats& to) {
  to.iterations = std::max(to.iterations, from.iterations);
  to.converged = to.converged && from.converged;
  to.first_decrement = std::max(to.first_decrement, from.first_decrement);
  to.decrement = std::max(to.decrement, from.decrement);
  to.penalty = std::max(to.penalty, from.penalty);
  to.contact_limited = to.contact_limited || from.contact_limited;
  to.failed = to.failed || from.failed;
  to.add_work(from);
}

void add_diagnostics(const sim::Diagnostics& from, double mass, sim::Diagnostics& to,
                     double& total_mass) {
  to.kinetic_energy += from.kinetic_energy;
  to.elastic_energy += from.elastic_energy;
  to.stretch_energy += from.stretch_energy;
  to.gravity_potential += from.gravity_potential;
  to.spring_energy += from.spring_energy;
  to.contact_energy += from.contact_energy;
  to.total_energy += from.total_energy;
  to.linear_momentum += from.linear_momentum;
  to.angular_momentum += from.angular_momentum;
  to.centroid += mass * from.centroid;
  total_mass += mass;
  to.max_constraint_violation =
      std::max(to.max_constraint_violation, from.max_constraint_violation);
}

}  // namespace

ContactScene::ContactScene(const ContactSceneSpec& spec, std::vector<sim::ReducedModel> models,
                           int thread_count)
    : models_(std::move(models)),
      obstacles_(spec.obstacles),
      initial_obstacles_(spec.obstacles),
      timestep_(spec.timestep),
      pool_(std::make_shared<parallel::ThreadPool>(thread_count)),
      serial_pool_(std::make_shared<parallel::ThreadPool>(1)) {
  if (models_.size() != spec.bodies.size()) {
    throw std::invalid_argument("the scene lists " + std::to_string(spec.bodies.size()) +
                                " bodies but " + std::to_string(models_.size()) +
                                " assets were given");
  }
  if (models_.empty()) throw std::invalid_argument("a scene needs a body");
  double largest_diagonal = 0.0;
  double smallest_diagonal = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < models_.size(); ++i) {
    const sim::ReducedModel& model = models_[i];
    if (model.contact.empty()) {
      throw std::invalid_argument(body_name(model, static_cast<int>(i)) +
                                  " has no contact samples: bake it with --contact-samples");
    }
    const auto& p = model.contact.positions;
    const double diagonal = (p.colwise().maxCoeff() - p.colwise().minCoeff()).norm();
    largest_diagonal = std::max(largest_diagonal, diagonal);
    smallest_diagonal = std::min(smallest_diagonal, diagonal);
    start_stiffness_.push_back(spec.stiffness > 0.0 ? spec.stiffness
                                                    : model.total_mass / model.contact.areas.sum() /
                                                          (spec.timestep * spec.timestep));
    layout_.first_mode.push_back(layout_.modes);
    layout_.mode_count.push_back(model.mode_count());
    layout_.first_tet.push_back(layout_.tets);
    layout_.tet_count.push_back(model.cubature_count());
    layout_.offsets.push_back(spec.bodies[i].translation);
    layout_.modes += model.mode_count();
    layout_.tets += model.cubature_count();
    surface_bases_.push_back(contact::surface_basis(model.contact));
    translations_.push_back(rigid_translation(model, {0}, {model.mode_count()}));
    velocities_.push_back(spec.bodies[i].velocity);
    rest_centroids_.push_back(model.rest_centroid + spec.bodies[i].translation);
    masses_.push_back(model.total_mass);
    diagonals_.push_back(diagonal);
  }
  if (spec.activation > kMaxActivationFraction * smallest_diagonal) {
    std::ostringstream message;
    message << "contact.activation_distance " << spec.activation << " m is more than "
            << kMaxActivationFraction << " of the smallest body's size (its box diagonal, "
            << smallest_diagonal << " m): the bodies would keep that far apart";
    throw std::invalid_argument(message.str());
  }
  box_cache_.resize(models_.size());
  parameters_.activation =
      spec.activation > 0.0 ? spec.activation : kDefaultActivation * largest_diagonal;
  adaptive_stiffness_ = !(spec.stiffness > 0.0);
  stiffness_ = start_stiffness_;
  parameters_.stiffness = *std::max_element(stiffness_.begin(), stiffness_.end());
  parameters_.friction = spec.friction;
  parameters_.slip = spec.slip;
  settings_ = models_.front().defaults;
  settings_.timestep = spec.timestep;
  settings_.gravity = spec.gravity;
  meshes_.assign(models_.size(), nullptr);
  asleep_.assign(models_.size(), 0);
  quiet_steps_.assign(models_.size(), 0);
  clearances_.assign(models_.size(), std::numeric_limits<double>::infinity());
  iterations_.assign(models_.size(), 0);
  threads_.assign(models_.size(), 0);
  check_start_state();
  place_bodies();
}

void ContactScene::body_surface(int body, const sim::ReducedMatrix& U,
                                contact::SurfacePositions& out) const {
  const auto b = static_cast<std::size_t>(body);
  const contact::SurfaceBasis& basis = surface_bases_[b];
  const contact::SurfacePositions& rest = models_[b].contact.positions;
  const Eigen::RowVector3d offset = layout_.offsets[b].transpose();
  out.resize(basis.rows(), 3);
  // Row by row, as the contact term moves its samples (contact_potential.cpp): Eigen's blocked
  // product packed the whole basis at every call, three times the product's own cost, and the
  // bodies' boxes were an eighth of the 100-body rain's step.
  for (Eigen::Index v = 0; v < basis.rows(); ++v) {
    out.row(v) = sim::detail::reduced_dot(&basis(v, 0), U, 4 * layout_.first_mode[b],
                                          4 * layout_.mode_count[b])
                     .transpose() +
                 rest.row(v) + offset;
  }
}

std::vector<Eigen::Vector3d> ContactScene::obstacle_forces() {
  std::vector<Eigen::Vector3d> forces(obstacles_.size(), Eigen::Vector3d::Zero());
  contact::SurfacePositions surface;
  for (int b = 0; b < body_count(); ++b) {
    if (body_patches(b) > 0) {
      // Its samples where the dent has moved them: its own island knows the dent.
      const std::vector<Eigen::Vector3d> own = island({b}).simulator().obstacle_forces();
      for (std::size_t o = 0; o < obstacles_.size(); ++o) forces[o] += own[o];
      continue;
    }
    body_surface(b, state_.U, surface);
    const contact::ContactSurface& contact = body_model(b).contact;
    for (Eigen::Index k = 0; k < contact.samples.size(); ++k) {
      const Eigen::Vector3d x = surface.row(contact.samples(k)).transpose();
      for (std::size_t o = 0; o < obstacles_.size(); ++o) {
        forces[o] += contact::obstacle_reaction(
            obstacles_[o], x, body_stiffness(b) * contact.areas(k), parameters_.activation);
      }
    }
  }
  // The last step's pushes (obstacle_push.hpp), over that step.
  for (std::size_t o = 0; o < push_forces_.size(); ++o) forces[o] += push_forces_[o];
  return forces;
}

void ContactScene::enable_local_deformations(int body, full::FullModel mesh) {
  if (body < 0 || body >= body_count()) {
    throw std::out_of_range("local deformations: the scene has no body " + std::to_string(body));
  }
  if (body_count() > 1) {
    throw std::invalid_argument(
        "localDeformations: in a scene of one body only (between bodies they are not built yet: "
        "docs/local.md)");
  }
  const auto b = static_cast<std::size_t>(body);
  auto shared = std::make_shared<const full::FullModel>(std::move(mesh));
  // Its own island's simulator checks the mesh against the model and the contact.
  Island& alone = island({body});
  alone.simulator().enable_local_deformations(*shared);
  meshes_[b] = std::move(shared);
  alone.synced_step = -1;  // its state is state_'s again at the next step
  wake(body);
}

std::vector<float> ContactScene::body_dent(int body) {
  if (body_patches(body) == 0) return {};
  const auto b = static_cast<std::size_t>(body);
  render_dents_.resize(models_.size());
  if (render_dents_[b] == nullptr) {
    render_dents_[b] =
        std::make_unique<local::RenderDent>(*meshes_[b], models_[b].render_positions);
  }
  const sim::Simulator& simulator = island({body}).simulator();
  std::vector<float> dent;
  render_dents_[b]->displacements(simulator.local_deformations()->patches(),
                                  simulator.snapshot().patches.C, dent);
  return dent;
}

int ContactScene::body_patch_sets(int body) {
  if (!local_deformations(body)) return 0;
  return island({body}).simulator().local_deformations()->patch_sets_made();
}

void ContactScene::current_surface(int body, contact::SurfacePositions& out) {
  body_surface(body, state_.U, out);
  if (body_patches(body) > 0) island({body}).simulator().dent_samples(out);
}

Eigen::AlignedBox3d ContactScene::body_box(int body, const sim::ReducedMatrix& U) {
  const auto b = static_cast<std::size_t>(body);
  CachedBox& cached = box_cache_[b];
  const auto rows = U.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]);
  if (cached.rows.rows() == rows.rows() && cached.rows == rows) return cached.box;
  contact::SurfacePositions points;
  body_surface(body, U, points);
  cached.rows = rows;
  cached.box = Eigen::AlignedBox3d(points.colwise().minCoeff().transpose(),
                                   points.colwise().maxCoeff().transpose());
  return cached.box;
}

void ContactScene::check_start_state() {
  const sim::ReducedMatrix rest = sim::ReducedMatrix::Zero(4 * layout_.modes, 3);
  std::vector<contact::SurfacePositions> surfaces(models_.size());
  std::vector<Eigen::AlignedBox3d> boxes;
  for (int i = 0; i < body_count(); ++i) {
    const auto b = static_cast<std::size_t>(i);
    body_surface(i, rest, surfaces[b]);
    boxes.push_back(body_box(i, rest));
    const contact::ContactSurface& surface = models_[b].contact;
    const std::string name = body_name(models_[b], i);
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      const contact::Obstacle& obstacle = obstacles_[o];
      const std::string what = std::string(contact::obstacle_kind_name(obstacle.kind)) +
                               " obstacle " + std::to_string(o);
      double closest = std::numeric_limits<double>::infinity();
      bool every_sample_in = true;  // 0 is a sample's distance inside a solid obstacle
      for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
        const double d =
            contact::obstacle_distance(obstacle, surfaces[b].row(surface.samples(k)).transpose())
                .distance;
        closest = std::min(closest, d);
        every_sample_in = every_sample_in && !(d > 0.0);
      }
      if (obstacle.kind != contact::ObstacleKind::plane) {
        if (every_sample_in) throw std::invalid_argument(name + " starts inside the " + what);
        if (inside(obstacle.point + obstacle.offset, surfaces[b], surface.triangles)) {
          throw std::invalid_argument("the " + what + " is inside " + name);
        }
      }
      if (!(closest > 0.0)) {
        std::string where;
        if (obstacle.kind == contact::ObstacleKind::plane) {
          where = closest < 0.0 ? " (its deepest point is " + json::format_number(-closest) +
                                      " m beyond the plane, the side its normal points away from)"
                                : " (its lowest point lies on the plane: start it above)";
        }
        throw std::invalid_argument(name + " starts inside or touching the " + what + where);
      }
    }
  }
  // Another body's sample inside this one (a body within a body has no sample near a triangle:
  // the distance check below would not see it).
  for (const auto& [i, j] : overlapping_boxes(boxes)) {
    for (const auto& [p, q] : {std::pair{i, j}, std::pair{j, i}}) {
      const auto in = static_cast<std::size_t>(p), of = static_cast<std::size_t>(q);
      const Eigen::VectorXi& samples = models_[in].contact.samples;
      for (Eigen::Index k = 0; k < samples.size(); ++k) {
        const Eigen::Vector3d x = surfaces[in].row(samples(k)).transpose();
        if (boxes[of].contains(x) && inside(x, surfaces[of], models_[of].contact.triangles)) {
          throw std::invalid_argument(body_name(models_[in], p) + " overlaps " +
                                      body_name(models_[of], q) + " at the start: move them apart");
        }
      }
    }
  }
}

void ContactScene::place_bodies() {
  state_.U.setZero(4 * layout_.modes, 3);
  state_.Udot.setZero(4 * layout_.modes, 3);
  state_.z.setZero(6, layout_.tets);
  state_.lambda.setZero(6, layout_.tets);
  state_.patches.assign(models_.size(), local::PatchState{});
  state_.time = 0.0;
  state_.step_count = 0;
  for (int i = 0; i < body_count(); ++i) {
    const auto b = static_cast<std::size_t>(i);
    const sim::ReducedModel& model = models_[b];
    // The body's rigid velocity in its subspace, in the mass norm (exact where it holds a
    // constant weight).
    sim::ReducedMatrix along(model.mass_vector.size(), 3);
    for (int d = 0; d < 3; ++d) along.col(d) = model.mass_vector * velocities_[b](d);
    state_.Udot.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]) =
        model.mass_block.ldlt().solve(along);
    // z and lambda consistent with the rest shape: the body's own island makes them.
    Island& alone = island({i});
    if (meshes_[b] != nullptr) {  // no patch left from before a reset
      alone.simulator().disable_local_deformations();
      alone.simulator().enable_local_deformations(*meshes_[b]);
    }
    alone.simulator().set_state(sim::ReducedMatrix::Zero(along.rows(), 3),
                                state_.Udot.middleRows(4 * layout_.first_mode[b], along.rows()));
    alone.store(state_);
  }
  for (auto& [bodies, island] : islands_) island->synced_step = -1;
  // Two bodies touching at the start: measured within the groups their boxes grown by dhat form.
  if (!(measure().min_distance > 0.0)) {
    throw std::invalid_argument("two bodies touch at the start: move them apart");
  }
}

Island& ContactScene::island(const std::vector<int>& bodies) {
  std::unique_ptr<Island>& slot = islands_[bodies];
  if (!slot) {
    // On the whole pool where it may take it (step_islands moves an island stepped beside
    // others to the serial pool; local deformations, only in a scene of one body, keep the pool
    // they start on).
    slot = std::make_unique<Island>(bodies, models_, layout_, settings_,
                                    shares_pool(bodies) ? pool_ : serial_pool_, &obstacles_,
                                    parameters_, timestep_);
    const auto& mesh = meshes_[static_cast<std::size_t>(bodies.front())];
    if (bodies.size() == 1 && mesh != nullptr) slot->simulator().enable_local_deformations(*mesh);
  }
  Island& found = *slot;
  found.last_used = clock_;
  if (found.settings_version != settings_version_) {
    found.simulator().set_settings(settings_);
    found.settings_version = settings_version_;
  }
  if (found.parameters_version != parameters_version_) {
    found.set_parameters(parameters_, stiffness_, timestep_);
    found.parameters_version = parameters_version_;
  }
  if (found.synced_step != state_.step_count) found.load(state_);
  return found;
}

void ContactScene::set_settings(const sim::SolverSettings& settings) {
  settings_ = settings;
  settings_.timestep = timestep_;
  ++settings_version_;
  for (int i = 0; i < body_count(); ++i) wake(i);
}

void ContactScene::set_solver(sim::SolverMethod method, int iterations, bool until_converged) {
  sim::SolverSettings settings = settings_;
  settings.method = method;
  settings.iterations = iterations;
  settings.until_converged = until_converged;
  set_settings(settings);
}

void ContactScene::set_sleeping(bool allowed) {
  sleeping_allowed_ = allowed;
  if (!allowed) {
    for (int i = 0; i < body_count(); ++i) wake(i);
  }
}

void ContactScene::unsync(int body) {
  for (auto& [bodies, island] : islands_) {
    if (std::binary_search(bodies.begin(), bodies.end(), body)) island->synced_step = -1;
  }
}

void ContactScene::wake(int body) {
  // Its islands no longer hold its state as it is now (its velocity was zeroed asleep).
  if (asleep_[static_cast<std::size_t>(body)]) unsync(body);
  asleep_[static_cast<std::size_t>(body)] = 0;
  quiet_steps_[static_cast<std::size_t>(body)] = 0;
}

Eigen::Vector3d ContactScene::body_momentum(int body) const {
  const auto b = static_cast<std::size_t>(body);
  const auto velocity =
      state_.Udot.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]);
  return velocity.transpose() * models_[b].mass_vector;
}

Eigen::Vector3d ContactScene::body_centroid(int body) const {
  const auto b = static_cast<std::size_t>(body);
  const auto U = state_.U.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]);
  return rest_centroids_[b] + U.transpose() * models_[b].mass_vector / masses_[b];
}

double ContactScene::body_kinetic(int body) const {
  const auto b = static_cast<std::size_t>(body);
  const auto velocity =
      state_.Udot.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]);
  return 0.5 * velocity.cwiseProduct(models_[b].mass_block * velocity).sum();
}

void ContactScene::move_obstacle(int obstacle, const Eigen::Vector3d& offset) {
  if (obstacle < 0) throw std::invalid_argument("no obstacle " + std::to_string(obstacle));
  contact::hold_by_hand(obstacles_, static_cast<std::size_t>(obstacle), offset);
}

void ContactScene::drag_start(int body, int vertex, const Eigen::Vector3d& target,
                              double stiffness) {
  if (body < 0 || body >= body_count()) throw std::out_of_range("no body " + std::to_string(body));
  const sim::ReducedModel& model = models_[static_cast<std::size_t>(body)];
  if (vertex < 0 || vertex >= model.render_positions.rows()) {
    throw std::out_of_range("body " + std::to_string(body) + " has no render vertex " +
                            std::to_string(vertex));
  }
  drag_ = Drag{body, vertex, target, stiffness};
  wake(body);
}

void ContactScene::drag_move(const Eigen::Vector3d& target) {
  if (drag_.body < 0) return;
  if (!contact::within_coordinate_bound(target)) {
    warnings_.push_back(sim::kDragTargetRefused + "; ignored");
    return;
  }
  drag_.target = target;
  wake(drag_.body);
}

void ContactScene::drag_end() {
  if (drag_.body >= 0) wake(drag_.body);
  drag_.body = -1;
}

void ContactScene::move_obstacles(double end_time) {
  summary_.obstacles_held = 0;
  push_forces_.assign(obstacles_.size(), Eigen::Vector3d::Zero());
  std::vector<contact::SurfacePositions>
      surfaces;  // computed once an obstacle moves (most steps none does)
  std::vector<PushCandidate> candidates;
  for (std::size_t o = 0; o < obstacles_.size(); ++o) {
    contact::Obstacle& obstacle = obstacles_[o];
    obstacle.start_offset = obstacle.offset;
    if (obstacle.path.times.empty()) continue;
    const Eigen::Vector3d motion = obstacle.path.offset_at(end_time) - obstacle.offset;
    if (motion.isZero(0.0)) continue;
    if (surfaces.empty()) {
      surfaces.resize(models_.size());
      for (int i = 0; i < body_count(); ++i) {
        const auto b = static_cast<std::size_t>(i);
        current_surface(i, surfaces[b]);
        candidates.push_back({&surfaces[b], &models_[b].contact.samples,
                              !translations_[b].isZero(0.0), Eigen::Vector3d::Zero(),
                              Eigen::AlignedBox3d(surfaces[b].colwise().minCoeff().transpose(),
                                                  surfaces[b].colwise().maxCoeff().transpose())});
      }
    }
    for (int i = 0; i < body_count(); ++i) {
      candidates[static_cast<std::size_t>(i)].velocity = body_momentum(i) / body_mass(i);
    }
    const ObstacleAdvance advance = advance_obstacle(
        obstacles_, o, motion, candidates, parameters_.keep, parameters_.activation, timestep_);
    obstacle.offset += advance.alpha * motion;
    if (advance.alpha < 1.0) ++summary_.obstacles_held;
    for (const Push& push : advance.pushes) {
      const auto b = static_cast<std::size_t>(push.body);
      const Eigen::VectorXd& t = translations_[b];
      const Eigen::Index first = 4 * layout_.first_mode[b], rows = 4 * layout_.mode_count[b];
      state_.U.middleRows(first, rows) += t * push.translation.transpose();
      state_.Udot.middleRows(first, rows) += t * push.velocity.transpose();
      surfaces[b].rowwise() += push.translation.transpose();
      candidates[b].box.translate(push.translation);
      push_forces_[o] -= masses_[b] * push.velocity / timestep_;
      unsync(push.body);  // its islands hold its state from before the push
      wake(push.body);
    }
    // Bodies it may come near wake up: their boxes within the motion and dhat of it.
    for (int i = 0; i < body_count(); ++i) {
      const auto b = static_cast<std::size_t>(i);
      if (!asleep_[b]) continue;
      const Eigen::AlignedBox3d& box = candidates[b].box;
      const double reach = 0.5 * box.diagonal().norm() + motion.norm() + parameters_.activation;
      if (contact::obstacle_distance(obstacle, box.center()).distance < reach ||
          contact::obstacle_distance(obstacle, box.center() + advance.alpha * motion).distance <
              reach) {
        wake(i);
      }
    }
  }
}

void ContactScene::solve(const std::vector<std::vector<int>>& groups) {
  std::vector<Island*> awake;
  for (const std::vector<int>& group : groups) {
    std::vector<char> held;
    for (const int b : group) held.push_back(asleep_[static_cast<std::size_t>(b)]);
    if (std::count(held.begin(), held.end(), 1) == static_cast<std::ptrdiff_t>(held.size()) ||
        results_.count(group)) {
      continue;
    }
    Island& found = island(group);
    // Its sleeping bodies (only quiet bodies meet them: link_islands) hold still.
    found.simulator().hold_bodies(std::move(held));
    const bool dragged =
        drag_.body >= 0 && std::binary_search(group.begin(), group.end(), drag_.body);
    if (dragged) {
      found.drag(models_[static_cast<std::size_t>(drag_.body)], drag_.body, drag_.vertex,
                 drag_.target, drag_.stiffness);
    } else {
      found.drag_end();
    }
    results_[group] = &found;
    awake.push_back(&found);
  }
  step_islands(std::move(awake));
}

void ContactScene::step_island(Island& island) {
  island.simulator().step();
  // Measured on the thread that stepped it (the measure walks every sample).
  island.measure = island.simulator().contact_measure();
}

bool ContactScene::shares_pool(const std::vector<int>& bodies) const {
  if (bodies.size() > 1) return true;
  const sim::ReducedModel& model = models_[static_cast<std::size_t>(bodies.front())];
  const double rows = 4.0 * model.mode_count();
  return model.cubature_count() * rows * rows >= kSharedWork;
}

void ContactScene::step_islands(std::vector<Island*> islands) {
  // What an island is expected to cost: its last step's time, or for one that has not stepped,
  // its bodies squared (as if in ms: its coupled solve grows faster than its bodies).
  const auto cost = [](const Island* island) {
    const double ms = island->simulator().last_report().step_ms;
    const auto bodies = static_cast<double>(island->bodies().size());
    return ms > 0.0 ? ms : bodies * bodies;
  };
  std::vector<std::pair<double, Island*>> queue;
  double total = 0.0;
  for (Island* island : islands) {
    queue.emplace_back(cost(island), island);
    total += queue.back().first;
  }
  // Longest first; ties by the island's first body, so that the schedule is reproducible.
  std::sort(queue.begin(), queue.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first
                              : a.second->bodies().front() < b.second->bodies().front();
  });
  const int threads = pool_->thread_count();
  std::size_t next = 0;
  // One island that costs as much as all the others together (a settled pile, a body awake among
  // sleepers, the body of a scene of one) takes the whole pool first: side by side, the others
  // could not hide it.
  if (!queue.empty() && (threads == 1 || queue.size() == 1 || 2.0 * queue.front().first >= total)) {
    Island& first = *queue.front().second;
    if (shares_pool(first.bodies())) first.simulator().set_pool(pool_);
    step_island(first);
    next = 1;
  }
  if (next == queue.size()) return;
  // The rest side by side, each on one thread (a serial pool): a thread that comes free takes
  // the next island, longest first. Dealt out in advance by the prediction, a thread sat idle
  // wherever an island's step turned out to cost more than its last (an impact takes four times
  // the iterations). An island's result does not depend on the pool or thread it steps on.
  for (std::size_t i = next; i < queue.size(); ++i) {
    queue[i].second->simulator().set_pool(serial_pool_);
  }
  std::atomic<std::size_t> taken{next};
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(threads));
  pool_->parallel_for(threads, [&](int thread) {
    try {
      for (std::size_t i = taken++; i < queue.size(); i = taken++) step_island(*queue[i].second);
    } catch (...) {
      failures[static_cast<std::size_t>(thread)] = std::current_exception();
    }
  });
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

const StepSummary& ContactScene::step() {
  const auto started = std::chrono::steady_clock::now();
  ++clock_;
  if (drag_.body >= 0) wake(drag_.body);
  move_obstacles(state_.time + timestep_);

  // The partition: boxes swept towards where inertia and gravity carry each awake body.
  const int count = body_count();
  const double fall = timestep_ * timestep_ * settings_.gravity.norm();
  std::vector<Eigen::AlignedBox3d> start_boxes(static_cast<std::size_t>(count));
  std::vector<Eigen::AlignedBox3d> boxes(static_cast<std::size_t>(count));
  const sim::ReducedMatrix coasting = state_.U + timestep_ * state_.Udot;
  for (int i = 0; i < count; ++i) {
    const auto b = static_cast<std::size_t>(i);
    start_boxes[b] = body_box(i, state_.U);
    boxes[b] = asleep_[b] ? grown(start_boxes[b], parameters_.activation)
                          : grown(start_boxes[b].merged(body_box(i, coasting)),
                                  fall + parameters_.activation);
  }
  const std::vector<char> restless = restless_bodies();
  std::vector<std::pair<int, int>> pairs = overlapping_boxes(boxes);
  const std::vector<int> woken = wake_met_by(pairs, restless);
  for (const int i : woken) {
    const auto b = static_cast<std::size_t>(i);
    boxes[b] = grown(start_boxes[b], fall + parameters_.activation);  // at rest, it may fall
  }
  if (!woken.empty()) pairs = overlapping_boxes(boxes);
  Groups groups(count);
  std::vector<char> attached(static_cast<std::size_t>(count), 0);
  link_islands(pairs, groups, attached);

  // Solve; join the islands whose bodies' actual motion came within dhat of each other, and
  // solve those again from the step's start, until no two islands meet.
  results_.clear();
  summary_.merges = 0;
  next_ = state_;  // sleeping bodies keep their state
  std::vector<std::vector<int>> members;
  for (;;) {
    members = groups.members();
    solve(members);
    for (const std::vector<int>& group : members) {
      const auto found = results_.find(group);
      if (found == results_.end()) continue;
      found->second->store(next_);
      for (const int i : group) {
        const auto b = static_cast<std::size_t>(i);
        boxes[b] = grown(start_boxes[b].merged(body_box(i, next_.U)), parameters_.activation);
      }
    }
    pairs = overlapping_boxes(boxes);
    // A body held in a stepped island that a restless one reached wakes, and its island is
    // solved again with it awake.
    bool woke_held = false;
    for (const int i : wake_met_by(pairs, restless)) {
      for (const std::vector<int>& group : members) {
        if (std::binary_search(group.begin(), group.end(), i))
          woke_held |= results_.erase(group) > 0;
      }
    }
    if (!link_islands(pairs, groups, attached) && !woke_held) break;
    ++summary_.merges;
  }
  for (auto& [group, island] : results_) collect_warnings(*island);

  // Commit.
  next_.time = state_.time + timestep_;
  next_.step_count = state_.step_count + 1;
  std::swap(state_, next_);
  report_ = sim::StepReport{};
  report_.stats.converged = true;
  contact::ContactMeasure closest;
  closest.min_distance = std::numeric_limits<double>::infinity();
  double total_mass = 0.0;
  summary_.islands = 0;
  std::vector<Island*> stepped;
  for (const std::vector<int>& group : members) {
    const auto found = results_.find(group);
    if (found == results_.end()) continue;
    Island* island = found->second;
    stepped.push_back(island);
    ++summary_.islands;
    island->synced_step = state_.step_count;
    island->rest_diagnostics = island->simulator().diagnostics();
    island->rest_step = state_.step_count;
    const sim::StepReport& report = island->simulator().last_report();
    report_.ok = report_.ok && report.ok;
    report_.retries += report.retries;
    report_.energy_gain += report.energy_gain;
    report_.energy_unbalanced = report_.energy_unbalanced || report.energy_unbalanced;
    add_stats(report.stats, report_.stats);
  }
  fall_asleep_where_quiet(stepped, pairs);
  for (const std::vector<int>& group : members) {
    const auto found = results_.find(group);
    Island* island = found == results_.end() ? &sleeping(group) : found->second;
    double mass = 0.0;
    for (const int i : group) mass += masses_[static_cast<std::size_t>(i)];
    add_diagnostics(island->rest_diagnostics, mass, report_.diagnostics, total_mass);
    report_.diagnostics.contact_energy += island->measure.barrier_energy;
    report_.diagnostics.total_energy += island->measure.barrier_energy;
    const bool solved = found != results_.end();
    const int iterations = solved ? island->simulator().last_report().stats.iterations : 0;
    for (std::size_t k = 0; k < group.size(); ++k) {
      const auto b = static_cast<std::size_t>(group[k]);
      clearances_[b] = island->measure.part_closest[k];
      iterations_[b] = asleep_[b] ? 0 : iterations;
      threads_[b] = solved ? island->simulator().thread_count() : 0;
    }
    closest.min_distance = std::min(closest.min_distance, island->measure.min_distance);
    closest.active += island->measure.active;
    closest.active_points.insert(closest.active_points.end(), island->measure.active_points.begin(),
                                 island->measure.active_points.end());
  }
  report_.diagnostics.centroid /= total_mass;
  summary_.ok = report_.ok;
  summary_.min_distance = closest.min_distance;
  summary_.active_contacts = closest.active;
  summary_.asleep = static_cast<int>(std::count(asleep_.begin(), asleep_.end(), 1));
  update_stiffness(stepped);
  summary_.contact_points = std::move(closest.active_points);
  drop_spare_islands();
  summary_.step_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  report_.step_ms = summary_.step_ms;
  return summary_;
}

std::vector<char> ContactScene::restless_bodies() const {
  // Quiet: below kSleepSpeed of the body's size per second, or below friction's creep.
  const bool friction =
      parameters_.friction > 0.0 ||
      std::any_of(obstacles_.begin(), obstacles_.end(),
                  [](const contact::Obstacle& obstacle) { return obstacle.friction > 0.0; });
  const double creep = friction ? kSleepCreep * parameters_.slip : 0.0;
  std::vector<char> restless(static_cast<std::size_t>(body_count()), 0);
  for (int i = 0; i < body_count(); ++i) {
    const auto b = static_cast<std::size_t>(i);
    const double speed = std::sqrt(2.0 * body_kinetic(i) / masses_[b]);
    const double still = std::max(kSleepSpeed * diagonals_[b], creep);
    restless[b] = !asleep_[b] && (i == drag_.body || !(speed < still));
  }
  return restless;
}

std::vector<int> ContactScene::wake_met_by(const std::vector<std::pair<int, int>>& pairs,
                                           const std::vector<char>& restless) {
  std::vector<int> woken;
  for (const auto& [i, j] : pairs) {
    for (const auto& [mover, other] : {std::pair{i, j}, std::pair{j, i}}) {
      const auto m = static_cast<std::size_t>(mover);
      if (asleep_[m] || !asleep_[static_cast<std::size_t>(other)]) continue;
      if (!restless[m] && !lower(mover, other)) continue;
      wake(other);
      woken.push_back(other);
    }
  }
  return woken;
}

bool ContactScene::lower(int a, int b) const {
  const Eigen::Vector3d& g = settings_.gravity;
  return g.isZero(0.0) || (body_centroid(a) - body_centroid(b)).dot(g) > 0.0;
}

bool ContactScene::link_islands(const std::vector<std::pair<int, int>>& pairs, Groups& groups,
                                std::vector<char>& attached) {
  bool joined = false;
  for (const auto& [i, j] : pairs) {
    const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(j);
    if (asleep_[a] && asleep_[b]) continue;
    if (asleep_[a]) attached[a] = 1;
    if (asleep_[b]) attached[b] = 1;
    joined = groups.link(i, j) || joined;
  }
  for (const auto& [i, j] : pairs) {
    const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(j);
    if (asleep_[a] && asleep_[b] && !attached[a] && !attached[b]) {
      joined = groups.link(i, j) || joined;
    }
  }
  return joined;
}

void ContactScene::fall_asleep_where_quiet(const std::vector<Island*>& stepped,
                                           const std::vector<std::pair<int, int>>& pairs) {
  // Quiet steps of the bodies that stepped, and which bodies move now.
  const std::vector<char> restless = restless_bodies();
  std::vector<int> candidates;
  for (const Island* island : stepped) {
    for (const int i : island->bodies()) {
      const auto b = static_cast<std::size_t>(i);
      if (asleep_[b]) continue;
      quiet_steps_[b] = restless[b] ? 0 : quiet_steps_[b] + 1;
      if (quiet_steps_[b] >= kSleepSteps && i != drag_.body) candidates.push_back(i);
    }
  }
  if (!sleeping_allowed_ || candidates.empty()) return;
  std::vector<std::vector<int>> neighbours(restless.size());
  for (const auto& [i, j] : pairs) {
    neighbours[static_cast<std::size_t>(i)].push_back(j);
    neighbours[static_cast<std::size_t>(j)].push_back(i);
  }
  // Lowest first, so that a body whose support falls asleep now may fall asleep on it.
  const Eigen::Vector3d& g = settings_.gravity;
  std::vector<std::pair<double, int>> order;
  for (const int i : candidates) order.emplace_back(-body_centroid(i).dot(g), i);
  std::sort(order.begin(), order.end());
  std::vector<char> fell(restless.size(), 0);
  for (const auto& entry : order) {
    // Not a structured binding: clang 14 (emscripten's) cannot capture one.
    const int i = entry.second;
    const std::vector<int>& around = neighbours[static_cast<std::size_t>(i)];
    const bool carried_or_pushed = std::any_of(around.begin(), around.end(), [&](int j) {
      return restless[static_cast<std::size_t>(j)] ||
             (!asleep_[static_cast<std::size_t>(j)] && lower(j, i));
    });
    if (carried_or_pushed) continue;
    const auto b = static_cast<std::size_t>(i);
    asleep_[b] = 1;
    state_.Udot.middleRows(4 * layout_.first_mode[b], 4 * layout_.mode_count[b]).setZero();
    state_.patches[b].Cdot.setZero();
    fell[b] = 1;
  }
  // The islands of the bodies that fell asleep take their zero velocities.
  for (Island* island : stepped) {
    const std::vector<int>& bodies = island->bodies();
    if (std::none_of(bodies.begin(), bodies.end(),
                     [&](int i) { return fell[static_cast<std::size_t>(i)] != 0; })) {
      continue;
    }
    island->load(state_);
    island->rest_diagnostics = island->simulator().diagnostics();
  }
}

Island& ContactScene::sleeping(const std::vector<int>& group) {
  const auto cached = islands_.find(group);
  // Measured at the last step (as it stepped, fell asleep or slept): the bodies have not moved.
  if (cached != islands_.end() && cached->second->rest_step == state_.step_count - 1) {
    cached->second->last_used = clock_;
    cached->second->rest_step = state_.step_count;
    return *cached->second;
  }
  // Not measured as it is now (it fell asleep inside a larger island that has since split, or
  // this island last stepped before): measured afresh.
  Island& found = island(group);
  found.rest_diagnostics = found.simulator().diagnostics();
  found.measure = found.simulator().contact_measure();
  found.rest_step = state_.step_count;
  return found;
}

void ContactScene::update_stiffness(const std::vector<Island*>& stepped) {
  if (!adaptive_stiffness_) return;
  bool changed = false;
  for (const Island* island : stepped) {
    for (const int i : island->bodies()) {
      const auto b = static_cast<std::size_t>(i);
      const double closest = clearances_[b];
      if (asleep_[b] || !(closest < parameters_.activation)) continue;
      const double crushed = kCrushedBelow * parameters_.activation;
      double factor = 1.0;
      if (closest < crushed) {
        factor = std::clamp(crushed / std::max(closest, crushed / kMaxCrushStiffening), 2.0,
                            kMaxCrushStiffening);
      } else if (closest < kStiffenBelow * parameters_.activation &&
                 stiffness_[b] < kMaxStiffening * start_stiffness_[b]) {
        factor = 2.0;
      }
      const double most = kMaxStiffening * kMaxCrushStiffening * start_stiffness_[b];
      if (factor > 1.0 && stiffness_[b] < most) {
        stiffness_[b] = std::min(stiffness_[b] * factor, most);
        changed = true;
      }
    }
  }
  if (!changed) return;
  parameters_.stiffness = *std::max_element(stiffness_.begin(), stiffness_.end());
  ++parameters_version_;
}

void ContactScene::collect_warnings(Island& island) {
  sim::Simulator& simulator = island.simulator();
  warnings_.insert(warnings_.end(), simulator.warnings().begin(), simulator.warnings().end());
  simulator.clear_warnings();
}

void ContactScene::drop_spare_islands() {
  // Islands not used this step, newest first, kept while their modes add up to kSpareModes.
  struct Spare {
    std::uint64_t last_used;
    int modes;
    const std::vector<int>* bodies;
  };
  std::vector<Spare> spare;
  for (const auto& [bodies, island] : islands_) {
    if (island->last_used == clock_) continue;
    spare.push_back({island->last_used, island->model().mode_count(), &bodies});
  }
  std::sort(spare.begin(), spare.end(),
            [](const Spare& a, const Spare& b) { return a.last_used > b.last_used; });
  std::vector<std::vector<int>> keys;
  int modes = 0;
  for (const Spare& island : spare) {
    modes += island.modes;
    if (modes > kSpareModes) keys.push_back(*island.bodies);
  }
  for (const std::vector<int>& key : keys) islands_.erase(key);
}

contact::ContactMeasure ContactScene::measure() {
  std::vector<Eigen::AlignedBox3d> boxes;
  for (int i = 0; i < body_count(); ++i) {
    boxes.push_back(grown(body_box(i, state_.U), parameters_.activation));
  }
  Groups groups(body_count());
  for (const auto& [i, j] : overlapping_boxes(boxes)) groups.link(i, j);
  contact::ContactMeasure result;
  result.min_distance = std::numeric_limits<double>::infinity();
  for (const std::vector<int>& group : groups.members()) {
    Island& found = island(group);
    contact::ContactMeasure part = found.simulator().contact_measure();
    result.min_distance = std::min(result.min_distance, part.min_distance);
    result.active += part.active;
    result.active_points.insert(result.active_points.end(), part.active_points.begin(),
                                part.active_points.end());
  }
  return result;
}

void ContactScene::reset() {
  obstacles_ = initial_obstacles_;
  push_forces_.clear();
  stiffness_ = start_stiffness_;
  parameters_.stiffness = *std::max_element(stiffness_.begin(), stiffness_.end());
  ++parameters_version_;
  for (int i = 0; i < body_count(); ++i) wake(i);
  place_bodies();
  summary_ = StepSummary{};
  report_ = sim::StepReport{};
}

std::unique_ptr<ContactScene> load_contact_scene(const ContactSceneSpec& spec,
                                                 const std::vector<asset::Asset>& assets,
                                                 int thread_count) {
  std::vector<sim::ReducedModel> models;
  for (const asset::Asset& asset : assets) models.push_back(sim::load_reduced_model(asset));
  auto scene = std::make_unique<ContactScene>(spec, std::move(models), thread_count);
  for (std::size_t i = 0; i < assets.size() && i < spec.bodies.size(); ++i) {
    if (!spec.bodies[i].local_deformations) continue;
    full::FullModel mesh;
    try {
      mesh = full::load_full_model(assets[i]);
    } catch (const std::exception& error) {
      throw std::invalid_argument(
          "bodies[" + std::to_string(i) + "] (" + assets[i].source_name() +
          ") asks for localDeformations, which need its tet mesh: " + error.what());
    }
    scene->enable_local_deformations(static_cast<int>(i), std::move(mesh));
  }
  return scene;
}

}  // namespace smfem::multibody
