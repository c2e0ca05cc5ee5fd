#pragma once
// The body-centred cubic lattice isosurface stuffing fills space with.
//
// Black vertices sit on the corners of cubes of side `spacing`, red vertices at the cube
// centres. Long edges (length spacing) join black to black and red to red along the axes;
// short edges (length spacing * sqrt(3) / 2) join each red vertex to the 8 corners of its
// cube. Every tet is one long black edge plus two red vertices adjacent around it (so one long
// red edge): four congruent tets around each interior black edge, 12 per cube volume, each
// face an isosceles triangle with one long and two short edges.
//
// Vertex ids: black (i, j, k), 0 <= i <= cells.x() etc., are numbered first; red (i, j, k),
// the centre of cube (i, j, k), 0 <= i < cells.x(), follow.
#include <array>

#include <Eigen/Core>

#include "smfem/geometry/sdf.hpp"

namespace smfem::tetrahedralize {

class BccLattice {
 public:
  // cells: cubes per axis (>= 2 each).
  BccLattice(const Eigen::Vector3d& origin, double spacing, const Eigen::Vector3i& cells);

  double spacing() const { return spacing_; }
  const Eigen::Vector3i& cells() const { return cells_; }
  int black_count() const { return black_count_; }
  int vertex_count() const { return black_count_ + red_count_; }
  bool is_black(int v) const { return v < black_count_; }

  int black(int i, int j, int k) const { return i + (cells_.x() + 1) * (j + (cells_.y() + 1) * k); }
  int red(int i, int j, int k) const {
    return black_count_ + i + cells_.x() * (j + cells_.y() * k);
  }

  // Twice the position in units of spacing: black at even, red at odd coordinates.
  Eigen::Vector3i doubled_coordinates(int v) const;
  Eigen::Vector3d position(int v) const;
  geometry::Points positions() const;  // all vertices, by id

  // f(std::array<int, 4>{b0, b1, r0, r1}) for every tet: b0-b1 its long black edge, r0-r1
  // its long red edge, positively oriented.
  template <class F>
  void for_each_tet(F&& f) const;
  // f(a, b, is_long) for every edge, each once.
  template <class F>
  void for_each_edge(F&& f) const;

 private:
  Eigen::Vector3d origin_;
  double spacing_;
  Eigen::Vector3i cells_;
  int black_count_;
  int red_count_;
  // Per axis and position around the black edge: whether (b0, b1, r_q, r_q+1) is negative.
  std::array<std::array<bool, 4>, 3> swap_red_;
};

// Around a black edge along `axis`, the four red cube centres in cyclic order, as offsets of
// the cube index on the two other axes.
inline constexpr std::array<std::array<int, 2>, 4> kRedRing = {
    {{0, 0}, {-1, 0}, {-1, -1}, {0, -1}}};

template <class F>
void BccLattice::for_each_tet(F&& f) const {
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, w = (axis + 2) % 3;
    Eigen::Vector3i lo = Eigen::Vector3i::Zero(), hi = cells_;
    hi[axis] = cells_[axis] - 1;  // the edge's far end must exist
    lo[u] = 1, lo[w] = 1;         // red cubes on both sides must exist
    hi[u] = cells_[u] - 1, hi[w] = cells_[w] - 1;
    for (int k = lo.z(); k <= hi.z(); ++k) {
      for (int j = lo.y(); j <= hi.y(); ++j) {
        for (int i = lo.x(); i <= hi.x(); ++i) {
          Eigen::Vector3i c(i, j, k);
          Eigen::Vector3i next = c;
          next[axis] += 1;
          const int b0 = black(c.x(), c.y(), c.z()), b1 = black(next.x(), next.y(), next.z());
          std::array<int, 4> ring;
          for (int q = 0; q < 4; ++q) {
            Eigen::Vector3i cube = c;
            cube[u] += kRedRing[q][0];
            cube[w] += kRedRing[q][1];
            ring[q] = red(cube.x(), cube.y(), cube.z());
          }
          for (int q = 0; q < 4; ++q) {
            int r0 = ring[q], r1 = ring[(q + 1) % 4];
            if (swap_red_[axis][q]) std::swap(r0, r1);
            f(std::array<int, 4>{b0, b1, r0, r1});
          }
        }
      }
    }
  }
}

template <class F>
void BccLattice::for_each_edge(F&& f) const {
  const Eigen::Vector3i& n = cells_;
  for (int k = 0; k <= n.z(); ++k) {
    for (int j = 0; j <= n.y(); ++j) {
      for (int i = 0; i <= n.x(); ++i) {
        const int b = black(i, j, k);
        if (i < n.x()) f(b, black(i + 1, j, k), true);
        if (j < n.y()) f(b, black(i, j + 1, k), true);
        if (k < n.z()) f(b, black(i, j, k + 1), true);
        if (i == n.x() || j == n.y() || k == n.z()) continue;
        const int r = red(i, j, k);
        if (i + 1 < n.x()) f(r, red(i + 1, j, k), true);
        if (j + 1 < n.y()) f(r, red(i, j + 1, k), true);
        if (k + 1 < n.z()) f(r, red(i, j, k + 1), true);
        for (int corner = 0; corner < 8; ++corner) {
          f(r, black(i + (corner & 1), j + ((corner >> 1) & 1), k + ((corner >> 2) & 1)), false);
        }
      }
    }
  }
}

}  // namespace smfem::tetrahedralize
