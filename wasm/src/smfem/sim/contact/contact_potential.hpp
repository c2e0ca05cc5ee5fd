#pragma once
// The contact term of the implicit Euler step energy, added to Psi_u (sim/step/dynamics.hpp):
//
//   Psi_c(u) = kappa sum_k a_k b(d_k(u)) + sum_f mu_f lambda_f f0(|T_f^T (r_f(u) - r~_f)|),
//
// b the IPC barrier (barrier.hpp) with activation distance dhat, d_k the unsigned distance of a
// contact pair, a_k the area of its sample, kappa the barrier stiffness (Pa); the second sum is
// IPC's lagged friction (friction.hpp) over the pairs active at the step's start, with their
// normal force lambda_f = kappa a_f |b'(d_f)|, tangent plane T_f and barycentric coordinates
// frozen there, r_f the pair's relative position and r~_f where the other side has moved it.
// The pairs:
//   - a contact sample and an obstacle (obstacle.hpp);
//   - a contact sample and a triangle of another body of the same model (a scene's bodies are
//     one model, multibody/composite_model.hpp, so that their coupling is solved exactly).
// Every point is linear in u, x = offset + X + U^T b, so a pair's distance has the reduced
// gradient b'(d) kappa a b n^T (4m x 3), with n the unit direction from the other side and b
// the pair's basis vector (the sample's b_s, or b_s - sum_j beta_j b_j against a triangle with
// barycentric coordinates beta of the closest point: exact by the envelope theorem), and the
// Hessian kappa a b''(d) (n n^T) (x) (b b^T). That is the pair's Hessian projected to PSD exactly
// against obstacles (the distance's own curvature is PSD there and enters with b' < 0) and its
// Gauss-Newton part between bodies (the closest point slides).
//
// The line search evaluates Psi_c on the candidate pairs the last max_step() or linearize()
// gathered (the pairs whose boxes, swept along the direction and grown by dhat, overlap, and
// whose distance bound lets them come within dhat): the others stay beyond dhat on the whole
// segment and contribute 0.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "smfem/geometry/aabb_tree.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/contact/contact_hessian.hpp"
#include "smfem/sim/contact/contact_surface.hpp"
#include "smfem/sim/contact/friction.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::contact {

using sim::ReducedMatrix;

struct ContactParameters {
  double activation = 1e-3;    // dhat, m
  double stiffness = 1e3;      // kappa, Pa
  double friction = 0.0;       // mu between bodies, and with obstacles that set none
  double slip = kDefaultSlip;  // eps_v, m/s: slip speeds below it are static friction's smoothing
  // CCD (obstacle.hpp, ccd.hpp): every trial keeps at least this fraction of each distance.
  double keep = 0.1;
};

// The closest contact of a configuration.
struct ContactMeasure {
  double min_distance = 0.0;  // over every pair (infinity where there is none)
  int active = 0;             // pairs closer than dhat
  // Where the samples in an active pair are (one point per sample, however many pairs it is
  // in): what the page shows as the contact points.
  std::vector<Eigen::Vector3d> active_points;
  // Per part (body), its closest distance to anything: exact below dhat, at least dhat (or
  // infinity) otherwise.
  std::vector<double> part_closest;
  // The barrier's energy, J: potential_energy(U) (friction's lagged potential left out), summed
  // over every pair within dhat.
  double barrier_energy = 0.0;
};

class ContactPotential final : public sim::StepContact {
 public:
  // offsets: the placement of each part (surface.part; one entry for a single body), added to
  // the rest positions.
  ContactPotential(const ContactSurface& surface, std::vector<Eigen::Vector3d> offsets);

  const ContactSurface& surface() const { return surface_; }
  const ContactParameters& parameters() const { return parameters_; }
  const std::vector<Obstacle>* obstacles() const { return obstacles_; }
  const std::vector<Eigen::Vector3d>& offsets() const { return offsets_; }
  double timestep() const { return timestep_; }

  // The obstacles (not owned; they must outlive the steps) and parameters from now on.
  void set_environment(const std::vector<Obstacle>* obstacles, const ContactParameters& parameters,
                       double timestep);

  // The pool the per-vertex, per-sample and per-group loops run on (the simulator's, which calls
  // in from its step: sim/simulator.hpp), or null for none. The loops are cut into chunks of a
  // fixed size, each writing its own output, gathered in chunk order: results are bit-identical
  // for any thread count and to the serial loops.
  void set_pool(parallel::ThreadPool* pool) { pool_ = pool; }

  // Each part's (body's) barrier stiffness, over parameters.stiffness: a pair's is the larger of
  // its two bodies' (one body's against an obstacle), so that a body's stiffness follows its own
  // contacts (multibody/contact_scene.hpp). Empty: parameters.stiffness for every pair.
  void set_part_stiffness(std::vector<double> stiffness);

  // The parts (bodies) that move from now on (per part, nonzero: moving), or empty for all. The
  // pairs that touch no moving part are left out of the gathers and of friction: their terms
  // cannot change (an impact's further iterations, sim/simulator.hpp). Where no part starts
  // moving, the last segment's pairs are kept for reuse, less those.
  void set_moving_parts(std::vector<char> moving);

  // The samples (per index into surface.samples, nonzero: left out) this potential no longer
  // looks at, or empty for none: a body's local deformations (local/local_contact.hpp) take the
  // samples their dent moves. Left out of every pair, the measure and friction.
  void set_excluded_samples(std::vector<char> excluded);
  // The barrier stiffness kappa of a part's pairs against obstacles, Pa.
  double part_stiffness(int part) const;
  // The Coulomb coefficient against an obstacle (index into obstacles()): its own, or the
  // parameters' where it sets none.
  double obstacle_friction(std::size_t obstacle) const;

  // Freezes friction's pairs, normal forces and tangent planes at the step's start U_n. Given
  // the step's first search direction (n x 3), it gathers that segment's candidates for the
  // max_step(U_n, first_dU) that follows, which then need no gather of their own.
  void begin_step(const ReducedMatrix& U_n, const ReducedMatrix& first_dU = {});
  // The largest alpha in [0, 1] for which U + a dU is intersection-free for every a <= alpha,
  // keeping `keep` of each distance; gathers the segment's candidate pairs for energy().
  double max_step(const ReducedMatrix& U, const ReducedMatrix& dU) override;
  // How far the last max_step()'s whole direction closes its most approaching pair: the motion
  // of the sample relative to the other side along their normal at the segment's start (0
  // where every pair separates). Over dhat, the segment makes an impact that the barrier meets
  // only partway (sim/simulator.hpp).
  double largest_approach() const;
  // Per part (body): whether one of its pairs of the last max_step() closes by more than
  // `distance` (as largest_approach() measures).
  std::vector<char> parts_approaching(double distance) const;
  // How many candidate pairs the last max_step() (or linearization) keeps.
  std::size_t candidate_count() const { return candidates_.size(); }
  // Psi_c over the current candidates (+infinity if a pair touches).
  double energy(const ReducedMatrix& U);
  // The same at U + alpha dU for the U and dU of the last max_step() (given as U_trial too, for
  // friction): the samples' positions are those of U moved by alpha times their motion, with no
  // product (a line search's trials).
  double energy_along(double alpha, const ReducedMatrix& U_trial) override;
  // Gathers the candidates at U, and sets gradient (4m x 3) and the Hessian of Psi_c there.
  void linearize(const ReducedMatrix& U, ReducedMatrix& gradient) override;
  // The same gradient, and instead of the Hessian its projection on the parts' (bodies')
  // translations: t (4m) holds each part's translation on its rows (zero for a part that does
  // not translate), and entry (3p + d, 3q + e) of hessian (3 parts square) is
  // (t_p e_d)^T H_c (t_q e_e) with t_p t on part p's rows alone. Costs the terms' bases once,
  // not the Hessian's products (sim/contact/translation_correction.hpp).
  void linearize_translations(const ReducedMatrix& U, const Eigen::VectorXd& t,
                              ReducedMatrix& gradient, Eigen::MatrixXd& hessian);
  // The Hessian of the last linearize().
  const ContactHessian& hessian() const { return hessian_; }
  // dU^T H_c dU with the Hessian of the last linearize().
  double curvature(const ReducedMatrix& dU) const override;

  // The barrier part of Psi_c at U, gathering its own candidates: the contact's potential
  // energy, for the energy balance.
  double potential_energy(const ReducedMatrix& U);
  // Friction's potential at U (its pairs frozen at the last begin_step()).
  double friction_energy(const ReducedMatrix& U) const;
  // The surface's positions at U (a single body's: its samples' rows only), valid until the next
  // call with another U.
  const SurfacePositions& positions_at(const ReducedMatrix& U) {
    update_start(U);
    return start_;
  }
  // The closest distance and the active pairs at U (every pair, not only candidates).
  ContactMeasure measure(const ReducedMatrix& U);
  // The force the samples press on each obstacle at U, N: the barrier's reaction, sum over the
  // obstacle's pairs of kappa a b'(d) n (n from the obstacle towards the sample).
  std::vector<Eigen::Vector3d> obstacle_forces(const ReducedMatrix& U);

 private:
  struct Pair {
    int sample;    // index into surface.samples
    int obstacle;  // or -1
    int triangle;  // of another part, or -1
    // At the start of the segment of the gather() that found the pair (what max_step()'s CCD
    // starts from; stale once U moves).
    double start_distance;
    // How far the distance may shrink over the whole segment (the sample's motion relative to
    // the triangle's farthest-moving corner, or its own against an obstacle): at U0 + alpha dU
    // the pair is at least start_distance - alpha closing apart, and where that is dhat or more
    // its barrier is zero and it is not located at all (most candidates of a body falling onto
    // another: CCD needs every pair within its fall, the barrier only those it ends near).
    double closing;
  };
  // Where a pair is at a configuration: its distance, the unit direction from the other side,
  // and against a triangle, the barycentric coordinates of its closest point.
  struct PairGeometry {
    double distance = 0.0;
    Eigen::Vector3d direction = Eigen::Vector3d::UnitY();
    Eigen::Vector3d beta = Eigen::Vector3d::Zero();
  };
  // A term of the contact Hessian, H_de = sum_k S_k(d, e) b_k b_k^T: its compact basis b_k
  // (pair_basis()), its curvature S_k, the bodies it touches (pair_parts()), and its force on
  // the pair (the gradient's factor: gradient += b_k force^T).
  struct HessianTerm {
    Eigen::VectorXd basis;
    Eigen::Matrix3d curvature;
    Eigen::Vector3d force;
    std::size_t parts = 0;
  };
  struct FrictionPair {
    Eigen::VectorXd basis;  // compact (pair_basis())
    Eigen::Vector3d rest;
    Eigen::Vector3d reference;  // r~
    Eigen::Matrix<double, 3, 2> tangent;
    double weight = 0.0;    // mu lambda
    std::size_t parts = 0;  // pair_parts()
  };

  // The largest alpha <= limit for which the pair keeps `keep` of its distance along the motion
  // gather() left in start_ and motion_.
  double pair_step(const Pair& pair, double limit) const;
  // fn(chunk, begin, end) for [begin, end) the chunks of [0, count) of `size`, on the pool.
  template <class Fn>
  void for_chunks(Eigen::Index count, Eigen::Index size, Fn&& fn) const;
  // The workspace of the chunk's thread.
  std::size_t thread_of(int chunk) const;
  // The broad phase (contact_broad_phase.cpp). The pairs whose boxes over the segment U -> U + dU,
  // grown by `margin`, overlap, less those that provably stay beyond `margin` (start_distance()).
  // Leaves the surface's positions at U in start_ and their change along dU in motion_.
  void gather(const ReducedMatrix& U, const ReducedMatrix& dU, double margin,
              std::vector<Pair>& pairs);
  // The distance from the sample at x0 to the triangle at start_. Along the segment the pair's
  // distance changes no faster than the sample moves relative to the triangle's farthest-moving
  // corner (every point of the triangle moves as a convex combination of the corners): a pair
  // whose distance exceeds margin plus that relative motion stays beyond margin on the whole
  // segment, and gather() drops it. Relative, not absolute, motion: bodies falling together
  // (a pile's upper layers) kept every sample near every triangle their sweeps crossed, 15 to
  // 25 candidates per active pair in the settling 30-cube pile, each located again at every
  // line-search trial and linearization.
  double start_distance(const Eigen::Vector3d& x0, int triangle) const;
  double relative_motion(const Eigen::Vector3d& sample_motion, int triangle) const;
  // The distance from x0 to the box of the triangle at start_: at most start_distance().
  double start_box_distance(const Eigen::Vector3d& x0, int triangle) const;
  // gather()'s pairs of one body (no other to meet) and of several (build_trees first).
  void gather_against_obstacles(double margin, std::vector<Pair>& pairs);
  void gather_between_bodies(double margin, std::vector<Pair>& pairs);
  // The sample's pairs with the obstacles (none where its body is held still).
  void add_obstacle_pairs(Eigen::Index sample, const Eigen::Vector3d& x0, const Eigen::Vector3d& dx,
                          double margin, std::vector<Pair>& found) const;
  // The pairs that may be within dhat at U: the last gather()'s, when U lies on the segment it
  // swept (U0 + alpha dU, alpha in [0, 1], to rounding), else gathered at U into `fallback`. Saves
  // most of the gathers of a step: each iterate ends on the segment the last max_step() swept.
  // alpha: U's place on the pairs' segment (Pair::closing).
  const std::vector<Pair>& near_pairs(const ReducedMatrix& U, std::vector<Pair>& fallback,
                                      double& alpha);
  // alpha where U is U0 + alpha dU for the last gather()'s U0 and dU, alpha in [0, 1]; NaN where
  // it is not on that segment.
  double segment_alpha(const ReducedMatrix& U) const;
  // Whether the pair is surely dhat or more apart at alpha on its segment (Pair::closing).
  bool beyond_reach(const Pair& pair, double alpha) const {
    return pair.start_distance - alpha * pair.closing >= parameters_.activation;
  }
  // The pair with every vertex v at at(v).
  template <class At>
  PairGeometry locate(const Pair& pair, At&& at) const;
  // Gathers the candidates at U, makes their terms (and friction's) into terms_ and sets the
  // gradient from them.
  void linearize_terms(const ReducedMatrix& U, ReducedMatrix& gradient);
  // The pair's basis vector b and the rest part of its relative position r = rest + U^T b. b is
  // zero outside the rows of the bodies the pair touches, so it is kept compact: the rows of the
  // first body touched_parts() names, then the second's. Its cost (and a friction pair's storage)
  // is then one or two bodies' modes, whatever the number of bodies in the island.
  void pair_basis(const Pair& pair, const PairGeometry& geometry, Eigen::VectorXd& basis,
                  Eigen::Vector3d& rest) const;
  double pair_friction(const Pair& pair) const;
  double pair_stiffness(const Pair& pair) const;
  // p * parts + q for the bodies p <= q whose modes the pair's basis touches.
  std::size_t pair_parts(const Pair& pair) const;
  // U^T b and gradient += b v^T for a pair's compact basis b (pair_basis()).
  Eigen::Vector3d basis_times(const ReducedMatrix& U, const Eigen::VectorXd& basis,
                              std::size_t parts) const;
  void add_outer(ReducedMatrix& gradient, const Eigen::VectorXd& basis, std::size_t parts,
                 const Eigen::Vector3d& v) const;
  double pair_area(const Pair& pair) const { return surface_.areas(pair.sample); }
  // Every surface vertex's displacement U^T b_v, and its position (body by body: each touches
  // its own modes only). With `parts`, only the vertices of the parts it flags; the others' rows
  // of out stay as they are.
  void displacements(const ReducedMatrix& U, SurfacePositions& out,
                     const std::vector<char>* parts = nullptr) const;
  void positions(const ReducedMatrix& U, SurfacePositions& out,
                 const std::vector<char>* parts = nullptr) const;
  // Per part, whether its rows of A and B differ, respectively whether its rows of A are nonzero.
  std::vector<char> parts_differing(const ReducedMatrix& A, const ReducedMatrix& B) const;
  std::vector<char> parts_nonzero(const ReducedMatrix& A) const;
  // start_ = positions(U), unless it holds them already: a step asks for the same U several
  // times (linearize, then max_step, at each iterate; the energy balance and the measure after
  // the step). Only the bodies whose rows changed are placed again: an impact's further
  // iterations move a few of a pile's bodies.
  void update_start(const ReducedMatrix& U);
  // How far the last max_step()'s whole direction closes the pair (largest_approach()).
  double approach(const Pair& pair) const;
  bool moving_part(std::size_t p) const { return moving_.empty() || moving_[p] != 0; }
  bool excluded(Eigen::Index sample) const {
    return !excluded_.empty() && excluded_[static_cast<std::size_t>(sample)] != 0;
  }
  // Whether a term on pair_parts() touches a moving part.
  bool moves(std::size_t pair_parts) const;
  int part(int v) const { return surface_.part.size() > 0 ? surface_.part(v) : 0; }
  bool several_parts() const { return parts_.size() > 1; }
  // The broad phase between bodies: near_[p * parts + q] where one of bodies p and q moves and
  // their boxes, swept from P to P + D and grown by margin, meet (or for every pair), and a tree
  // over the triangles of every body some other body is near. A body's tree is built once, in the
  // rest shape, and refitted here: a body's triangles keep their neighbours however it moves and
  // deforms (its modes are smooth), and a refit costs a fraction of a build (building each
  // body's tree at every step's start was 6 % of a settling pile of 12 cubes' time). Body q's
  // tree holds its triangles swept in a frame that moves with q's mean motion drift_[q] (a
  // common translation changes no distance): gather() sweeps the samples in that frame too.
  void build_trees(const SurfacePositions& P, const SurfacePositions& D, double margin,
                   bool every_body);
  // Fills group_samples_, group_first_ and group_part_ (below), when there are bodies to meet.
  void form_sample_groups(const ContactSurface& surface);

  // A part's vertices [first_vertex, end_vertex), modes' columns of U [first_row, +rows), and
  // triangles.
  struct Part {
    int first_vertex = 0, end_vertex = 0;
    int first_row = 0, rows = 0;
    std::vector<int> triangles;
  };
  // The boxes of the part's triangles with their vertices swept from P to P + D - drift, grown
  // by margin.
  void triangle_boxes(const Part& part, const SurfacePositions& P, const SurfacePositions& D,
                      const Eigen::Vector3d& drift, double margin,
                      std::vector<Eigen::AlignedBox3d>& boxes) const;
  // The bodies that pair_parts() names: the first, and the second (null where it is the same).
  std::array<const Part*, 2> touched_parts(std::size_t parts) const;

  ContactSurface surface_;  // without its weights: basis_ holds them
  std::vector<Eigen::Vector3d> offsets_;
  // Row v: b_v over the rows of U of v's own body (its Part's [first_row, +rows); b_v is zero
  // elsewhere), row-major: a vertex's row is read whole (pair_basis, displacements). Kept
  // compact, it costs a body's modes per vertex, not the island's: a 25-body island's dense
  // basis was 40 MB.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> basis_;
  int unknown_rows_ = 0;  // the rows of U: 4 m of the whole model
  std::vector<Part> parts_;
  std::vector<char> moving_;    // per part, or empty for all (set_moving_parts())
  std::vector<char> excluded_;  // per sample, or empty for none (set_excluded_samples())
  struct PartTree {
    std::unique_ptr<geometry::AabbTree> tree;  // over the part's triangles
    bool wanted = false;                       // some other body is near: the tree is current
  };
  std::vector<PartTree> trees_;
  std::vector<Eigen::Vector3d> drift_;  // per part: the mean motion of its vertices (build_trees)
  std::vector<char> near_;
  // Each body's samples in groups of a few neighbours (indices into surface_.samples, group g's
  // from group_first_[g] to group_first_[g + 1], of body group_part_[g]): the broad phase between
  // bodies walks another body's tree once for a group's samples swept together, then tests each
  // sample against the leaves that walk found (a walk per sample was most of a gather in a pile
  // of 30 cubes). Formed once in the rest shape, like the trees.
  std::vector<int> group_samples_, group_first_, group_part_;
  struct NearLeaf {
    int part;
    const geometry::AabbTree::Node* leaf;
  };
  std::vector<std::vector<NearLeaf>> chunk_leaves_;  // per chunk of groups: a group's leaves
  // Where gather_between_bodies() put each sample's pairs: chunk_pairs_[chunk][begin, end).
  struct SampleRun {
    int chunk = -1;
    std::size_t begin = 0, end = 0;
  };
  std::vector<SampleRun> sample_runs_;
  const std::vector<Obstacle>* obstacles_ = nullptr;
  ContactParameters parameters_;
  std::vector<double> part_stiffness_;
  double timestep_ = 0.0;  // set_environment's, with the obstacles

  std::vector<Pair> candidates_;
  std::vector<Pair> scratch_;
  // The last gather()'s U0 and dU, and where it put its pairs (null: none to reuse, e.g. after
  // the obstacles may have moved).
  ReducedMatrix segment_U_, segment_dU_;
  const std::vector<Pair>* segment_pairs_ = nullptr;
  std::vector<Pair> fewer_pairs_;  // the segment's, once fewer parts move (set_moving_parts())
  std::vector<FrictionPair> friction_;
  SurfacePositions start_, motion_, trial_;  // positions at U, their change along dU, at a trial
  ReducedMatrix start_U_;                    // the U of start_
  ContactHessian hessian_;
  parallel::ThreadPool* pool_ = nullptr;
  std::vector<std::vector<Pair>> chunk_pairs_;  // gather()'s, per chunk of samples or groups
  // linearize()'s barrier terms per chunk of pairs (the first chunk_terms_used_[c] of each; the
  // rest keep their storage for the next call), and the friction terms.
  std::vector<std::vector<HessianTerm>> chunk_terms_;
  std::vector<std::size_t> chunk_terms_used_;
  std::vector<HessianTerm> friction_terms_;
  std::vector<const HessianTerm*> terms_;  // all of them, in the gradient's order
  // linearize()'s workspaces for the Hessian's Gram products (row-major), one per thread.
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  struct GramWorkspace {
    RowMatrix bases, scaled, gram;
  };
  std::vector<GramWorkspace> gram_;
  std::vector<std::vector<Eigen::AlignedBox3d>> tree_boxes_;  // build_trees()'s, per thread
};

template <class Fn>
void ContactPotential::for_chunks(Eigen::Index count, Eigen::Index size, Fn&& fn) const {
  const auto chunks = static_cast<int>((count + size - 1) / size);
  const auto run = [&](int chunk) {
    const Eigen::Index begin = chunk * size;
    fn(chunk, begin, std::min(count, begin + size));
  };
  parallel::parallel_for_or_inline(pool_, chunks, run);
}

}  // namespace smfem::contact
