#pragma once
// Implicit Euler on a displacement basis: the comparison subspaces of Subspace MFEM
// (Trusty et al. 2023), Fig. 5 (linear modes, modal derivatives; precompute/src/smfem/subspace/)
// stepped by the very step algorithms the stepper and the full-space references run
// (sim/step/mfem_step.hpp, sim/step/fem_step.hpp), with u = Phi q a fixed linear map
// (basis_deformation.hpp), the reduced mass and gravity (basis_dynamics.hpp) and a dense k x k
// solve (basis_system.hpp). By default every tet is its own quadrature point (exact integration),
// so against full/full_simulator.hpp, which this copies, only the subspace differs; given a
// cubature (a baked asset's: displacement_model.hpp), only its tets. Gravity and pins only, like
// the full-space references. Built natively and in the wasm module (loader.js:
// createDisplacementSimulator).
//
// State: q, qdot (k x 3 matrices, q in column 0, the others 0: basis_deformation.hpp), z and
// lambda (6 x the quadrature points; kept consistent under FEM too, so the solver and the
// material model can change at any step). Each step starts from the inertial prediction; a
// failed step is undone.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/displacement/basis_deformation.hpp"
#include "smfem/displacement/basis_dynamics.hpp"
#include "smfem/displacement/basis_system.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/full/full_simulator.hpp"
#include "smfem/full/tet_mesh_deformation.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/diagnostics.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/sim/step/fem_step.hpp"
#include "smfem/sim/step/mfem_step.hpp"

namespace smfem::displacement {

class DisplacementSimulator {
 public:
  // basis: 3n x k (row 3v + d the coordinate d of vertex v), k >= 1, finite, zero on pinned
  // vertices' rows, independent columns (a positive definite reduced mass). quadrature: tets
  // of the mesh, distinct, with finite positive weights; none: exact integration. Throws
  // std::invalid_argument if the model, the basis or the quadrature fails these; settings are
  // clamped (warnings()).
  DisplacementSimulator(full::FullModel model, const Eigen::Ref<const Eigen::MatrixXd>& basis,
                        const sim::SolverSettings& settings, int thread_count = 1,
                        std::optional<Quadrature> quadrature = std::nullopt);
  ~DisplacementSimulator();
  DisplacementSimulator(const DisplacementSimulator&) = delete;
  DisplacementSimulator& operator=(const DisplacementSimulator&) = delete;

  const full::FullModel& model() const { return model_; }
  const sim::SolverSettings& settings() const { return settings_; }
  int coordinate_count() const { return static_cast<int>(basis_.cols()); }

  const full::FullStepReport& step();
  // Back to rest (q = qdot = 0) with the same settings.
  void reset();
  // Changes the settings (clamped, warnings()); the state is kept.
  void set_settings(const sim::SolverSettings& settings);

  // Takes q and qdot (k, finite; throws std::invalid_argument) and makes z and lambda consistent
  // with q.
  void set_state(const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& qdot);
  Eigen::VectorXd coordinates() const { return q_.col(0); }
  Eigen::VectorXd velocities() const { return qdot_.col(0); }
  // u = Phi q and udot = Phi qdot as n x 3 (row v the vertex's).
  sim::ReducedMatrix displacements() const;
  sim::ReducedMatrix vertex_velocities() const;
  Eigen::Vector3d linear_momentum() const;
  // sum_t w_t psi(s(F_t)) over the quadrature at the current coordinates, and
  // 1/2 qdot^T M_r qdot.
  double elastic_energy() const;
  double kinetic_energy() const;
  // The quantities of sim/diagnostics.hpp, summed over the mesh's vertices (no drag spring:
  // spring_energy 0; stretch_energy sum_t w_t psi(z_t)).
  sim::Diagnostics diagnostics() const;
  int quadrature_count() const { return quadrature_.size(); }
  int thread_count() const { return pool_->thread_count(); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  void clear_warnings() { warnings_.clear(); }

 private:
  sim::StepContext context();

  full::FullModel model_;
  std::vector<std::string> warnings_;  // before settings_: its initializer appends to it
  sim::SolverSettings settings_;
  BasisRows basis_;
  Eigen::VectorXd vertex_mass_;
  std::unique_ptr<parallel::ThreadPool> pool_;
  full::TetMeshDeformation mesh_deformation_;
  Quadrature quadrature_;
  std::vector<sim::Lame> lame_;  // per quadrature point
  BasisDeformation deformation_;
  BasisDynamics dynamics_;
  BasisSystem system_;
  sim::FemStep fem_;
  sim::MfemStep mfem_;
  sim::ReducedMatrix gravity_force_;
  sim::ReducedMatrix q_, qdot_, q_backup_, qdot_backup_;
  sim::StretchField z_, lambda_, z_backup_, lambda_backup_;
  full::FullStepReport report_;
};

}  // namespace smfem::displacement
