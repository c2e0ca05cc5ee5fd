#include "smfem/full/full_system.hpp"

#include <algorithm>
#include <utility>

#include "smfem/sim/kernels/spd_solver.hpp"

namespace smfem::full {
namespace {

// The position of local entry (r, c), r >= c, in a packed lower triangle.
constexpr int packed(int r, int c) { return r * (r + 1) / 2 + c; }

// The place of (row, col) in a compressed column-major matrix's values (the entry exists).
int value_slot(const Eigen::SparseMatrix<double>& matrix, int row, int col) {
  const int* begin = matrix.innerIndexPtr() + matrix.outerIndexPtr()[col];
  const int* end = matrix.innerIndexPtr() + matrix.outerIndexPtr()[col + 1];
  return static_cast<int>(std::lower_bound(begin, end, row) - matrix.innerIndexPtr());
}

// The same, or -1 where the entry is not in the pattern.
int value_slot_if_any(const Eigen::SparseMatrix<double>& matrix, int row, int col) {
  const int slot = value_slot(matrix, row, col);
  return slot < matrix.outerIndexPtr()[col + 1] && matrix.innerIndexPtr()[slot] == row ? slot : -1;
}

// Each lower-triangle pair (r >= c) of a four-node block's local DOFs (3j + d: coordinate d of
// node node_of(j)) whose nodes are both free: visit(packed(r, c), row, col) with the free DOFs,
// row >= col. A tet's block and a hinge's alike.
template <class NodeOf, class Visit>
void for_free_pairs(const std::vector<int>& free_index, NodeOf&& node_of, Visit&& visit) {
  const auto dof = [&](int local) {
    const int k = free_index[static_cast<std::size_t>(node_of(local / 3))];
    return k < 0 ? -1 : 3 * k + local % 3;
  };
  for (int r = 0; r < 12; ++r) {
    for (int c = 0; c <= r; ++c) {
      const int a = dof(r);
      const int b = dof(c);
      if (a >= 0 && b >= 0) visit(packed(r, c), std::max(a, b), std::min(a, b));
    }
  }
}

}  // namespace

FullSystem::FullSystem(const TetMeshDeformation& deformation, const FullDynamics& dynamics)
    : deformation_(deformation), dynamics_(dynamics) {
  const std::vector<char>& pinned = dynamics.pinned();
  const auto n = static_cast<Eigen::Index>(pinned.size());
  free_index_.assign(pinned.size(), -1);
  int free_count = 0;
  for (std::size_t v = 0; v < pinned.size(); ++v) {
    if (!pinned[v]) free_index_[v] = free_count++;
  }
  const int dofs = 3 * free_count;
  const int T = deformation.tet_count();
  const auto& tets = deformation.tets();
  const std::vector<Hinge>& hinges = dynamics.hinges().hinges();
  // Node j of tet t, of hinge h.
  const auto tet_node = [&](int t) { return [&tets, t](int j) { return tets(t, j); }; };
  const auto hinge_node = [&](std::size_t h) {
    return [&hinges, h](int j) { return hinges[h].nodes[static_cast<std::size_t>(j)]; };
  };

  // The pattern: every pair of free DOFs sharing a tet or a hinge or coupled by bending, in the
  // lower triangle, and the diagonal.
  const Eigen::SparseMatrix<double>& bending = dynamics.bending();
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve((static_cast<std::size_t>(T) + hinges.size()) * kLocalEntries +
                  static_cast<std::size_t>(dofs) +
                  3 * static_cast<std::size_t>(bending.nonZeros()));
  for (int i = 0; i < dofs; ++i) entries.emplace_back(i, i, 0.0);
  // (row, col, value) of B on each coordinate, over the free DOFs, lower triangle.
  std::vector<Eigen::Triplet<double>> bending_values;
  for (int col = 0; col < bending.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(bending, col); it; ++it) {
      const int a = free_index_[static_cast<std::size_t>(it.row())];
      const int b = free_index_[static_cast<std::size_t>(it.col())];
      if (a < b || b < 0) continue;  // pinned, or the upper triangle
      for (int d = 0; d < 3; ++d) bending_values.emplace_back(3 * a + d, 3 * b + d, it.value());
    }
  }
  entries.insert(entries.end(), bending_values.begin(), bending_values.end());
  const auto add_entry = [&](int, int row, int col) { entries.emplace_back(row, col, 0.0); };
  for (int t = 0; t < T; ++t) for_free_pairs(free_index_, tet_node(t), add_entry);
  for (std::size_t h = 0; h < hinges.size(); ++h) {
    for_free_pairs(free_index_, hinge_node(h), add_entry);
  }
  stiffness_.resize(dofs, dofs);
  stiffness_.setFromTriplets(entries.begin(), entries.end());
  stiffness_.makeCompressed();
  entries = {};

  // Each block's entries' places in the value arrays (-1 where pinned), 78 per block.
  const auto fill_slots = [&](auto node_of, int* slots) {
    for_free_pairs(free_index_, node_of, [&](int local, int row, int col) {
      slots[local] = value_slot(stiffness_, row, col);
    });
  };
  slots_.assign(static_cast<std::size_t>(T) * kLocalEntries, -1);
  for (int t = 0; t < T; ++t) {
    fill_slots(tet_node(t), slots_.data() + static_cast<std::size_t>(t) * kLocalEntries);
  }
  hinge_slots_.assign(hinges.size() * static_cast<std::size_t>(kLocalEntries), -1);
  for (std::size_t h = 0; h < hinges.size(); ++h) {
    fill_slots(hinge_node(h), hinge_slots_.data() + h * static_cast<std::size_t>(kLocalEntries));
  }
  for (const Eigen::Triplet<double>& entry : bending_values) {
    bending_entries_.emplace_back(value_slot(stiffness_, entry.row(), entry.col()), entry.value());
  }
  node_block_slots_.assign(pinned.size() * 6, -1);
  for (std::size_t v = 0; v < pinned.size(); ++v) {
    const int k = free_index_[v];
    if (k < 0) continue;
    int* slots = node_block_slots_.data() + 6 * v;
    for (int d = 0, i = 0; d < 3; ++d) {
      // A node in no element has only its diagonal: its contact coupling is left out.
      for (int e = 0; e <= d; ++e) slots[i++] = value_slot_if_any(stiffness_, 3 * k + d, 3 * k + e);
    }
  }
  diagonal_slots_.resize(static_cast<std::size_t>(dofs));
  for (int i = 0; i < dofs; ++i)
    diagonal_slots_[static_cast<std::size_t>(i)] = value_slot(stiffness_, i, i);

  matrix_ = stiffness_;
  cholesky_.analyze(matrix_);
  local_hessians_.assign(static_cast<std::size_t>(T) * kLocalEntries, 0.0);
  local_forces_.assign(static_cast<std::size_t>(T) * 12, 0.0);
  force_.setZero(n, 3);
  rhs_.setZero(n, 3);
  rhs_vector_.setZero(dofs);
  solution_.setZero(dofs);
}

void FullSystem::set_tet_hessian(int tet, const Matrix9<double>& hessian) {
  const fem::TetCorners& G = deformation_.shape_gradients(tet);
  const double w = deformation_.volumes()(tet);
  double* out = local_hessians_.data() + static_cast<std::size_t>(tet) * kLocalEntries;
  for (int d = 0; d < 3; ++d) {
    for (int e = 0; e <= d; ++e) {
      Matrix3<double> Q_de;  // Q(d + 3k, e + 3l)
      for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) Q_de(k, l) = hessian(d + 3 * k, e + 3 * l);
      }
      const Eigen::Matrix4d block = w * G * Q_de * G.transpose();  // (i, j): K(3i + d, 3j + e)
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
          const int r = 3 * i + d;
          const int c = 3 * j + e;
          if (r >= c) out[packed(r, c)] = block(i, j);
          // The (e, d) block is the transpose: entry (3j + e, 3i + d) when d != e.
          if (d != e && 3 * j + e >= 3 * i + d) out[packed(3 * j + e, 3 * i + d)] = block(i, j);
        }
      }
    }
  }
}

void FullSystem::set_tet_gradient(int tet, const Matrix3<double>& gradient) {
  const fem::TetCorners& G = deformation_.shape_gradients(tet);
  const double w = deformation_.volumes()(tet);
  Eigen::Map<Eigen::Matrix<double, 4, 3, Eigen::RowMajor>>(
      local_forces_.data() + static_cast<std::size_t>(tet) * 12) = w * G * gradient.transpose();
}

void FullSystem::assemble(parallel::ThreadPool& pool) {
  pool_ = &pool;
  // One pass in tet order: the sums come out the same for any thread count.
  double* values = stiffness_.valuePtr();
  std::fill(values, values + stiffness_.nonZeros(), 0.0);
  force_.setZero();
  const auto& tets = deformation_.tets();
  for (int t = 0; t < deformation_.tet_count(); ++t) {
    const int* slots = slots_.data() + static_cast<std::size_t>(t) * kLocalEntries;
    const double* local = local_hessians_.data() + static_cast<std::size_t>(t) * kLocalEntries;
    for (int i = 0; i < kLocalEntries; ++i) {
      if (slots[i] >= 0) values[slots[i]] += local[i];
    }
    const double* forces = local_forces_.data() + static_cast<std::size_t>(t) * 12;
    for (int j = 0; j < 4; ++j) {
      for (int d = 0; d < 3; ++d) force_(tets(t, j), d) += forces[3 * j + d];
    }
  }
}

int FullSystem::solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& dU) {
  rhs_ = -(dynamics_gradient + force_);
  dU.setZero();
  for (std::size_t v = 0; v < free_index_.size(); ++v) {
    const int k = free_index_[v];
    if (k < 0) {
      rhs_.row(static_cast<Eigen::Index>(v)).setZero();
    } else {
      for (int d = 0; d < 3; ++d) rhs_vector_(3 * k + d) = rhs_(static_cast<Eigen::Index>(v), d);
    }
  }

  // matrix_ = M / h^2 + B + K on the same pattern.
  std::copy(stiffness_.valuePtr(), stiffness_.valuePtr() + stiffness_.nonZeros(),
            matrix_.valuePtr());
  for (const auto& [slot, value] : bending_entries_) matrix_.valuePtr()[slot] += value;
  const std::vector<HingeVector>& factors = dynamics_.hinges().factors();
  for (std::size_t h = 0; h < factors.size(); ++h) {
    const int* slots = hinge_slots_.data() + h * static_cast<std::size_t>(kLocalEntries);
    for (int r = 0; r < 12; ++r) {
      for (int c = 0; c <= r; ++c) {
        const int slot = slots[packed(r, c)];
        if (slot >= 0) matrix_.valuePtr()[slot] += factors[h](r) * factors[h](c);
      }
    }
  }
  if (contact_ != nullptr) {
    for (const auto& [node, block] : contact_->hessian_blocks()) {
      const int* slots = node_block_slots_.data() + 6 * static_cast<std::size_t>(node);
      for (int d = 0, i = 0; d < 3; ++d) {
        for (int e = 0; e <= d; ++e, ++i) {
          if (slots[i] >= 0) matrix_.valuePtr()[slots[i]] += block(d, e);  // < 0: pinned
        }
      }
    }
  }
  if (const auto& spring = dynamics_.spring()) {
    const int k = free_index_[static_cast<std::size_t>(spring->node)];
    for (int d = 0; k >= 0 && d < 3; ++d) {
      matrix_.valuePtr()[diagonal_slots_[static_cast<std::size_t>(3 * k + d)]] += spring->stiffness;
    }
  }
  const double inverse_h2 = 1.0 / (dynamics_.timestep() * dynamics_.timestep());
  double diagonal_sum = 0.0;
  for (std::size_t v = 0; v < free_index_.size(); ++v) {
    const int k = free_index_[v];
    if (k < 0) continue;
    for (int d = 0; d < 3; ++d) {
      double& entry = matrix_.valuePtr()[diagonal_slots_[static_cast<std::size_t>(3 * k + d)]];
      entry += inverse_h2 * dynamics_.vertex_mass()(static_cast<Eigen::Index>(v));
      diagonal_sum += entry;
    }
  }
  const double mean_diagonal = diagonal_sum / static_cast<double>(std::max(dof_count(), 1));
  const int shifts = sim::factor_with_shifts(
      mean_diagonal,
      [&](double sigma) {
        for (const int slot : diagonal_slots_) matrix_.valuePtr()[slot] += sigma * mean_diagonal;
      },
      [&] { return cholesky_.factor(matrix_, pool_); });
  if (shifts < 0) return -1;
  cholesky_.solve(rhs_vector_, solution_);
  for (std::size_t v = 0; v < free_index_.size(); ++v) {
    const int k = free_index_[v];
    if (k >= 0) dU.row(static_cast<Eigen::Index>(v)) = solution_.segment<3>(3 * k).transpose();
  }
  return shifts;
}

}  // namespace smfem::full
