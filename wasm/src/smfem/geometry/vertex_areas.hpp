#pragma once
// Each vertex's share of a triangle mesh's area: a third of the area of every triangle it is a
// corner of (the barycentric dual), so the shares add up to the surface's area. The contact
// samples' areas (sim/contact/contact_sampling.hpp) and the loaded patches' (local/) start from
// it.
#include <Eigen/Core>

#include "smfem/geometry/boundary_faces.hpp"

namespace smfem::geometry {

// positions: nv x 3 (row-major); triangles: corners into them, which the caller has checked.
// Zero for a vertex of no triangle.
Eigen::VectorXd vertex_areas(
    const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& positions,
    const TriangleIndices& triangles);

}  // namespace smfem::geometry
