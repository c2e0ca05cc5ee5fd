#pragma once
// The checks shells and rods share (shell.cpp, rod.cpp): each throws std::invalid_argument
// naming what is wrong.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/thin/bending.hpp"

namespace smfem::thin::detail {

// Young's modulus and Poisson's ratio within the stepper's ranges (sim/solver_limits.json), refused
// outside them: the stepper would clamp each element's membrane (with a warning per element) but
// not the bending, which is made here from the value given, so a recipe's 1e300 Pa cloth froze.
inline void require_material(double youngs, double poisson, double density) {
  if (const std::string problem =
          sim::outside_limits(youngs, sim::kMinYoungs, sim::kMaxYoungs, "Pa");
      !problem.empty()) {
    throw std::invalid_argument("youngs " + problem);
  }
  if (const std::string problem = sim::outside_limits(poisson, sim::kMinPoisson, sim::kMaxPoisson);
      !problem.empty()) {
    throw std::invalid_argument("poisson " + problem);
  }
  if (!(std::isfinite(density) && density > 0.0)) {
    throw std::invalid_argument("density must be a positive number of kg/m^3, not " +
                                std::to_string(density));
  }
}

inline void require_positive_size(double value, const char* what) {
  if (!(std::isfinite(value) && value > 0.0)) {
    throw std::invalid_argument(std::string(what) + " must be a positive number of m, not " +
                                std::to_string(value));
  }
}

inline void require_pins(const std::vector<int>& pinned, int vertex_count) {
  for (const int v : pinned) {
    if (v < 0 || v >= vertex_count) {
      throw std::invalid_argument("pin " + std::to_string(v) + " is not a vertex (the body has " +
                                  std::to_string(vertex_count) + ")");
    }
  }
}

// Finite and within a scene file's coordinates (multibody/scene_file.hpp): a 1e30 m rope or a grid
// centred at 1e30 m is refused, not stepped.
inline void require_positions(const Positions& X) {
  if (!X.allFinite()) throw std::invalid_argument("vertex positions must be finite");
  if (X.size() > 0 && !(X.cwiseAbs().maxCoeff() <= contact::kMaxCoordinate)) {
    throw std::invalid_argument("a vertex has a coordinate beyond +-" +
                                std::to_string(int(contact::kMaxCoordinate)) +
                                " m (from its size, length, center, start, scale or points)");
  }
}

// The rest positions' largest distance from the plane (a shell) or line (a rod) through `origin`
// along the unit `normals` (one row each: one for a plane, two for a line), over their extent.
inline double relative_offset(const Positions& X, const Eigen::RowVector3d& origin,
                              const Eigen::Matrix<double, Eigen::Dynamic, 3>& normals) {
  const double extent = (X.colwise().maxCoeff() - X.colwise().minCoeff()).norm();
  double largest = 0.0;
  for (Eigen::Index v = 0; v < X.rows(); ++v) {
    largest = std::max(largest, (normals * (X.row(v) - origin).transpose()).cwiseAbs().maxCoeff());
  }
  return largest / extent;
}

// Rest shapes within this relative offset count as flat (straight).
inline constexpr double kFlatTolerance = 1e-9;

}  // namespace smfem::thin::detail
