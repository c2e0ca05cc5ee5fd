#pragma once
// Small closed triangle surfaces for tests: a cube and an icosphere, outward and
// counter-clockwise seen from outside.
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::test {

// The cube [-h, h]^3, two triangles per face.
inline mesh::SurfaceMesh cube_surface(double h = 1.0) {
  mesh::SurfaceMesh s;
  s.vertices.resize(8, 3);
  for (int i = 0; i < 8; ++i) {
    s.vertices.row(i) << (i & 1 ? h : -h), (i & 2 ? h : -h), (i & 4 ? h : -h);
  }
  // Quads as corner indices, counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  s.triangles.resize(12, 3);
  for (int f = 0; f < 6; ++f) {
    s.triangles.row(2 * f) << quads[f][0], quads[f][1], quads[f][2];
    s.triangles.row(2 * f + 1) << quads[f][0], quads[f][2], quads[f][3];
  }
  s.regions = Eigen::VectorXi::Zero(12);
  return s;
}

// An icosahedron subdivided `levels` times and projected onto the sphere of `radius`.
inline mesh::SurfaceMesh icosphere(double radius, int levels) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Eigen::Vector3d> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                                    {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                                    {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (auto& p : v) p.normalize();
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<int, int>, int> middles;
    auto middle = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = middles.find(key);
      if (it != middles.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return middles[key] = static_cast<int>(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> finer;
    for (const auto& [a, b, c] : f) {
      const int ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
      finer.push_back({a, ab, ca});
      finer.push_back({b, bc, ab});
      finer.push_back({c, ca, bc});
      finer.push_back({ab, bc, ca});
    }
    f = std::move(finer);
  }
  mesh::SurfaceMesh s;
  s.vertices.resize(static_cast<Eigen::Index>(v.size()), 3);
  for (std::size_t i = 0; i < v.size(); ++i) {
    s.vertices.row(static_cast<Eigen::Index>(i)) = radius * v[i].transpose();
  }
  s.triangles.resize(static_cast<Eigen::Index>(f.size()), 3);
  for (std::size_t i = 0; i < f.size(); ++i) {
    auto [a, b, c] = f[i];
    // Outward: the normal points away from the centre.
    if ((v[b] - v[a]).cross(v[c] - v[a]).dot(v[a]) < 0) std::swap(b, c);
    s.triangles.row(static_cast<Eigen::Index>(i)) << a, b, c;
  }
  s.regions = Eigen::VectorXi::Zero(s.triangles.rows());
  return s;
}

// The same surface without triangle `dropped`.
inline mesh::SurfaceMesh without_triangle(const mesh::SurfaceMesh& s, int dropped) {
  mesh::SurfaceMesh out = s;
  out.triangles.resize(s.triangles.rows() - 1, 3);
  for (Eigen::Index i = 0, j = 0; i < s.triangles.rows(); ++i) {
    if (i != dropped) out.triangles.row(j++) = s.triangles.row(i);
  }
  out.regions = Eigen::VectorXi::Zero(out.triangles.rows());
  return out;
}

// The same surface with every triangle's winding reversed (facing inward).
inline mesh::SurfaceMesh reversed(const mesh::SurfaceMesh& s) {
  mesh::SurfaceMesh out = s;
  out.triangles.col(1).swap(out.triangles.col(2));
  return out;
}

}  // namespace smfem::test
