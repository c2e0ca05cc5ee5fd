#include "smfem/render/primitive_surface.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <type_traits>

namespace smfem::render {
namespace {

using Eigen::Vector3d;

// Grows a surface vertex by vertex and triangle by triangle.
class Builder {
 public:
  int vertex(const Vector3d& position, const Vector3d& normal) {
    positions_.push_back(position);
    normals_.push_back(normal.normalized());
    return static_cast<int>(positions_.size()) - 1;
  }
  void triangle(int a, int b, int c) { triangles_.push_back({a, b, c}); }

  PrimitiveSurface finish() const {
    PrimitiveSurface s;
    s.vertices.resize(static_cast<Eigen::Index>(positions_.size()), 3);
    s.normals.resize(s.vertices.rows(), 3);
    for (std::size_t v = 0; v < positions_.size(); ++v) {
      s.vertices.row(static_cast<Eigen::Index>(v)) = positions_[v].transpose();
      s.normals.row(static_cast<Eigen::Index>(v)) = normals_[v].transpose();
    }
    s.triangles.resize(static_cast<Eigen::Index>(triangles_.size()), 3);
    for (std::size_t t = 0; t < triangles_.size(); ++t) {
      for (int k = 0; k < 3; ++k) s.triangles(static_cast<Eigen::Index>(t), k) = triangles_[t][k];
    }
    return s;
  }

 private:
  std::vector<Vector3d> positions_, normals_;
  std::vector<std::array<int, 3>> triangles_;
};

int cells(double length, double spacing) {
  return std::max(1, static_cast<int>(std::ceil(length / spacing - 1e-9)));
}

// lo + (hi - lo) i / n, exactly lo and hi at the ends.
double lerp(double lo, double hi, int i, int n) {
  if (i == 0) return lo;
  if (i == n) return hi;
  return lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(n);
}

// Along one axis of a box face, from lo to hi: cells no longer than `spacing`. A rounded box's
// bands of width r at each end go onto its rounding, each band 45 degrees of the edge's arc (the
// neighbouring face has the other 45): their coordinates are r tan of equal angles, so the
// vertices fall evenly along the arc, at least kMinArcCells per band.
constexpr int kMinArcCells = 3;
std::vector<double> face_coordinates(double lo, double hi, double r, double spacing) {
  std::vector<double> at;
  const int arc = std::max(kMinArcCells, cells(std::numbers::pi / 4.0 * r, spacing));
  const auto band = [&](int i) { return r * std::tan(std::numbers::pi / 4.0 * i / arc); };
  if (r > 0.0) {
    at.push_back(lo);
    for (int i = arc - 1; i > 0; --i) at.push_back(lo + r - band(i));
  }
  const double flat = (hi - r) - (lo + r);
  const int n = flat > 0.0 ? cells(flat, spacing) : 0;
  for (int i = 0; i <= n; ++i) at.push_back(lerp(lo + r, hi - r, i, n));
  if (flat <= 0.0 && r > 0.0) at.pop_back();  // the two bands meet at one coordinate
  if (r > 0.0) {
    for (int i = 1; i < arc; ++i) at.push_back(hi - r + band(i));
    at.push_back(hi);
  }
  return at;
}

// Each face a grid (face_coordinates along its two axes) on the sharp box's face. A rounded box
// maps each grid point p onto its surface: q, the nearest point of the box shrunk by the
// rounding r, pushed out by r along p - q, which is also the normal there (the flat parts of
// the faces stay where they are; the bands go onto the edges' cylinders and the corners'
// spheres, and neighbouring faces meet vertex for vertex with the same normals).
void add_box(const geometry::BoxShape& box, double spacing, Builder& out) {
  const Vector3d lo = box.center - box.half_extents, hi = box.center + box.half_extents;
  const double r = box.rounding;
  std::array<std::vector<double>, 3> at;
  for (int a = 0; a < 3; ++a) at[a] = face_coordinates(lo[a], hi[a], r, spacing);
  const Vector3d inner = box.half_extents.array() - r;
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      // (e_u, e_v, e_axis) right-handed, swapped on the low side so triangles face out.
      int u = (axis + 1) % 3, v = (axis + 2) % 3;
      if (side == 0) std::swap(u, v);
      Vector3d normal = Vector3d::Zero();
      normal[axis] = side == 0 ? -1.0 : 1.0;
      const int nu = static_cast<int>(at[u].size()) - 1, nv = static_cast<int>(at[v].size()) - 1;
      std::vector<int> ids;
      ids.reserve(static_cast<std::size_t>((nu + 1) * (nv + 1)));
      for (int j = 0; j <= nv; ++j) {
        for (int i = 0; i <= nu; ++i) {
          Vector3d p;
          p[axis] = side == 0 ? lo[axis] : hi[axis];
          p[u] = at[u][static_cast<std::size_t>(i)];
          p[v] = at[v][static_cast<std::size_t>(j)];
          if (r == 0.0) {
            ids.push_back(out.vertex(p, normal));
            continue;
          }
          const Vector3d q = box.center + (p - box.center).cwiseMax(-inner).cwiseMin(inner);
          const Vector3d outward = (p - q).normalized();
          ids.push_back(out.vertex(q + r * outward, outward));
        }
      }
      const auto id = [&](int i, int j) { return ids[static_cast<std::size_t>(j * (nu + 1) + i)]; };
      for (int j = 0; j < nv; ++j) {
        for (int i = 0; i < nu; ++i) {
          out.triangle(id(i, j), id(i + 1, j), id(i + 1, j + 1));
          out.triangle(id(i, j), id(i + 1, j + 1), id(i, j + 1));
        }
      }
    }
  }
}

// A point of a meridian: distance from the axis, height along it, and the outward normal in
// the (radial, axial) plane.
struct ProfilePoint {
  double rho, z, n_rho, n_z;
};

// Revolves each piece of the profile (one piece per run of shared vertices: a crease starts a
// new piece) about the axis through `origin` along `axis` (unit), with `segments` around. A
// piece runs from the bottom (-axis) towards the top; a point with rho == 0 is a pole (one
// vertex). Orientation: the meridian direction crossed with the direction of increasing angle
// points out, as for a profile that turns counter-clockwise in the (rho, z) half-plane.
void add_revolution(const std::vector<std::vector<ProfilePoint>>& pieces, const Vector3d& origin,
                    const Vector3d& axis, int segments, Builder& out) {
  Vector3d e1 = axis.unitOrthogonal();
  Vector3d e2 = axis.cross(e1);  // e1 x e2 = axis
  for (const std::vector<ProfilePoint>& piece : pieces) {
    std::vector<std::vector<int>> rings;
    for (const ProfilePoint& p : piece) {
      std::vector<int> ring;
      const int count = p.rho == 0.0 ? 1 : segments;
      for (int k = 0; k < count; ++k) {
        const double angle = 2.0 * std::numbers::pi * k / segments;
        const Vector3d radial = std::cos(angle) * e1 + std::sin(angle) * e2;
        ring.push_back(
            out.vertex(origin + p.z * axis + p.rho * radial, p.n_rho * radial + p.n_z * axis));
      }
      rings.push_back(std::move(ring));
    }
    for (std::size_t i = 0; i + 1 < rings.size(); ++i) {
      const std::vector<int>& a = rings[i];
      const std::vector<int>& b = rings[i + 1];
      for (int k = 0; k < segments; ++k) {
        const int next = (k + 1) % segments;
        if (a.size() == 1) {
          out.triangle(a[0], b[static_cast<std::size_t>(next)], b[static_cast<std::size_t>(k)]);
        } else if (b.size() == 1) {
          out.triangle(a[static_cast<std::size_t>(k)], a[static_cast<std::size_t>(next)], b[0]);
        } else {
          const auto ak = a[static_cast<std::size_t>(k)], an = a[static_cast<std::size_t>(next)];
          const auto bk = b[static_cast<std::size_t>(k)], bn = b[static_cast<std::size_t>(next)];
          out.triangle(ak, an, bn);
          out.triangle(ak, bn, bk);
        }
      }
    }
  }
}

int segments_for(double radius, double spacing) {
  const int wanted = cells(2.0 * std::numbers::pi * radius, spacing);
  return std::max(kMinSegments, (wanted + 3) / 4 * 4);
}

void add_cylinder(const geometry::CylinderShape& c, double spacing, Builder& out) {
  const Vector3d axis = (c.to - c.from).normalized();
  const double length = (c.to - c.from).norm();
  const int around = segments_for(c.radius, spacing);
  const int radial = cells(c.radius, spacing);
  const int along = cells(length, spacing);
  std::vector<ProfilePoint> bottom, side, top;
  for (int i = 0; i <= radial; ++i)
    bottom.push_back({lerp(0.0, c.radius, i, radial), 0.0, 0.0, -1.0});
  for (int i = 0; i <= along; ++i)
    side.push_back({c.radius, lerp(0.0, length, i, along), 1.0, 0.0});
  for (int i = radial; i >= 0; --i)
    top.push_back({lerp(0.0, c.radius, i, radial), length, 0.0, 1.0});
  add_revolution({bottom, side, top}, c.from, axis, around, out);
}

// Latitude rings of a sphere of radius r centred at height z0, from angle `from` to `to`
// (radians, -pi/2 at the bottom pole), `count` steps, both ends included.
void add_latitudes(std::vector<ProfilePoint>& profile, double r, double z0, double from, double to,
                   int count, bool skip_first) {
  for (int i = skip_first ? 1 : 0; i <= count; ++i) {
    const double phi = lerp(from, to, i, count);
    const double c =
        (i == count && to == std::numbers::pi / 2) || (i == 0 && from == -std::numbers::pi / 2)
            ? 0.0
            : std::cos(phi);
    profile.push_back({r * c, z0 + r * std::sin(phi), c, std::sin(phi)});
  }
}

void add_capsule(const geometry::CapsuleShape& c, double spacing, Builder& out) {
  const double length = (c.to - c.from).norm();
  const Vector3d axis = length > 0.0 ? Vector3d((c.to - c.from) / length) : Vector3d::UnitY();
  const int around = segments_for(c.radius, spacing);
  const int quarter = std::max(around / 4, cells(0.5 * std::numbers::pi * c.radius, spacing));
  constexpr double kHalfPi = std::numbers::pi / 2;
  std::vector<ProfilePoint> profile;
  add_latitudes(profile, c.radius, 0.0, -kHalfPi, 0.0, quarter, false);
  if (length > 0.0) {
    const int along = cells(length, spacing);
    for (int i = 1; i <= along; ++i)
      profile.push_back({c.radius, lerp(0.0, length, i, along), 1.0, 0.0});
  }
  add_latitudes(profile, c.radius, length, 0.0, kHalfPi, quarter, true);
  add_revolution({profile}, c.from, axis, around, out);
}

void add_ellipsoid(const geometry::EllipsoidShape& e, double spacing, Builder& out) {
  // A unit sphere with as many segments as the largest radius needs, stretched: positions by
  // the radii, normals by their inverses.
  const double largest = e.radii.maxCoeff();
  Builder unit;
  add_capsule({Vector3d::Zero(), Vector3d::Zero(), 1.0}, spacing / largest, unit);
  const PrimitiveSurface sphere = unit.finish();
  std::vector<int> ids;
  for (Eigen::Index v = 0; v < sphere.vertices.rows(); ++v) {
    const Vector3d p = sphere.vertices.row(v).transpose();
    const Vector3d n = sphere.normals.row(v).transpose();
    ids.push_back(out.vertex(e.center + e.radii.cwiseProduct(p), n.cwiseQuotient(e.radii)));
  }
  for (Eigen::Index t = 0; t < sphere.triangles.rows(); ++t) {
    out.triangle(ids[static_cast<std::size_t>(sphere.triangles(t, 0))],
                 ids[static_cast<std::size_t>(sphere.triangles(t, 1))],
                 ids[static_cast<std::size_t>(sphere.triangles(t, 2))]);
  }
}

void append(PrimitiveSurface& to, const PrimitiveSurface& from, const std::vector<bool>& keep) {
  const Eigen::Index offset = to.vertices.rows();
  const Eigen::Index kept = std::count(keep.begin(), keep.end(), true);
  const Eigen::Index before = to.triangles.rows();
  to.triangles.conservativeResize(before + kept, 3);
  Eigen::Index row = before;
  for (Eigen::Index t = 0; t < from.triangles.rows(); ++t) {
    if (keep[static_cast<std::size_t>(t)])
      to.triangles.row(row++) = from.triangles.row(t).array() + static_cast<int>(offset);
  }
  to.vertices.conservativeResize(offset + from.vertices.rows(), 3);
  to.vertices.bottomRows(from.vertices.rows()) = from.vertices;
  to.normals.conservativeResize(offset + from.normals.rows(), 3);
  to.normals.bottomRows(from.normals.rows()) = from.normals;
}

// Drops the vertices no triangle uses, renumbering the rest in order.
void drop_unused(PrimitiveSurface& s) {
  std::vector<int> index(static_cast<std::size_t>(s.vertices.rows()), -1);
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k) index[static_cast<std::size_t>(s.triangles(t, k))] = 0;
  }
  int next = 0;
  for (int& i : index) {
    if (i == 0) i = next++;
  }
  mesh::Vertices vertices(next, 3), normals(next, 3);
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    const int i = index[static_cast<std::size_t>(v)];
    if (i < 0) continue;
    vertices.row(i) = s.vertices.row(v);
    normals.row(i) = s.normals.row(v);
  }
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k)
      s.triangles(t, k) = index[static_cast<std::size_t>(s.triangles(t, k))];
  }
  s.vertices = std::move(vertices);
  s.normals = std::move(normals);
}

}  // namespace

PrimitiveSurface primitive_surface(const geometry::Primitive& primitive, double spacing) {
  if (!(spacing > 0.0) || !std::isfinite(spacing)) {
    throw std::invalid_argument("primitive_surface: the spacing must be positive and finite");
  }
  const geometry::Similarity& to_world = primitive.to_world;
  const double local_spacing = spacing / to_world.scale;
  Builder builder;
  std::visit(
      [&](const auto& shape) {
        using S = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<S, geometry::BoxShape>)
          add_box(shape, local_spacing, builder);
        else if constexpr (std::is_same_v<S, geometry::CylinderShape>)
          add_cylinder(shape, local_spacing, builder);
        else if constexpr (std::is_same_v<S, geometry::CapsuleShape>)
          add_capsule(shape, local_spacing, builder);
        else
          add_ellipsoid(shape, local_spacing, builder);
      },
      primitive.shape);
  PrimitiveSurface s = builder.finish();
  const bool identity = to_world.scale == 1.0 && to_world.rotation == Eigen::Matrix3d::Identity() &&
                        to_world.translation.isZero();
  if (!identity) {
    for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
      const Vector3d p = s.vertices.row(v).transpose();
      s.vertices.row(v) =
          (to_world.scale * (to_world.rotation * p) + to_world.translation).transpose();
      s.normals.row(v) = (to_world.rotation * Vector3d(s.normals.row(v).transpose())).transpose();
    }
  }
  return s;
}

PrimitiveSurface union_surface(const std::vector<geometry::Primitive>& primitives, double spacing) {
  std::vector<PrimitiveSurface> pieces;
  std::vector<geometry::Sdf> sdfs;
  Eigen::AlignedBox3d bounds;
  for (const geometry::Primitive& primitive : primitives) {
    pieces.push_back(primitive_surface(primitive, spacing));
    sdfs.push_back(geometry::primitive_sdf(primitive));
    bounds.extend(sdfs.back().bounds());
  }
  const double hair = 1e-7 * bounds.diagonal().norm();
  const double touching = 1e-3 * hair;  // on a primitive's surface, up to rounding

  PrimitiveSurface all;
  all.vertices.resize(0, 3);
  all.normals.resize(0, 3);
  all.triangles.resize(0, 3);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const PrimitiveSurface& piece = pieces[i];
    const Eigen::Index F = piece.triangles.rows();
    // The corners and the centroid of every triangle, nudged out along its normal: rows 4t to
    // 4t + 3.
    geometry::Points nudged(4 * F, 3);
    for (Eigen::Index t = 0; t < F; ++t) {
      const Vector3d a = piece.vertices.row(piece.triangles(t, 0)).transpose();
      const Vector3d b = piece.vertices.row(piece.triangles(t, 1)).transpose();
      const Vector3d c = piece.vertices.row(piece.triangles(t, 2)).transpose();
      const Vector3d out = hair * (b - a).cross(c - a).normalized();
      nudged.row(4 * t) = (a + out).transpose();
      nudged.row(4 * t + 1) = (b + out).transpose();
      nudged.row(4 * t + 2) = (c + out).transpose();
      nudged.row(4 * t + 3) = ((a + b + c) / 3.0 + out).transpose();
    }
    std::vector<bool> keep(static_cast<std::size_t>(F), true);
    for (std::size_t j = 0; j < pieces.size(); ++j) {
      if (j == i) continue;
      const Eigen::VectorXd values = sdfs[j].evaluate(nudged);
      for (Eigen::Index t = 0; t < F; ++t) {
        if (values[4 * t] <= touching && values[4 * t + 1] <= touching &&
            values[4 * t + 2] <= touching && values[4 * t + 3] < 0.0) {
          keep[static_cast<std::size_t>(t)] = false;
        }
      }
    }
    append(all, piece, keep);
  }
  drop_unused(all);
  return all;
}

}  // namespace smfem::render
