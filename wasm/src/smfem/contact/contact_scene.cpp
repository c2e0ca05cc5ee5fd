#include "smfem/contact/contact_scene.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "smfem/geometry/point_triangle.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::contact {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& source, const std::string& key,
                         const std::string& problem) {
  throw std::invalid_argument(source + ": " + key + ": " + problem);
}

double number_at(const json& object, const char* key, const std::string& where,
                 const std::string& source, double fallback) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    refuse(source, where + key, "must be a finite number");
  }
  return value.get<double>();
}

Eigen::Vector3d vector_at(const json& object, const char* key, const std::string& where,
                          const std::string& source, const Eigen::Vector3d& fallback) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  if (!value.is_array() || value.size() != 3) refuse(source, where + key, "must be [x, y, z]");
  Eigen::Vector3d v;
  for (int d = 0; d < 3; ++d) {
    if (!value[d].is_number() || !std::isfinite(value[d].get<double>())) {
      refuse(source, where + key, "must hold three finite numbers");
    }
    v(d) = value[d].get<double>();
  }
  return v;
}

Eigen::Vector3d required_vector(const json& object, const char* key, const std::string& where,
                                const std::string& source) {
  if (!object.contains(key)) refuse(source, where + key, "is missing");
  return vector_at(object, key, where, source, Eigen::Vector3d::Zero());
}

double required_number(const json& object, const char* key, const std::string& where,
                       const std::string& source) {
  if (!object.contains(key)) refuse(source, where + key, "is missing");
  return number_at(object, key, where, source, 0.0);
}

Obstacle read_obstacle(const json& entry, const std::string& where, const std::string& source) {
  if (!entry.is_object() || !entry.contains("type") || !entry.at("type").is_string()) {
    refuse(source, where, "must be an object with a \"type\"");
  }
  const auto kind = obstacle_kind_from_name(entry.at("type").get<std::string>());
  if (!kind) refuse(source, where + "type", "must be plane, sphere, box or capsule");
  Obstacle o;
  o.kind = *kind;
  switch (o.kind) {
    case ObstacleKind::plane: {
      o.point = required_vector(entry, "point", where, source);
      const Eigen::Vector3d normal = required_vector(entry, "normal", where, source);
      if (!(normal.norm() > 0.0)) refuse(source, where + "normal", "must not be zero");
      o.normal = normal.normalized();
      break;
    }
    case ObstacleKind::sphere:
      o.point = required_vector(entry, "center", where, source);
      o.radius = required_number(entry, "radius", where, source);
      break;
    case ObstacleKind::box:
      o.point = required_vector(entry, "center", where, source);
      o.half_extents = required_vector(entry, "half_extents", where, source);
      break;
    case ObstacleKind::capsule:
      o.point = required_vector(entry, "from", where, source);
      o.end = required_vector(entry, "to", where, source);
      o.radius = required_number(entry, "radius", where, source);
      break;
  }
  o.friction = number_at(entry, "friction", where, source, -1.0);
  if (entry.contains("friction") && !(o.friction >= 0.0 && o.friction <= 10.0)) {
    refuse(source, where + "friction", "must be in [0, 10]");
  }
  if (entry.contains("path")) {
    const json& path = entry.at("path");
    if (!path.is_object() || !path.contains("times") || !path.contains("offsets") ||
        !path.at("times").is_array() || !path.at("offsets").is_array() ||
        path.at("times").size() != path.at("offsets").size() || path.at("times").empty()) {
      refuse(source, where + "path",
             "must be {\"times\": [...], \"offsets\": [[x, y, z], ...]} "
             "of equal, non-zero lengths");
    }
    for (std::size_t i = 0; i < path.at("times").size(); ++i) {
      const json keyframe = {{"t", path.at("times")[i]}, {"o", path.at("offsets")[i]}};
      o.path.times.push_back(required_number(keyframe, "t", where + "path.times.", source));
      o.path.offsets.push_back(required_vector(keyframe, "o", where + "path.offsets.", source));
    }
    o.offset = o.path.offset_at(0.0);
  }
  try {
    check_obstacle(o);
  } catch (const std::invalid_argument& e) {
    refuse(source, where, e.what());
  }
  return o;
}

double body_mass_over_area(const sim::ReducedModel& model) {
  return model.total_mass / model.contact.areas.sum();
}

bool same_side_of_plane(const Obstacle& plane, const SurfacePositions& points,
                        const std::vector<int>& samples) {
  int below = 0, above = 0;
  for (const int v : samples) {
    const double side = plane.normal.dot(points.row(v).transpose() - plane.offset - plane.point);
    (side < 0.0 ? below : above) += 1;
  }
  return below == 0 || above == 0;
}

// Whether x is inside the closed surface (winding number by solid angles).
bool inside(const Eigen::Vector3d& x, const SurfacePositions& points,
            const SurfaceTriangles& triangles) {
  double angle = 0.0;
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    angle += geometry::triangle_solid_angle(x, points.row(triangles(t, 0)).transpose(),
                                            points.row(triangles(t, 1)).transpose(),
                                            points.row(triangles(t, 2)).transpose());
  }
  return angle > 2.0 * std::numbers::pi;
}

}  // namespace

ContactSceneSpec read_contact_scene(const json& scene, const std::string& source) {
  if (!scene.is_object()) refuse(source, "scene", "must be a JSON object");
  ContactSceneSpec spec;
  spec.timestep = number_at(scene, "timestep", "", source, spec.timestep);
  if (!(spec.timestep > 0.0)) refuse(source, "timestep", "must be positive");
  spec.gravity = vector_at(scene, "gravity", "", source, spec.gravity);
  spec.friction = number_at(scene, "friction", "", source, 0.0);
  if (!(spec.friction >= 0.0 && spec.friction <= 10.0)) {
    refuse(source, "friction", "must be in [0, 10]");
  }
  if (scene.contains("contact")) {
    const json& contact = scene.at("contact");
    if (!contact.is_object()) refuse(source, "contact", "must be an object");
    spec.activation = number_at(contact, "activation_distance", "contact.", source, 0.0);
    if (contact.contains("activation_distance") && !(spec.activation > 0.0)) {
      refuse(source, "contact.activation_distance", "must be positive (d_hat > 0)");
    }
    spec.stiffness = number_at(contact, "stiffness", "contact.", source, 0.0);
    if (contact.contains("stiffness") && !(spec.stiffness > 0.0)) {
      refuse(source, "contact.stiffness", "must be positive");
    }
    spec.slip = number_at(contact, "slip", "contact.", source, spec.slip);
    if (!(spec.slip > 0.0)) refuse(source, "contact.slip", "must be positive");
  }
  if (scene.contains("obstacles")) {
    if (!scene.at("obstacles").is_array()) refuse(source, "obstacles", "must be an array");
    for (std::size_t i = 0; i < scene.at("obstacles").size(); ++i) {
      spec.obstacles.push_back(
          read_obstacle(scene.at("obstacles")[i], "obstacles[" + std::to_string(i) + "].", source));
    }
  }
  if (!scene.contains("bodies") || !scene.at("bodies").is_array() || scene.at("bodies").empty()) {
    refuse(source, "bodies", "must be a non-empty array");
  }
  for (std::size_t i = 0; i < scene.at("bodies").size(); ++i) {
    const json& entry = scene.at("bodies")[i];
    const std::string where = "bodies[" + std::to_string(i) + "].";
    if (!entry.is_object()) refuse(source, where, "must be an object");
    SceneBodySpec body;
    body.translation = vector_at(entry, "translation", where, source, body.translation);
    body.velocity = vector_at(entry, "velocity", where, source, body.velocity);
    spec.bodies.push_back(body);
  }
  return spec;
}

ContactScene::ContactScene(const ContactSceneSpec& spec, std::vector<sim::ReducedModel> models,
                           int thread_count)
    : obstacles_(spec.obstacles), initial_obstacles_(spec.obstacles), timestep_(spec.timestep) {
  if (models.size() != spec.bodies.size()) {
    throw std::invalid_argument("the scene lists " + std::to_string(spec.bodies.size()) +
                                " bodies but " + std::to_string(models.size()) +
                                " assets were given");
  }
  double largest_diagonal = 0.0;
  double mass_over_area = 0.0;
  std::vector<Eigen::Vector3d> offsets;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const sim::ReducedModel& model = models[i];
    if (model.contact.empty()) {
      throw std::invalid_argument("body " + std::to_string(i) + " (" + model.source +
                                  ") has no contact samples: bake it with --contact-samples");
    }
    if (!spec.bodies[i].translation.allFinite() || !spec.bodies[i].velocity.allFinite()) {
      throw std::invalid_argument("body " + std::to_string(i) +
                                  ": translation and velocity must be finite");
    }
    const auto& p = model.contact.positions;
    largest_diagonal =
        std::max(largest_diagonal, (p.colwise().maxCoeff() - p.colwise().minCoeff()).norm());
    mass_over_area = std::max(mass_over_area, body_mass_over_area(model));
    offsets.push_back(spec.bodies[i].translation);
    velocities_.push_back(spec.bodies[i].velocity);
    rest_centroids_.push_back(model.rest_centroid + spec.bodies[i].translation);
    masses_.push_back(model.total_mass);
  }
  parameters_.activation =
      spec.activation > 0.0 ? spec.activation : kDefaultActivation * largest_diagonal;
  adaptive_stiffness_ = !(spec.stiffness > 0.0);
  start_stiffness_ =
      adaptive_stiffness_ ? mass_over_area / (timestep_ * timestep_) : spec.stiffness;
  parameters_.stiffness = start_stiffness_;
  parameters_.friction = spec.friction;
  parameters_.slip = spec.slip;

  composite_ = combine_models(std::move(models), offsets);
  sim::SolverSettings settings = composite_.model.defaults;
  settings.timestep = spec.timestep;
  settings.gravity = spec.gravity;
  potential_ = std::make_unique<ContactPotential>(composite_.model.contact, offsets);
  potential_->set_environment(&obstacles_, parameters_, timestep_);
  simulator_ = std::make_unique<sim::Simulator>(composite_.model, settings, thread_count);
  simulator_->set_contact(potential_.get(), rigid_translation());
  place_bodies();
  check_start_state();
}

void ContactScene::place_bodies() {
  const sim::ReducedModel& model = composite_.model;
  // Each body's rigid velocity in its subspace, in the mass norm (exact where it holds a
  // constant weight); the mass is block-diagonal, so one solve serves every body.
  const Eigen::Index n = model.mass_vector.size();
  sim::ReducedMatrix along = sim::ReducedMatrix::Zero(n, 3);
  for (int i = 0; i < body_count(); ++i) {
    for (int d = 0; d < 3; ++d) {
      body_block(composite_, i, along).col(d) = body_block(composite_, i, model.mass_vector) *
                                                velocities_[static_cast<std::size_t>(i)](d);
    }
  }
  simulator_->reset();
  simulator_->set_state(sim::ReducedMatrix::Zero(n, 3), model.mass_block.ldlt().solve(along));
}

Eigen::VectorXd ContactScene::rigid_translation() const {
  const sim::ReducedModel& model = composite_.model;
  // Per body, the mass-norm fit of the constant, M_b^-1 m_b (one solve: M is block-diagonal).
  Eigen::VectorXd t = model.mass_block.ldlt().solve(model.mass_vector);
  // Zero on the bodies whose subspace does not hold a translation exactly (pinned ones): there it
  // would strain them. Exact: every surface vertex moves by exactly 1, b_v . t = 1.
  const Eigen::VectorXd moved = surface_basis(model.contact) * t;
  std::vector<char> exact(static_cast<std::size_t>(body_count()), 1);
  for (Eigen::Index v = 0; v < moved.size(); ++v) {
    if (std::abs(moved(v) - 1.0) > 1e-6) {
      exact[static_cast<std::size_t>(model.contact.part(v))] = 0;
    }
  }
  for (int i = 0; i < body_count(); ++i) {
    if (!exact[static_cast<std::size_t>(i)]) body_block(composite_, i, t).setZero();
  }
  return t;
}

Eigen::Vector3d ContactScene::body_momentum(int body) const {
  const auto velocity = body_block(composite_, body, simulator_->velocities());
  return velocity.transpose() * body_block(composite_, body, composite_.model.mass_vector);
}

Eigen::Vector3d ContactScene::body_centroid(int body) const {
  const auto i = static_cast<std::size_t>(body);
  const auto U = body_block(composite_, body, simulator_->coordinates());
  const auto mass_vector = body_block(composite_, body, composite_.model.mass_vector);
  return rest_centroids_[i] + U.transpose() * mass_vector / masses_[i];
}

void ContactScene::check_start_state() {
  SurfacePositions now;
  potential_->surface_positions(simulator_->coordinates(), now);
  const ContactSurface& surface = composite_.model.contact;
  for (int i = 0; i < body_count(); ++i) {
    const std::string name = "body " + std::to_string(i);
    // Body i's own vertices, samples and triangles.
    std::vector<int> samples;
    for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
      if (surface.part(surface.samples(k)) == i) samples.push_back(surface.samples(k));
    }
    SurfaceTriangles triangles(0, 3);
    for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t) {
      if (surface.part(surface.triangles(t, 0)) != i) continue;
      triangles.conservativeResize(triangles.rows() + 1, 3);
      triangles.row(triangles.rows() - 1) = surface.triangles.row(t);
    }
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      const Obstacle& obstacle = obstacles_[o];
      const std::string what =
          std::string(obstacle_kind_name(obstacle.kind)) + " obstacle " + std::to_string(o);
      if (obstacle.kind == ObstacleKind::plane) {
        if (!same_side_of_plane(obstacle, now, samples)) {
          throw std::invalid_argument(name + " crosses the " + what);
        }
      } else if (inside(obstacle.point + obstacle.offset, now, triangles)) {
        throw std::invalid_argument("the " + what + " is inside " + name);
      }
      for (const int v : samples) {
        if (!(obstacle_distance(obstacle, now.row(v).transpose()).distance > 0.0)) {
          throw std::invalid_argument(name + " starts inside or touching the " + what);
        }
      }
    }
    // Another body's sample inside this one (a body within a body has no sample near a
    // triangle: the distance check below would not see it).
    Eigen::AlignedBox3d bounds;
    for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
      for (int c = 0; c < 3; ++c) bounds.extend(Eigen::Vector3d(now.row(triangles(t, c))));
    }
    for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
      const int v = surface.samples(k);
      const Eigen::Vector3d x = now.row(v).transpose();
      if (surface.part(v) != i && bounds.contains(x) && inside(x, now, triangles)) {
        throw std::invalid_argument("body " + std::to_string(surface.part(v)) + " overlaps " +
                                    name + " at the start: move them apart");
      }
    }
  }
  if (!(measure().min_distance > 0.0)) {
    throw std::invalid_argument("two bodies touch at the start: move them apart");
  }
}

void ContactScene::move_obstacle(int obstacle, const Eigen::Vector3d& offset) {
  if (obstacle < 0 || obstacle >= static_cast<int>(obstacles_.size())) {
    throw std::out_of_range("no obstacle " + std::to_string(obstacle));
  }
  if (!offset.allFinite()) throw std::invalid_argument("obstacle offset must be finite");
  // Held there from now on.
  obstacles_[static_cast<std::size_t>(obstacle)].path = ObstaclePath{{0.0}, {offset}};
}

void ContactScene::drag_start(int body, int vertex, const Eigen::Vector3d& target,
                              double stiffness) {
  if (body < 0 || body >= body_count()) throw std::out_of_range("no body " + std::to_string(body));
  const auto b = static_cast<std::size_t>(body);
  const int first = composite_.first_render_vertex[b];
  if (vertex < 0 || vertex >= composite_.first_render_vertex[b + 1] - first) {
    throw std::out_of_range("body " + std::to_string(body) + " has no render vertex " +
                            std::to_string(vertex));
  }
  dragged_body_ = body;
  // The spring lives in the body's rest frame: the target moves by the body's offset.
  simulator_->drag_start(first + vertex, target - composite_.offsets[b], stiffness);
}

void ContactScene::drag_move(const Eigen::Vector3d& target) {
  simulator_->drag_move(target - composite_.offsets[static_cast<std::size_t>(dragged_body_)]);
}

void ContactScene::set_solver(sim::SolverMethod method, int iterations, bool until_converged) {
  sim::SolverSettings settings = simulator_->settings();
  settings.method = method;
  settings.iterations = iterations;
  settings.until_converged = until_converged;
  simulator_->set_settings(settings);
}

void ContactScene::move_obstacles(double end_time) {
  summary_.obstacles_held = 0;
  SurfacePositions now;  // computed once an obstacle moves (most steps none does)
  const Eigen::VectorXi& samples = composite_.model.contact.samples;
  for (Obstacle& obstacle : obstacles_) {
    obstacle.start_offset = obstacle.offset;
    if (obstacle.path.times.empty()) continue;
    const Eigen::Vector3d motion = obstacle.path.offset_at(end_time) - obstacle.offset;
    if (motion.isZero(0.0)) continue;
    if (now.rows() == 0) potential_->surface_positions(simulator_->coordinates(), now);
    // A sample sees the obstacle come at it: relative motion -motion.
    double alpha = 1.0;
    for (Eigen::Index k = 0; k < samples.size(); ++k) {
      alpha = std::min(alpha, obstacle_time_of_impact(obstacle, now.row(samples(k)).transpose(),
                                                      -motion, parameters_.keep));
    }
    obstacle.offset += alpha * motion;
    if (alpha < 1.0) ++summary_.obstacles_held;
  }
}

const StepSummary& ContactScene::step() {
  const auto started = std::chrono::steady_clock::now();
  move_obstacles(simulator_->time() + timestep_);
  summary_.ok = simulator_->step().ok;
  ContactMeasure closest = measure();
  summary_.min_distance = closest.min_distance;
  summary_.active_contacts = closest.active;
  summary_.contact_points = std::move(closest.active_points);
  if (adaptive_stiffness_ && closest.active > 0) {
    const double crushed = kCrushedBelow * parameters_.activation;
    double factor = 1.0;
    if (closest.min_distance < crushed) {
      factor = std::clamp(crushed / std::max(closest.min_distance, crushed / kMaxCrushStiffening),
                          2.0, kMaxCrushStiffening);
    } else if (closest.min_distance < kStiffenBelow * parameters_.activation &&
               parameters_.stiffness < kMaxStiffening * start_stiffness_) {
      factor = 2.0;
    }
    const double most = kMaxStiffening * kMaxCrushStiffening * start_stiffness_;
    if (factor > 1.0 && parameters_.stiffness < most) {
      parameters_.stiffness = std::min(parameters_.stiffness * factor, most);
      potential_->set_environment(&obstacles_, parameters_, timestep_);
    }
  }
  summary_.step_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return summary_;
}

void ContactScene::reset() {
  obstacles_ = initial_obstacles_;
  parameters_.stiffness = start_stiffness_;
  potential_->set_environment(&obstacles_, parameters_, timestep_);
  place_bodies();
  summary_ = StepSummary{};
}

}  // namespace smfem::contact
