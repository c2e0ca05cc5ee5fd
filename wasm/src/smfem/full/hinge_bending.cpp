#include "smfem/full/hinge_bending.hpp"

#include <cmath>
#include <utility>

#include <Eigen/Geometry>

namespace smfem::full {
namespace {

constexpr double kPi = 3.14159265358979323846;

// x in (-pi, pi]: an angle's difference taken the short way round.
double wrapped(double x) {
  if (x > kPi) return x - 2.0 * kPi;
  if (x <= -kPi) return x + 2.0 * kPi;
  return x;
}

}  // namespace

double dihedral_angle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                      const Eigen::Vector3d& d) {
  const Eigen::Vector3d e = b - a;
  const Eigen::Vector3d n1 = e.cross(c - a);
  const Eigen::Vector3d n2 = (d - a).cross(e);
  return std::atan2(e.normalized().dot(n1.cross(n2)), n1.dot(n2));
}

HingeVector dihedral_angle_gradient(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                    const Eigen::Vector3d& c, const Eigen::Vector3d& d) {
  const Eigen::Vector3d e = b - a;
  const double length2 = e.squaredNorm();
  const double length = std::sqrt(length2);
  const Eigen::Vector3d n1 = e.cross(c - a);
  const Eigen::Vector3d n2 = (d - a).cross(e);
  // A third corner moved along its triangle's normal turns that triangle about the edge by the
  // distance over its height |n| / |e|; the edge's ends share that turn by where the third corner
  // projects onto the edge (the four add to zero: translation leaves theta alone).
  const Eigen::Vector3d dc = -length / n1.squaredNorm() * n1;
  const Eigen::Vector3d dd = -length / n2.squaredNorm() * n2;
  const double c_along = (c - a).dot(e) / length2;
  const double d_along = (d - a).dot(e) / length2;
  HingeVector g;
  g.segment<3>(0) = (c_along - 1.0) * dc + (d_along - 1.0) * dd;
  g.segment<3>(3) = -c_along * dc - d_along * dd;
  g.segment<3>(6) = dc;
  g.segment<3>(9) = dd;
  return g;
}

HingeBending::HingeBending(HingeSet set)
    : set_(std::move(set)), factors_(set_.hinges.size(), HingeVector::Zero()) {}

double HingeBending::excess(const Hinge& hinge, const sim::ReducedMatrix& U,
                            std::array<Eigen::Vector3d, 4>& x) const {
  for (int j = 0; j < 4; ++j) {
    const int node = hinge.nodes[static_cast<std::size_t>(j)];
    x[static_cast<std::size_t>(j)] = (set_.rest.row(node) + U.row(node)).transpose();
  }
  return wrapped(dihedral_angle(x[0], x[1], x[2], x[3]) - hinge.rest_angle);
}

double HingeBending::energy(const sim::ReducedMatrix& U) const {
  double total = 0.0;
  std::array<Eigen::Vector3d, 4> x;
  for (const Hinge& hinge : set_.hinges) {
    const double turn = excess(hinge, U, x);
    total += hinge.stiffness * turn * turn;
  }
  return total;
}

void HingeBending::add_gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) {
  std::array<Eigen::Vector3d, 4> x;
  for (std::size_t h = 0; h < set_.hinges.size(); ++h) {
    const Hinge& hinge = set_.hinges[h];
    const double turn = excess(hinge, U, x);
    const HingeVector g = dihedral_angle_gradient(x[0], x[1], x[2], x[3]);
    for (int j = 0; j < 4; ++j) {
      out.row(hinge.nodes[static_cast<std::size_t>(j)]) +=
          (2.0 * hinge.stiffness * turn) * g.segment<3>(3 * j).transpose();
    }
    factors_[h] = std::sqrt(2.0 * hinge.stiffness) * g;
  }
}

double HingeBending::curvature(const sim::ReducedMatrix& dU) const {
  double total = 0.0;
  for (std::size_t h = 0; h < set_.hinges.size(); ++h) {
    double along = 0.0;
    for (int j = 0; j < 4; ++j) {
      along += factors_[h].segment<3>(3 * j).dot(
          dU.row(set_.hinges[h].nodes[static_cast<std::size_t>(j)]).transpose());
    }
    total += along * along;
  }
  return total;
}

}  // namespace smfem::full
