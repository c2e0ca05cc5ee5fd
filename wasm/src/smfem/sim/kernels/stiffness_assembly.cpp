#include "smfem/sim/kernels/stiffness_assembly.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "smfem/sim/kernels/detail/gemm_tile.hpp"

namespace smfem::sim {
namespace {

// Columns per task. A multiple of every tile width (kTileCols is 4..16).
constexpr int kPanelCols = 32;
// Tets per batch of the streamed product: the batch's rows of Yhat (3 x 32 x 4m) stay in the
// second-level cache for all of a thread's panels, its Z panel (3 x 32 x 32) and the few rows of
// Yhat one row group of tiles reads stay in the first-level cache.
constexpr int kBatchTets = 32;

constexpr std::array<int, 6> kBlockRow = {0, 1, 2, 0, 0, 1};  // d of block (d, e)
constexpr std::array<int, 6> kBlockCol = {0, 1, 2, 1, 2, 2};  // e
constexpr int kBlockCount = 6;
constexpr int kForceTask = 6;  // the task that computes the three force columns

}  // namespace

StiffnessAssembly::StiffnessAssembly(
    const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>&
        cubature_Y,
    const Eigen::Ref<const Eigen::VectorXd>& weights, int thread_count)
    : cubature_count_(static_cast<int>(weights.size())),
      block_size_(static_cast<int>(cubature_Y.cols())),
      stride_((static_cast<int>(cubature_Y.cols()) + kPanelCols - 1) / kPanelCols * kPanelCols),
      padded_rows_((static_cast<int>(cubature_Y.cols()) + detail::kTileRows - 1) /
                   detail::kTileRows * detail::kTileRows),
      weights_(weights) {
  const auto rows = static_cast<std::size_t>(3 * cubature_count_);
  const auto stride = static_cast<std::size_t>(stride_);
  Y_double_.assign(rows * stride, 0.0);
  Y_float_.assign(rows * stride, 0.0f);
  for (std::size_t r = 0; r < rows; ++r) {
    for (int k = 0; k < block_size_; ++k) {
      const double value = cubature_Y(static_cast<Eigen::Index>(r), k);
      Y_double_[r * stride + static_cast<std::size_t>(k)] = value;
      Y_float_[r * stride + static_cast<std::size_t>(k)] = static_cast<float>(value);
    }
  }
  const auto padded_rows = static_cast<std::size_t>(padded_rows_);
  Y_packed_double_.assign(rows * padded_rows, 0.0);
  Y_packed_float_.assign(rows * padded_rows, 0.0f);
  constexpr int kGroup = detail::kTileRows;
  for (int k = 0; k < block_size_; ++k) {
    const std::size_t group_start = static_cast<std::size_t>(k / kGroup) * rows * kGroup;
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t at = group_start + r * kGroup + static_cast<std::size_t>(k % kGroup);
      Y_packed_double_[at] = Y_double_[r * stride + static_cast<std::size_t>(k)];
      Y_packed_float_[at] = Y_float_[r * stride + static_cast<std::size_t>(k)];
    }
  }
  const auto tets = static_cast<std::size_t>(cubature_count_);
  hessian_double_.assign(tets * kBlockCount * 9, 0.0);
  hessian_float_.assign(tets * kBlockCount * 9, 0.0f);
  weighted_gradient_.setZero(3 * cubature_count_, 3);
  blocks_double_.assign(kBlockCount * padded_rows * stride, 0.0);
  blocks_float_.assign(kBlockCount * padded_rows * stride, 0.0f);
  force_.setZero(block_size_, 3);
  plan(thread_count);
}

int StiffnessAssembly::padded_row_end(int row_end) const {
  constexpr int kGroup = detail::kTileRows;
  return std::min(padded_rows_, (row_end + kGroup - 1) / kGroup * kGroup);
}

void StiffnessAssembly::plan(int thread_count) {
  std::vector<Task> tasks;
  const int n = block_size_;
  const int depth = 3 * cubature_count_;
  for (int block = 0; block < kBlockCount; ++block) {
    const bool diagonal = kBlockRow[block] == kBlockCol[block];
    for (int column = 0; column < n; column += kPanelCols) {
      const int rows = diagonal ? std::min(n, column + kPanelCols) : n;
      tasks.push_back({block, column, double(rows) * kPanelCols * depth});
    }
  }
  tasks.push_back({kForceTask, 0, 3.0 * n * depth});

  // Longest task first onto the least loaded thread. The split only decides who computes
  // what, never how: any schedule gives the same bits.
  std::stable_sort(tasks.begin(), tasks.end(),
                   [](const Task& a, const Task& b) { return a.cost > b.cost; });
  schedule_.assign(static_cast<std::size_t>(std::max(1, thread_count)), {});
  std::vector<double> load(schedule_.size(), 0.0);
  for (const Task& task : tasks) {
    const auto least =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    schedule_[least].push_back(task);
    load[least] += task.cost;
  }
  const auto panel_size = static_cast<std::size_t>(3 * kBatchTets * kPanelCols);
  panels_double_.assign(schedule_.size(), std::vector<double>(panel_size));
  panels_float_.assign(schedule_.size(), std::vector<float>(panel_size));
}

void StiffnessAssembly::set_tet_hessian(int tet, const Matrix9<double>& hessian) {
  const double w = weights_(tet);
  const auto base = static_cast<std::size_t>(tet) * kBlockCount * 9;
  for (int block = 0; block < kBlockCount; ++block) {
    const int d = kBlockRow[block];
    const int e = kBlockCol[block];
    for (int j = 0; j < 3; ++j) {
      for (int l = 0; l < 3; ++l) {
        // Column-major vec(F): F(i, j) is entry i + 3 j.
        const double value = w * hessian(d + 3 * j, e + 3 * l);
        const std::size_t at = base + static_cast<std::size_t>(block * 9 + 3 * j + l);
        hessian_double_[at] = value;
        hessian_float_[at] = static_cast<float>(value);
      }
    }
  }
}

void StiffnessAssembly::set_tet_gradient(int tet, const Matrix3<double>& gradient) {
  weighted_gradient_.middleRows<3>(3 * tet) = weights_(tet) * gradient.transpose();
}

template <typename T>
void StiffnessAssembly::add_block_batch(const Task& task, int first, int last, const T* Y,
                                        const T* Y_packed, const T* weighted_blocks, T* blocks,
                                        T* panel) const {
  constexpr int kTileCols = detail::kTileCols<T>;
  const int n = block_size_;
  const int stride = stride_;
  const bool diagonal = kBlockRow[task.block] == kBlockCol[task.block];
  const int column = task.column;
  T* K = blocks + static_cast<std::size_t>(task.block) * padded_rows_ * stride;

  // Z rows of this batch, panel columns only: Z(3c + j, b) = sum_l wQ^{de}(j, l) Y(3c + l, b).
  for (int c = first; c < last; ++c) {
    const T* q = weighted_blocks + (static_cast<std::size_t>(c) * kBlockCount + task.block) * 9;
    const T* y0 = Y + static_cast<std::size_t>(3 * c) * stride + column;
    const T* y1 = y0 + stride;
    const T* y2 = y1 + stride;
    for (int j = 0; j < 3; ++j) {
      T* z = panel + (3 * (c - first) + j) * kPanelCols;
      const T q0 = q[3 * j], q1 = q[3 * j + 1], q2 = q[3 * j + 2];
      for (int b = 0; b < kPanelCols; ++b) z[b] = q0 * y0[b] + q1 * y1[b] + q2 * y2[b];
    }
  }
  // K panel += Yhat_batch^T Z, one row group of tiles at a time (its packed rows of Yhat are
  // reused by every tile of the row). In a diagonal block only tiles that reach the upper
  // triangle.
  constexpr int kGroup = detail::kTileRows;
  const auto rows = static_cast<std::size_t>(3 * cubature_count_);
  const int depth = 3 * (last - first);
  const int row_end = diagonal ? std::min(n, column + kPanelCols) : n;
  for (int a = 0; a < row_end; a += kGroup) {
    const T* A = Y_packed + static_cast<std::size_t>(a / kGroup) * rows * kGroup +
                 static_cast<std::size_t>(3 * first) * kGroup;
    const int first_tile = diagonal ? std::max(0, (a - column) / kTileCols * kTileCols) : 0;
    for (int tile = first_tile; tile < kPanelCols; tile += kTileCols) {
      detail::gemm_tile_AtB(A, kGroup, panel + tile, kPanelCols, depth,
                            K + a * stride + column + tile, stride);
    }
  }
}

void StiffnessAssembly::add_force_batch(int first, int last) {
  const auto stride = static_cast<std::size_t>(stride_);
  double* force0 = force_.col(0).data();
  double* force1 = force_.col(1).data();
  double* force2 = force_.col(2).data();
  for (int r = 3 * first; r < 3 * last; ++r) {
    const double g0 = weighted_gradient_(r, 0);
    const double g1 = weighted_gradient_(r, 1);
    const double g2 = weighted_gradient_(r, 2);
    const double* y = Y_double_.data() + static_cast<std::size_t>(r) * stride;
    for (int k = 0; k < block_size_; ++k) {
      force0[k] += g0 * y[k];
      force1[k] += g1 * y[k];
      force2[k] += g2 * y[k];
    }
  }
}

template <typename T>
void StiffnessAssembly::run_thread(int thread, const T* Y, const T* Y_packed,
                                   const T* weighted_blocks, T* blocks, T* panel) {
  const std::vector<Task>& tasks = schedule_[static_cast<std::size_t>(thread)];
  const int n = block_size_;
  const int stride = stride_;
  for (const Task& task : tasks) {
    if (task.block == kForceTask) {
      force_.setZero();
      continue;
    }
    const bool diagonal = kBlockRow[task.block] == kBlockCol[task.block];
    T* K = blocks + static_cast<std::size_t>(task.block) * padded_rows_ * stride;
    const int row_end = padded_row_end(diagonal ? std::min(n, task.column + kPanelCols) : n);
    for (int a = 0; a < row_end; ++a) std::fill_n(K + a * stride + task.column, kPanelCols, T(0));
  }
  for (int first = 0; first < cubature_count_; first += kBatchTets) {
    const int last = std::min(cubature_count_, first + kBatchTets);
    for (const Task& task : tasks) {
      if (task.block == kForceTask) {
        add_force_batch(first, last);
      } else {
        add_block_batch<T>(task, first, last, Y, Y_packed, weighted_blocks, blocks, panel);
      }
    }
  }
}

void StiffnessAssembly::assemble(parallel::ThreadPool& pool) {
  pool.parallel_for(schedule_size(), [this](int entry) { assemble_entry(entry); });
}

void StiffnessAssembly::assemble_entry(int entry) {
  const auto index = static_cast<std::size_t>(entry);
  if (single_precision_) {
    run_thread<float>(entry, Y_float_.data(), Y_packed_float_.data(), hessian_float_.data(),
                      blocks_float_.data(), panels_float_[index].data());
  } else {
    run_thread<double>(entry, Y_double_.data(), Y_packed_double_.data(), hessian_double_.data(),
                       blocks_double_.data(), panels_double_[index].data());
  }
}

void StiffnessAssembly::add_to_lower(const Eigen::Ref<const Eigen::MatrixXd>& block,
                                     Eigen::Ref<Eigen::MatrixXd> system) const {
  const int n = block_size_;
  const auto stride = static_cast<std::size_t>(stride_);
  for (int index = 0; index < kBlockCount; ++index) {
    const int d = kBlockRow[index];
    const int e = kBlockCol[index];
    const std::size_t base = static_cast<std::size_t>(index) * padded_rows_ * stride;
    for (int a = 0; a < n; ++a) {
      for (int b = d == e ? a : 0; b < n; ++b) {
        const std::size_t at = base + static_cast<std::size_t>(a) * stride + b;
        double value = single_precision_ ? double(blocks_float_[at]) : blocks_double_[at];
        if (d == e) value += block(b, a);
        // K_de(a, b) is system(d n + a, e n + b) = system(e n + b, d n + a), in the lower part.
        system(e * n + b, d * n + a) = value;
      }
    }
  }
}

}  // namespace smfem::sim
