#pragma once
// One body's local deformations as its Simulator runs them (issue 26): the patches where the body
// is loaded, and the pieces the steps run on with them (patch_set.hpp and those beside it).
//
// Loads: the drag spring's point, as the mesh's surface vertex nearest it (the spring pulls that
// vertex's fields: within an edge of the grabbed render vertex). The loaded vertices are grouped
// into patches (patch_grouping.hpp, about kPatchesPerMode m of them for m global modes). A
// patch stays while loaded; unloaded, it leaves once its coefficients move slower than
// kLeavingSpeed, or kLeavingTime after its load left, whichever comes first. Every change of
// patches carries the state over by the mass-norm projection (basis_change.hpp). Each patch's
// fields reach paper 001's support radius (half_space.hpp: support_radius) and are integrated
// over kSamplesPerPatch representative tets (patch_set.hpp).
//
// State: the Simulator keeps the global U and Udot; the patches' part of the state is PatchState.
// The steps run on the extended coordinates [U; C] (patch_set.hpp), which gather and scatter
// convert. Within a step the patches' rotations (and so the inertia's coupling) are those of the
// step's start (begin_step).
//
// Contact (set_contact): the body's samples against the obstacles, those the patches reach with
// the dent (local_contact.hpp); the mesh vertices of the samples within dhat of an obstacle at a
// step's end are loads like the spring's (set_contact_loads), where they can dent the surface
// visibly (dent_estimate.hpp).
//
// Not yet: contact between bodies, a model of several bodies, the materials set at run time (the
// patches' tets keep the mesh's baked materials).
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/geometry/boundary_faces.hpp"
#include "smfem/local/dent_estimate.hpp"
#include "smfem/local/extended_deformation.hpp"
#include "smfem/local/local_contact.hpp"
#include "smfem/local/local_dynamics.hpp"
#include "smfem/local/local_system.hpp"
#include "smfem/local/patch_set.hpp"
#include "smfem/sim/diagnostics.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/fem_step.hpp"
#include "smfem/sim/step/mfem_step.hpp"
#include "smfem/sim/step/reduced_system.hpp"

namespace smfem::local {

inline constexpr double kLeavingSpeed = 1e-3;  // m/s of a coefficient (the fields' largest)
inline constexpr double kLeavingTime = 1.0;    // s
inline constexpr int kSamplesPerPatch = 16;
// Paper 001's budget C r: its clustering allots k = ceil(r A_i / A) patches to a loaded region
// of area A_i, r in all (C = 1). At C = 3 one contact took all 48 patches of a 16-mode body and
// the bunny resting on the floor stepped 5 times slower than without them (docs/local.md).
inline constexpr int kPatchesPerMode = 1;
// Coarse patches dent unevenly, so the loaded samples under them come and go; were every newly
// loaded vertex to regroup the patches, a held poke would regroup at most steps. A newly loaded
// vertex within this share of the support radius of a current patch's centre is that patch's
// load instead: it keeps the patch and regroups nothing (docs/local.md).
inline constexpr double kCoveredRadius = 0.5;
// Patches turn with the body at a step's start only once one of them is this far (rad) from the
// rotation it holds: a lag below it moves a dent by a millionth of itself, and a body at rest
// (whose rotations change by rounding) is spared the turn, the projection across it, the contact
// measures that guard it and every tet's stretch made again after it (a sixth of its step).
inline constexpr double kTurnTolerance = 1e-3;
// A drag attaches a patch where the dent takes at least this share of the hand's pull (1 mm of
// 10 cm): below it the dent cannot be seen (drag_dents()).
inline constexpr double kDragDentShare = 1e-2;
// Nor where the fields would reach a material this many times stiffer than the grabbed vertex's
// (drag_dents()).
inline constexpr double kUniformSupport = 1e2;

// The patches' share of a body's dynamic state.
struct PatchState {
  std::vector<int> loaded;  // the mesh's surface vertices the patches were made for, ascending
  sim::ReducedMatrix C;     // P x 3: row p, patch p's coefficients (m)
  sim::ReducedMatrix Cdot;  // P x 3
  sim::StretchField z;      // 6 x S: the patches' tets' stretches and multipliers
  sim::StretchField lambda;
  std::vector<double> unloaded_for;  // per loaded vertex: seconds since its load left
  // Per patch, R_p: the rotation its fields are turned by, in which C and Cdot hold (the last
  // step's start, or the last change of patches).
  std::vector<Eigen::Matrix3d> rotations;
};

class LocalDeformations {
 public:
  // dynamics and system are the body's (the Simulator's); none of model, dynamics, system, pool
  // is owned. Throws std::invalid_argument if the model is not a single body, or the mesh fails
  // full::check_full_model, has no skinning weights, or has not m of them.
  LocalDeformations(const sim::ReducedModel& model, full::FullModel mesh,
                    sim::MaterialModel material, sim::Dynamics& dynamics,
                    sim::ReducedSystem& system, parallel::ThreadPool& pool);
  ~LocalDeformations();

  int patch_count() const { return patches_->patch_count(); }
  // How many patch sets have been made: the empty one it starts with, each change of the patches,
  // and each one the Simulator undid (simulator.hpp: change_patches). Each costs about a step.
  int patch_sets_made() const { return patch_sets_made_; }
  // The patches' current rotations, one per patch.
  std::vector<Eigen::Matrix3d> rotations() const;
  const PatchSet& patches() const { return *patches_; }
  const full::FullModel& mesh() const { return mesh_; }

  // The mesh's surface vertex nearest a rest point.
  int nearest_surface_vertex(const Eigen::Vector3d& rest) const;
  // Whether a drag spring of `stiffness` (N/m) on surface vertex `vertex` dents the body enough
  // to show: the half-space's stiffness under a load spread over the vertex's share of the
  // surface, k = pi a E* / 2 (dent_estimate.hpp's uniform pressure, a = sqrt(A / pi), E* the
  // vertex's softest tet's), in series with the spring leaves the dent at least kDragDentShare
  // of the spring's stretch. On the swordsman's 1e12 Pa sword a patch took 1e-7 m and made the
  // energy check solve every step to convergence (30-200 iterations). And only where the fields'
  // support (paper 001's radius around the vertex) holds no material more than kUniformSupport
  // times stiffer than the vertex's: the fields are a homogeneous half-space's, not the shape of
  // a dent beside a stiff part, and a drag whose patch reached from a soft part into one (the
  // crab's 1e6 Pa joint beside its 1e10 Pa shell, the swordsman's side beside its sword) made the
  // steps after the grab solve to 200-400 iterations, or retried 56 steps of 60.
  bool drag_dents(int vertex, double stiffness) const;

  // Patches for the surface vertices `loaded` (any order; empty: none), the state carried over
  // (U, Udot and the patches'; z and lambda of the patches' tets left for the caller to make
  // consistent). Throws std::invalid_argument, nothing changed, for a vertex not on the surface or
  // a patch that cannot be made (patch_support.hpp).
  void set_loaded(std::vector<int> loaded, sim::ReducedMatrix& U, sim::ReducedMatrix& Udot,
                  PatchState& state);
  // The patches turned by `rotations` (one per patch, those of a PatchState) and the dented
  // contact with them. Throws std::invalid_argument, nothing changed, for a count that does not
  // match or a matrix that is not a rotation (to 1e-9).
  void set_rotations(const std::vector<Eigen::Matrix3d>& rotations);
  // Throws std::invalid_argument unless there are `count` rotations, each one (to 1e-9).
  static void check_rotations(const std::vector<Eigen::Matrix3d>& rotations, Eigen::Index count);
  // The cubature tets' current materials (the Simulator's; begin_step takes them too).
  void set_cubature_lame(const std::vector<sim::Lame>& cubature_lame);
  // The body's contact from now on (null: none; not owned, its environment set): its samples,
  // matched to the mesh's vertices, see the dent. Throws std::invalid_argument, nothing changed,
  // where a sample is not at a mesh vertex.
  void set_contact(contact::ContactPotential* body, const contact::ContactSurface& surface);
  // The dented contact on the extended coordinates, or null without contact.
  LocalContact* contact() { return contact_.get(); }
  // Contact's loads from now on (LocalContact::loads): every loaded vertex holds its patch, and
  // those of the regions that can dent the surface by d-hat or more (dent_estimate.hpp) attach
  // new ones.
  void set_contact_loads(const std::vector<ContactLoad>& loads);
  // The drag spring pulls this mesh vertex's fields (-1: no spring).
  void set_spring_vertex(int vertex);
  int spring_vertex() const { return spring_vertex_; }

  // Extended coordinates: [U; C] and back.
  void gather(const sim::ReducedMatrix& U, const sim::ReducedMatrix& C,
              sim::ReducedMatrix& extended) const;
  void scatter(const sim::ReducedMatrix& extended, sim::ReducedMatrix& U,
               sim::ReducedMatrix& C) const;
  // [cubature's, patches' tets'] stretch fields and back.
  void gather_tets(const sim::StretchField& cubature, const sim::StretchField& patches,
                   sim::StretchField& extended) const;
  void scatter_tets(const sim::StretchField& extended, sim::StretchField& cubature,
                    sim::StretchField& patches) const;

  // The step's start: the patches' rotations at U_n (the state, U_n, Udot_n and the patches',
  // carried across the change of rotation: basis_change.hpp), the inertia over the extended
  // coordinates with the global force (4m x 3) and gravity, the cubature tets' current materials.
  // The patches keep their rotations while none has turned by more than kTurnTolerance, or where
  // the turn would bring a sample too close to an obstacle. Returns whether the state changed
  // (the patches turned).
  bool begin_step(sim::ReducedMatrix& U_n, sim::ReducedMatrix& Udot_n, PatchState& state,
                  const sim::ReducedMatrix& force, const Eigen::Vector3d& gravity,
                  const std::vector<sim::Lame>& cubature_lame);
  const sim::ReducedMatrix& prediction() const { return dynamics_->prediction(); }
  // The external force on the coefficients this step (P x 3): its work is this . (C - C_n).
  const sim::ReducedMatrix& local_force() const { return local_force_; }

  // The steps' view of the body with its patches, for the settings of one attempt.
  // The material model must be the one of set_material.
  sim::StepContext context(const sim::SolverSettings& attempt);
  void set_material(sim::MaterialModel material);
  sim::FemStep& fem() { return *fem_; }
  sim::MfemStep& mfem() { return *mfem_; }
  const std::vector<sim::Lame>& lame() const { return lame_; }
  const sim::TetDeformation& deformation() const { return *deformation_; }

  // The step's objective at extended U (inertia, every tet's elastic energy at its stretch of
  // F(U), contact): what the step's initial guess is chosen by.
  double step_energy(const sim::ReducedMatrix& U_extended);

  // The patches' share of the energy check's H, beyond the global terms: the kinetic energy's
  // (the coupling and the coefficients' own), the elastic energy's (the patches' tets at their
  // stretches), and the springs' energy in full (it replaces the global
  // Dynamics' spring_energy). Extended coordinates; patch_stretch 6 x S. Under the rotations of
  // the last begin_step.
  double kinetic_energy(const sim::ReducedMatrix& Udot_extended) const;
  double elastic_energy(const sim::StretchField& patch_stretch) const;
  double spring_energy(const sim::ReducedMatrix& U_extended);
  // Adds the patches' shares to diagnostics computed on the global coordinates (kinetic, elastic,
  // stretch, gravity and spring energies, their total, linear and angular momentum, centroid).
  void add_to_diagnostics(const sim::ReducedMatrix& U_extended,
                          const sim::ReducedMatrix& Udot_extended,
                          const sim::StretchField& patch_stretch, const sim::StretchField& patch_z,
                          const Eigen::Vector3d& gravity, sim::Diagnostics& diagnostics);

  // After a step of timestep h: the loads that remain (the spring's vertex, if any, and contact's)
  // and the patches still moving; the loaded vertices the patches should now be made for.
  // Counts the unloaded vertices' time in `state`.
  std::vector<int> still_loaded(PatchState& state, double timestep) const;

 private:
  // The patch set for `loaded` (sorted), grouped into patches; throws where one cannot be made.
  std::unique_ptr<PatchSet> patch_set_for(const std::vector<int>& loaded) const;
  // Makes `set` the current one, the pieces built on it anew; returns the old set.
  std::unique_ptr<PatchSet> install(std::unique_ptr<PatchSet> set);
  void update_spring_fields();
  // begin_step's end: the inertia, the gravity on the patches and the contact's step start.
  void start_dynamics(const sim::ReducedMatrix& U_extended, const sim::ReducedMatrix& Udot_extended,
                      const sim::ReducedMatrix& force, const Eigen::Vector3d& gravity);
  // The first current patch whose centre is within kCoveredRadius support radii of mesh vertex
  // `vertex` at rest, or -1.
  int covering_patch(int vertex) const;
  // The dent's share of the angular momentum about the origin (extended coordinates).
  Eigen::Vector3d dent_angular_momentum(const sim::ReducedMatrix& U_extended,
                                        const sim::ReducedMatrix& Udot_extended) const;
  // The contact (if any) on the current patches, in the system and the steps' terms.
  void link_contact();

  const sim::ReducedModel& model_;
  full::FullModel mesh_;
  sim::Dynamics& global_dynamics_;
  sim::ReducedSystem& body_system_;
  parallel::ThreadPool& pool_;
  sim::MaterialModel material_;
  Eigen::VectorXd vertex_mass_;
  geometry::TriangleIndices surface_;
  std::vector<int> surface_vertices_;  // ascending
  double support_ = 0.0;
  std::vector<sim::Lame> mesh_lame_;  // per mesh tet

  std::unique_ptr<PatchSet> patches_;
  int patch_sets_made_ = 0;
  std::unique_ptr<LocalDynamics> dynamics_;
  std::unique_ptr<LocalSystem> system_;
  std::unique_ptr<ExtendedDeformation> deformation_;
  std::unique_ptr<sim::FemStep> fem_;
  std::unique_ptr<sim::MfemStep> mfem_;
  std::unique_ptr<LocalContact> contact_;
  std::vector<int> contact_loads_;  // ascending: every vertex contact loads
  std::vector<int> denting_loads_;  // ascending: those that may attach patches
  Eigen::VectorXd vertex_modulus_;  // E / (1 - nu^2) per mesh vertex
  SurfaceNeighbours surface_neighbours_;
  Eigen::VectorXd weights_;      // C + S
  std::vector<sim::Lame> lame_;  // C + S
  sim::ReducedMatrix local_force_;
  int spring_vertex_ = -1;
};

}  // namespace smfem::local
