#pragma once
// Synthetic tet meshes for tests and benchmarks: a box [0, size] split into cells x cells x
// cells cubes, each cube into the six tets of the Kuhn (Freudenthal) triangulation, which
// conform across cube faces. The tets are invariant under permuting the axes, so a box with
// equal cell counts along two axes has exactly repeated eigenvalues (a good test of solvers).
#include <algorithm>
#include <array>
#include <cmath>

#include <Eigen/Core>
#include <Eigen/LU>

#include "smfem/mesh/types.hpp"

namespace smfem::test {

// cells: cube counts along x, y, z (each >= 1); size: the box's extent; origin: its lowest
// corner. Vertex (i, j, k) is row i + (cx + 1) (j + (cy + 1) k). Regions are all 0.
inline mesh::TetMesh box_mesh(const Eigen::Vector3i& cells, const Eigen::Vector3d& size,
                              const Eigen::Vector3d& origin = Eigen::Vector3d::Zero()) {
  const Eigen::Vector3i points = cells.array() + 1;
  mesh::TetMesh box;
  box.vertices.resize(points.prod(), 3);
  auto vertex = [&](int i, int j, int k) { return i + points.x() * (j + points.y() * k); };
  for (int k = 0; k < points.z(); ++k) {
    for (int j = 0; j < points.y(); ++j) {
      for (int i = 0; i < points.x(); ++i) {
        const Eigen::Vector3d fraction(double(i) / cells.x(), double(j) / cells.y(),
                                       double(k) / cells.z());
        box.vertices.row(vertex(i, j, k)) = origin + fraction.cwiseProduct(size);
      }
    }
  }
  box.tets.resize(6 * cells.prod(), 4);
  int t = 0;
  std::array<int, 3> axes{0, 1, 2};
  for (int k = 0; k < cells.z(); ++k) {
    for (int j = 0; j < cells.y(); ++j) {
      for (int i = 0; i < cells.x(); ++i) {
        // One tet per axis order: walk from the cube's lowest corner to its highest one.
        std::sort(axes.begin(), axes.end());
        do {
          Eigen::Vector3i corner(i, j, k);
          Eigen::Vector4i tet;
          tet(0) = vertex(corner.x(), corner.y(), corner.z());
          for (int step = 0; step < 3; ++step) {
            corner(axes[step]) += 1;
            tet(step + 1) = vertex(corner.x(), corner.y(), corner.z());
          }
          Eigen::Matrix3d edges;
          for (int e = 0; e < 3; ++e) {
            edges.col(e) = (box.vertices.row(tet(e + 1)) - box.vertices.row(tet(0))).transpose();
          }
          if (edges.determinant() < 0.0) std::swap(tet(1), tet(2));
          box.tets.row(t++) = tet.transpose();
        } while (std::next_permutation(axes.begin(), axes.end()));
      }
    }
  }
  box.regions = Eigen::VectorXi::Zero(box.tets.rows());
  return box;
}

// The same mesh with every vertex moved by a smooth field of the given amplitude (a fraction
// of the cell size keeps every tet positive), so that no two tets are congruent.
inline mesh::TetMesh warped(mesh::TetMesh mesh, double amplitude) {
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
    const Eigen::Vector3d X = mesh.vertices.row(v).transpose();
    mesh.vertices.row(v) +=
        amplitude * Eigen::RowVector3d(std::sin(2.0 * X.y() + X.z()), std::sin(3.0 * X.z() + X.x()),
                                       std::sin(X.x() + 2.0 * X.y()));
  }
  return mesh;
}

// The vertices and tets of both meshes in one (b's indices shifted), regions kept.
inline mesh::TetMesh merged(const mesh::TetMesh& a, const mesh::TetMesh& b) {
  mesh::TetMesh both;
  both.vertices.resize(a.vertices.rows() + b.vertices.rows(), 3);
  both.vertices << a.vertices, b.vertices;
  both.tets.resize(a.tets.rows() + b.tets.rows(), 4);
  both.tets << a.tets, (b.tets.array() + static_cast<int>(a.vertices.rows())).matrix();
  both.regions.resize(a.tets.rows() + b.tets.rows());
  both.regions << a.regions, b.regions;
  return both;
}

// The centroid of tet t.
inline Eigen::Vector3d tet_centroid(const mesh::TetMesh& mesh, Eigen::Index t) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (int j = 0; j < 4; ++j) sum += mesh.vertices.row(mesh.tets(t, j)).transpose();
  return 0.25 * sum;
}

}  // namespace smfem::test
