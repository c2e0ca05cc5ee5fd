#include "smfem/sim/step/reduced_system.hpp"

#include <algorithm>
#include <stdexcept>

namespace smfem::sim {
namespace {

// A minimum-degree elimination order of bodies of the given sizes (unknowns) coupled in pairs:
// each time, the body whose remaining neighbours hold the fewest unknowns (its elimination fills
// their blocks), which then couples those neighbours to each other.
std::vector<int> elimination_order(const std::vector<int>& sizes,
                                   const std::vector<std::pair<int, int>>& couplings) {
  const std::size_t count = sizes.size();
  std::vector<std::vector<char>> coupled(count, std::vector<char>(count, 0));
  for (const auto& [a, b] : couplings) {
    coupled[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = 1;
    coupled[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] = 1;
  }
  std::vector<char> done(count, 0);
  std::vector<int> order;
  for (std::size_t step = 0; step < count; ++step) {
    std::size_t best = count;
    long best_fill = 0;
    for (std::size_t b = 0; b < count; ++b) {
      if (done[b]) continue;
      long fill = 0;
      for (std::size_t c = 0; c < count; ++c) fill += (!done[c] && coupled[b][c]) ? sizes[c] : 0;
      if (best == count || fill < best_fill) {
        best = b;
        best_fill = fill;
      }
    }
    done[best] = 1;
    order.push_back(static_cast<int>(best));
    for (std::size_t a = 0; a < count; ++a) {
      for (std::size_t c = 0; c < count; ++c) {
        if (a != c && !done[a] && !done[c] && coupled[best][a] && coupled[best][c]) {
          coupled[a][c] = 1;
        }
      }
    }
  }
  return order;
}

}  // namespace

ReducedSystem::ReducedSystem(const ReducedModel& model, const Dynamics& dynamics, int thread_count)
    : dynamics_(dynamics), spd_(3 * static_cast<int>(model.cubature_Y.cols())) {
  const Eigen::Index n = model.cubature_Y.cols();
  std::vector<ReducedModel::Body> bodies = model.bodies;
  if (bodies.empty()) bodies.push_back({0, model.cubature_count(), 0, model.mode_count()});
  if (bodies.size() > 255) throw std::invalid_argument("at most 255 bodies in one model");
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const ReducedModel::Body& body = bodies[b];
    assemblies_.emplace_back(model.cubature_Y.block(3 * body.first_tet, 4 * body.first_mode,
                                                    3 * body.tets, 4 * body.modes),
                             model.cubature_weights.segment(body.first_tet, body.tets),
                             thread_count);
    first_tet_.push_back(body.first_tet);
    first_row_.push_back(4 * body.first_mode);
    if (bodies.size() > 1) tet_body_.resize(tet_body_.size() + body.tets, std::uint8_t(b));
  }
  layout_ = SystemLayout::stacked(static_cast<int>(n));
  // Not zeroed here: the first solve's order is new, so it zeroes the lower triangle, the only
  // part ever read (a large island's upper triangle is then never touched).
  matrix_.resize(3 * n, 3 * n);
  force_.setZero(n, 3);
  rhs_.setZero(n, 3);
  rhs_vector_.setZero(3 * n);
  solution_.setZero(3 * n);
}

void ReducedSystem::set_single_precision(bool single) {
  for (StiffnessAssembly& assembly : assemblies_) assembly.set_single_precision(single);
}

void ReducedSystem::assemble(parallel::ThreadPool& pool) {
  pool_ = &pool;
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    assemblies_[b].assemble(pool);
    force_.middleRows(first_row_[b], assemblies_[b].block_size()) = assemblies_[b].force();
  }
}

void ReducedSystem::update_layout() {
  if (assemblies_.size() < 2) return;
  std::vector<int> sizes;
  for (const StiffnessAssembly& assembly : assemblies_) sizes.push_back(3 * assembly.block_size());
  couplings_.clear();
  const auto body_of = [&](int row) {
    return static_cast<int>(std::upper_bound(first_row_.begin(), first_row_.end(), row) -
                            first_row_.begin()) -
           1;
  };
  if (contact_ != nullptr) {
    for (const contact::ContactHessian::Group& group : contact_->hessian().groups()) {
      if (group.second.count > 0)
        couplings_.emplace_back(body_of(group.first.first), body_of(group.second.first));
    }
  }
  const std::vector<int> order = elimination_order(sizes, couplings_);
  order_changed_ = order != order_;
  order_ = order;
  layout_.ranges.assign(assemblies_.size(), {});
  int first_unknown = 0;
  for (const int b : order_) {
    const auto k = static_cast<std::size_t>(b);
    layout_.ranges[k] = {first_row_[k], assemblies_[k].block_size(), first_unknown};
    first_unknown += sizes[k];
  }
}

int ReducedSystem::solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& du) {
  rhs_ = -(dynamics_gradient + force_);
  update_layout();
  const Eigen::MatrixXd& block = dynamics_.hessian_block();
  // Between bodies only contact couples. In the same body order as last time the bodies' own
  // blocks are overwritten below and the coupling blocks contact filled are zeroed; in another
  // order (of bodies of other sizes) old diagonal blocks would lie off the diagonal: all is.
  if (order_changed_) {
    matrix_.triangularView<Eigen::Lower>().setZero();
  } else {
    for (const Block& coupling : coupling_blocks_) {
      matrix_.block(coupling.row, coupling.col, coupling.rows, coupling.cols).setZero();
    }
  }
  coupling_blocks_.clear();
  for (const auto& [p, q] : couplings_) {
    const SystemLayout::Range& a = layout_.ranges[static_cast<std::size_t>(p)];
    const SystemLayout::Range& b = layout_.ranges[static_cast<std::size_t>(q)];
    const SystemLayout::Range& low = a.first_unknown > b.first_unknown ? a : b;
    const SystemLayout::Range& high = a.first_unknown > b.first_unknown ? b : a;
    coupling_blocks_.push_back(
        {low.first_unknown, high.first_unknown, 3 * low.rows, 3 * high.rows});
  }
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    const SystemLayout::Range& range = layout_.ranges[b];
    assemblies_[b].add_to_lower(
        block.block(range.first_row, range.first_row, range.rows, range.rows),
        matrix_.block(range.first_unknown, range.first_unknown, 3 * range.rows, 3 * range.rows));
  }
  if (contact_ != nullptr) contact_->hessian().add_to_lower(layout_, matrix_);
  // One body (EigenFitTerm): the unknowns are u = vec(U).
  if (eigenfit_ != nullptr) eigenfit_->add_to_lower(matrix_);
  for (const SystemLayout::Range& range : layout_.ranges) {
    for (int c = 0; c < 3; ++c) {
      rhs_vector_.segment(range.first_unknown + c * range.rows, range.rows) =
          rhs_.col(c).segment(range.first_row, range.rows);
    }
  }
  const int shifts = spd_.solve(matrix_, rhs_vector_, solution_, pool_);
  du.resize(rhs_.rows(), 3);
  for (const SystemLayout::Range& range : layout_.ranges) {
    for (int c = 0; c < 3; ++c) {
      du.col(c).segment(range.first_row, range.rows) =
          solution_.segment(range.first_unknown + c * range.rows, range.rows);
    }
  }
  return shifts;
}

}  // namespace smfem::sim
