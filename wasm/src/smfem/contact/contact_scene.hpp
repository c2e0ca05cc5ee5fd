#pragma once
// A scene of several reduced bodies, each with its own asset and subspace, coupled only through
// contact, among analytic obstacles (assets/scenes/README.md, "Scenes with contact", documents
// the file). The bodies step as one composite model (composite_model.hpp): one Newton system
// holds every body and the contact pairs between them, and one CCD-limited line search moves
// them together, so that no accepted state ever intersects and contact forces between bodies
// are equal and opposite at every iterate.
//
// A step first moves the obstacles along their paths (or to where the user dragged them), each
// held back where it would come closer to a sample than `keep` of their distance allows (an
// obstacle scripted into a body stalls against it; StepSummary::obstacles_held), then steps the
// bodies.
//
// Barrier stiffness (IPC's adaptive kappa, simplified): kappa starts at the largest M / (h^2 A)
// over the bodies (mass over surface area: at unit b'' the barrier then matches inertia's
// stiffness over the surface) and doubles after a step whose closest active pair came within
// kStiffenBelow dhat, up to kMaxStiffening times its start, so that resting bodies settle at a
// distance of the order of dhat rather than deep in the barrier's steep end. A pair crushed
// below kCrushedBelow dhat (a load the barrier barely holds: a violent drag pins a body to the
// ground) raises kappa whatever that cap, by the factor that would lift it back there (the
// distance a load holds grows in proportion to kappa), at most kMaxCrushStiffening per step, and
// to kMaxCrushStiffening times the cap in all: at distances near the positions' rounding the
// barrier's Hessian overflows and no step can be solved, and a kappa without bound would
// overflow in turn.
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include "smfem/contact/composite_model.hpp"
#include "smfem/contact/contact_potential.hpp"
#include "smfem/contact/obstacle.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::contact {

inline constexpr double kStiffenBelow = 0.05;
inline constexpr double kMaxStiffening = 1024.0;
inline constexpr double kCrushedBelow = 1e-6;
inline constexpr double kMaxCrushStiffening = 1e6;
// dhat where the scene sets none: this fraction of the largest body's bounding-box diagonal.
inline constexpr double kDefaultActivation = 1e-3;

struct SceneBodySpec {
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();  // m, added to the rest positions
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();     // m/s, initial, of the whole body
};

// The scene file without its assets (the caller resolves "asset" and "recipe" paths).
struct ContactSceneSpec {
  double timestep = 1.0 / 60.0;
  Eigen::Vector3d gravity = sim::SolverSettings{}.gravity;
  double friction = 0.0;
  double activation = 0.0;  // dhat; 0: the default above
  double stiffness = 0.0;   // kappa; 0: adaptive, as above
  double slip = 1e-3;       // eps_v, m/s
  std::vector<Obstacle> obstacles;
  std::vector<SceneBodySpec> bodies;
};

// Parses a scene file's JSON; throws std::invalid_argument naming the key at fault (and
// `source`). Out-of-range values are refused, not clamped: d_hat <= 0, friction outside
// [0, 10], a non-positive timestep.
ContactSceneSpec read_contact_scene(const nlohmann::json& scene, const std::string& source);

struct StepSummary {
  bool ok = true;           // every body's step
  double min_distance = 0;  // after the step, over every sample and obstacle or foreign triangle
  int active_contacts = 0;  // pairs closer than dhat
  int obstacles_held = 0;   // obstacles held back by a body in their way this step
  double step_ms = 0.0;
  std::vector<Eigen::Vector3d> contact_points;  // after the step: ContactMeasure::active_points
};

class ContactScene {
 public:
  // models[i] is body i of spec.bodies. The scene's time step and gravity go over body 0's solver
  // defaults. Throws std::invalid_argument where a body has no contact samples, or the start
  // state intersects (a sample inside or on an obstacle, an obstacle inside a body, a body
  // crossing a plane, two bodies overlapping).
  ContactScene(const ContactSceneSpec& spec, std::vector<sim::ReducedModel> models,
               int thread_count = 1);

  int body_count() const { return static_cast<int>(composite_.first_mode.size()); }
  const CompositeModel& composite() const { return composite_; }
  sim::Simulator& simulator() { return *simulator_; }
  const sim::Simulator& simulator() const { return *simulator_; }
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  const ContactParameters& parameters() const { return parameters_; }

  double body_mass(int body) const { return masses_[static_cast<std::size_t>(body)]; }  // kg
  // Body i's linear momentum (kg m/s) and centre of mass in the scene (m).
  Eigen::Vector3d body_momentum(int body) const;
  Eigen::Vector3d body_centroid(int body) const;

  // The obstacle's drag target: it moves there at the next steps, as far as bodies allow,
  // instead of following its path.
  void move_obstacle(int obstacle, const Eigen::Vector3d& offset);
  void set_solver(sim::SolverMethod method, int iterations, bool until_converged);

  // A drag spring (sim/simulator.hpp) from render vertex `vertex` of body `body` to a point of
  // the scene (throws std::out_of_range for a body or vertex that is not there).
  void drag_start(int body, int vertex, const Eigen::Vector3d& target, double stiffness);
  void drag_move(const Eigen::Vector3d& target);
  void drag_end() { simulator_->drag_end(); }

  // One step of every body (sim/simulator.hpp's report is simulator().step()'s).
  const StepSummary& step();
  // The last step's summary (a blank one after the start or a reset).
  const StepSummary& last_step() const { return summary_; }
  // Closest distance and active pairs now.
  ContactMeasure measure() { return potential_->measure(simulator_->coordinates()); }
  // Back to the start: rest shapes at their placements and velocities, obstacles at time 0.
  void reset();

 private:
  void move_obstacles(double end_time);
  void check_start_state();
  void place_bodies();
  // The 4m-vector along which every free body translates (translation_correction.hpp).
  Eigen::VectorXd rigid_translation() const;

  CompositeModel composite_;
  std::vector<Eigen::Vector3d> velocities_;      // initial, per body
  std::vector<Eigen::Vector3d> rest_centroids_;  // per body, in the scene
  std::vector<double> masses_;                   // per body
  int dragged_body_ = 0;
  std::vector<Obstacle> obstacles_;
  std::vector<Obstacle> initial_obstacles_;
  ContactParameters parameters_;
  double start_stiffness_ = 0.0;
  bool adaptive_stiffness_ = true;
  double timestep_ = 1.0 / 60.0;
  std::unique_ptr<ContactPotential> potential_;
  std::unique_ptr<sim::Simulator> simulator_;
  StepSummary summary_;
};

}  // namespace smfem::contact
