#pragma once
// Triangle surfaces of recipe primitives (geometry/primitives.hpp), for drawing: flat faces
// with sharp edges where the shape has them, however the stuffed tets round them off.
//
// - Box: each face a grid of cells no longer than `spacing`, two triangles per cell; faces
//   share no vertex (split at the edges, each vertex carries its face's normal), and the grids
//   of neighbouring faces meet vertex for vertex, so the box's 8 corners are vertices (three
//   times each) and the surface is closed once coincident vertices are merged. A rounded box
//   bends the bands of its faces' grids next to the edges onto its rounding (cylinders along
//   the edges, spheres at the corners, with their exact normals).
// - Cylinder: the side in rings around the axis with radial normals, and two flat caps in
//   concentric rings with the axis as normal; cap and side split at the rims.
// - Capsule (a sphere when its ends coincide) and ellipsoid: a smooth surface of revolution
//   (latitude rings, a vertex at each pole) with the exact normals.
// Round shapes get at least kMinSegments segments around, more where `spacing` asks for it.
// Every vertex lies on the primitive's surface (up to rounding after a transform).
#include <vector>

#include <Eigen/Core>

#include "smfem/geometry/primitives.hpp"
#include "smfem/mesh/types.hpp"

namespace smfem::render {

inline constexpr int kMinSegments = 32;

struct PrimitiveSurface {
  mesh::Vertices vertices;    // |V| x 3
  mesh::Triangles triangles;  // |F| x 3, counter-clockwise seen from outside
  mesh::Vertices normals;     // |V| x 3, unit, outward
};

// One primitive at the given edge length (> 0, metres). Throws std::invalid_argument for a
// spacing that is not positive and finite.
PrimitiveSurface primitive_surface(const geometry::Primitive& primitive, double spacing);

// The surface of a union: every primitive's surface, without the triangles hidden inside
// another primitive. A triangle is dropped when, moved a hair (1e-7 of the union's size) along
// its outward normal, its corners lie in one other primitive (inside or on its surface) and its
// centroid strictly inside: the primitives are convex, so all but the triangle's edges is then
// strictly inside that primitive and cannot be seen. This drops a cap pressed flat against
// another shape's face, and faces buried in an overlap, but keeps coplanar faces that look the
// same way (a hair outward leaves both). Triangles only partly inside are kept whole; their
// hidden part stays inside the body, so the result covers the union's boundary but is not
// closed where primitives meet (it is closed for one primitive, or primitives that do not
// touch).
PrimitiveSurface union_surface(const std::vector<geometry::Primitive>& primitives, double spacing);

}  // namespace smfem::render
