#pragma once
// Assembly of the reduced stiffness and the reduced elastic force from per-tet quantities in
// F space, the shared core of both solvers:
//
//   K       = sum_c w_c (I_3 (x) Y_c) Q_c (I_3 (x) Y_c^T)     (12m x 12m)
//   force_d = sum_c w_c Y_c P_c^T e_d                         (4m, d = 0, 1, 2)
//
// Q_c is a symmetric 9 x 9 Hessian on vec(F) and P_c a 3 x 3 gradient (dpsi/dF), set per tet
// by the solver. F row d depends on u_d only, dF(d, j)/du_d[k] = Y_c(k, j), so K splits into
// 3 x 3 blocks K_de = sum_c Y_c (w_c Q_c^{de}) Y_c^T (4m x 4m), Q_c^{de}(j, l) =
// Q_c(F(d, j), F(e, l)). Stacking the tets' Y_c^T into Yhat (3C x 4m, cubature_Y of
// reduced_model.hpp), each block is one product
//
//   K_de = Yhat^T Z_de,   Z_de = blockdiag_c(w_c Q_c^{de}) Yhat,
//
// 6 blocks by symmetry (d <= e), and only the upper triangle of the diagonal blocks. Dense
// 6 x 12m constraint Jacobians are never formed.
//
// Parallel and deterministic: the work is split by output (column panels of the blocks, and
// the force), never by tets, so no partial sums are reduced and every entry is computed by the
// same operations in the same order whatever the thread count: results are bit-identical for
// any number of threads. Each thread streams once over the tets in batches; per batch it forms
// Z for each of its panels in a small buffer and adds the batch's product to the panel, so a
// batch's rows of Yhat are fetched once and stay in cache for all of the thread's panels.
// Inside a panel the micro-kernel (detail/gemm_tile.hpp) sweeps the tiles of one row group at
// a time, so the Z panel and a few rows of Yhat stay in the first-level cache. Optional single
// precision (K only steers the solver's search direction): Yhat and the weighted blocks are
// then floats and so is the sum.
//
// All storage is allocated at construction; assemble() allocates nothing.
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::sim {

class StiffnessAssembly {
 public:
  // cubature_Y: Yhat (3C x 4m), weights: w_c (C). thread_count: the pool's, for the schedule.
  StiffnessAssembly(const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic,
                                                         Eigen::RowMajor>>& cubature_Y,
                    const Eigen::Ref<const Eigen::VectorXd>& weights, int thread_count);

  int cubature_count() const { return cubature_count_; }
  int block_size() const { return block_size_; }  // 4m

  void set_single_precision(bool single) { single_precision_ = single; }
  bool single_precision() const { return single_precision_; }

  // Per-tet inputs, set in parallel (each tet touches only its own storage).
  // hessian: Q_c (9 x 9, column-major vec(F)); stored as w_c Q_c^{de}.
  void set_tet_hessian(int tet, const Matrix9<double>& hessian);
  // gradient: P_c = dpsi/dF (3 x 3); stored as w_c P_c.
  void set_tet_gradient(int tet, const Matrix3<double>& gradient);

  // Forms K and the force from the per-tet inputs of every tet, using pool (whose thread count
  // must be the one planned for).
  void assemble(parallel::ThreadPool& pool);
  // assemble() is its schedule's entries, one per planned thread, each free to run on any thread
  // beside the others: a system of several bodies runs every body's in one loop
  // (reduced_system.cpp), where a loop per body waited for its slower thread at every body.
  int schedule_size() const { return static_cast<int>(schedule_.size()); }
  void assemble_entry(int entry);

  // After assemble(): system = (I_3 (x) block) + K, lower triangle only (12m x 12m, u = vec(U)
  // ordering). system may be a block of a larger matrix (a body of several, reduced_system.hpp).
  void add_to_lower(const Eigen::Ref<const Eigen::MatrixXd>& block,
                    Eigen::Ref<Eigen::MatrixXd> system) const;
  // After assemble(): the reduced elastic force, 4m x 3 (column d is force_d).
  const Eigen::Matrix<double, Eigen::Dynamic, 3>& force() const { return force_; }

 private:
  struct Task {
    int block;    // 0..5: (0,0) (1,1) (2,2) (0,1) (0,2) (1,2); 6: the force (all three columns)
    int column;   // first column of the panel
    double cost;  // for the schedule
  };

  // Everything one thread computes, in precision T.
  template <typename T>
  void run_thread(int thread, const T* Y, const T* Y_packed, const T* weighted_blocks, T* blocks,
                  T* panel);
  // One batch of tets [first, last) added to a task's panel.
  template <typename T>
  void add_block_batch(const Task& task, int first, int last, const T* Y, const T* Y_packed,
                       const T* weighted_blocks, T* blocks, T* panel) const;
  void add_force_batch(int first, int last);
  void plan(int thread_count);
  // The rows a panel's row groups write, up to row_end.
  int padded_row_end(int row_end) const;

  int cubature_count_ = 0;
  int block_size_ = 0;  // n = 4m
  int stride_ = 0;      // n rounded up to a whole number of panels
  // n rounded up to a whole number of tile rows: the last row group of a block computes rows
  // past n (from zero padding), so the blocks and the packed Yhat have that many rows.
  int padded_rows_ = 0;
  bool single_precision_ = false;
  Eigen::VectorXd weights_;

  std::vector<double> Y_double_;  // Yhat, 3C x stride_ row-major, zero padded
  std::vector<float> Y_float_;
  // Yhat packed for the micro-kernel by groups of kTileRows columns: group g, then row r, then
  // i < kTileRows holds Yhat(r, kTileRows g + i), so a tile's reads are contiguous.
  std::vector<double> Y_packed_double_;
  std::vector<float> Y_packed_float_;
  std::vector<double> hessian_double_;  // C x 6 x 3 x 3: w_c Q_c^{de}(j, l)
  std::vector<float> hessian_float_;
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> weighted_gradient_;  // 3C x 3
  std::vector<double> blocks_double_;  // 6 x padded_rows_ x stride_ row-major: K_de
  std::vector<float> blocks_float_;
  Eigen::Matrix<double, Eigen::Dynamic, 3> force_;

  std::vector<std::vector<Task>> schedule_;  // per thread
  // Per schedule entry: Z of one batch of tets, one panel.
  std::vector<std::vector<double>> panels_double_;
  std::vector<std::vector<float>> panels_float_;
};

}  // namespace smfem::sim
