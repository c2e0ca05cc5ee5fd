#pragma once
// One island of a contact scene (contact_scene.hpp): bodies that contact may couple during a
// step, stepped as one composite model (composite_model.hpp) with its own Newton system, line
// search, CCD bound, energy check and iteration count. Bodies of different islands never
// interact within a step, so a body alone in its island steps exactly as it would alone in the
// scene.
//
// The scene keeps every body's state in its own arrays (SceneState, body by body); an island
// loads its bodies' part of them when it was not the one that stepped them last, and stores
// its result back.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "smfem/local/local_deformations.hpp"
#include "smfem/multibody/composite_model.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::multibody {

// Where each body's rows and columns sit in the scene's arrays.
struct SceneLayout {
  std::vector<int> first_mode, mode_count;  // rows 4 first_mode ... of U
  std::vector<int> first_tet, tet_count;    // columns of z and lambda
  std::vector<Eigen::Vector3d> offsets;     // each body's rest frame in the scene
  int modes = 0, tets = 0;
};

struct SceneState {
  sim::ReducedMatrix U, Udot;   // 4 modes x 3
  sim::StretchField z, lambda;  // 6 x tets
  // Per body: its local deformations' patches (contact_scene.hpp: a scene of one body).
  std::vector<local::PatchState> patches;
  double time = 0.0;
  std::int64_t step_count = 0;
};

class Island {
 public:
  // bodies: ascending; models and offsets: every body of the scene. The obstacles (not owned)
  // must outlive the island.
  Island(std::vector<int> bodies, const std::vector<sim::ReducedModel>& models,
         const SceneLayout& layout, const sim::SolverSettings& settings,
         std::shared_ptr<parallel::ThreadPool> pool,
         const std::vector<contact::Obstacle>* obstacles,
         const contact::ContactParameters& parameters, double timestep);

  const std::vector<int>& bodies() const { return bodies_; }
  sim::Simulator& simulator() { return *simulator_; }
  const sim::Simulator& simulator() const { return *simulator_; }
  contact::ContactPotential& potential() { return *potential_; }
  const sim::ReducedModel& model() const { return simulator_->model(); }

  // The contact parameters, and every scene body's barrier stiffness (contact_scene.hpp).
  void set_parameters(const contact::ContactParameters& parameters,
                      const std::vector<double>& body_stiffness, double timestep);

  // The island's U (its bodies' rows of the scene's) into out.
  void gather(const sim::ReducedMatrix& scene_U, sim::ReducedMatrix& out) const;
  // Its simulator's state from / to the scene's arrays (an island of several bodies holds no
  // patches: its bodies' are stored empty).
  void load(const SceneState& scene);
  void store(SceneState& scene) const;

  // The drag spring on render vertex `vertex` of scene body `body` (one of this island's, whose
  // model is body_model), with the target in the scene's frame; none: drag_end.
  void drag(const sim::ReducedModel& body_model, int body, int vertex,
            const Eigen::Vector3d& target, double stiffness);
  void drag_end();

  // The step of the scene this island's simulator holds the state after (-1: none yet).
  std::int64_t synced_step = -1;
  std::uint64_t last_used = 0;  // the scene's clock of the island cache
  // The island's diagnostics and contact measure when it fell asleep (kinetic energy and
  // momenta zero), or after its last step: the state after the scene's step rest_step.
  sim::Diagnostics rest_diagnostics;
  contact::ContactMeasure measure;
  std::int64_t rest_step = -1;
  // The versions of the scene's settings and contact parameters the island has.
  int settings_version = 0, parameters_version = 0;

 private:
  std::size_t index_of(int body) const;

  std::vector<int> bodies_;
  const SceneLayout& layout_;
  const std::vector<contact::Obstacle>* obstacles_;
  CompositeModel composite_;  // where each body lies in the island; its model is model()
  std::unique_ptr<contact::ContactPotential> potential_;
  std::unique_ptr<sim::Simulator> simulator_;
  int dragged_body_ = -1, dragged_vertex_ = -1;
  double drag_stiffness_ = 0.0;
};

// Per body of a composite, the 4m-vector along which every body that can translate does
// (translation_correction.hpp): the mass-norm fit of the constant; zero on bodies whose subspace
// does not hold a translation exactly (pinned ones).
Eigen::VectorXd rigid_translation(const CompositeModel& composite);
// The same over the bodies whose modes are [first_mode_b, first_mode_b + mode_count_b) of
// `model` ({0}, {m}: a model of one body).
Eigen::VectorXd rigid_translation(const sim::ReducedModel& model,
                                  const std::vector<int>& first_mode,
                                  const std::vector<int>& mode_count);

}  // namespace smfem::multibody
