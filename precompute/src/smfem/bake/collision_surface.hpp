#pragma once
// The collision surface a body's neighbours collide with (sim/contact/contact_surface.hpp): the
// simulation mesh's boundary, simplified by meshoptimizer's edge collapse. A collapse keeps
// original vertices, so every coarse vertex is a boundary vertex with its own skinning weights:
// the coarse surface moves with the body exactly as the fine one does at those vertices.
//
// Why coarse: every boundary vertex is moved at every Newton iterate (ContactPotential's
// positions), and every other body's samples search these triangles; the crab's boundary has
// 14,012 triangles against its 1,024 samples.
#include "smfem/sim/contact/contact_surface.hpp"

namespace smfem::bake {

// How far the simplification may move the surface, relative to the mesh's extent: it stops
// short of the target rather than cut deeper (a neighbour may sink into the fine surface by
// about this much, drawn).
inline constexpr float kCollisionSurfaceError = 0.005F;

struct CoarseningReport {
  int triangles_before = 0;
  int triangles_after = 0;
  double error = 0.0;  // m: the largest deviation the simplifier measured
};

// Simplifies `surface` to at most about target_triangles triangles (nothing if it has fewer),
// then keeps only the vertices that are samples or corners of the coarse triangles (samples and
// triangles renumbered; areas unchanged). Throws std::invalid_argument for target_triangles < 4.
CoarseningReport coarsen_collision_surface(contact::ContactSurface& surface, int target_triangles);

}  // namespace smfem::bake
