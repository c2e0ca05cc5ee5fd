#include "smfem/tetrahedralize/tet_quality.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Geometry>

namespace smfem::tetrahedralize {
namespace {

constexpr double kDegreesPerRadian = 180.0 / 3.14159265358979323846;

// Corners of the edge (i, j) and of the two faces that meet there, as indices into the tet;
// the faces are named by their opposite corners k and l.
constexpr int kEdges[6][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2},
                              {1, 2, 0, 3}, {1, 3, 0, 2}, {2, 3, 0, 1}};

// Outward-facing area vectors of the faces opposite each corner (any consistent sign works
// for the angle formula below).
std::array<Eigen::Vector3d, 4> face_normals(const std::array<Eigen::Vector3d, 4>& p) {
  return {(p[2] - p[1]).cross(p[3] - p[1]), (p[3] - p[0]).cross(p[2] - p[0]),
          (p[1] - p[0]).cross(p[3] - p[0]), (p[2] - p[0]).cross(p[1] - p[0])};
}

}  // namespace

double signed_volume(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                     const Eigen::Vector3d& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

std::array<double, 6> dihedral_angles_deg(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                          const Eigen::Vector3d& c, const Eigen::Vector3d& d) {
  const std::array<Eigen::Vector3d, 4> p = {a, b, c, d};
  const auto n = face_normals(p);
  std::array<double, 6> angles{};
  for (int e = 0; e < 6; ++e) {
    const Eigen::Vector3d& nk = n[kEdges[e][2]];
    const Eigen::Vector3d& nl = n[kEdges[e][3]];
    // The interior angle between two faces is pi minus the angle of their outward normals.
    const double cosine = -nk.dot(nl);
    const double sine = nk.cross(nl).norm();
    angles[e] = std::atan2(sine, cosine) * kDegreesPerRadian;
  }
  return angles;
}

double min_dihedral_sine(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                         const Eigen::Vector3d& c, const Eigen::Vector3d& d) {
  const std::array<Eigen::Vector3d, 4> p = {a, b, c, d};
  const auto n = face_normals(p);
  // sin(theta_ij) = (3 V |e_ij|) / (2 A_k A_l), with |n| = 2 A and 6 V = |det|.
  const double six_volume = std::abs((b - a).dot((c - a).cross(d - a)));
  double smallest = std::numeric_limits<double>::infinity();
  for (const auto& e : kEdges) {
    const double edge = (p[e[1]] - p[e[0]]).norm();
    const double areas = n[e[2]].norm() * n[e[3]].norm();
    smallest = std::min(smallest, areas > 0.0 ? six_volume * edge / areas : 0.0);
  }
  return smallest;
}

TetQuality measure_quality(const mesh::TetMesh& mesh) {
  if (mesh.tets.rows() == 0) throw std::invalid_argument("measure_quality: the mesh has no tets");
  TetQuality q;
  q.min_dihedral_deg = 180.0;
  q.max_dihedral_deg = 0.0;
  q.min_volume = std::numeric_limits<double>::infinity();
  q.max_volume = -std::numeric_limits<double>::infinity();
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    const auto corner = [&](int k) -> Eigen::Vector3d {
      return mesh.vertices.row(mesh.tets(t, k)).transpose();
    };
    const Eigen::Vector3d a = corner(0), b = corner(1), c = corner(2), d = corner(3);
    const double volume = signed_volume(a, b, c, d);
    q.min_volume = std::min(q.min_volume, volume);
    q.max_volume = std::max(q.max_volume, volume);
    q.total_volume += volume;
    for (double angle : dihedral_angles_deg(a, b, c, d)) {
      q.min_dihedral_deg = std::min(q.min_dihedral_deg, angle);
      q.max_dihedral_deg = std::max(q.max_dihedral_deg, angle);
    }
  }
  return q;
}

}  // namespace smfem::tetrahedralize
