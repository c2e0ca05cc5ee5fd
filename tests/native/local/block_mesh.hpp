#pragma once
// The block the tests of local/ load: the procedural box (sim/fixtures) as a 1 x 0.5 x 1 m block
// of n x n/2 x n Kuhn cubes, its top face at y = 0.5, its surface in the mesh's vertex ids, patches
// on its top face, and the block as a tet mesh with its skinning weights.
#include <cmath>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/geometry/boundary_faces.hpp"
#include "smfem/local/local_basis.hpp"
#include "smfem/local/patch_set.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::local::test {

// contact_samples: as BoxModelOptions' (0: no contact group); youngs: the whole block's (Pa).
inline sim::BoxModel block(int n, int modes = 4, int contact_samples = 0, double youngs = 1e5) {
  sim::BoxModelOptions options;
  options.nx = options.nz = n;
  options.ny = n / 2;
  options.lower = Eigen::Vector3d(-0.5, 0.0, -0.5);
  options.upper = Eigen::Vector3d(0.5, 0.5, 0.5);
  options.mode_count = modes;
  options.contact_samples = contact_samples;
  options.youngs[0] = options.youngs[1] = youngs;
  return sim::make_box_model(options);
}

// The boundary triangles (outward), their corners as the mesh's vertex ids.
inline geometry::TriangleIndices block_surface(const sim::BoxModel& box) {
  const geometry::BoundaryFaces faces = geometry::boundary_faces(box.tets, box.rest.rows());
  geometry::TriangleIndices surface(faces.triangles.rows(), 3);
  for (Eigen::Index f = 0; f < faces.triangles.rows(); ++f) {
    for (int c = 0; c < 3; ++c) surface(f, c) = faces.vertex(faces.triangles(f, c));
  }
  return surface;
}

// The top face's frame: tangents x and z, the inward normal -y (x cross z = -y).
inline Eigen::Matrix3d top_frame() {
  Eigen::Matrix3d frame;
  frame << Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitZ(), -Eigen::Vector3d::UnitY();
  return frame;
}

// The top-face vertices within `radius` of (x, 0.5, z), each with its share of the face's area
// (a grid of spacing h: h^2 inside).
inline LoadPatch top_patch(const sim::BoxModel& box, double x, double z, double radius, double h) {
  LoadPatch patch;
  patch.centre = Eigen::Vector3d(x, 0.5, z);
  patch.frame = top_frame();
  for (Eigen::Index v = 0; v < box.rest.rows(); ++v) {
    const Eigen::Vector3d p = box.rest.row(v).transpose();
    if (std::abs(p.y() - 0.5) < 1e-12 && (p - patch.centre).norm() <= radius + 1e-12) {
      patch.vertices.push_back(static_cast<int>(v));
      patch.areas.push_back(h * h);
    }
  }
  return patch;
}

// The block's tet mesh as an asset's mesh group holds it: materials per tet and the box's weight
// functions (W_vi = b_v[4i + 3], the coefficient of the constant 1 in [X; 1]).
inline full::FullModel block_mesh(const sim::BoxModel& box, double density) {
  full::FullModel mesh;
  mesh.source = "block";
  mesh.positions = box.rest;
  mesh.tets = box.tets;
  mesh.youngs = Eigen::VectorXd::Constant(box.tets.rows(), box.model.cubature_youngs(0));
  mesh.poisson = Eigen::VectorXd::Constant(box.tets.rows(), box.model.cubature_poisson(0));
  mesh.density = Eigen::VectorXd::Constant(box.tets.rows(), density);
  const Eigen::Index modes = box.basis.cols() / 4;
  mesh.weights.resize(box.basis.rows(), modes);
  for (Eigen::Index i = 0; i < modes; ++i)
    mesh.weights.col(i) = box.basis.col(4 * i + 3).cast<float>();
  return mesh;
}

// The displacement of every vertex (nv x 3) of the extended coordinates U of a block with patches:
// U_g^T b_v + sum_p R_p B_pv c_p.
inline Eigen::MatrixXd displacements(const sim::BoxModel& box, const PatchSet& patches,
                                     const sim::ReducedMatrix& U) {
  Eigen::MatrixXd x = box.basis * U.topRows(patches.global_rows());
  for (int p = 0; p < patches.patch_count(); ++p) {
    const PatchSupport& support = patches.patch(p);
    const Eigen::Vector3d c = U.row(patches.global_rows() + p).transpose();
    for (std::size_t k = 0; k < support.vertices.size(); ++k) {
      x.row(support.vertices[k]) += (patches.rotation(p) * support.fields[k] * c).transpose();
    }
  }
  return x;
}

}  // namespace smfem::local::test
