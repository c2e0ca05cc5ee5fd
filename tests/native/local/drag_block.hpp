#pragma once
// A soft block dragged at the middle of its top face, for the tests of the Simulator with local
// deformations (local/local_deformations.hpp): the block, its mesh, the grabbed vertex, the page's
// settings, and where the grabbed vertex is.
#include <cmath>
#include <memory>

#include "local/block_mesh.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::local::test {

inline constexpr int kCubes = 8;
inline constexpr int kModes = 4;
inline constexpr double kDensity = 1000.0;

struct DragBlock {
  sim::BoxModel box;
  full::FullModel mesh;
  int grabbed = -1;  // the vertex the hand grabs

  // Grabbed at the vertex nearest `near` (the middle of the top face by default); youngs in Pa.
  explicit DragBlock(const Eigen::Vector3d& near = Eigen::Vector3d(0.0, 0.5, 0.0),
                     double youngs = 1e5)
      : box(block(kCubes, kModes, 0, youngs)), mesh(block_mesh(box, kDensity)) {
    for (int v = 0; v < mesh.vertex_count(); ++v) {
      if (grabbed < 0 || (mesh.positions.row(v).transpose() - near).squaredNorm() <
                             (mesh.positions.row(grabbed).transpose() - near).squaredNorm()) {
        grabbed = v;
      }
    }
  }
  Eigen::Vector3d rest() const { return mesh.positions.row(grabbed).transpose(); }
  Eigen::VectorXd basis() const { return box.basis.row(grabbed).transpose(); }
};

inline sim::SolverSettings page_settings(sim::SolverMethod method, int iterations) {
  sim::SolverSettings settings;
  settings.method = method;
  settings.iterations = iterations;
  settings.timestep = 1.0 / 60.0;
  settings.gravity = Eigen::Vector3d::Zero();
  return settings;
}

// Grabs the block and pulls the hand up by `rise` (m) a step for `steps` steps; false if a step
// fails.
inline bool pull_up(sim::Simulator& simulator, const DragBlock& block, int steps, double rise) {
  simulator.drag_start(block.basis(), block.rest(), block.rest(), 2e4);
  for (int step = 1; step <= steps; ++step) {
    simulator.drag_move(block.rest() + Eigen::Vector3d(0.0, rise * step, 0.0));
    if (!simulator.step().ok) return false;
  }
  return true;
}

// Where a mesh vertex (rest position `rest`, global basis b_v) is now, the patches' dent included.
inline Eigen::Vector3d grabbed_point(const sim::Simulator& simulator, int vertex,
                                     const Eigen::Vector3d& rest, const Eigen::VectorXd& basis) {
  Eigen::Vector3d point = rest + simulator.coordinates().transpose() * basis;
  const local::LocalDeformations* local = simulator.local_deformations();
  if (local == nullptr) return point;
  for (int p = 0; p < local->patch_count(); ++p) {
    point += local->patches().rotation(p) * field_at_vertex(local->patches().patch(p), vertex) *
             simulator.snapshot().patches.C.row(p).transpose();
  }
  return point;
}

}  // namespace smfem::local::test
