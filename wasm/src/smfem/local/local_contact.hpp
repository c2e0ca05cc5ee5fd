#pragma once
// Contact of a body with local patches against the obstacles (issue 26). The contact samples the
// patches' fields reach move with the dent (patch_support.hpp),
//
//   x_s = X_s + U_g^T b_s + sum_p R_p B_p(s) c_p,
//
// and meet the obstacles through the same barrier and CCD as the body's other samples, which the
// body's ContactPotential keeps (it leaves these out: set_excluded_samples). On the extended
// coordinates [U_g; C] (patch_set.hpp) this is the step's contact term: energy, gradient,
// curvature, CCD and the impact measure, the body's potential's and the dented pairs' summed. An
// active dented pair's Hessian is kappa a b''(d) (J^T n)(J^T n)^T, J = dx_s / d[vec(U_g); c] (the
// obstacle's distance curvature left out, as the body's potential leaves it out: PSD), a rank-one
// term added to the bordered system (local_system.hpp) by add_to_lower.
//
// Friction on the dented samples is IPC's lagged friction (sim/contact/friction.hpp), as the body's
// potential has it on its samples: the pairs active at the step's start, each with its normal
// force, tangent plane and start position frozen there, and the potential mu lambda f0(|T^T (x_s -
// x_s0)|) in the dented position x_s. Its Hessian J^T T H T^T J (H the 2 x 2 of friction.hpp, PSD)
// joins the bordered system as up to two rank-one terms.
//
// Samples are the contact surface's vertices, which are the mesh's (the bake's coarsening keeps
// original vertices: bake/collision_surface.hpp); each is matched to the mesh vertex at its rest
// position.
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "smfem/local/dent_estimate.hpp"
#include "smfem/local/patch_set.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::local {

class LocalContact final : public sim::StepContact {
 public:
  // body: the body's potential, one part, its environment set (not owned; it must outlive
  // this). surface: the one it was made of, with its weights. sample_vertex: per sample (index
  // into surface.samples), the mesh vertex at its rest position. Throws std::invalid_argument
  // where the sizes do not agree.
  LocalContact(contact::ContactPotential& body, const contact::ContactSurface& surface,
               std::vector<int> sample_vertex);
  // The body's potential looks at every sample again.
  ~LocalContact() override;
  LocalContact(const LocalContact&) = delete;
  LocalContact& operator=(const LocalContact&) = delete;

  // The patches from now on (not owned): the samples their fields reach become this term's.
  void set_patches(const PatchSet& patches);
  // The patches' fields under their current rotations (PatchSet::set_rotations): what the
  // positions, the measure and the forces use. begin_step turns them; so must whoever sets the
  // rotations between steps (a change of patches), or the positions checked after it are not
  // those the next step starts from.
  void turn_fields();
  // The step's start at the extended U_n: the patches' fields under their current rotations
  // (turn_fields()), the body's potential's own start, and friction's pairs of dented samples.
  void begin_step(const sim::ReducedMatrix& U_n);

  void linearize(const sim::ReducedMatrix& U, sim::ReducedMatrix& gradient) override;
  double curvature(const sim::ReducedMatrix& dU) const override;
  double max_step(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) override;
  double energy_along(double alpha, const sim::ReducedMatrix& U_trial) override;
  // The share of each distance CCD keeps (the body's potential's parameter).
  double keep() const { return body_.parameters().keep; }
  // The activation distance d-hat (m).
  double dhat() const { return body_.parameters().activation; }
  // The last max_step()'s closing of its most approaching pair (ContactPotential's).
  double largest_approach() const;
  // The Hessian of the last linearize()'s dented pairs, barrier and friction, into the lower
  // triangle of the bordered system's matrix (unknowns vec(U_g), then c: local_system.hpp).
  void add_to_lower(Eigen::MatrixXd& matrix) const;

  // Psi_c at U, friction's potential included (after max_step() or linearize()).
  double energy(const sim::ReducedMatrix& U);
  // The barrier's potential energy at U, every pair counted.
  double potential_energy(const sim::ReducedMatrix& U);
  // Friction's potential at U, the body's pairs and the dented samples' (frozen at begin_step()).
  double friction_energy(const sim::ReducedMatrix& U);
  // The body's measure at U with the dented samples in it.
  contact::ContactMeasure measure(const sim::ReducedMatrix& U);
  // The samples closer than dhat to an obstacle at U, each with its mesh vertex, the barrier's
  // push on it (N, summed over the obstacles) and its area: the contact's loads.
  std::vector<ContactLoad> loads(const sim::ReducedMatrix& U);
  // The dented samples' rows of `positions` (the body's surface, indexed as surface.positions)
  // set to where the dent has moved them at U.
  void dented_positions(const sim::ReducedMatrix& U, contact::SurfacePositions& positions) const;
  // The force the body's samples press on each obstacle at U (N; the barrier's, towards the
  // obstacle; friction's is not counted), dented or not.
  std::vector<Eigen::Vector3d> obstacle_forces(const sim::ReducedMatrix& U);

 private:
  struct Dented {
    Eigen::Vector3d rest;                 // X_s plus the body's offset
    Eigen::VectorXd basis;                // b_s (4m)
    double area = 0.0;                    // m^2
    std::vector<int> patches;             // those whose fields reach it
    std::vector<Eigen::Matrix3d> fields;  // B_p(s), rest frame, per patch above
    std::vector<Eigen::Matrix3d> turned;  // R_p B_p(s)
  };
  struct Pair {
    std::size_t dented = 0;
    std::size_t obstacle = 0;
  };
  struct Term {
    std::size_t dented = 0;
    double curvature = 0.0;  // kappa a b''(d) >= 0
    Eigen::Vector3d direction = Eigen::Vector3d::UnitY();
  };
  // A dented sample's friction against one obstacle, frozen at the step's start.
  struct FrictionPair {
    std::size_t dented = 0;
    Eigen::Vector3d reference;  // x_s0, moved with the obstacle's own step
    Eigen::Matrix<double, 3, 2> tangent;
    double weight = 0.0;  // mu lambda
  };
  struct FrictionTerm {
    std::size_t dented = 0;
    Eigen::Matrix3d hessian;  // in x_s: weight T H T^T, H friction's majorizer (PSD)
  };

  Eigen::Vector3d position(const Dented& s, const sim::ReducedMatrix& U) const;
  Eigen::Vector3d motion(const Dented& s, const sim::ReducedMatrix& dU) const;
  const sim::ReducedMatrix& global(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) const;
  const contact::Obstacle& obstacle(std::size_t o) const { return (*body_.obstacles())[o]; }
  std::size_t obstacle_count() const;
  double stiffness() const { return body_.part_stiffness(0); }
  // The barrier energy of the dented pairs at positions x(s).
  template <class At>
  double dented_energy(const std::vector<Pair>& pairs, At&& at) const;
  double dented_friction_energy(const sim::ReducedMatrix& U) const;
  double slip_width() const { return body_.parameters().slip * body_.timestep(); }
  // j = J^T direction: the unknowns' (bordered layout) motion of x_s along the direction.
  void jacobian_along(const Dented& s, const Eigen::Vector3d& direction, int n,
                      Eigen::VectorXd& j) const;

  contact::ContactPotential& body_;
  const contact::ContactSurface& surface_;
  std::vector<int> sample_vertex_;
  const PatchSet* patches_ = nullptr;
  std::vector<Dented> dented_;
  std::vector<int> dented_of_sample_;          // per sample: its index in dented_, or -1
  std::vector<Pair> candidates_;               // the last max_step()'s
  std::vector<Eigen::Vector3d> start_, step_;  // its x0 and dx per dented sample
  std::vector<Term> terms_;                    // the last linearize()'s
  std::vector<FrictionPair> friction_;         // begin_step()'s
  std::vector<FrictionTerm> friction_terms_;   // the last linearize()'s
  sim::ReducedMatrix global_, global_step_, body_gradient_;
  // add_to_lower's workspace: the Gram product's tiles (the bordered system's size, padded; kept
  // so that each iteration does not allocate them) and one jacobian.
  mutable Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> gram_;
  mutable Eigen::VectorXd jacobian_;
};

}  // namespace smfem::local
