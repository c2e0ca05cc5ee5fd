#pragma once
// The boxes contact's broad phase and its distance bounds work with (contact_potential.hpp).
#include <Eigen/Geometry>

namespace smfem::contact {

// The box of the segment from a to b, grown by margin on every side.
inline Eigen::AlignedBox3d grown_box(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                     double margin) {
  Eigen::AlignedBox3d box(a.cwiseMin(b), a.cwiseMax(b));
  box.min().array() -= margin;
  box.max().array() += margin;
  return box;
}

// The distance from x to the box (0 inside it).
inline double box_distance(const Eigen::AlignedBox3d& box, const Eigen::Vector3d& x) {
  return (x - x.cwiseMax(box.min()).cwiseMin(box.max())).norm();
}

}  // namespace smfem::contact
