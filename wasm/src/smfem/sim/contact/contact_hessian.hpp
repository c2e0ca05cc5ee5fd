#pragma once
// The contact term's Hessian in the reduced coordinates (contact_potential.hpp), kept as dense
// blocks, one per group of terms that touch the same bodies: a term against an obstacle touches
// one body's rows of U, a term between two bodies both bodies' rows. A scene's Hessian then costs
// what its touching bodies cost, not (12m)^2 for all of them, and it is added to the system in
// whatever order the system keeps its unknowns (sim/step/system_layout.hpp).
#include <span>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/kernels/block_cholesky.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/system_layout.hpp"

namespace smfem::contact {

class ContactHessian {
 public:
  // A body's rows of U.
  struct Rows {
    int first = 0;
    int count = 0;
  };
  // The terms of one body (second.count == 0) or of one pair of bodies.
  struct Group {
    Rows first, second;
    // 3w x 3w, w = first.count + second.count: entry (d w + i, e w + j) couples coordinate d of
    // the group's row i (first's rows, then second's) with coordinate e of its row j.
    Eigen::MatrixXd block;
    int width() const { return first.count + second.count; }
  };

  void clear() { count_ = 0; }
  // A new group, its block sized but not set: the caller sets every entry.
  Group& add_group(Rows first, Rows second);
  std::span<const Group> groups() const { return {groups_.data(), count_}; }
  Group& group(int index) { return groups_[static_cast<std::size_t>(index)]; }

  // vec(A)^T H vec(B), group by group on the pool if one is given. Not for two threads at once
  // (it keeps the groups' terms in form_terms_).
  double form(const sim::ReducedMatrix& A, const sim::ReducedMatrix& B,
              parallel::ThreadPool* pool = nullptr) const;
  // lower += H, in the layout's ordering, lower triangle only.
  void add_to_lower(const sim::SystemLayout& layout, Eigen::Ref<Eigen::MatrixXd> lower) const;
  // The same into a system of blocks that couples the groups' bodies (block_cholesky.hpp), of
  // its blocks only those whose columns are `column`'s unknowns (one of the layout's ranges):
  // the calls for different ranges write different blocks, and may run side by side.
  void add_to_lower(const sim::SystemLayout& layout, sim::BlockCholesky& lower,
                    const sim::SystemLayout::Range& column) const;

 private:
  // groups_[0, count_) are the groups; the ones after them keep their storage for reuse (a pair's
  // block is 295 kB at 8 modes a body: allocated afresh at every linearization, its pages
  // faulted in were 5 % of a 30-body pile's time).
  std::vector<Group> groups_;
  std::size_t count_ = 0;
  mutable std::vector<double> form_terms_;  // form()'s, one per group
};

}  // namespace smfem::contact
