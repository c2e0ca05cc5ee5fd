#include "smfem/sim/contact/contact_potential.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Geometry>

#include "smfem/geometry/point_triangle.hpp"
#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/ccd.hpp"
#include "smfem/sim/contact/friction.hpp"
#include "smfem/sim/contact/swept_box.hpp"
#include "smfem/sim/kernels/detail/gemm_tile.hpp"
#include "smfem/sim/kernels/detail/reduced_dot.hpp"

namespace smfem::contact {
namespace {

// The (d, e), d <= e, of a term's 3 x 3 Hessian, in the order of the Gram products' columns.
constexpr int kGramRow[6] = {0, 0, 0, 1, 1, 2};
constexpr int kGramCol[6] = {0, 1, 2, 1, 2, 2};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The chunks the loops over vertices and pairs are cut into (for_chunks): fixed, so
// that the outputs do not depend on the thread count; large enough to amortize a chunk's start.
constexpr Eigen::Index kVertexChunk = 512;
constexpr Eigen::Index kPairChunk = 128;

// Barycentric coordinates of a point y of triangle (a, b, c).
Eigen::Vector3d barycentric(const Eigen::Vector3d& y, const Eigen::Vector3d& a,
                            const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d e0 = b - a, e1 = c - a, v = y - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1);
  const double det = d00 * d11 - d01 * d01;
  if (!(det > 1e-30 * d00 * d11)) return Eigen::Vector3d(1.0, 0.0, 0.0);
  const double beta1 = (d11 * v.dot(e0) - d01 * v.dot(e1)) / det;
  const double beta2 = (d00 * v.dot(e1) - d01 * v.dot(e0)) / det;
  return Eigen::Vector3d(1.0 - beta1 - beta2, beta1, beta2);
}

// The surface but its weights: basis_ holds what they say, in a fraction of their storage in an
// island of many bodies (and copying them cost a 30-cube island 35 MB).
ContactSurface without_weights(const ContactSurface& surface) {
  ContactSurface out;
  out.positions = surface.positions;
  out.triangles = surface.triangles;
  out.samples = surface.samples;
  out.areas = surface.areas;
  out.part = surface.part;
  return out;
}

Eigen::Vector3d unit_or_up(const Eigen::Vector3d& v, double length) {
  return length > 0.0 ? Eigen::Vector3d(v / length) : Eigen::Vector3d::UnitY();
}

}  // namespace

ContactPotential::ContactPotential(const ContactSurface& surface,
                                   std::vector<Eigen::Vector3d> offsets)
    : surface_(without_weights(surface)), offsets_(std::move(offsets)) {
  const int parts = surface.part.size() > 0 ? surface.part.maxCoeff() + 1 : 1;
  if (static_cast<int>(offsets_.size()) != parts) {
    throw std::invalid_argument("contact: " + std::to_string(offsets_.size()) + " offsets for " +
                                std::to_string(parts) + " parts");
  }
  // Each part's vertices are contiguous (multibody/composite_model.hpp) and its weights live in a
  // range of modes: positions are computed part by part on those columns only.
  const auto vertex_count = static_cast<int>(surface.positions.rows());
  parts_.resize(static_cast<std::size_t>(parts));
  for (int p = 0; p < parts; ++p) {
    Part& range = parts_[static_cast<std::size_t>(p)];
    range.first_vertex = vertex_count;
    int first_mode = surface.modes(), end_mode = 0;
    for (int v = 0; v < vertex_count; ++v) {
      if (part(v) != p) continue;
      range.first_vertex = std::min(range.first_vertex, v);
      range.end_vertex = v + 1;
      for (int i = 0; i < static_cast<int>(surface.weights.cols()); ++i) {
        if (surface.weights(v, i) == 0.0) continue;
        first_mode = std::min(first_mode, surface.mode_of_column(v, i));
        end_mode = std::max(end_mode, surface.mode_of_column(v, i) + 1);
      }
    }
    range.first_row = 4 * std::min(first_mode, end_mode);
    range.rows = 4 * std::max(end_mode - first_mode, 0);
  }
  for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t) {
    parts_[static_cast<std::size_t>(part(surface.triangles(t, 0)))].triangles.push_back(
        static_cast<int>(t));
  }
  // Each body's tree once, over its triangles in the rest shape (build_trees() refits it).
  trees_.resize(parts_.size());
  const SurfacePositions still = SurfacePositions::Zero(surface.positions.rows(), 3);
  std::vector<Eigen::AlignedBox3d> boxes;
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    triangle_boxes(parts_[p], surface.positions, still, Eigen::Vector3d::Zero(), 0.0, boxes);
    trees_[p].tree = std::make_unique<geometry::AabbTree>(boxes);
  }
  form_sample_groups(surface);
  // Each vertex's basis row over its own body's rows only.
  int width = 0;
  for (const Part& range : parts_) width = std::max(width, range.rows);
  basis_.setZero(vertex_count, width);
  for (int v = 0; v < vertex_count; ++v) {
    const Part& range = parts_[static_cast<std::size_t>(part(v))];
    surface_basis_row(surface, v, range.first_row / 4, range.rows / 4, &basis_(v, 0));
  }
  unknown_rows_ = 4 * surface.modes();
}

void ContactPotential::set_part_stiffness(std::vector<double> stiffness) {
  if (!stiffness.empty() && stiffness.size() != parts_.size()) {
    throw std::invalid_argument("contact: " + std::to_string(stiffness.size()) +
                                " stiffnesses for " + std::to_string(parts_.size()) + " parts");
  }
  part_stiffness_ = std::move(stiffness);
}

std::size_t ContactPotential::thread_of(int chunk) const {
  // ThreadPool runs chunk c on thread c mod N.
  return pool_ == nullptr ? 0 : static_cast<std::size_t>(chunk % pool_->thread_count());
}

double ContactPotential::pair_stiffness(const Pair& pair) const {
  if (part_stiffness_.empty()) return parameters_.stiffness;
  const std::size_t parts = pair_parts(pair);
  return std::max(part_stiffness_[parts / parts_.size()], part_stiffness_[parts % parts_.size()]);
}

void ContactPotential::set_environment(const std::vector<Obstacle>* obstacles,
                                       const ContactParameters& parameters, double timestep) {
  obstacles_ = obstacles;
  parameters_ = parameters;
  timestep_ = timestep;
  candidates_.clear();
  segment_pairs_ = nullptr;
}

void ContactPotential::displacements(const ReducedMatrix& U, SurfacePositions& out,
                                     const std::vector<char>* parts) const {
  out.resize(surface_.positions.rows(), 3);
  // Row by row (detail/reduced_dot.hpp): a blocked GEMM would pack the tall basis on every call,
  // which costs more than the product.
  if (!several_parts()) {
    // One body touches only obstacles: its samples are all that is ever looked at.
    const Part& range = parts_.front();
    if (parts != nullptr && !(*parts)[0]) return;
    for_chunks(
        surface_.samples.size(), kVertexChunk, [&](int, Eigen::Index begin, Eigen::Index end) {
          for (Eigen::Index k = begin; k < end; ++k) {
            const int v = surface_.samples(k);
            out.row(v) =
                sim::detail::reduced_dot(&basis_(v, 0), U, range.first_row, range.rows).transpose();
          }
        });
    return;
  }
  for_chunks(out.rows(), kVertexChunk, [&](int, Eigen::Index begin, Eigen::Index end) {
    for (Eigen::Index v = begin; v < end; ++v) {
      const auto p = static_cast<std::size_t>(part(static_cast<int>(v)));
      if (parts != nullptr && !(*parts)[p]) continue;
      const Part& range = parts_[p];
      out.row(v) =
          sim::detail::reduced_dot(&basis_(v, 0), U, range.first_row, range.rows).transpose();
    }
  });
}

void ContactPotential::positions(const ReducedMatrix& U, SurfacePositions& out,
                                 const std::vector<char>* parts) const {
  displacements(U, out, parts);
  if (!several_parts()) {
    if (parts != nullptr && !(*parts)[0]) return;
    for (Eigen::Index k = 0; k < surface_.samples.size(); ++k) {
      const int v = surface_.samples(k);
      out.row(v) += surface_.positions.row(v) + offsets_.front().transpose();
    }
    return;
  }
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    if (parts != nullptr && !(*parts)[p]) continue;
    const Part& range = parts_[p];
    const Eigen::Index count = range.end_vertex - range.first_vertex;
    out.middleRows(range.first_vertex, count) +=
        surface_.positions.middleRows(range.first_vertex, count);
    out.middleRows(range.first_vertex, count).rowwise() += offsets_[p].transpose();
  }
}

std::vector<char> ContactPotential::parts_differing(const ReducedMatrix& A,
                                                    const ReducedMatrix& B) const {
  std::vector<char> differ(parts_.size(), 0);
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    const Part& range = parts_[p];
    differ[p] =
        A.middleRows(range.first_row, range.rows) != B.middleRows(range.first_row, range.rows);
  }
  return differ;
}

std::vector<char> ContactPotential::parts_nonzero(const ReducedMatrix& A) const {
  std::vector<char> nonzero(parts_.size(), 0);
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    nonzero[p] = !A.middleRows(parts_[p].first_row, parts_[p].rows).isZero(0.0);
  }
  return nonzero;
}

void ContactPotential::update_start(const ReducedMatrix& U) {
  const bool placed = U.rows() == start_U_.rows() && start_.rows() == surface_.positions.rows();
  if (placed && U == start_U_) return;
  if (placed) {
    const std::vector<char> changed = parts_differing(U, start_U_);
    positions(U, start_, &changed);
  } else {
    positions(U, start_);
  }
  start_U_ = U;
}

const std::vector<ContactPotential::Pair>& ContactPotential::near_pairs(const ReducedMatrix& U,
                                                                        std::vector<Pair>& fallback,
                                                                        double& alpha) {
  update_start(U);
  // On the segment, U's positions are within a few ulps of the segment's: a pair missed by that
  // much sits within rounding of dhat, where the barrier and its derivatives vanish.
  alpha = segment_pairs_ != nullptr ? segment_alpha(U) : kNaN;
  const bool reusable = !std::isnan(alpha);
  if (reusable) return *segment_pairs_;
  gather(U, ReducedMatrix::Zero(U.rows(), 3), parameters_.activation, fallback);
  alpha = 0.0;
  return fallback;
}

double ContactPotential::segment_alpha(const ReducedMatrix& U) const {
  if (U.rows() != segment_U_.rows()) return kNaN;
  const double length = segment_dU_.squaredNorm();
  if (length == 0.0) return U == segment_U_ ? 0.0 : kNaN;
  const double alpha = (U - segment_U_).cwiseProduct(segment_dU_).sum() / length;
  // Rounding of U0 + alpha dU, with room: an iterate the line search put there is within a few
  // ulps of it; one moved off the segment (a translation correction) is farther by far.
  const double scale = segment_U_.cwiseAbs().maxCoeff() + segment_dU_.cwiseAbs().maxCoeff();
  const bool on = alpha >= -1e-12 && alpha <= 1.0 + 1e-12 &&
                  (U - segment_U_ - alpha * segment_dU_).cwiseAbs().maxCoeff() <= 1e-12 * scale;
  return on ? std::clamp(alpha, 0.0, 1.0) : kNaN;
}

template <class At>
ContactPotential::PairGeometry ContactPotential::locate(const Pair& pair, At&& at) const {
  PairGeometry g;
  const Eigen::Vector3d x = at(surface_.samples(pair.sample));
  if (pair.obstacle >= 0) {
    const ObstacleDistance d =
        obstacle_distance((*obstacles_)[static_cast<std::size_t>(pair.obstacle)], x);
    g.distance = d.distance;
    g.direction = d.direction;
    return g;
  }
  const Eigen::Vector3d a = at(surface_.triangles(pair.triangle, 0));
  const Eigen::Vector3d b = at(surface_.triangles(pair.triangle, 1));
  const Eigen::Vector3d c = at(surface_.triangles(pair.triangle, 2));
  const Eigen::Vector3d y = geometry::closest_point_on_triangle(x, a, b, c);
  g.beta = barycentric(y, a, b, c);
  const Eigen::Vector3d away = x - y;
  g.distance = away.norm();
  g.direction = unit_or_up(away, g.distance);
  return g;
}

void ContactPotential::pair_basis(const Pair& pair, const PairGeometry& geometry,
                                  Eigen::VectorXd& basis, Eigen::Vector3d& rest) const {
  const int v = surface_.samples(pair.sample);
  // Not a structured binding: clang 14 (Emscripten's) lets no lambda capture one.
  const std::array<const Part*, 2> touched = touched_parts(pair_parts(pair));
  const Part* const p = touched[0];
  const Part* const q = touched[1];
  basis.resize(p->rows + (q != nullptr ? q->rows : 0));
  // The vertex's weights where its own body's rows sit in the compact basis (the other body's
  // rows zero); each vertex's weights are zero outside its body's rows.
  const auto add_row = [&](int w, double scale) {
    const Part& own = parts_[static_cast<std::size_t>(part(w))];
    const int at = &own == p ? 0 : p->rows;
    basis.segment(at, own.rows) += scale * basis_.row(w).head(own.rows).transpose();
  };
  basis.setZero();
  add_row(v, 1.0);
  rest = offsets_[static_cast<std::size_t>(part(v))] + surface_.positions.row(v).transpose();
  if (pair.obstacle >= 0) return;
  for (int c = 0; c < 3; ++c) {
    const int w = surface_.triangles(pair.triangle, c);
    add_row(w, -geometry.beta(c));
    rest -= geometry.beta(c) *
            (offsets_[static_cast<std::size_t>(part(w))] + surface_.positions.row(w).transpose());
  }
}

std::array<const ContactPotential::Part*, 2> ContactPotential::touched_parts(
    std::size_t parts) const {
  const Part* p = &parts_[parts / parts_.size()];
  const Part* q = &parts_[parts % parts_.size()];
  return {p, q == p ? nullptr : q};
}

Eigen::Vector3d ContactPotential::basis_times(const ReducedMatrix& U, const Eigen::VectorXd& basis,
                                              std::size_t parts) const {
  const auto [p, q] = touched_parts(parts);
  Eigen::Vector3d sum = sim::detail::reduced_dot(basis.data(), U, p->first_row, p->rows);
  if (q != nullptr) {
    sum += sim::detail::reduced_dot(basis.data() + p->rows, U, q->first_row, q->rows);
  }
  return sum;
}

void ContactPotential::add_outer(ReducedMatrix& gradient, const Eigen::VectorXd& basis,
                                 std::size_t parts, const Eigen::Vector3d& v) const {
  const auto [p, q] = touched_parts(parts);
  gradient.middleRows(p->first_row, p->rows).noalias() += basis.head(p->rows) * v.transpose();
  if (q != nullptr) {
    gradient.middleRows(q->first_row, q->rows).noalias() += basis.tail(q->rows) * v.transpose();
  }
}

std::size_t ContactPotential::pair_parts(const Pair& pair) const {
  const auto p = static_cast<std::size_t>(part(surface_.samples(pair.sample)));
  const auto q =
      pair.obstacle >= 0 ? p : static_cast<std::size_t>(part(surface_.triangles(pair.triangle, 0)));
  return std::min(p, q) * parts_.size() + std::max(p, q);
}

double ContactPotential::pair_friction(const Pair& pair) const {
  if (pair.obstacle < 0) return parameters_.friction;
  return obstacle_friction(static_cast<std::size_t>(pair.obstacle));
}

double ContactPotential::obstacle_friction(std::size_t obstacle) const {
  const double mu = (*obstacles_)[obstacle].friction;
  return mu >= 0.0 ? mu : parameters_.friction;
}

void ContactPotential::set_excluded_samples(std::vector<char> excluded) {
  if (!excluded.empty() && static_cast<Eigen::Index>(excluded.size()) != surface_.samples.size()) {
    throw std::invalid_argument("set_excluded_samples: one flag per sample");
  }
  excluded_ = std::move(excluded);
  segment_pairs_ = nullptr;  // gathered with the other samples
}

double ContactPotential::part_stiffness(int part) const {
  return part_stiffness_.empty() ? parameters_.stiffness
                                 : part_stiffness_[static_cast<std::size_t>(part)];
}

void ContactPotential::set_moving_parts(std::vector<char> moving) {
  if (!moving.empty() && moving.size() != parts_.size()) {
    throw std::invalid_argument("set_moving_parts: one flag per part");
  }
  if (moving == moving_) return;  // the segment's pairs stay this set's
  bool fewer = !moving.empty();   // no part starts moving
  for (std::size_t p = 0; fewer && p < moving.size(); ++p) fewer = !moving[p] || moving_part(p);
  moving_ = std::move(moving);
  if (segment_pairs_ == nullptr || !fewer) {
    segment_pairs_ = nullptr;  // gathered with the other parts
    return;
  }
  // Fewer parts move: the segment's pairs that still touch a moving one are what a gather with
  // them gives, in its order.
  std::vector<Pair> kept;
  for (const Pair& pair : *segment_pairs_) {
    if (moves(pair_parts(pair))) kept.push_back(pair);
  }
  fewer_pairs_.swap(kept);
  segment_pairs_ = &fewer_pairs_;
}

bool ContactPotential::moves(std::size_t pair_parts) const {
  return moving_part(pair_parts / parts_.size()) || moving_part(pair_parts % parts_.size());
}

void ContactPotential::begin_step(const ReducedMatrix& U_n, const ReducedMatrix& first_dU) {
  friction_.clear();
  segment_pairs_ = nullptr;  // the obstacles may have moved
  // The first segment's candidates hold every pair within dhat at U_n: max_step() along it
  // takes them as they are.
  const bool segment = first_dU.rows() == U_n.rows();
  std::vector<Pair>& pairs = segment ? candidates_ : scratch_;
  gather(U_n, segment ? first_dU : ReducedMatrix::Zero(U_n.rows(), 3), parameters_.activation,
         pairs);
  const auto at = [&](int v) { return Eigen::Vector3d(start_.row(v).transpose()); };
  for (const Pair& pair : pairs) {
    const PairGeometry g = locate(pair, at);
    const double mu = pair_friction(pair);
    if (!(g.distance < parameters_.activation) || mu <= 0.0) continue;
    FrictionPair f;
    pair_basis(pair, g, f.basis, f.rest);
    f.parts = pair_parts(pair);
    // The relative position at the start, moved with the obstacle's own step: sliding along a
    // moving obstacle is measured against the obstacle.
    f.reference = f.rest + basis_times(U_n, f.basis, f.parts);
    if (pair.obstacle >= 0) {
      const Obstacle& obstacle = (*obstacles_)[static_cast<std::size_t>(pair.obstacle)];
      f.reference += obstacle.offset - obstacle.start_offset;
    }
    f.tangent = tangent_basis(g.direction);
    f.weight = mu * pair_stiffness(pair) * pair_area(pair) *
               std::abs(barrier_derivative(g.distance, parameters_.activation));
    friction_.push_back(std::move(f));
  }
}

double ContactPotential::pair_step(const Pair& pair, double limit) const {
  const double keep = parameters_.keep;
  const int v = surface_.samples(pair.sample);
  const Eigen::Vector3d sample_motion = motion_.row(v).transpose();
  if (pair.obstacle >= 0) {
    return std::min(limit,
                    obstacle_time_of_impact((*obstacles_)[static_cast<std::size_t>(pair.obstacle)],
                                            start_.row(v).transpose(), sample_motion, keep,
                                            parameters_.activation));
  }
  const auto corner = [&](const auto& rows, int c) {
    return Eigen::Vector3d(rows.row(surface_.triangles(pair.triangle, c)).transpose());
  };
  const auto start = [&](int w) { return Eigen::Vector3d(start_.row(w).transpose()); };
  // Two bounds, each safe on its own, so the farther one is taken: the triangle's plane
  // (ccd.hpp), which lets a sample slide over a triangle it rests on, and conservative
  // advancement, which follows a sample past the triangle's edges.
  const double plane = plane_bound_step(
      start(v), sample_motion, corner(start_, 0), corner(start_, 1), corner(start_, 2),
      corner(motion_, 0), corner(motion_, 1), corner(motion_, 2),
      ccd_target(pair.start_distance, keep, parameters_.activation));
  if (plane >= limit) return limit;
  // The distance moves at most as fast as the sample relative to the triangle's points, which
  // move as convex combinations of the corners: max_j |dx_s - dx_j| bounds it.
  double speed = 0.0;
  for (int c = 0; c < 3; ++c) speed = std::max(speed, (sample_motion - corner(motion_, c)).norm());
  // Only the part of the segment up to `limit` needs checking; points move linearly.
  const double reach = conservative_advancement(
      [&](double a) {
        return locate(pair,
                      [&](int w) {
                        return Eigen::Vector3d(start_.row(w).transpose() +
                                               (a * limit) * motion_.row(w).transpose());
                      })
            .distance;
      },
      speed * limit, keep, parameters_.activation);
  return std::max(plane, limit * reach);
}

double ContactPotential::max_step(const ReducedMatrix& U, const ReducedMatrix& dU) {
  if (segment_pairs_ == &candidates_ && U == segment_U_ && dU == segment_dU_) {
    update_start(U);  // the segment's start; its motion is still dU's
  } else {
    gather(U, dU, parameters_.activation, candidates_);
  }
  double alpha = 1.0;
  for (const Pair& pair : candidates_) alpha = pair_step(pair, alpha);
  return alpha;
}

double ContactPotential::approach(const Pair& pair) const {
  const auto start = [&](int w) { return Eigen::Vector3d(start_.row(w).transpose()); };
  const PairGeometry g = locate(pair, start);
  Eigen::Vector3d relative = motion_.row(surface_.samples(pair.sample)).transpose();
  if (pair.triangle >= 0) {
    for (int c = 0; c < 3; ++c) {
      relative -= g.beta[c] * motion_.row(surface_.triangles(pair.triangle, c)).transpose();
    }
  }
  return -g.direction.dot(relative);
}

double ContactPotential::largest_approach() const {
  double largest = 0.0;
  for (const Pair& pair : candidates_) largest = std::max(largest, approach(pair));
  return largest;
}

std::vector<char> ContactPotential::parts_approaching(double distance) const {
  std::vector<char> parts(parts_.size(), 0);
  for (const Pair& pair : candidates_) {
    if (!(approach(pair) > distance)) continue;
    parts[static_cast<std::size_t>(part(surface_.samples(pair.sample)))] = 1;
    if (pair.triangle >= 0) {
      parts[static_cast<std::size_t>(part(surface_.triangles(pair.triangle, 0)))] = 1;
    }
  }
  return parts;
}

double ContactPotential::energy(const ReducedMatrix& U) {
  double total = 0.0;
  if (!candidates_.empty()) {
    positions(U, trial_);
    const auto at = [&](int v) { return Eigen::Vector3d(trial_.row(v).transpose()); };
    for (const Pair& pair : candidates_) {
      total += pair_stiffness(pair) * pair_area(pair) *
               barrier(locate(pair, at).distance, parameters_.activation);
    }
  }
  return total + friction_energy(U);
}

double ContactPotential::energy_along(double alpha, const ReducedMatrix& U_trial) {
  double total = 0.0;
  const auto at = [&](int v) {
    return Eigen::Vector3d(start_.row(v).transpose() + alpha * motion_.row(v).transpose());
  };
  for (const Pair& pair : candidates_) {
    if (beyond_reach(pair, alpha)) continue;
    total += pair_stiffness(pair) * pair_area(pair) *
             barrier(locate(pair, at).distance, parameters_.activation);
  }
  return total + friction_energy(U_trial);
}

double ContactPotential::friction_energy(const ReducedMatrix& U) const {
  const double eps = parameters_.slip * timestep_;
  double total = 0.0;
  for (const FrictionPair& f : friction_) {
    if (!moves(f.parts)) continue;
    const Eigen::Vector2d slip =
        f.tangent.transpose() * (f.rest + basis_times(U, f.basis, f.parts) - f.reference);
    total += f.weight * friction_f0(slip.norm(), eps);
  }
  return total;
}

void ContactPotential::linearize_terms(const ReducedMatrix& U, ReducedMatrix& gradient) {
  double alpha = 0.0;
  const std::vector<Pair>& pairs = near_pairs(U, candidates_, alpha);
  if (&pairs != &candidates_) candidates_ = pairs;  // energy() reads them
  const Eigen::Index n = unknown_rows_;
  gradient.setZero(n, 3);
  // Each active pair: a term with a basis vector b, a 3 x 3 Hessian S in x and a force f;
  // H_de = sum S(d, e) b b^T and the gradient sum b f^T.
  const auto at = [&](int v) { return Eigen::Vector3d(start_.row(v).transpose()); };
  const auto pair_count = static_cast<Eigen::Index>(candidates_.size());
  const auto chunks = static_cast<std::size_t>((pair_count + kPairChunk - 1) / kPairChunk);
  chunk_terms_.resize(std::max(chunks, chunk_terms_.size()));
  chunk_terms_used_.assign(chunks, 0);
  for_chunks(pair_count, kPairChunk, [&](int chunk, Eigen::Index begin, Eigen::Index end) {
    std::vector<HessianTerm>& terms = chunk_terms_[static_cast<std::size_t>(chunk)];
    std::size_t& used = chunk_terms_used_[static_cast<std::size_t>(chunk)];
    Eigen::Vector3d rest;
    for (Eigen::Index i = begin; i < end; ++i) {
      const Pair& pair = candidates_[static_cast<std::size_t>(i)];
      if (beyond_reach(pair, alpha)) continue;
      const PairGeometry g = locate(pair, at);
      if (!(g.distance < parameters_.activation)) continue;
      if (used == terms.size()) terms.emplace_back();
      HessianTerm& term = terms[used++];
      pair_basis(pair, g, term.basis, rest);
      term.parts = pair_parts(pair);
      const double scale = pair_stiffness(pair) * pair_area(pair);
      term.force = scale * barrier_derivative(g.distance, parameters_.activation) * g.direction;
      term.curvature = scale * barrier_second_derivative(g.distance, parameters_.activation) *
                       g.direction * g.direction.transpose();
    }
  });
  const double eps = parameters_.slip * timestep_;
  friction_terms_.clear();
  for (const FrictionPair& f : friction_) {
    if (!moves(f.parts)) continue;
    const Eigen::Vector2d slip =
        f.tangent.transpose() * (f.rest + basis_times(U, f.basis, f.parts) - f.reference);
    friction_terms_.push_back(
        {f.basis, f.weight * f.tangent * friction_hessian(slip, eps) * f.tangent.transpose(),
         f.weight * f.tangent * friction_gradient(slip, eps), f.parts});
  }
  // In pair order, then friction's: the gradient's sums are those of a serial loop.
  terms_.clear();
  for (std::size_t c = 0; c < chunks; ++c) {
    for (std::size_t k = 0; k < chunk_terms_used_[c]; ++k) terms_.push_back(&chunk_terms_[c][k]);
  }
  for (const HessianTerm& term : friction_terms_) terms_.push_back(&term);
  for (const HessianTerm* term : terms_) add_outer(gradient, term->basis, term->parts, term->force);
}

void ContactPotential::linearize(const ReducedMatrix& U, ReducedMatrix& gradient) {
  linearize_terms(U, gradient);
  // The terms grouped by the bodies they touch, each group one product on its own rows.
  std::vector<std::vector<const HessianTerm*>> groups(parts_.size() * parts_.size());
  for (const HessianTerm* term : terms_) groups[term->parts].push_back(term);
  hessian_.clear();
  std::vector<std::size_t> filled;
  // Where each group's rows start in its terms' compact bases (pair_basis()): a pair of bodies
  // one of which is held (an impact's further iterations, set_moving_parts()) keeps the moving
  // body's rows only, as the held body's rows of the system are not solved for (a quarter of
  // the products).
  std::vector<int> basis_offset;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) continue;
    const auto [p, q] = touched_parts(g);
    const ContactHessian::Rows first{p->first_row, p->rows};
    int offset = 0;
    if (q == nullptr) {
      hessian_.add_group(first, {});
    } else if (!moving_part(static_cast<std::size_t>(p - parts_.data()))) {
      hessian_.add_group({q->first_row, q->rows}, {});
      offset = p->rows;
    } else if (!moving_part(static_cast<std::size_t>(q - parts_.data()))) {
      hessian_.add_group(first, {});
    } else {
      hessian_.add_group(first, {q->first_row, q->rows});
    }
    basis_offset.push_back(offset);
    filled.push_back(g);
  }
  gram_.resize(pool_ != nullptr ? static_cast<std::size_t>(pool_->thread_count()) : 1);
  // H_de = sum_k S_k(d, e) b_k b_k^T, group by group over the rows of U its bases touch: one
  // body's modes (against obstacles), or two bodies' (between them).
  for_chunks(static_cast<Eigen::Index>(filled.size()), 1,
             [&](int chunk, Eigen::Index, Eigen::Index) {
               const std::vector<const HessianTerm*>& terms =
                   groups[filled[static_cast<std::size_t>(chunk)]];
               ContactHessian::Group& group = hessian_.group(chunk);
               const int offset = basis_offset[static_cast<std::size_t>(chunk)];
               GramWorkspace& work = gram_[thread_of(chunk)];
               const auto K = static_cast<int>(terms.size());
               const int w = group.width();
               // G: the terms' bases on the group's rows (K x w, row-major, zero-padded to whole
               // tile rows); scaled: G with row k times S_k(d, e), side by side for the six
               // (d, e), d <= e, each padded to whole tile columns.
               const int rows = sim::detail::tile_padded_rows(w),
                         cols = sim::detail::tile_padded_cols<double>(w);
               work.bases.setZero(K, std::max(rows, cols));
               work.scaled.resize(K, 6 * cols);
               for (int k = 0; k < K; ++k) {
                 const HessianTerm& term = *terms[static_cast<std::size_t>(k)];
                 work.bases.row(k).head(w) = term.basis.segment(offset, w).transpose();
                 for (int de = 0; de < 6; ++de) {
                   work.scaled.block(k, de * cols, 1, cols) =
                       term.curvature(kGramRow[de], kGramCol[de]) * work.bases.row(k).head(cols);
                 }
               }
               // All six G^T diag(S(d, e)) G at once: G^T times the scaled matrix, tile by tile.
               // Each of the six is symmetric (G^T D G, D diagonal), so only the tiles that reach
               // its upper triangle are computed, and the lower triangle is mirrored.
               const auto ld = static_cast<int>(work.bases.cols());
               // Only the tiles computed are zeroed (zeroing the whole of gram, and the group's
               // block, was 4 % of a settling pile of 30 cubes).
               work.gram.resize(rows, 6 * cols);
               for (int de = 0; de < 6; ++de) {
                 sim::detail::upper_tiles_AtB(work.bases.data(), ld, work.scaled.data() + de * cols,
                                              6 * cols, K, rows, cols, work.gram.data() + de * cols,
                                              6 * cols);
               }
               // Every entry of the group's block (add_group() leaves them unset).
               for (int de = 0; de < 6; ++de) {
                 const int d = kGramRow[de], e = kGramCol[de];
                 group.block.block(d * w, e * w, w, w) =
                     work.gram.block(0, de * cols, w, w).selfadjointView<Eigen::Upper>();
                 if (e != d)
                   group.block.block(e * w, d * w, w, w) = group.block.block(d * w, e * w, w, w);
               }
             });
}

void ContactPotential::linearize_translations(const ReducedMatrix& U, const Eigen::VectorXd& t,
                                              ReducedMatrix& gradient, Eigen::MatrixXd& hessian) {
  linearize_terms(U, gradient);
  const auto count = static_cast<Eigen::Index>(parts_.size());
  hessian.setZero(3 * count, 3 * count);
  // A term b S b^T seen along part p's translation t_p (t on p's rows, zero elsewhere) and part
  // q's: S (b . t_p)(b . t_q).
  for (const HessianTerm* term : terms_) {
    const std::size_t p = term->parts / parts_.size(), q = term->parts % parts_.size();
    const Part& first = parts_[p];
    std::array<std::pair<Eigen::Index, double>, 2> along = {
        {{static_cast<Eigen::Index>(p),
          term->basis.head(first.rows).dot(t.segment(first.first_row, first.rows))},
         {-1, 0.0}}};
    if (q != p) {
      const Part& second = parts_[q];
      along[1] = {static_cast<Eigen::Index>(q),
                  term->basis.tail(second.rows).dot(t.segment(second.first_row, second.rows))};
    }
    for (const auto& [i, ti] : along) {
      if (i < 0) continue;
      for (const auto& [j, tj] : along) {
        if (j >= 0) hessian.block<3, 3>(3 * i, 3 * j) += (ti * tj) * term->curvature;
      }
    }
  }
}

double ContactPotential::curvature(const ReducedMatrix& dU) const {
  return hessian_.form(dU, dU, pool_);
}

double ContactPotential::potential_energy(const ReducedMatrix& U) {
  double alpha = 0.0;
  const std::vector<Pair>& pairs = near_pairs(U, scratch_, alpha);
  const auto at = [&](int v) { return Eigen::Vector3d(start_.row(v).transpose()); };
  double total = 0.0;
  for (const Pair& pair : pairs) {
    if (beyond_reach(pair, alpha)) continue;
    total += pair_stiffness(pair) * pair_area(pair) *
             barrier(locate(pair, at).distance, parameters_.activation);
  }
  return total;
}

std::vector<Eigen::Vector3d> ContactPotential::obstacle_forces(const ReducedMatrix& U) {
  const std::size_t count = obstacles_ != nullptr ? obstacles_->size() : 0;
  std::vector<Eigen::Vector3d> forces(count, Eigen::Vector3d::Zero());
  update_start(U);
  for (Eigen::Index k = 0; k < surface_.samples.size(); ++k) {
    if (excluded(k)) continue;
    const int v = surface_.samples(k);
    const Eigen::Vector3d x = start_.row(v).transpose();
    for (std::size_t o = 0; o < count; ++o) {
      forces[o] += obstacle_reaction(
          (*obstacles_)[o], x, part_stiffness(part(v)) * surface_.areas(k), parameters_.activation);
    }
  }
  return forces;
}

}  // namespace smfem::contact
