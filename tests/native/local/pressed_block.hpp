#pragma once
// A block resting on a floor with a rigid sphere pressed slowly into the middle of its top face,
// for the tests of contact with local deformations (local/local_contact.hpp): the block (every
// boundary vertex a contact sample), its mesh, the obstacles, the body's contact and its Simulator.
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "local/block_mesh.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::local::test {

struct PressOptions {
  int cubes = 8;  // across the block's width (half as many through its height)
  int modes = 4;
  double youngs = 1e5, poisson = 0.3;
  double radius = 0.5;       // the sphere's, m
  double activation = 1e-3;  // dhat, m
  // kappa, Pa: stiff enough that a loaded sample rests a fair part of dhat away, so the sphere,
  // which advances half the closest distance a step at most, comes down in a few dozen steps.
  double stiffness = 1e6;
  // The mesh's vertices above this height (m) are pinned where the patches' fields are made.
  double pinned_above = std::numeric_limits<double>::infinity();
};

class PressedBlock {
 public:
  // settings: the solver's (gravity is set to zero: the floor and the sphere hold the block).
  PressedBlock(const PressOptions& options, sim::SolverSettings settings, bool local)
      : options_(options),
        box_(make_box(options)),
        mesh_(block_mesh(box_, 1000.0)),
        obstacles_(make_obstacles(options)),
        potential_(box_.model.contact, {Eigen::Vector3d::Zero()}),
        simulator_(box_.model, zero_gravity(settings)) {
    contact::ContactParameters parameters;
    parameters.activation = options.activation;
    parameters.stiffness = options.stiffness;
    potential_.set_environment(&obstacles_, parameters, settings.timestep);
    simulator_.set_contact(&potential_);
    for (int v = 0; v < mesh_.vertex_count(); ++v) {
      if (mesh_.positions(v, 1) > options.pinned_above) mesh_.pinned.push_back(v);
    }
    if (local) simulator_.enable_local_deformations(mesh_);
  }

  sim::Simulator& simulator() { return simulator_; }
  const sim::BoxModel& box() const { return box_; }
  const full::FullModel& mesh() const { return mesh_; }
  // How far the sphere has come down from where it started, m.
  double descent() const { return -obstacles_.back().offset.y(); }

  // One step with the sphere moved down towards `descent` as far as it can come without touching
  // a sample: at most half the current closest distance (a sphere that translates by t changes no
  // distance by more than t). Returns the step's report.
  const sim::StepReport& step_towards(double descent) {
    contact::Obstacle& sphere = obstacles_.back();
    sphere.start_offset = sphere.offset;
    const double wanted = descent - this->descent();
    const double room = 0.5 * simulator_.contact_measure().min_distance;
    sphere.offset.y() -= std::clamp(wanted, -room, room);
    return simulator_.step();
  }

  // The force the block presses on the sphere (N, upwards positive).
  double sphere_force() { return simulator_.obstacle_forces().back().y(); }

 private:
  static sim::BoxModel make_box(const PressOptions& options) {
    sim::BoxModelOptions box;
    box.nx = box.nz = options.cubes;
    box.ny = options.cubes / 2;
    box.lower = Eigen::Vector3d(-0.5, 0.0, -0.5);
    box.upper = Eigen::Vector3d(0.5, 0.5, 0.5);
    box.mode_count = options.modes;
    box.youngs[0] = box.youngs[1] = options.youngs;
    box.poisson = options.poisson;
    return sim::make_box_model(box);
  }
  // The floor half a dhat below the block, the sphere half a dhat above its top's middle.
  static std::vector<contact::Obstacle> make_obstacles(const PressOptions& options) {
    contact::Obstacle floor;
    floor.point = Eigen::Vector3d(0.0, -0.5 * options.activation, 0.0);
    contact::Obstacle sphere;
    sphere.kind = contact::ObstacleKind::sphere;
    sphere.radius = options.radius;
    sphere.point = Eigen::Vector3d(0.0, 0.5 + options.radius + 0.5 * options.activation, 0.0);
    return {floor, sphere};
  }
  static sim::SolverSettings zero_gravity(sim::SolverSettings settings) {
    settings.gravity.setZero();
    return settings;
  }

  PressOptions options_;
  sim::BoxModel box_;
  full::FullModel mesh_;
  std::vector<contact::Obstacle> obstacles_;
  contact::ContactPotential potential_;
  sim::Simulator simulator_;
};

}  // namespace smfem::local::test
