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
    : dynamics_(dynamics) {
  const Eigen::Index n = 4 * model.mode_count();
  std::vector<ReducedModel::Body> bodies = model.bodies;
  if (bodies.empty()) bodies.push_back({0, model.cubature_count(), 0, model.mode_count()});
  if (bodies.size() > 255) throw std::invalid_argument("at most 255 bodies in one model");
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const ReducedModel::Body& body = bodies[b];
    // A body's columns of Yhat start at 0 (reduced_model.hpp).
    assemblies_.emplace_back(
        model.cubature_Y.block(3 * body.first_tet, 0, 3 * body.tets, 4 * body.modes),
        model.cubature_weights.segment(body.first_tet, body.tets), thread_count);
    first_tet_.push_back(body.first_tet);
    first_row_.push_back(4 * body.first_mode);
    if (bodies.size() > 1) tet_body_.resize(tet_body_.size() + body.tets, std::uint8_t(b));
  }
  layout_ = SystemLayout::stacked(static_cast<int>(n));
  // Not zeroed: each solve writes its whole lower triangle, the only part read.
  if (assemblies_.size() == 1) {
    spd_.emplace(3 * static_cast<int>(n));
    matrix_.resize(3 * n, 3 * n);
  }
  force_.setZero(n, 3);
  rhs_.setZero(n, 3);
  rhs_vector_.setZero(3 * n);
  solution_.setZero(3 * n);
}

void ReducedSystem::set_single_precision(bool single) {
  for (StiffnessAssembly& assembly : assemblies_) assembly.set_single_precision(single);
}

void ReducedSystem::set_eigenfit(const EigenFitTerm* eigenfit) {
  if (eigenfit != nullptr && assemblies_.size() > 1) {
    throw std::invalid_argument("EigenFit: a model of a single body only");
  }
  eigenfit_ = eigenfit;
}

void ReducedSystem::set_moving_bodies(std::vector<char> moving) {
  if (!moving.empty() && moving.size() != assemblies_.size()) {
    throw std::invalid_argument("set_moving_bodies: one flag per body");
  }
  moving_ = std::move(moving);
}

void ReducedSystem::assemble(parallel::ThreadPool& pool) {
  pool_ = &pool;
  // Every body's schedule entries in one loop (entry e of body b is chunk b * entries + e; a
  // held body's do nothing). Each entry writes only its body's blocks and its own panel, so the
  // result is the same on any threads.
  const int entries = assemblies_.front().schedule_size();
  pool.parallel_for(static_cast<int>(assemblies_.size()) * entries, [&](int chunk) {
    const auto b = static_cast<std::size_t>(chunk / entries);
    if (moving(b)) assemblies_[b].assemble_entry(chunk % entries);
  });
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    if (!moving(b)) continue;
    force_.middleRows(first_row_[b], assemblies_[b].block_size()) = assemblies_[b].force();
  }
}

void ReducedSystem::update_layout() {
  if (assemblies_.size() < 2) return;
  // The moving bodies, numbered 0, 1, ... among themselves (-1: held).
  std::vector<int> sizes, index(assemblies_.size(), -1), bodies;
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    if (!moving(b)) continue;
    index[b] = static_cast<int>(bodies.size());
    bodies.push_back(static_cast<int>(b));
    sizes.push_back(3 * assemblies_[b].block_size());
  }
  std::vector<std::pair<int, int>> couplings;  // the pairs of moving bodies contact couples now
  const auto moving_body_of = [&](int row) {
    const auto body =
        std::upper_bound(first_row_.begin(), first_row_.end(), row) - first_row_.begin() - 1;
    return index[static_cast<std::size_t>(body)];
  };
  if (contact_ != nullptr) {
    for (const contact::ContactHessian::Group& group : contact_->hessian().groups()) {
      if (group.second.count == 0) continue;
      const int p = moving_body_of(group.first.first), q = moving_body_of(group.second.first);
      if (p >= 0 && q >= 0) couplings.emplace_back(p, q);
    }
  }
  const std::vector<int> order = elimination_order(sizes, couplings);
  layout_.ranges.assign(assemblies_.size(), {});
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    layout_.ranges[b] = {first_row_[b], assemblies_[b].block_size(), 0, true};
  }
  std::vector<int> position(bodies.size()), ordered_sizes;
  int first_unknown = 0;
  for (const int k : order) {
    const auto b = static_cast<std::size_t>(bodies[static_cast<std::size_t>(k)]);
    layout_.ranges[b].first_unknown = first_unknown;
    layout_.ranges[b].held = false;
    first_unknown += sizes[static_cast<std::size_t>(k)];
    position[static_cast<std::size_t>(k)] = static_cast<int>(ordered_sizes.size());
    ordered_sizes.push_back(sizes[static_cast<std::size_t>(k)]);
  }
  std::vector<std::pair<int, int>> coupled_positions;
  for (const auto& [p, q] : couplings) {
    coupled_positions.emplace_back(position[static_cast<std::size_t>(p)],
                                   position[static_cast<std::size_t>(q)]);
  }
  blocks_.set_structure(ordered_sizes, coupled_positions);
}

void ReducedSystem::write_single_body_lower(Eigen::Ref<Eigen::MatrixXd> matrix) const {
  if (!spd_) throw std::logic_error("write_single_body_lower: a model of several bodies");
  assemblies_[0].add_to_lower(dynamics_.hessian_block(), matrix);
  if (contact_ != nullptr) contact_->hessian().add_to_lower(layout_, matrix);
  if (eigenfit_ != nullptr) eigenfit_->add_to_lower(matrix);
}

int ReducedSystem::solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& du) {
  rhs_ = -(dynamics_gradient + force_);
  update_layout();
  const Eigen::MatrixXd& block = dynamics_.hessian_block();
  for (const SystemLayout::Range& range : layout_.ranges) {
    if (range.held) continue;
    for (int c = 0; c < 3; ++c) {
      rhs_vector_.segment(range.first_unknown + c * range.rows, range.rows) =
          rhs_.col(c).segment(range.first_row, range.rows);
    }
  }
  int shifts = 0;
  if (spd_) {
    write_single_body_lower(matrix_);
    shifts = spd_->solve(matrix_, rhs_vector_, solution_, pool_);
  } else {
    blocks_.set_zero();
    // Body by body on the pool: its own block, then contact's blocks in its columns. The bodies
    // write different blocks, each block gets its terms in the one-thread order.
    const auto add_body = [&](int b) {
      const SystemLayout::Range& range = layout_.ranges[static_cast<std::size_t>(b)];
      if (range.held) return;
      assemblies_[static_cast<std::size_t>(b)].add_to_lower(
          block.block(range.first_row, range.first_row, range.rows, range.rows),
          blocks_.block(range.first_unknown, range.first_unknown, 3 * range.rows, 3 * range.rows));
      if (contact_ != nullptr) contact_->hessian().add_to_lower(layout_, blocks_, range);
    };
    parallel::parallel_for_or_inline(pool_, static_cast<int>(assemblies_.size()), add_body);
    shifts = solve_shifted(blocks_, rhs_vector_, solution_, pool_);
  }
  du.resize(rhs_.rows(), 3);
  for (const SystemLayout::Range& range : layout_.ranges) {
    if (range.held) {
      du.middleRows(range.first_row, range.rows).setZero();
      continue;
    }
    for (int c = 0; c < 3; ++c) {
      du.col(c).segment(range.first_row, range.rows) =
          solution_.segment(range.first_unknown + c * range.rows, range.rows);
    }
  }
  return shifts;
}

}  // namespace smfem::sim
