#include "smfem/tetrahedralize/bcc_lattice.hpp"

#include <stdexcept>

#include <Eigen/LU>  // determinant()

namespace smfem::tetrahedralize {

BccLattice::BccLattice(const Eigen::Vector3d& origin, double spacing, const Eigen::Vector3i& cells)
    : origin_(origin), spacing_(spacing), cells_(cells) {
  if (!(spacing > 0.0) || cells.minCoeff() < 2) {
    throw std::invalid_argument("BccLattice: needs a positive spacing and 2 cubes per axis");
  }
  black_count_ = (cells.x() + 1) * (cells.y() + 1) * (cells.z() + 1);
  red_count_ = cells.x() * cells.y() * cells.z();
  // All tets around edges along one axis have the same shape up to translation: orient each
  // of the 12 patterns once from exact integer coordinates.
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, w = (axis + 2) % 3;
    Eigen::Vector3i b1 = Eigen::Vector3i::Zero();
    b1[axis] = 2;
    for (int q = 0; q < 4; ++q) {
      auto ring_position = [&](int slot) {
        Eigen::Vector3i p = Eigen::Vector3i::Ones();
        p[u] += 2 * kRedRing[slot][0];
        p[w] += 2 * kRedRing[slot][1];
        return p;
      };
      Eigen::Matrix3i edges;
      edges.col(0) = b1;
      edges.col(1) = ring_position(q);
      edges.col(2) = ring_position((q + 1) % 4);
      swap_red_[axis][q] = edges.cast<double>().determinant() < 0.0;
    }
  }
}

Eigen::Vector3i BccLattice::doubled_coordinates(int v) const {
  if (v < black_count_) {
    const int nx = cells_.x() + 1, ny = cells_.y() + 1;
    return 2 * Eigen::Vector3i(v % nx, (v / nx) % ny, v / (nx * ny));
  }
  const int r = v - black_count_;
  const int nx = cells_.x(), ny = cells_.y();
  return 2 * Eigen::Vector3i(r % nx, (r / nx) % ny, r / (nx * ny)) + Eigen::Vector3i::Ones();
}

Eigen::Vector3d BccLattice::position(int v) const {
  return origin_ + (0.5 * spacing_) * doubled_coordinates(v).cast<double>();
}

geometry::Points BccLattice::positions() const {
  geometry::Points points(vertex_count(), 3);
  for (int v = 0; v < vertex_count(); ++v) points.row(v) = position(v).transpose();
  return points;
}

}  // namespace smfem::tetrahedralize
