#pragma once
// A body's contact surface from its tet mesh (the bake's, or a procedural one): the mesh's
// boundary with the skinning weights of its vertices as the collision surface, and a
// well-spread subset of its vertices as the contact samples.
#include <Eigen/Core>

#include "smfem/geometry/boundary_faces.hpp"
#include "smfem/sim/contact/contact_surface.hpp"

namespace smfem::contact {

// vertices: every tet-mesh vertex (nv x 3), weights: their skinning weights (nv x m).
// Samples: all boundary vertices if there are at most max_samples, else max_samples chosen by
// farthest-point sampling (from the lowest vertex, deterministic). Each boundary vertex carries
// a third of its triangles' area, and each sample the areas of the vertices nearest to it, so
// the samples' areas add up to the surface's. Throws std::invalid_argument for max_samples < 1
// or a mesh without boundary.
ContactSurface sample_contact_surface(const SurfacePositions& vertices,
                                      const Eigen::MatrixXd& weights,
                                      const geometry::TetIndices& tets, int max_samples);

}  // namespace smfem::contact
