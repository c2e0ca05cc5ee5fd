#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "smfem/geometry/error.hpp"
#include "smfem/tetrahedralize/bcc_lattice.hpp"
#include "smfem/tetrahedralize/detail/stencils.hpp"
#include "smfem/tetrahedralize/detail/stuffing_state.hpp"

namespace smfem::tetrahedralize {
namespace {

using detail::Sign;

// Root finding per cut point: regula falsi with the Illinois fix converges in 3 or 4 steps on
// smooth SDFs; every third step bisects instead, so kinks (box edges, CSG creases) and
// discontinuities (a mesh's holes) still shrink the bracket geometrically.
constexpr int kRootIterations = 60;
constexpr int kBisectEvery = 3;
// A cut point is final once |sdf| or its bracket is below this fraction of the edge length.
constexpr double kRootTolerance = 1e-10;

// An edge with one inside and one outside end, and the bracket of its root.
struct Crossing {
  int inside;
  int outside;
  bool is_long;
  double lo = 0.0, hi = 1.0;  // parameters from the inside end; sdf(lo) < 0 < sdf(hi)
  double f_lo = 0.0, f_hi = 0.0;
  double t = 0.5;     // the root's parameter when done
  int last_side = 0;  // which end the previous step replaced (Illinois)
};

void validate(const StuffingOptions& options) {
  const auto in_open_half = [](double a) { return std::isfinite(a) && a > 0.0 && a < 0.5; };
  if (!(std::isfinite(options.edge_length) && options.edge_length > 0.0)) {
    throw std::invalid_argument("isosurface stuffing: the edge length must be positive");
  }
  if (!in_open_half(options.alpha_long) || !in_open_half(options.alpha_short)) {
    throw std::invalid_argument("isosurface stuffing: alphas must lie in (0, 1/2)");
  }
}

Sign sign_of(double value) {
  if (value < 0.0) return Sign::inside;
  if (value == 0.0) return Sign::zero;
  return Sign::outside;  // also NaN: never fill what the SDF cannot decide
}

bool border_is_outside(const BccLattice& lattice, const std::vector<Sign>& sign) {
  for (int v = 0; v < lattice.vertex_count(); ++v) {
    const Eigen::Vector3i c = lattice.doubled_coordinates(v);
    const Eigen::Vector3i last =
        2 * lattice.cells() - Eigen::Vector3i::Constant(lattice.is_black(v) ? 0 : 1);
    const Eigen::Vector3i first = Eigen::Vector3i::Constant(lattice.is_black(v) ? 0 : 1);
    const bool on_border = (c.array() == first.array()).any() || (c.array() == last.array()).any();
    if (on_border && sign[static_cast<std::size_t>(v)] != Sign::outside) return false;
  }
  return true;
}

// Finds every crossing's root, all crossings advancing together so each step is one batched
// (multithreaded) SDF evaluation.
void find_roots(const geometry::Sdf& sdf, const BccLattice& lattice, std::vector<Crossing>& cuts) {
  const double tolerance = kRootTolerance * lattice.spacing();
  std::vector<std::size_t> active(cuts.size());
  for (std::size_t i = 0; i < cuts.size(); ++i) active[i] = i;
  for (int iteration = 0; iteration < kRootIterations && !active.empty(); ++iteration) {
    geometry::Points points(static_cast<Eigen::Index>(active.size()), 3);
    const bool bisect = iteration % kBisectEvery == kBisectEvery - 1;
    for (std::size_t k = 0; k < active.size(); ++k) {
      Crossing& c = cuts[active[k]];
      double t = (c.lo * c.f_hi - c.hi * c.f_lo) / (c.f_hi - c.f_lo);
      if (bisect || !(t > c.lo && t < c.hi)) t = 0.5 * (c.lo + c.hi);
      c.t = t;
      points.row(static_cast<Eigen::Index>(k)) =
          ((1.0 - t) * lattice.position(c.inside) + t * lattice.position(c.outside)).transpose();
    }
    const Eigen::VectorXd values = sdf.evaluate(points);
    std::size_t kept = 0;
    for (std::size_t k = 0; k < active.size(); ++k) {
      Crossing& c = cuts[active[k]];
      const double f = values[static_cast<Eigen::Index>(k)];
      if (std::abs(f) <= tolerance || std::isnan(f) || c.hi - c.lo <= kRootTolerance) continue;
      if (f < 0.0) {
        c.lo = c.t, c.f_lo = f;
        if (c.last_side < 0) c.f_hi *= 0.5;
        c.last_side = -1;
      } else {
        c.hi = c.t, c.f_hi = f;
        if (c.last_side > 0) c.f_lo *= 0.5;
        c.last_side = 1;
      }
      active[kept++] = active[k];
    }
    active.resize(kept);
  }
}

}  // namespace

mesh::TetMesh stuff_isosurface(const geometry::Sdf& sdf, const StuffingOptions& options,
                               StuffingReport* report) {
  validate(options);
  const Eigen::AlignedBox3d bounds = sdf.bounds();
  if (bounds.isEmpty()) throw geometry::GeometryError("the shape is empty");
  const double h = options.edge_length;

  // The lattice's outermost vertices must all be outside, so that the mesh is closed; bounds
  // are conservative, but grow the margin if an SDF proves them wrong.
  for (int attempt = 0;; ++attempt) {
    const double margin = (2 << attempt) * h;
    const Eigen::Vector3d origin = bounds.min().array() - margin;
    const Eigen::Vector3d extent = bounds.sizes().array() + 2.0 * margin;
    const Eigen::Array3d cells_real = (extent / h).array().ceil().max(2.0);
    const double vertex_estimate = (cells_real + 1.0).prod() + cells_real.prod();
    if (!(vertex_estimate <= static_cast<double>(kMaxLatticeVertices))) {
      std::ostringstream problem;
      problem << "isosurface stuffing: edge length " << h << " is too small for a shape of size "
              << bounds.sizes().transpose() << " (the lattice would have " << vertex_estimate
              << " vertices)";
      throw std::invalid_argument(problem.str());
    }
    const BccLattice lattice(origin, h, cells_real.cast<int>().matrix());

    detail::StuffingState state(lattice);
    state.sdf = &sdf;
    state.position = lattice.positions();
    const Eigen::VectorXd values = sdf.evaluate(state.position);
    state.sign.resize(static_cast<std::size_t>(lattice.vertex_count()));
    for (int v = 0; v < lattice.vertex_count(); ++v) state.sign[v] = sign_of(values[v]);
    if (!border_is_outside(lattice, state.sign)) {
      if (attempt < 3) continue;
      throw geometry::GeometryError("the shape reaches beyond its own bounding box");
    }

    std::vector<Crossing> crossings;
    lattice.for_each_edge([&](int a, int b, bool is_long) {
      const Sign sa = state.sign[static_cast<std::size_t>(a)];
      const Sign sb = state.sign[static_cast<std::size_t>(b)];
      if (sa == Sign::zero || sb == Sign::zero || sa == sb) return;
      Crossing c{sa == Sign::inside ? a : b, sa == Sign::inside ? b : a, is_long};
      c.f_lo = values[c.inside];
      c.f_hi = values[c.outside];
      crossings.push_back(c);
    });
    find_roots(sdf, lattice, crossings);

    // Warping: each vertex too near a cut point on one of its edges snaps to the nearest one.
    const double short_length = h * std::sqrt(3.0) / 2.0;
    std::vector<double> nearest(static_cast<std::size_t>(lattice.vertex_count()),
                                std::numeric_limits<double>::infinity());
    std::vector<int> snap(static_cast<std::size_t>(lattice.vertex_count()), -1);
    for (std::size_t i = 0; i < crossings.size(); ++i) {
      const Crossing& c = crossings[i];
      const double alpha = c.is_long ? options.alpha_long : options.alpha_short;
      const double length = c.is_long ? h : short_length;
      const auto consider = [&](int v, double fraction) {
        if (fraction < alpha && fraction * length < nearest[static_cast<std::size_t>(v)]) {
          nearest[static_cast<std::size_t>(v)] = fraction * length;
          snap[static_cast<std::size_t>(v)] = static_cast<int>(i);
        }
      };
      consider(c.inside, c.t);
      consider(c.outside, 1.0 - c.t);
    }
    const auto cut_point = [&](const Crossing& c) -> Eigen::Vector3d {
      return (1.0 - c.t) * lattice.position(c.inside) + c.t * lattice.position(c.outside);
    };
    std::size_t warped = 0;
    for (int v = 0; v < lattice.vertex_count(); ++v) {
      const int i = snap[static_cast<std::size_t>(v)];
      if (i < 0) continue;
      state.position.row(v) = cut_point(crossings[static_cast<std::size_t>(i)]).transpose();
      state.sign[static_cast<std::size_t>(v)] = Sign::zero;
      ++warped;
    }
    for (const Crossing& c : crossings) {
      if (snap[static_cast<std::size_t>(c.inside)] >= 0 ||
          snap[static_cast<std::size_t>(c.outside)] >= 0) {
        continue;
      }
      state.cuts.emplace(state.edge_key(c.inside, c.outside),
                         detail::Cut{c.inside, c.outside, cut_point(c)});
    }

    state.output_of_vertex.assign(static_cast<std::size_t>(lattice.vertex_count()), -1);
    lattice.for_each_tet(
        [&](const std::array<int, 4>& tet) { detail::fill_lattice_tet(state, tet); });
    if (state.output_tets.empty()) {
      std::ostringstream problem;
      problem << "no tet fits inside the shape at edge length " << h
              << "; use a smaller edge length";
      throw geometry::GeometryError(problem.str());
    }

    mesh::TetMesh mesh;
    mesh.vertices.resize(static_cast<Eigen::Index>(state.output_positions.size()), 3);
    for (std::size_t i = 0; i < state.output_positions.size(); ++i) {
      mesh.vertices.row(static_cast<Eigen::Index>(i)) = state.output_positions[i].transpose();
    }
    mesh.tets.resize(static_cast<Eigen::Index>(state.output_tets.size()), 4);
    for (std::size_t t = 0; t < state.output_tets.size(); ++t) {
      for (int k = 0; k < 4; ++k)
        mesh.tets(static_cast<Eigen::Index>(t), k) = state.output_tets[t][k];
    }
    mesh.regions = Eigen::VectorXi::Zero(mesh.tets.rows());

    const TetQuality quality = measure_quality(mesh);
    if (!(quality.min_volume > 0.0)) {
      throw std::logic_error("isosurface stuffing produced a tet that is not positive");
    }
    if (report != nullptr) {
      report->lattice_vertices = static_cast<std::size_t>(lattice.vertex_count());
      std::size_t used_cuts = 0;
      for (const auto& entry : state.cuts) used_cuts += entry.second.output >= 0;
      report->cut_points = used_cuts;
      report->warped_vertices = warped;
      report->quality = quality;
    }
    return mesh;
  }
}

}  // namespace smfem::tetrahedralize
