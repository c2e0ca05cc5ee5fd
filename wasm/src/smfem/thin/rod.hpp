#pragma once
// Rods: polylines, straight or curved, or networks of segments (a surface's or a tet mesh's
// edges, as paper 002's rod bunny), with a circular cross-section, as a thin body (thin_body.hpp)
// with bending (bending.hpp): a straight polyline's by its vertices' curvature, any other's by its
// segments' frames at the joints, which twist too.
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "smfem/thin/bending.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

struct RodMaterial {
  double radius = 2e-3;  // m
  double youngs = 1e7;   // Pa
  double poisson = 0.3;
  double density = 1000.0;  // kg / m^3
  bool bending = true;
};

using Segments = Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor>;

// `points` (>= 2) equally spaced vertices from the origin along +x over `length`.
Positions rod_line(int points, double length);

// The segments of a polyline of `points` vertices in vertex order: (0, 1), (1, 2), ...
Segments polyline_segments(int points);

// The edges of a triangle or tet mesh (every pair of a cell's corners), once each, ordered by
// their vertex ids.
template <typename Cells>
Segments mesh_edges(const Eigen::MatrixBase<Cells>& cells) {
  std::set<std::pair<int, int>> edges;
  for (Eigen::Index c = 0; c < cells.rows(); ++c) {
    for (Eigen::Index i = 0; i < cells.cols(); ++i) {
      for (Eigen::Index j = i + 1; j < cells.cols(); ++j) {
        const int a = cells(c, i), b = cells(c, j);
        edges.emplace(std::min(a, b), std::max(a, b));
      }
    }
  }
  Segments segments(static_cast<Eigen::Index>(edges.size()), 2);
  Eigen::Index e = 0;
  for (const auto& [a, b] : edges) segments.row(e++) << a, b;
  return segments;
}

// The thin body of the segments between `points`: one element per segment with its two
// directors, lumped masses, where material.bending bending stiffness E pi r^4 / 4 and (curved
// rods, networks) twisting stiffness E pi r^4 / (4 (1 + nu)); there a segment whose two vertices
// are pinned is clamped (its directors pinned too). Throws std::invalid_argument naming the
// problem: no segment, non-finite positions, a segment whose ids are not vertices, the same
// segment twice, a segment of no length, a vertex in no segment, a material value out of range
// or a pin that is not a vertex.
ThinBody make_rods(const Positions& points, const Segments& segments, const RodMaterial& material,
                   std::vector<int> pinned);

// make_rods of the polyline through `points` in their order.
ThinBody make_rod(const Positions& points, const RodMaterial& material, std::vector<int> pinned);

}  // namespace smfem::thin
