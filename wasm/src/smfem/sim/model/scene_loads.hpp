#pragma once
// The loads a scene recipe bakes into its asset (assets/FORMAT.md: sections force.<i>.*, meta
// "forces"[i]), applied by the stepper:
//
//   periodic  a body acceleration amplitude sin(2 pi frequency t) direction on a region: the
//             reduced force column d is that acceleration's component d times force.i.mass_vector
//             (the creature's beating limb);
//   springs   twist and pull: zero-length springs of stiffness k per unit mass from each vertex
//             of a region to a displaced copy of its rest position, until `release` seconds (the
//             pendulum's wind-up, the candy's twist). With B = force.i.mass_block and R =
//             force.i.rest_offset their energy is k/2 tr(U^T B U) - k tr(U^T R) + const, so they
//             enter the step as Dynamics anchors (dynamics.hpp): A = k B, P = k R.
//
// The loads depend on time only, never on the state, so a snapshot restores them with the time.
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "smfem/asset/asset.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::sim {

struct SceneLoad {
  enum class Kind { periodic, springs };
  Kind kind = Kind::periodic;
  Eigen::VectorXd mass_vector;  // 4m

  // periodic
  double amplitude = 0.0;  // m / s^2
  double frequency = 0.0;  // Hz
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();

  // springs
  double stiffness = 0.0;                                    // 1 / s^2
  double release = std::numeric_limits<double>::infinity();  // s
  Eigen::MatrixXd mass_block;                                // 4m x 4m
  ReducedMatrix rest_offset;                                 // 4m x 3

  // Whether this is a spring load still holding at `time`.
  bool pulling(double time) const { return kind == Kind::springs && time <= release; }
};

// Reads meta "forces" and the force.<i>.* sections (absent: no loads). Throws
// asset::AssetError naming the section (or meta entry) at fault: unknown kinds, missing or
// misshapen sections, non-finite or out-of-range parameters. n = 4m.
std::vector<SceneLoad> read_scene_loads(const asset::Asset& asset, Eigen::Index n);

// force += the periodic loads at `time` (4m x 3).
void add_periodic_loads(const std::vector<SceneLoad>& loads, double time, ReducedMatrix& force);

// The anchors of the spring loads active at `time`: block = sum k B, pull = sum k R. Returns
// false (leaving the outputs alone) when none is active.
bool active_anchors(const std::vector<SceneLoad>& loads, double time, Eigen::MatrixXd& block,
                    ReducedMatrix& pull);

}  // namespace smfem::sim
