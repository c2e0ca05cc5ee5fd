#pragma once
// A scene of several reduced bodies, each with its own asset and subspace, coupled only through
// contact, among analytic obstacles (scene_file.hpp reads the file).
//
// Islands (island.hpp). Each step splits the bodies into islands, the groups that contact may
// couple: bodies whose boxes, swept from where they are towards where inertia and gravity carry
// them and grown by dhat, meet (sweep and prune, body_groups.hpp). Each island is solved apart:
// its own Newton system, CCD-limited line search, energy check and retries, so a body in free
// fall never inherits the step length of a crushed contact elsewhere, and a body alone in its
// island moves exactly as it would alone in the scene. After the solve, bodies of different
// islands whose boxes swept over their actual motion (grown by dhat) meet are joined and their
// island solved again from the step's start, until no two islands meet: no contact pair ever
// spans two islands, so no accepted state intersects.
//
// Sleeping. A body whose rms speed stays below the sleep speed (kSleepSpeed relative to its size,
// or friction's creep, kSleepCreep) for kSleepSteps steps, and whose box meets no body moving
// faster and no awake body lower than it (one that may carry it), falls asleep: its velocity is
// set to zero and it is not stepped until a body moving faster than that or an awake body lower
// than it meets its box (swept towards where inertia carries it), the user drags it, an obstacle
// moves near it, or a setting changes. Quiet awake bodies that rest on it take it into their
// island held still (Simulator::hold_bodies): their contacts with it act, at little cost, and it
// does not creep under them. So a pile sleeps from the bottom up, body by body. Island by island,
// in a settled pile of 30 one body or another was always creeping faster than the sleep speed
// (friction's smoothing lets a loaded contact creep) or sliding off, and the whole pile, one
// island, never slept in wasm. A body is never held on an awake one: it would hang in the air as
// its support crept away, and drop when it woke.
//
// A step first moves the obstacles along their paths (or to where the user dragged them),
// pushing the free bodies in their way ahead of them (obstacle_push.hpp); a body that cannot be
// pushed (pinned, against another body or obstacle) holds its obstacle back where it would come
// closer to a sample than `keep` of their distance allows (StepSummary::obstacles_held). Then it
// steps the islands.
//
// Local deformations (paper 001, sim/simulator.hpp), where the scene asks for them
// (enable_local_deformations): the body dents where the obstacles press it and the hand drags
// it. In a scene of one body only: between bodies they are not built, and carrying a dent onto
// the global modes when another body comes near (tried) puts the samples an obstacle presses
// into it back inside that obstacle.
//
// Barrier stiffness (IPC's adaptive kappa, simplified), body by body: a pair's is the larger of
// its bodies' (contact_potential.hpp), so a body's contacts stiffen its own barrier, never that
// of a body elsewhere in the scene. A body's kappa starts at its M / (h^2 A) (mass over surface
// area: at unit b'' the barrier then matches inertia's stiffness over the surface) and doubles
// after a step whose closest pair of the body's came within kStiffenBelow dhat, up to
// kMaxStiffening times its start, so that resting bodies settle at a distance of the order of
// dhat rather than deep in the barrier's steep end. A pair crushed below kCrushedBelow dhat
// raises kappa whatever that cap, by the factor that would lift it back there (the distance a
// load holds grows in proportion to kappa), at most kMaxCrushStiffening per step, and to
// kMaxCrushStiffening times the cap in all.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "smfem/asset/asset.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/local/render_dent.hpp"
#include "smfem/multibody/body_groups.hpp"
#include "smfem/multibody/island.hpp"
#include "smfem/multibody/scene_file.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::multibody {

inline constexpr double kStiffenBelow = 0.05;
inline constexpr double kMaxStiffening = 1024.0;
inline constexpr double kCrushedBelow = 1e-6;
inline constexpr double kMaxCrushStiffening = 1e6;
// dhat where the scene sets none: this fraction of the largest body's bounding-box diagonal.
// At 1 or 2 iterations a step can only take what the barrier shows it within dhat: at 1e-3 (0.2
// mm for a 20 cm body against 10 cm of motion per step) a thrown ball stopped dead at a wall it
// should knock over, and a pile crushed its contacts to 1e-9 m; at 5e-3 both move as they do at
// 30 iterations (docs/contact.md, measured), and resting gaps stay below a millimetre.
inline constexpr double kDefaultActivation = 5e-3;
// The largest d_hat a scene file may ask, as a fraction of its smallest body's box diagonal:
// contact keeps bodies about d_hat apart, so beyond this they hover visibly, and every sample
// pairs with most of the scene (centimetres written as metres).
inline constexpr double kMaxActivationFraction = 0.1;
// Sleeping: a body is quiet while its rms speed sqrt(2 kinetic / mass) stays below kSleepSpeed
// times its bounding-box diagonal per second, or in a scene with friction below kSleepCreep
// times friction's slip speed eps_v. Below eps_v the smoothed friction is static friction's
// model, which lets a body it holds creep at up to eps_v (1 - sqrt(1 - r)) at load ratio r
// (sim/contact/friction.hpp): all the way to eps_v as r nears 1, so a body slower than eps_v may
// be one that friction holds. A settled pile of 12 jelly cubes crept at millimetres per second
// and half of it never slept (with eps_v = 1e-3 every body slept by step 500); piles of 20 and 30
// kept an rms speed of 3 mm/s against the 0.7 mm/s of the size rule. With half of eps_v the
// shipped pile-30.json at 2 iterations had 1 body of 30 asleep at step 550, never settling (6-8
// mm/s of creep); with eps_v 28 slept by step 450, as every body does by step 390 at 10
// iterations (docs/performance.md, "Why the settled 30-cube pile never sleeps").
inline constexpr double kSleepSpeed = 2e-3;
inline constexpr double kSleepCreep = 1.0;
inline constexpr int kSleepSteps = 30;
// A one-body island steps on the whole pool only where its stiffness assembly, the largest of its
// loops, has at least this much work an iteration (|C| (4m)^2 multiply-adds): in wasm on 2 threads
// (2026-12-06) the crab, the bunny and the creature (1.3-1.4e6) stepped 14-30 % faster than on
// one, and the 8-mode blocks (the jelly cube's 6.6e4; the poke's, its patches' loops beside) as
// fast or up to 80 % slower: a worker woken for a loop of microseconds starts late.
inline constexpr double kSharedWork = 2.5e5;
// Islands kept for reuse once the bodies have moved apart (their simulators are built again
// otherwise), beyond the ones in use: the most recently used, up to this many modes in all
// (sixteen bodies of 8 modes). Bounded by modes, not by islands: an island's system grows with
// the square of its modes, and sixteen spare islands of any size, most of them the settling
// 30-body pile's large ones, held 1.3 GB natively (pile-30.json, 60 steps) and took the process
// running the wasm module (which may grow to 2 GB) to 2.1 GB in 300 steps; with this bound and
// compact islands (composite_model.cpp, contact_potential.hpp), 0.44 and 0.64 GB.
inline constexpr int kSpareModes = 128;

struct StepSummary {
  bool ok = true;           // every island's step
  double min_distance = 0;  // after the step: over the pairs within islands (see measure())
  int active_contacts = 0;  // pairs closer than dhat
  int obstacles_held = 0;   // obstacles held back by a body in their way this step
  int islands = 0;          // islands stepped (awake)
  int asleep = 0;           // bodies asleep after the step
  int merges = 0;           // islands joined after a solve and solved again
  double step_ms = 0.0;
  std::vector<Eigen::Vector3d>
      contact_points;  // after the step: contact::ContactMeasure::active_points
};

class ContactScene {
 public:
  // models[i] is body i of spec.bodies. The scene's time step and gravity go over body 0's solver
  // defaults. Throws std::invalid_argument where a body has no contact samples, or the start
  // state intersects (a sample inside, on or beyond an obstacle, an obstacle inside a body, two
  // bodies overlapping or touching).
  ContactScene(const ContactSceneSpec& spec, std::vector<sim::ReducedModel> models,
               int thread_count = 1);

  int body_count() const { return static_cast<int>(models_.size()); }
  const SceneLayout& layout() const { return layout_; }
  const sim::ReducedModel& body_model(int body) const {
    return models_[static_cast<std::size_t>(body)];
  }
  int thread_count() const { return pool_->thread_count(); }
  const std::vector<contact::Obstacle>& obstacles() const { return obstacles_; }
  // stiffness: the largest body's (body_stiffness).
  const contact::ContactParameters& parameters() const { return parameters_; }
  double body_stiffness(int body) const { return stiffness_[static_cast<std::size_t>(body)]; }
  const sim::SolverSettings& settings() const { return settings_; }
  // For every body from the next step (and wakes them all).
  void set_settings(const sim::SolverSettings& settings);
  void set_solver(sim::SolverMethod method, int iterations, bool until_converged);

  // Every body's U and Udot, body after body (layout()).
  const sim::ReducedMatrix& coordinates() const { return state_.U; }
  const sim::ReducedMatrix& velocities() const { return state_.Udot; }
  double time() const { return state_.time; }

  double body_mass(int body) const { return masses_[static_cast<std::size_t>(body)]; }  // kg
  // Body i's linear momentum (kg m/s), centre of mass in the scene (m), kinetic energy (J).
  Eigen::Vector3d body_momentum(int body) const;
  Eigen::Vector3d body_centroid(int body) const;
  double body_kinetic(int body) const;
  bool body_asleep(int body) const { return asleep_[static_cast<std::size_t>(body)] != 0; }
  // Body i's closest distance to an obstacle or another body after the last step: exact below
  // dhat (a body resting on something), at least dhat otherwise.
  double body_clearance(int body) const { return clearances_[static_cast<std::size_t>(body)]; }
  // The solver iterations of the body's island in the last step (retries included): 0 asleep.
  int body_iterations(int body) const { return iterations_[static_cast<std::size_t>(body)]; }
  // The threads its island stepped on in the last step (0 asleep): the whole pool, or one where
  // islands stepped side by side.
  int body_threads(int body) const { return threads_[static_cast<std::size_t>(body)]; }
  // Whether quiet islands may fall asleep (on by default; off, every body steps every step).
  void set_sleeping(bool allowed);

  // The obstacle's drag target: it moves there at the next steps, as far as bodies allow,
  // instead of following its path; a target beyond a plane obstacle is lifted out of it (a
  // sphere dragged into the floor stays on it). Refused as contact::hold_by_hand refuses (a
  // plane, an obstacle it does not have, an offset not finite or too far).
  void move_obstacle(int obstacle, const Eigen::Vector3d& offset);

  // A drag spring (sim/simulator.hpp) from render vertex `vertex` of body `body` to a point of
  // the scene (throws std::out_of_range for a body or vertex that is not there).
  void drag_start(int body, int vertex, const Eigen::Vector3d& target, double stiffness);
  void drag_move(const Eigen::Vector3d& target);
  void drag_end();

  // One step of every awake island.
  const StepSummary& step();
  // The last step's summary (a blank one after the start or a reset) and its report: the
  // islands' reports summed (iterations: the most any island took; diagnostics: the whole
  // scene's, sleeping bodies included).
  const StepSummary& last_step() const { return summary_; }
  const sim::StepReport& last_report() const { return report_; }
  // Closest distance and active pairs now, within the islands the bodies' boxes grown by dhat
  // form (pairs farther apart than dhat between them are not measured).
  contact::ContactMeasure measure();
  // The force the bodies press on each obstacle now (N): the barrier's reaction, sum over every
  // body's samples of kappa_b a b'(d) n (n from the obstacle towards the sample, the samples
  // where a dent has moved them), sleeping bodies included, and the last step's push (the
  // momentum it gave the bodies, over the time step); friction's is not in it.
  std::vector<Eigen::Vector3d> obstacle_forces();

  // Local deformations for `body` on its tet mesh (its asset's mesh group, smfem-bake
  // --full-mesh; the scene file's localDeformations asks for them), from now on. Throws
  // std::invalid_argument in a scene of several bodies, or where the body's simulator refuses
  // them (a mesh that does not fit the model).
  void enable_local_deformations(int body, full::FullModel mesh);
  bool local_deformations(int body) const {
    return meshes_[static_cast<std::size_t>(body)] != nullptr;
  }
  // How far its patches move each of its render vertices now and the gradient of that (per
  // vertex local::RenderDent::kFloatsPerVertex floats, in the body's frame: what the page adds to
  // the skinned position and to its deformation gradient); empty without patches.
  std::vector<float> body_dent(int body);
  // The patches attached to the body now (0 without local deformations).
  int body_patches(int body) const {
    return static_cast<int>(state_.patches[static_cast<std::size_t>(body)].loaded.empty()
                                ? 0
                                : state_.patches[static_cast<std::size_t>(body)].C.rows());
  }
  // How many patch sets its local deformations have made (local_deformations.hpp:
  // patch_sets_made; 0 without them).
  int body_patch_sets(int body);
  // Back to the start: rest shapes at their placements and velocities, obstacles at time 0,
  // every body awake.
  void reset();

  // Warnings of every island's simulator, oldest first.
  const std::vector<std::string>& warnings() const { return warnings_; }
  void clear_warnings() { warnings_.clear(); }

 private:
  struct Drag {
    int body = -1, vertex = 0;
    Eigen::Vector3d target = Eigen::Vector3d::Zero();
    double stiffness = 0.0;
  };

  // Every surface vertex of body b at its rows of U (rest + offset + basis U).
  void body_surface(int body, const sim::ReducedMatrix& U, contact::SurfacePositions& out) const;
  // Its surface now (state_), its samples where a dent has moved them.
  void current_surface(int body, contact::SurfacePositions& out);
  // Its surface's bounding box at its rows of U; the last one per body is kept with the rows it
  // was made from (box_cache_).
  Eigen::AlignedBox3d body_box(int body, const sim::ReducedMatrix& U);
  // The island of these bodies (ascending), from the cache or built, its state current with
  // state_ (the step's start).
  Island& island(const std::vector<int>& bodies);
  // Whether the island of `bodies` steps on the whole pool when it steps alone (kSharedWork).
  bool shares_pool(const std::vector<int>& bodies) const;
  // Steps the islands of `groups` that have a body awake and are not in results_ yet.
  void solve(const std::vector<std::vector<int>>& groups);
  // Steps them on the pool: side by side, each on one thread, longest first to whichever thread
  // comes free; one that costs as much as all the others together first, on the whole pool.
  void step_islands(std::vector<Island*> islands);
  // Steps one, and measures its contact (Island::measure).
  void step_island(Island& island);
  void move_obstacles(double end_time);
  void check_start_state();
  void place_bodies();
  // Adapts the stiffness of the bodies of the islands stepped (see above).
  void update_stiffness(const std::vector<Island*>& stepped);
  void wake(int body);
  // Its islands take its state from state_ when they next step (it changed outside them).
  void unsync(int body);
  // Per body: awake and not quiet now (rms speed at or above kSleepSpeed's or kSleepCreep's
  // still speed), or dragged.
  std::vector<char> restless_bodies() const;
  // Wakes the sleeping bodies of `pairs` (boxes that meet) that a restless body meets, or an
  // awake body lower than they are (which may carry them); returns them.
  std::vector<int> wake_met_by(const std::vector<std::pair<int, int>>& pairs,
                               const std::vector<char>& restless);
  // Links the bodies of `pairs` into islands: awake bodies with each other and with the sleeping
  // bodies they meet (`attached`, over the step: held still in their island), sleeping bodies
  // with each other where no awake body meets either. Returns whether two groups joined.
  bool link_islands(const std::vector<std::pair<int, int>>& pairs, Groups& groups,
                    std::vector<char>& attached);
  // Whether body a lies lower than body b along gravity (every body does without gravity).
  bool lower(int a, int b) const;
  // After the islands' step: counts the quiet steps of the bodies of `stepped`, and puts to sleep
  // each one quiet long enough whose box meets (`pairs`) no restless body's and no lower awake
  // body's, lowest first.
  void fall_asleep_where_quiet(const std::vector<Island*>& stepped,
                               const std::vector<std::pair<int, int>>& pairs);
  // The island of a sleeping group, with its rest diagnostics and measure.
  Island& sleeping(const std::vector<int>& group);
  void drop_spare_islands();
  void collect_warnings(Island& island);

  std::vector<sim::ReducedModel> models_;
  std::vector<std::shared_ptr<const full::FullModel>> meshes_;    // per body: local deformations'
  std::vector<std::unique_ptr<local::RenderDent>> render_dents_;  // per body, made when first asked
  SceneLayout layout_;
  std::vector<contact::SurfaceBasis> surface_bases_;  // per body: ns x 4m
  std::vector<Eigen::VectorXd> translations_;         // per body: rigid_translation (island.hpp)
  std::vector<Eigen::Vector3d> push_forces_;          // per obstacle: its last step's push, N
  std::vector<Eigen::Vector3d> velocities_;           // initial, per body
  std::vector<Eigen::Vector3d> rest_centroids_;       // per body, in the scene
  std::vector<double> masses_, diagonals_;            // per body
  std::vector<char> asleep_;
  std::vector<int> quiet_steps_;
  std::vector<double> clearances_;
  std::vector<int> iterations_;  // per body, its island's in the last step
  std::vector<int> threads_;     // per body, its island's pool's in the last step
  // Per body, the last box body_box made and the body's rows of U it made it from: a sleeping
  // body's box at each step's start, and an awake one's where its last step ended, are asked
  // again (two thirds of the boxes of a mostly sleeping scene) and read from here.
  struct CachedBox {
    sim::ReducedMatrix rows;
    Eigen::AlignedBox3d box;
  };
  std::vector<CachedBox> box_cache_;
  bool sleeping_allowed_ = true;
  std::vector<contact::Obstacle> obstacles_;
  std::vector<contact::Obstacle> initial_obstacles_;
  contact::ContactParameters parameters_;
  std::vector<double> start_stiffness_, stiffness_;  // per body
  bool adaptive_stiffness_ = true;
  double timestep_ = sim::SolverSettings{}.timestep;
  sim::SolverSettings settings_;
  std::shared_ptr<parallel::ThreadPool> pool_;
  // The pool of an island stepped side by side with others, each on one thread.
  std::shared_ptr<parallel::ThreadPool> serial_pool_;

  SceneState state_;  // the bodies' state at the step's start, and after it
  SceneState next_;   // the step being solved
  std::map<std::vector<int>, std::unique_ptr<Island>> islands_;
  int settings_version_ = 1, parameters_version_ = 1;
  std::uint64_t clock_ = 0;                      // ticks once per step: the cache's recency
  std::map<std::vector<int>, Island*> results_;  // this step's solved islands
  Drag drag_;
  std::vector<std::string> warnings_;
  StepSummary summary_;
  sim::StepReport report_;
};

// The scene of `spec` with body i read from assets[i]: its reduced model, and its tet mesh where
// the scene asks for its local deformations (throws std::invalid_argument naming the body where
// the asset has none).
std::unique_ptr<ContactScene> load_contact_scene(const ContactSceneSpec& spec,
                                                 const std::vector<asset::Asset>& assets,
                                                 int thread_count);

}  // namespace smfem::multibody
