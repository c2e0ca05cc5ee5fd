#include "smfem/local/local_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>

#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/friction.hpp"
#include "smfem/sim/kernels/detail/gemm_tile.hpp"
#include "smfem/sim/kernels/detail/reduced_dot.hpp"

namespace smfem::local {

namespace {
using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

LocalContact::LocalContact(contact::ContactPotential& body, const contact::ContactSurface& surface,
                           std::vector<int> sample_vertex)
    : body_(body), surface_(surface), sample_vertex_(std::move(sample_vertex)) {
  if (static_cast<Eigen::Index>(sample_vertex_.size()) != surface.samples.size() ||
      body.surface().samples.size() != surface.samples.size() || body.offsets().size() != 1) {
    throw std::invalid_argument("local contact: " + std::to_string(sample_vertex_.size()) +
                                " mesh vertices for " + std::to_string(surface.samples.size()) +
                                " samples of a body's own contact surface");
  }
  dented_of_sample_.assign(sample_vertex_.size(), -1);
}

LocalContact::~LocalContact() { body_.set_excluded_samples({}); }

std::size_t LocalContact::obstacle_count() const {
  return body_.obstacles() != nullptr ? body_.obstacles()->size() : 0;
}

void LocalContact::set_patches(const PatchSet& patches) {
  patches_ = &patches;
  dented_.clear();
  dented_of_sample_.assign(sample_vertex_.size(), -1);
  std::vector<char> excluded(sample_vertex_.size(), 0);
  const int m = patches.global_rows() / 4;
  for (std::size_t k = 0; k < sample_vertex_.size(); ++k) {
    Dented s;
    for (int p = 0; p < patches.patch_count(); ++p) {
      const Eigen::Matrix3d field = field_at_vertex(patches.patch(p), sample_vertex_[k]);
      if (field.isZero(0.0)) continue;
      s.patches.push_back(p);
      s.fields.push_back(field);
    }
    if (s.patches.empty()) continue;
    const int v = surface_.samples(static_cast<Eigen::Index>(k));
    s.rest = surface_.positions.row(v).transpose() + body_.offsets().front();
    s.basis.resize(4 * m);
    contact::surface_basis_row(surface_, v, 0, m, s.basis.data());
    s.area = surface_.areas(static_cast<Eigen::Index>(k));
    s.turned = s.fields;
    dented_of_sample_[k] = static_cast<int>(dented_.size());
    excluded[k] = 1;
    dented_.push_back(std::move(s));
  }
  body_.set_excluded_samples(dented_.empty() ? std::vector<char>{} : std::move(excluded));
  candidates_.clear();
  terms_.clear();
  friction_.clear();
  friction_terms_.clear();
  turn_fields();
}

void LocalContact::turn_fields() {
  for (Dented& s : dented_) {
    for (std::size_t i = 0; i < s.patches.size(); ++i) {
      s.turned[i] = patches_->rotation(s.patches[i]) * s.fields[i];
    }
  }
}

void LocalContact::begin_step(const sim::ReducedMatrix& U_n) {
  turn_fields();
  body_.begin_step(global(U_n, global_));
  friction_.clear();
  for (std::size_t i = 0; i < dented_.size(); ++i) {
    const Eigen::Vector3d x = position(dented_[i], U_n);
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      const double mu = body_.obstacle_friction(o);
      const contact::ObstacleDistance d = contact::obstacle_distance(obstacle(o), x);
      if (mu <= 0.0 || !(d.distance < dhat())) continue;
      // Sliding along a moving obstacle is measured against the obstacle (as the body's pairs).
      const Eigen::Vector3d reference = x + obstacle(o).offset - obstacle(o).start_offset;
      const double normal_force =
          stiffness() * dented_[i].area * std::abs(contact::barrier_derivative(d.distance, dhat()));
      friction_.push_back({i, reference, contact::tangent_basis(d.direction), mu * normal_force});
    }
  }
}

double LocalContact::friction_energy(const sim::ReducedMatrix& U) {
  return body_.friction_energy(global(U, global_)) + dented_friction_energy(U);
}

double LocalContact::dented_friction_energy(const sim::ReducedMatrix& U) const {
  double total = 0.0;
  for (const FrictionPair& f : friction_) {
    const Eigen::Vector2d slip =
        f.tangent.transpose() * (position(dented_[f.dented], U) - f.reference);
    total += f.weight * contact::friction_f0(slip.norm(), slip_width());
  }
  return total;
}

const sim::ReducedMatrix& LocalContact::global(const sim::ReducedMatrix& U,
                                               sim::ReducedMatrix& out) const {
  out = U.topRows(patches_->global_rows());
  return out;
}

void LocalContact::dented_positions(const sim::ReducedMatrix& U,
                                    contact::SurfacePositions& positions) const {
  for (std::size_t k = 0; k < dented_of_sample_.size(); ++k) {
    const int dented = dented_of_sample_[k];
    if (dented < 0) continue;
    positions.row(surface_.samples(static_cast<Eigen::Index>(k))) =
        position(dented_[static_cast<std::size_t>(dented)], U).transpose();
  }
}

Eigen::Vector3d LocalContact::position(const Dented& s, const sim::ReducedMatrix& U) const {
  return s.rest + motion(s, U);
}

Eigen::Vector3d LocalContact::motion(const Dented& s, const sim::ReducedMatrix& dU) const {
  const int n = patches_->global_rows();
  Eigen::Vector3d x = sim::detail::reduced_dot(s.basis.data(), dU, 0, n);
  for (std::size_t i = 0; i < s.patches.size(); ++i) {
    x += s.turned[i] * dU.row(n + s.patches[i]).transpose();
  }
  return x;
}

template <class At>
double LocalContact::dented_energy(const std::vector<Pair>& pairs, At&& at) const {
  double total = 0.0;
  for (const Pair& pair : pairs) {
    const Dented& s = dented_[pair.dented];
    const double d = contact::obstacle_distance(obstacle(pair.obstacle), at(pair.dented)).distance;
    total += stiffness() * s.area * contact::barrier(d, dhat());
  }
  return total;
}

double LocalContact::max_step(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) {
  double alpha = body_.max_step(global(U, global_), global(dU, global_step_));
  candidates_.clear();
  start_.resize(dented_.size());
  step_.resize(dented_.size());
  const double keep = body_.parameters().keep;
  for (std::size_t i = 0; i < dented_.size(); ++i) {
    start_[i] = position(dented_[i], U);
    step_[i] = motion(dented_[i], dU);
    const double reach = step_[i].norm() + dhat();
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      if (!(contact::obstacle_distance(obstacle(o), start_[i]).distance < reach)) continue;
      candidates_.push_back({i, o});
      alpha = std::min(
          alpha, contact::obstacle_time_of_impact(obstacle(o), start_[i], step_[i], keep, dhat()));
    }
  }
  return alpha;
}

double LocalContact::largest_approach() const {
  double largest = body_.largest_approach();
  for (const Pair& pair : candidates_) {
    const Eigen::Vector3d& x0 = start_[pair.dented];
    const Eigen::Vector3d n = contact::obstacle_distance(obstacle(pair.obstacle), x0).direction;
    largest = std::max(largest, -n.dot(step_[pair.dented]));
  }
  return largest;
}

double LocalContact::energy_along(double alpha, const sim::ReducedMatrix& U_trial) {
  return body_.energy_along(alpha, global(U_trial, global_)) +
         dented_energy(
             candidates_,
             [&](std::size_t i) { return Eigen::Vector3d(start_[i] + alpha * step_[i]); }) +
         dented_friction_energy(U_trial);
}

double LocalContact::energy(const sim::ReducedMatrix& U) {
  return body_.energy(global(U, global_)) +
         dented_energy(candidates_, [&](std::size_t i) { return position(dented_[i], U); }) +
         dented_friction_energy(U);
}

void LocalContact::linearize(const sim::ReducedMatrix& U, sim::ReducedMatrix& gradient) {
  const int n = patches_->global_rows();
  body_.linearize(global(U, global_), body_gradient_);
  gradient.setZero(U.rows(), 3);
  gradient.topRows(n) = body_gradient_;
  terms_.clear();
  candidates_.clear();
  start_.resize(dented_.size());
  step_.assign(dented_.size(), Eigen::Vector3d::Zero());
  for (std::size_t i = 0; i < dented_.size(); ++i) {
    const Dented& s = dented_[i];
    start_[i] = position(s, U);
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      const contact::ObstacleDistance d = contact::obstacle_distance(obstacle(o), start_[i]);
      if (!(d.distance < dhat())) continue;
      candidates_.push_back({i, o});  // energy() reads them
      const double scale = stiffness() * s.area;
      const Eigen::Vector3d force =
          scale * contact::barrier_derivative(d.distance, dhat()) * d.direction;
      gradient.topRows(n).noalias() += s.basis * force.transpose();
      for (std::size_t j = 0; j < s.patches.size(); ++j) {
        gradient.row(n + s.patches[j]) += (s.turned[j].transpose() * force).transpose();
      }
      terms_.push_back(
          {i, scale * contact::barrier_second_derivative(d.distance, dhat()), d.direction});
    }
  }
  friction_terms_.clear();
  for (const FrictionPair& f : friction_) {
    const Dented& s = dented_[f.dented];
    const Eigen::Vector2d slip = f.tangent.transpose() * (position(s, U) - f.reference);
    const Eigen::Vector3d force =
        f.weight * f.tangent * contact::friction_gradient(slip, slip_width());
    gradient.topRows(n).noalias() += s.basis * force.transpose();
    for (std::size_t j = 0; j < s.patches.size(); ++j) {
      gradient.row(n + s.patches[j]) += (s.turned[j].transpose() * force).transpose();
    }
    // The majorizer, not the exact Hessian: a scripted obstacle that moves along the surface
    // starts the step sliding, and a dented sample has little else to resist its slip (its
    // patches' mass and stiffness are local). With the exact Hessian the first Newton step
    // overshot the static zone ten thousand times over and the line search cut the whole step
    // to 1e-4 of itself, so the obstacle pressed on at 2 iterations (friction.hpp).
    friction_terms_.push_back(
        {f.dented, f.weight * f.tangent * contact::friction_majorizer(slip, slip_width()) *
                       f.tangent.transpose()});
  }
}

double LocalContact::curvature(const sim::ReducedMatrix& dU) const {
  double total = body_.curvature(dU.topRows(patches_->global_rows()));
  for (const Term& term : terms_) {
    const double along = term.direction.dot(motion(dented_[term.dented], dU));
    total += term.curvature * along * along;
  }
  for (const FrictionTerm& term : friction_terms_) {
    const Eigen::Vector3d dx = motion(dented_[term.dented], dU);
    total += dx.dot(term.hessian * dx);
  }
  return total;
}

void LocalContact::jacobian_along(const Dented& s, const Eigen::Vector3d& direction, int n,
                                  Eigen::VectorXd& j) const {
  j.setZero();
  for (int d = 0; d < 3; ++d) j.segment(d * n, n) = direction(d) * s.basis;
  for (std::size_t k = 0; k < s.patches.size(); ++k) {
    j.segment<3>(3 * n + 3 * s.patches[k]) += s.turned[k].transpose() * direction;
  }
}

void LocalContact::add_to_lower(Eigen::MatrixXd& matrix) const {
  const int n = patches_->global_rows();
  // Each term is a rank-one update c j j^T: the scaled jacobians, the rows of G, make one Gram
  // product G^T G, computed in the SIMD tiles of the stiffness assembly (Eigen's rankUpdate, one
  // blocked product, has no wasm vectors: 9 % of the resting bunny's steps in wasm with 18
  // patches; one rank-one update at a time streamed the whole matrix per term).
  int count = static_cast<int>(terms_.size());
  std::vector<Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>> friction_eigen;
  friction_eigen.reserve(friction_terms_.size());
  // Friction's 3 x 3 curvature in x_s, by its eigenvectors: rank two (none along the normal).
  for (const FrictionTerm& term : friction_terms_) {
    friction_eigen.emplace_back(term.hessian);
    count += static_cast<int>((friction_eigen.back().eigenvalues().array() > 0.0).count());
  }
  if (count == 0) return;
  const auto size = static_cast<int>(matrix.rows());
  const int rows = sim::detail::tile_padded_rows(size);
  const int cols = sim::detail::tile_padded_cols<double>(size);
  RowMajorMatrix G = RowMajorMatrix::Zero(count, std::max(rows, cols));
  jacobian_.resize(size);
  int row = 0;
  for (const Term& term : terms_) {
    jacobian_along(dented_[term.dented], term.direction, n, jacobian_);
    G.row(row++).head(size) = std::sqrt(term.curvature) * jacobian_.transpose();
  }
  for (std::size_t f = 0; f < friction_terms_.size(); ++f) {
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>& eigen = friction_eigen[f];
    for (int k = 0; k < 3; ++k) {
      if (!(eigen.eigenvalues()(k) > 0.0)) continue;
      jacobian_along(dented_[friction_terms_[f].dented], eigen.eigenvectors().col(k), n, jacobian_);
      G.row(row++).head(size) = std::sqrt(eigen.eigenvalues()(k)) * jacobian_.transpose();
    }
  }
  gram_.resize(rows, cols);
  const auto ld = static_cast<int>(G.cols());
  sim::detail::upper_tiles_AtB(G.data(), ld, G.data(), ld, count, rows, cols, gram_.data(), cols);
  matrix.triangularView<Eigen::Lower>() += gram_.topLeftCorner(size, size).transpose();
}

double LocalContact::potential_energy(const sim::ReducedMatrix& U) {
  double total = body_.potential_energy(global(U, global_));
  for (std::size_t i = 0; i < dented_.size(); ++i) {
    const Eigen::Vector3d x = position(dented_[i], U);
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      const double d = contact::obstacle_distance(obstacle(o), x).distance;
      total += stiffness() * dented_[i].area * contact::barrier(d, dhat());
    }
  }
  return total;
}

contact::ContactMeasure LocalContact::measure(const sim::ReducedMatrix& U) {
  contact::ContactMeasure result = body_.measure(global(U, global_));
  if (result.part_closest.empty()) result.part_closest.assign(1, result.min_distance);
  for (const Dented& s : dented_) {
    const Eigen::Vector3d x = position(s, U);
    bool active = false;
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      const double d = contact::obstacle_distance(obstacle(o), x).distance;
      result.min_distance = std::min(result.min_distance, d);
      result.part_closest.front() = std::min(result.part_closest.front(), d);
      if (d < dhat()) ++result.active, active = true;
    }
    if (active) result.active_points.push_back(x);
  }
  return result;
}

std::vector<ContactLoad> LocalContact::loads(const sim::ReducedMatrix& U) {
  const contact::SurfacePositions& undented = body_.positions_at(global(U, global_));
  std::vector<ContactLoad> loads;
  for (Eigen::Index k = 0; k < surface_.samples.size(); ++k) {
    const int dented = dented_of_sample_[static_cast<std::size_t>(k)];
    const Eigen::Vector3d x = dented >= 0
                                  ? position(dented_[static_cast<std::size_t>(dented)], U)
                                  : Eigen::Vector3d(undented.row(surface_.samples(k)).transpose());
    const double area = surface_.areas(k);
    ContactLoad load{sample_vertex_[static_cast<std::size_t>(k)], 0.0, area};
    bool near = false;
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      if (contact::obstacle_distance(obstacle(o), x).distance >= dhat()) continue;
      near = true;
      load.force += contact::obstacle_reaction(obstacle(o), x, stiffness() * area, dhat()).norm();
    }
    if (near) loads.push_back(load);
  }
  return loads;
}

std::vector<Eigen::Vector3d> LocalContact::obstacle_forces(const sim::ReducedMatrix& U) {
  std::vector<Eigen::Vector3d> forces = body_.obstacle_forces(global(U, global_));
  for (const Dented& s : dented_) {
    const Eigen::Vector3d x = position(s, U);
    for (std::size_t o = 0; o < obstacle_count(); ++o) {
      forces[o] += contact::obstacle_reaction(obstacle(o), x, stiffness() * s.area, dhat());
    }
  }
  return forces;
}

}  // namespace smfem::local
