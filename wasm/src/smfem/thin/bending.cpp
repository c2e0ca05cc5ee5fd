#include "smfem/thin/bending.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include <Eigen/Geometry>
#include <Eigen/LU>

namespace smfem::thin {
namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

Eigen::SparseMatrix<double> from_triplets(int rows, int cols, const Triplets& entries) {
  Eigen::SparseMatrix<double> matrix(rows, cols);
  matrix.setFromTriplets(entries.begin(), entries.end());
  matrix.makeCompressed();
  return matrix;
}

}  // namespace

Eigen::SparseMatrix<double> shell_bending(const Positions& X, const Triangles& triangles,
                                          double stiffness, double poisson, int node_count) {
  const auto n = static_cast<int>(X.rows());
  const auto T = static_cast<int>(triangles.rows());
  // Coordinates in the rest plane.
  const Eigen::Vector3d normal = (X.row(triangles(0, 1)) - X.row(triangles(0, 0)))
                                     .cross(X.row(triangles(0, 2)) - X.row(triangles(0, 0)))
                                     .normalized()
                                     .transpose();
  Eigen::Matrix<double, 2, 3> frame;
  frame.row(0) = normal.unitOrthogonal().transpose();
  frame.row(1) = normal.cross(normal.unitOrthogonal()).transpose();
  const auto plane = [&](int v) -> Eigen::Vector2d { return frame * X.row(v).transpose(); };

  // Each edge's triangles, and each triangle's area.
  std::map<std::pair<int, int>, std::vector<int>> edge_triangles;
  std::vector<double> area(static_cast<std::size_t>(T));
  for (int t = 0; t < T; ++t) {
    const Eigen::Vector2d e1 = plane(triangles(t, 1)) - plane(triangles(t, 0));
    const Eigen::Vector2d e2 = plane(triangles(t, 2)) - plane(triangles(t, 0));
    area[static_cast<std::size_t>(t)] = 0.5 * std::abs(e1.x() * e2.y() - e1.y() * e2.x());
    for (int k = 0; k < 3; ++k) {
      const int i = triangles(t, k), j = triangles(t, (k + 1) % 3);
      edge_triangles[{std::min(i, j), std::max(i, j)}].push_back(t);
    }
  }
  // Each vertex's triangles, for a boundary triangle's patch.
  std::vector<std::vector<int>> vertex_triangles(static_cast<std::size_t>(n));
  for (int t = 0; t < T; ++t) {
    for (int k = 0; k < 3; ++k)
      vertex_triangles[static_cast<std::size_t>(triangles(t, k))].push_back(t);
  }

  // H_t: the Hessian of the quadratic through the patch's six vertices, rows 3 t + 0, 1, 2:
  // H_xx, H_yy, H_xy (plane coordinates) as combinations of the vertices' values.
  Triplets hessian, weights;
  for (int t = 0; t < T; ++t) {
    const Eigen::Vector2d centre =
        (plane(triangles(t, 0)) + plane(triangles(t, 1)) + plane(triangles(t, 2))) / 3.0;
    const double scale = std::sqrt(area[static_cast<std::size_t>(t)]);  // for conditioning
    const auto row = [&](int v) {
      const Eigen::Vector2d p = (plane(v) - centre) / scale;
      return Eigen::Matrix<double, 1, 6>(1.0, p.x(), p.y(), p.x() * p.x(), p.x() * p.y(),
                                         p.y() * p.y());
    };
    // The corners, then across each edge the other triangle's third vertex; where an edge is on
    // the boundary, the nearest vertices of the corners' triangles that keep the points off a
    // common conic (the fit is then exact for quadratics there too).
    std::vector<int> patch = {triangles(t, 0), triangles(t, 1), triangles(t, 2)};
    for (int k = 0; k < 3; ++k) {
      const int i = triangles(t, k), j = triangles(t, (k + 1) % 3);
      for (const int u : edge_triangles.at({std::min(i, j), std::max(i, j)})) {
        for (int c = 0; c < 3 && u != t; ++c) {
          if (triangles(u, c) != i && triangles(u, c) != j) patch.push_back(triangles(u, c));
        }
      }
    }
    if (patch.size() < 6) {
      std::vector<std::pair<double, int>> candidates;
      for (int k = 0; k < 3; ++k) {
        for (const int u : vertex_triangles[static_cast<std::size_t>(triangles(t, k))]) {
          for (int c = 0; c < 3; ++c) {
            const int v = triangles(u, c);
            if (std::find(patch.begin(), patch.end(), v) != patch.end()) continue;
            candidates.emplace_back((plane(v) - centre).squaredNorm(), v);
          }
        }
      }
      std::sort(candidates.begin(), candidates.end());
      for (const auto& [distance, v] : candidates) {
        if (patch.size() == 6) break;
        if (std::find(patch.begin(), patch.end(), v) != patch.end()) continue;
        Eigen::Matrix<double, Eigen::Dynamic, 6> rows(static_cast<Eigen::Index>(patch.size()) + 1,
                                                      6);
        for (std::size_t k = 0; k < patch.size(); ++k)
          rows.row(static_cast<Eigen::Index>(k)) = row(patch[k]);
        rows.bottomRows(1) = row(v);
        Eigen::FullPivLU<Eigen::Matrix<double, Eigen::Dynamic, 6>> rank(rows);
        rank.setThreshold(1e-8);
        if (rank.rank() == rows.rows()) patch.push_back(v);
      }
    }
    if (patch.size() < 6) continue;  // a mesh too small to fit a quadratic: no bending here
    Eigen::Matrix<double, 6, 6> V;
    for (int k = 0; k < 6; ++k) V.row(k) = row(patch[static_cast<std::size_t>(k)]);
    const Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(V);
    if (!lu.isInvertible()) continue;  // six vertices on a conic: no bending here
    const Eigen::Matrix<double, 6, 6> coefficients = lu.inverse();
    const double s2 = scale * scale;
    for (int k = 0; k < 6; ++k) {
      const int v = patch[static_cast<std::size_t>(k)];
      hessian.emplace_back(3 * t, v, 2.0 * coefficients(3, k) / s2);
      hessian.emplace_back(3 * t + 1, v, 2.0 * coefficients(5, k) / s2);
      hessian.emplace_back(3 * t + 2, v, coefficients(4, k) / s2);
    }
    const double weight = stiffness * area[static_cast<std::size_t>(t)];
    weights.emplace_back(3 * t, 3 * t, weight);
    weights.emplace_back(3 * t + 1, 3 * t + 1, weight);
    weights.emplace_back(3 * t, 3 * t + 1, weight * poisson);
    weights.emplace_back(3 * t + 1, 3 * t, weight * poisson);
    weights.emplace_back(3 * t + 2, 3 * t + 2, weight * 2.0 * (1.0 - poisson));
  }
  const Eigen::SparseMatrix<double> H = from_triplets(3 * T, n, hessian);
  Eigen::SparseMatrix<double> B = H.transpose() * from_triplets(3 * T, 3 * T, weights) * H;
  B.conservativeResize(node_count, node_count);
  B.makeCompressed();
  return B;
}

full::HingeSet shell_hinges(const Positions& X, const Triangles& triangles, double stiffness,
                            int node_count) {
  // Each edge (lower id first): its triangles' third corners and areas.
  struct Sides {
    std::vector<int> corners;
    double area = 0.0;
  };
  std::map<std::pair<int, int>, Sides> edges;
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    const Eigen::Vector3d x0 = X.row(triangles(t, 0)).transpose();
    const double area = 0.5 * (X.row(triangles(t, 1)).transpose() - x0)
                                  .cross(X.row(triangles(t, 2)).transpose() - x0)
                                  .norm();
    for (int k = 0; k < 3; ++k) {
      const int v = triangles(t, k), w = triangles(t, (k + 1) % 3);
      Sides& sides = edges[{std::min(v, w), std::max(v, w)}];
      sides.corners.push_back(triangles(t, (k + 2) % 3));
      sides.area += area;
    }
  }
  full::HingeSet set;
  set.rest = Positions::Zero(node_count, 3);
  set.rest.topRows(X.rows()) = X;
  for (const auto& [edge, sides] : edges) {
    if (sides.corners.size() != 2) continue;
    full::Hinge hinge;
    hinge.nodes = {edge.first, edge.second, sides.corners[0], sides.corners[1]};
    const auto at = [&](std::size_t j) { return Eigen::Vector3d(X.row(hinge.nodes[j])); };
    hinge.rest_angle = full::dihedral_angle(at(0), at(1), at(2), at(3));
    hinge.stiffness = 0.5 * stiffness * (at(1) - at(0)).squaredNorm() / sides.area;
    set.hinges.push_back(hinge);
  }
  return set;
}

Eigen::SparseMatrix<double> rod_bending(const Positions& X, double stiffness, int node_count) {
  Triplets entries;
  for (Eigen::Index v = 1; v + 1 < X.rows(); ++v) {
    const double before = (X.row(v) - X.row(v - 1)).norm();
    const double after = (X.row(v + 1) - X.row(v)).norm();
    const double sum = before + after;
    const std::array<double, 3> k = {2.0 / (before * sum), -2.0 / (before * after),
                                     2.0 / (after * sum)};
    const double weight = stiffness * 0.5 * sum;
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        entries.emplace_back(
            static_cast<int>(v - 1 + a), static_cast<int>(v - 1 + b),
            weight * k[static_cast<std::size_t>(a)] * k[static_cast<std::size_t>(b)]);
      }
    }
  }
  return from_triplets(node_count, node_count, entries);
}

Eigen::SparseMatrix<double> rod_joint_bending(const full::ElementModel& rods, int vertex_count,
                                              double bending_stiffness, double twisting_stiffness) {
  if (!(twisting_stiffness >= 0.0 && twisting_stiffness <= 2.0 * bending_stiffness)) {
    throw std::invalid_argument(
        "a rod's twisting stiffness must lie in [0, 2 EI] (the joints' energy is then positive "
        "semi-definite)");
  }
  const auto S = static_cast<std::size_t>(rods.element_count());
  std::vector<std::vector<int>> joints(static_cast<std::size_t>(vertex_count));
  for (std::size_t s = 0; s < S; ++s) {
    for (int end = 0; end < 2; ++end) {
      joints[static_cast<std::size_t>(rods.elements(static_cast<Eigen::Index>(s), end))].push_back(
          static_cast<int>(s));
    }
  }
  const std::array<double, 3> axis_weights = {bending_stiffness - 0.5 * twisting_stiffness,
                                              0.5 * twisting_stiffness, 0.5 * twisting_stiffness};
  Triplets entries;
  for (const std::vector<int>& joint : joints) {
    if (joint.size() < 2) continue;
    const auto k = static_cast<Eigen::Index>(joint.size());
    // The joint's nodes: each segment's four, in order (a vertex of two segments appears twice;
    // the triplets sum).
    std::vector<int> nodes;
    double mean_length = 0.0;
    for (const int s : joint) {
      for (int j = 0; j < 4; ++j) nodes.push_back(rods.elements(s, j));
      mean_length += 1.0 / rods.shape_gradients[static_cast<std::size_t>(s)].row(1).norm();
    }
    mean_length /= static_cast<double>(k);
    Eigen::MatrixXd local = Eigen::MatrixXd::Zero(4 * k, 4 * k);
    for (Eigen::Index s = 0; s < k; ++s) {
      const fem::TetCorners& G = rods.shape_gradients[static_cast<std::size_t>(joint[s])];
      const std::array<Eigen::Vector3d, 3> axes = {G.row(1).transpose().normalized(),
                                                   G.row(2).transpose(), G.row(3).transpose()};
      for (std::size_t c = 0; c < 3; ++c) {
        // (F_s - F_v) c over the joint's nodes: F_e c = sum_j u_j (G_e(j, :) . c).
        Eigen::VectorXd g(4 * k);
        for (Eigen::Index e = 0; e < k; ++e) {
          const fem::TetCorners& Ge = rods.shape_gradients[static_cast<std::size_t>(joint[e])];
          g.segment<4>(4 * e) = -(Ge * axes[c]) / static_cast<double>(k);
        }
        g.segment<4>(4 * s) += G * axes[c];
        local.noalias() += (2.0 * axis_weights[c] / mean_length) * g * g.transpose();
      }
    }
    for (Eigen::Index a = 0; a < 4 * k; ++a) {
      for (Eigen::Index b = 0; b < 4 * k; ++b) {
        entries.emplace_back(nodes[static_cast<std::size_t>(a)], nodes[static_cast<std::size_t>(b)],
                             local(a, b));
      }
    }
  }
  return from_triplets(rods.node_count, rods.node_count, entries);
}

}  // namespace smfem::thin
