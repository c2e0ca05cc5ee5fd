#pragma once
// Contact of a full-space model's points with the analytic obstacles (sim/contact/obstacle.hpp),
// the contact term of its step energy (sim/step/discretization.hpp: StepContact):
//
//   Psi_c(U) = kappa sum_p a_p b(d(x_p)),   x_p = X_p + U_{node_p},
//
// over the contact points p (nodes, with a rest position and an area a_p) and every obstacle,
// b the IPC barrier (sim/contact/barrier.hpp). Per point and obstacle: gradient kappa a b'(d) n
// (n the distance's gradient, from the obstacle towards the point), Hessian kappa a b''(d) n n^T,
// the projection to PSD of the exact one (the distance's own curvature is PSD outside a convex
// obstacle and enters with b' < 0), as the stepper's contact does. max_step keeps `keep` of each
// distance (or of dhat where that is less: ccd.hpp) by the obstacles' closed-form or
// conservative time of impact. Every point meets every obstacle (a few obstacles, a few
// thousand points: no broad phase).
//
// Friction (where the obstacle's coefficient, or the parameters' for an obstacle that sets none,
// is positive): IPC's lagged smoothed Coulomb friction (sim/contact/friction.hpp), as the
// volumes' contact has it. begin_step() takes, per point within dhat of an obstacle at the
// step's start, the normal force kappa a |b'(d)|, the tangent plane and the point's position
// there (moved with the obstacle); the step's energy then adds mu lambda f0(|T^T (x - x_start)|)
// per such pair, with its gradient and its Hessian (positive semi-definite as it is) in the
// point's block.
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::full {

class ObstacleContact final : public sim::StepContact {
 public:
  struct Point {
    int node = 0;
    Eigen::Vector3d rest = Eigen::Vector3d::Zero();  // m
    double area = 0.0;                               // m^2, the barrier's weight
    // m: the body's surface lies this far beyond the point (a rod's radius, half a shell's
    // thickness), so distances are the obstacle's grown by it (obstacle.hpp).
    double skin = 0.0;
  };

  // Throws std::invalid_argument for a point of non-finite position or non-positive area, an
  // obstacle check_obstacle refuses, or parameters out of range (dhat, kappa > 0, keep in (0, 1)).
  ObstacleContact(std::vector<Point> points, std::vector<contact::Obstacle> obstacles,
                  const contact::ContactParameters& parameters);

  const std::vector<Point>& points() const { return points_; }
  const std::vector<contact::Obstacle>& obstacles() const { return obstacles_; }
  const contact::ContactParameters& parameters() const { return parameters_; }

  // Friction's pairs for the step from U_n (none where no coefficient is positive), after
  // advance_obstacles, whose push took U_before to U_n: against an obstacle that moved, each
  // point is held to where it was before, carried with the obstacle; against a still one, to
  // where it starts the step. timestep sets the static zone, eps_v h.
  void begin_step(const sim::ReducedMatrix& U_before, const sim::ReducedMatrix& U_n,
                  double timestep);

  void linearize(const sim::ReducedMatrix& U, sim::ReducedMatrix& gradient) override;
  double curvature(const sim::ReducedMatrix& dU) const override;
  double max_step(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) override;
  // dU with each point's node's row scaled by that point's own max_step (a node of several
  // points by the least): a motion that keeps every point clear, which moves the points far from
  // the obstacles all the way, as a whole-motion bound would not. Rows of nodes without points
  // are kept.
  sim::ReducedMatrix limit_each(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) const;
  // Psi_c and friction's potential at U_trial.
  double energy_along(double alpha, const sim::ReducedMatrix& U_trial) override;

  // Psi_c at U (+infinity where a point touches): the contact's potential energy.
  double energy(const sim::ReducedMatrix& U) const;
  // Friction's dissipative potential at U for the pairs of the last begin_step() (0 without).
  double friction_energy(const sim::ReducedMatrix& U) const;
  // The pairs friction holds this step.
  std::size_t friction_pairs() const { return friction_.size(); }
  // The smallest point-obstacle distance at U (+infinity without obstacles) and the pairs
  // closer than dhat.
  std::pair<double, int> closest(const sim::ReducedMatrix& U) const;
  // The force the points press on each obstacle at U, N: sum over its pairs of kappa a b'(d) n
  // (n from the obstacle towards the point); and where the last advance_obstacles pushed points
  // ahead of the obstacle, the push's reaction over that step (minus the momentum it gave them,
  // over the time step): a box sweeping a rope along a floor is pressed back by the floor's
  // friction on the rope that way, as much as through the barrier.
  std::vector<Eigen::Vector3d> obstacle_forces(const sim::ReducedMatrix& U) const;
  // Moves every obstacle that follows a path (obstacle.hpp; or the hand's target,
  // hold_obstacle) to where its path has it at `end_time`, pushing ahead of it the points it
  // would sweep: each such point's node moves on with it (U) to where it keeps `keep` of its
  // distance, as CCD would have left it, and its velocity (Udot) along the contact's normal
  // rises to the obstacle's (an inelastic push by a body of unbounded mass; `timestep` gives
  // the obstacle's velocity, `node_mass` the momentum the push gives: obstacle_forces).
  // Only a point that cannot be pushed holds the obstacle back, as far as keeps it clear: one
  // whose node is `fixed` (pinned), or that the push would take into another obstacle. Each
  // obstacle's start_offset becomes where it was (friction, begin_step, is measured against
  // its motion). Returns the points pushed. (A scene with contact cannot push single points of
  // its reduced bodies: there every sample holds its obstacles back, multibody/contact_scene.cpp.
  // Held back so, an obstacle pressed against a resting cloth crept at 1 cm/s where the hand
  // asked 15 cm in a second.)
  // Each point is pushed by itself: a node with several points would be pushed by each (the
  // thin bodies have one point per vertex).
  int advance_obstacles(sim::ReducedMatrix& U, sim::ReducedMatrix& Udot, double end_time,
                        double timestep, const std::vector<char>& fixed,
                        const Eigen::VectorXd& node_mass);
  // Whether any obstacle follows a path (or the hand): advance_obstacles can move something.
  bool obstacles_move() const;
  // Obstacle o's target from now on `offset` (contact::hold_by_hand: lifted clear of the planes;
  // what it refuses); advance_obstacles moves it there as far as the points let it.
  void hold_obstacle(std::size_t o, const Eigen::Vector3d& offset);
  // The last linearize()'s Hessian: per point, its node and 3 x 3 block (zero beyond dhat).
  const std::vector<std::pair<int, Eigen::Matrix3d>>& hessian_blocks() const { return blocks_; }

 private:
  Eigen::Vector3d position(const Point& p, const sim::ReducedMatrix& U) const {
    return p.rest + U.row(p.node).transpose();
  }

  // How much of `motion` the obstacle may make towards point p, at x, that nothing pushes: to
  // keep (a tenth) of dhat from it, or of its distance where that is farther.
  double held_reach(const contact::Obstacle& obstacle, const Point& p, const Eigen::Vector3d& x,
                    const Eigen::Vector3d& motion) const;

  // A point's friction against one obstacle over the step (begin_step()).
  struct FrictionPair {
    std::size_t point = 0;
    Eigen::Matrix<double, 3, 2> tangent;  // T: the tangent plane at the step's start
    Eigen::Vector3d start;                // the point's position then, moved with the obstacle
    double weight = 0.0;                  // mu lambda, N
  };
  // T^T (x - start): the pair's slip at U.
  Eigen::Vector2d slip(const FrictionPair& f, const sim::ReducedMatrix& U) const {
    return f.tangent.transpose() * (position(points_[f.point], U) - f.start);
  }

  std::vector<Point> points_;
  std::vector<contact::Obstacle> obstacles_;
  contact::ContactParameters parameters_;
  std::vector<std::pair<int, Eigen::Matrix3d>> blocks_;
  std::vector<FrictionPair> friction_;
  double static_slip_ = 0.0;  // eps = eps_v h of the last begin_step()
  // Per obstacle, the last advance_obstacles' push reaction, N (zero where it pushed nothing).
  std::vector<Eigen::Vector3d> push_forces_;
};

}  // namespace smfem::full
