#pragma once
// A rod: a polyline with a circular cross-section, as a thin body (thin_body.hpp) with bending
// (bending.hpp).
#include <vector>

#include "smfem/thin/bending.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

struct RodMaterial {
  double radius = 2e-3;  // m
  double youngs = 1e7;   // Pa
  double poisson = 0.3;
  double density = 1000.0;  // kg / m^3
  bool bending = true;      // needs a straight rest shape
};

// `points` (>= 2) equally spaced vertices from the origin along +x over `length`.
Positions rod_line(int points, double length);

// The thin body of the polyline (vertex order): one element per segment with its two directors,
// lumped masses, bending stiffness E pi r^4 / 4 where material.bending. Throws
// std::invalid_argument naming the problem: fewer than two points, non-finite positions, a
// segment of no length, a material value out of range, a pin that is not a vertex, or bending
// asked of a polyline that is not straight.
ThinBody make_rod(const Positions& points, const RodMaterial& material, std::vector<int> pinned);

}  // namespace smfem::thin
