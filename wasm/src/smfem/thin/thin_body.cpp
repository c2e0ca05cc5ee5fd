#include "smfem/thin/thin_body.hpp"

#include <algorithm>
#include <cmath>

namespace smfem::thin {

sim::SolverSettings thin_body_defaults() {
  sim::SolverSettings settings;
  settings.mixed_variant = sim::MixedVariant::projected;
  return settings;
}

double max_edge_strain(const ThinBody& body, const sim::ReducedMatrix& U) {
  double largest = 0.0;
  for (Eigen::Index e = 0; e < body.edges.rows(); ++e) {
    const int a = body.edges(e, 0), b = body.edges(e, 1);
    const Eigen::RowVector3d rest = body.rest.row(b) - body.rest.row(a);
    const Eigen::RowVector3d now = rest + U.row(b) - U.row(a);
    largest = std::max(largest, std::abs(now.norm() / rest.norm() - 1.0));
  }
  return largest;
}

}  // namespace smfem::thin
