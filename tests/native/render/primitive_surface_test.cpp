#include "smfem/render/primitive_surface.hpp"

#include <array>
#include <cmath>
#include <map>
#include <numbers>

#include <gtest/gtest.h>

#include "smfem/geometry/sdf.hpp"

namespace smfem::render {
namespace {

using Eigen::Vector3d;
using geometry::Primitive;

Vector3d vertex(const PrimitiveSurface& s, int v) { return s.vertices.row(v).transpose(); }

Vector3d face_normal(const PrimitiveSurface& s, Eigen::Index t) {
  const Vector3d a = vertex(s, s.triangles(t, 0)), b = vertex(s, s.triangles(t, 1)),
                 c = vertex(s, s.triangles(t, 2));
  return (b - a).cross(c - a).normalized();
}

// Closed and consistently oriented once coincident vertices (within 1e-12) are merged: every
// directed edge appears once and its reverse once.
void expect_closed(const PrimitiveSurface& s) {
  std::map<std::array<long long, 3>, int> id_of;
  std::vector<int> merged(static_cast<std::size_t>(s.vertices.rows()));
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    std::array<long long, 3> key{};
    for (int d = 0; d < 3; ++d) key[d] = std::llround(s.vertices(v, d) * 1e12);
    merged[static_cast<std::size_t>(v)] =
        id_of.emplace(key, static_cast<int>(id_of.size())).first->second;
  }
  std::map<std::pair<int, int>, int> directed;
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = merged[static_cast<std::size_t>(s.triangles(t, k))];
      const int b = merged[static_cast<std::size_t>(s.triangles(t, (k + 1) % 3))];
      ASSERT_NE(a, b) << "degenerate triangle " << t;
      ++directed[{a, b}];
    }
  }
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1) << "edge " << edge.first << "-" << edge.second;
    const auto reverse = directed.find({edge.second, edge.first});
    EXPECT_TRUE(reverse != directed.end() && reverse->second == 1)
        << "open edge " << edge.first << "-" << edge.second;
  }
}

// Signed volume enclosed (positive for outward-facing triangles) and area.
std::pair<double, double> volume_and_area(const PrimitiveSurface& s) {
  double volume = 0.0, area = 0.0;
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    const Vector3d a = vertex(s, s.triangles(t, 0)), b = vertex(s, s.triangles(t, 1)),
                   c = vertex(s, s.triangles(t, 2));
    volume += a.dot(b.cross(c)) / 6.0;
    area += 0.5 * (b - a).cross(c - a).norm();
  }
  return {volume, area};
}

void expect_on_surface(const PrimitiveSurface& s, const Primitive& p, double tolerance) {
  const Eigen::VectorXd d = geometry::primitive_sdf(p).evaluate(s.vertices);
  EXPECT_LT(d.cwiseAbs().maxCoeff(), tolerance);
}

TEST(PrimitiveSurface, BoxHasItsCornersExactlyFlatFacesAndIsClosed) {
  const Vector3d center(0.1, -0.2, 0.3), half(0.5, 0.05, 0.07);
  const Primitive box{geometry::BoxShape{center, half}, {}};
  const double spacing = 0.013;
  const PrimitiveSurface s = primitive_surface(box, spacing);
  ASSERT_GT(s.triangles.rows(), 12);

  // Each corner exactly, three times (once per face meeting there, each with its own normal).
  for (int corner = 0; corner < 8; ++corner) {
    Vector3d c;
    for (int d = 0; d < 3; ++d)
      c[d] = (corner >> d & 1) ? center[d] + half[d] : center[d] - half[d];
    int found = 0;
    Vector3d normal_sum = Vector3d::Zero();
    for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
      if (vertex(s, static_cast<int>(v)) == c) ++found, normal_sum += s.normals.row(v).transpose();
    }
    EXPECT_EQ(found, 3) << "corner " << corner;
    for (int d = 0; d < 3; ++d) EXPECT_EQ(std::abs(normal_sum[d]), 1.0);
  }

  // Every vertex on a face (one coordinate exactly at the face, the others within it), with
  // that face's normal; every triangle flat on the face its vertices' normals name.
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    const Vector3d n = s.normals.row(v).transpose();
    ASSERT_EQ(n.cwiseAbs().sum(), 1.0);
    Eigen::Index axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    const double face = n[axis] > 0 ? center[axis] + half[axis] : center[axis] - half[axis];
    EXPECT_EQ(s.vertices(v, axis), face);
    for (int d = 0; d < 3; ++d) {
      EXPECT_LE(std::abs(s.vertices(v, d) - center[d]), half[d]);
    }
  }
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    const Vector3d n = face_normal(s, t);
    for (int k = 0; k < 3; ++k) {
      EXPECT_LT((n - s.normals.row(s.triangles(t, k)).transpose()).norm(), 1e-12);
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_LE((vertex(s, s.triangles(t, k)) - vertex(s, s.triangles(t, (k + 1) % 3))).norm(),
                spacing * std::sqrt(2.0) + 1e-12);
    }
  }
  expect_closed(s);
  const auto [volume, area] = volume_and_area(s);
  EXPECT_NEAR(volume, 8 * half.prod(), 1e-14);
  EXPECT_NEAR(area, 8 * (half.x() * half.y() + half.y() * half.z() + half.z() * half.x()), 1e-13);
}

// The jelly cube's shape: the stuffed tets' boundary drew its rounded edges as a staircase
// (dark teeth under smooth shading); the exact surface lies on the rounded box, with normals
// that turn smoothly across the edges and corners.
TEST(PrimitiveSurface, RoundedBoxLiesOnItsSurfaceWithSmoothNormalsAndIsClosed) {
  const Vector3d center(0.1, -0.2, 0.3), half(0.1, 0.08, 0.06);
  for (const double rounding : {0.015, 0.06}) {  // a little, and as round as the thinnest side
    const Primitive box{geometry::BoxShape{center, half, rounding}, {}};
    const PrimitiveSurface s = primitive_surface(box, 0.013);
    expect_on_surface(s, box, 1e-12);
    expect_closed(s);
    // Normals: the shape's own (its distance's gradient), and no triangle's facet turns far
    // from its corners' normals (the arcs are cut into pieces of 15 degrees at most).
    const auto sdf = geometry::primitive_sdf(box);
    for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
      const Vector3d p = vertex(s, static_cast<int>(v));
      Vector3d gradient;
      for (int d = 0; d < 3; ++d) {
        Eigen::Matrix<double, 2, 3> at;
        at.row(0) = at.row(1) = p.transpose();
        at(0, d) += 1e-7;
        at(1, d) -= 1e-7;
        const Eigen::VectorXd values = sdf.evaluate(at);
        gradient[d] = (values[0] - values[1]) / 2e-7;
      }
      EXPECT_LT((gradient.normalized() - s.normals.row(v).transpose()).norm(), 1e-5) << v;
    }
    for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
      for (int k = 0; k < 3; ++k) {
        const double cosine = face_normal(s, t).dot(s.normals.row(s.triangles(t, k)).transpose());
        EXPECT_GT(cosine, std::cos(15.0 * std::numbers::pi / 180.0)) << t;
      }
    }
    // Volume and area of the rounded box (a: the inner half extents), approached as the
    // spacing shrinks (the chords' loss is second order in the arcs' pieces).
    const Vector3d a = half.array() - rounding;
    const double pi = std::numbers::pi, r = rounding;
    const double faces = a.x() * a.y() + a.y() * a.z() + a.z() * a.x();
    const double exact_volume =
        8 * a.prod() + 8 * r * faces + 2 * pi * r * r * a.sum() + 4.0 / 3.0 * pi * r * r * r;
    const double exact_area = 8 * faces + 4 * pi * r * a.sum() + 4 * pi * r * r;
    const auto [volume, area] = volume_and_area(s);
    const auto [finer_volume, finer_area] = volume_and_area(primitive_surface(box, 0.013 / 4));
    EXPECT_NEAR(volume / exact_volume, 1.0, 2e-2) << rounding;
    EXPECT_NEAR(area / exact_area, 1.0, 1e-2) << rounding;
    if (rounding > 0.05) {  // arcs of 4 pieces, then 15 (the small rounding keeps its minimum 3-4)
      EXPECT_LT(std::abs(finer_volume / exact_volume - 1), std::abs(volume / exact_volume - 1) / 8);
      EXPECT_LT(std::abs(finer_area / exact_area - 1), std::abs(area / exact_area - 1) / 8);
    }
  }
}

TEST(PrimitiveSurface, TransformedBoxKeepsCornersAndTurnsNormals) {
  geometry::Similarity t;
  t.rotation = geometry::rotation_from_axis_angle_deg(Vector3d(1, 1, 0), 30);
  t.translation = Vector3d(1, 2, 3);
  t.scale = 2;
  const Vector3d half(0.2, 0.1, 0.3);
  const Primitive box{geometry::BoxShape{Vector3d::Zero(), half}, t};
  const PrimitiveSurface s = primitive_surface(box, 0.1);
  expect_on_surface(s, box, 1e-12);
  const Vector3d corner = t.scale * (t.rotation * half) + t.translation;
  double nearest = 1e300;
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    nearest = std::min(nearest, (vertex(s, static_cast<int>(v)) - corner).norm());
  }
  EXPECT_LT(nearest, 1e-12);
  for (Eigen::Index f = 0; f < s.triangles.rows(); ++f) {
    EXPECT_LT((face_normal(s, f) - s.normals.row(s.triangles(f, 0)).transpose()).norm(), 1e-9);
  }
  expect_closed(s);
  EXPECT_NEAR(volume_and_area(s).first, 8 * half.prod() * 8, 1e-12);
}

TEST(PrimitiveSurface, CylinderCapsAreFlatWithSharpRims) {
  const Vector3d from(0.1, 0.9, -0.2), to(0.3, 0.5, 0.1);
  const double radius = 0.05;
  const Primitive cylinder{geometry::CylinderShape{from, to, radius}, {}};
  const PrimitiveSurface s = primitive_surface(cylinder, 0.02);
  const Vector3d axis = (to - from).normalized();
  expect_on_surface(s, cylinder, 1e-12);
  expect_closed(s);

  int rim_cap = 0, rim_side = 0;
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    const Vector3d p = vertex(s, static_cast<int>(v));
    const Vector3d n = s.normals.row(v).transpose();
    const double along = (p - from).dot(axis);
    const Vector3d radial = (p - from) - along * axis;
    const bool on_rim = std::abs(radial.norm() - radius) < 1e-12 &&
                        (std::abs(along) < 1e-12 || std::abs(along - (to - from).norm()) < 1e-12);
    const bool cap = std::abs(std::abs(n.dot(axis)) - 1.0) < 1e-12;
    if (cap) {
      // On a cap: the axis (out of the body) as normal.
      EXPECT_LT((n - (along < 1e-12 ? -axis : axis)).norm(), 1e-12);
    } else {
      // On the side: the radial direction.
      EXPECT_LT((n - radial.normalized()).norm(), 1e-12);
    }
    if (on_rim) ++(cap ? rim_cap : rim_side);
  }
  // Every rim point twice: once on the cap, once on the side, with normals at right angles.
  EXPECT_EQ(rim_cap, rim_side);
  EXPECT_GE(rim_cap, 2 * kMinSegments);
  // The triangles on either side of a rim meet at 90 degrees: cap triangles are flat.
  for (Eigen::Index f = 0; f < s.triangles.rows(); ++f) {
    const bool cap =
        std::abs(std::abs(s.normals.row(s.triangles(f, 0)).dot(axis.transpose())) - 1) < 1e-12;
    if (cap)
      EXPECT_NEAR(std::abs(face_normal(s, f).dot(axis)), 1.0, 1e-12);
    else
      EXPECT_NEAR(face_normal(s, f).dot(axis), 0.0, 1e-12);
  }
  const double exact = std::numbers::pi * radius * radius * (to - from).norm();
  const double volume = volume_and_area(s).first;
  EXPECT_GT(volume, 0.99 * exact);
  EXPECT_LT(volume, exact);
}

TEST(PrimitiveSurface, RoundShapesAreClosedWithExactNormals) {
  geometry::Similarity t;
  t.rotation = geometry::rotation_from_euler_deg(Vector3d(20, 40, 60));
  t.translation = Vector3d(0.5, 0, 0);
  const std::vector<Primitive> shapes = {
      {geometry::CapsuleShape{Vector3d(0, 0, 0), Vector3d(0, 0, 0), 0.3}, {}},
      {geometry::CapsuleShape{Vector3d(0, 0, 0), Vector3d(0.4, 0.2, 0), 0.1}, t},
      {geometry::EllipsoidShape{Vector3d(0, 0.1, 0), Vector3d(0.3, 0.1, 0.2)}, t},
  };
  for (const Primitive& shape : shapes) {
    const PrimitiveSurface s = primitive_surface(shape, 0.03);
    expect_on_surface(s, shape, 1e-9);
    expect_closed(s);
    EXPECT_GT(volume_and_area(s).first, 0.0);
    const geometry::Sdf sdf = geometry::primitive_sdf(shape);
    for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
      const Vector3d gradient = sdf.gradient(vertex(s, static_cast<int>(v)), 1e-7).normalized();
      EXPECT_LT((gradient - s.normals.row(v).transpose()).norm(), 1e-5);
    }
  }
}

TEST(PrimitiveSurface, UnionDropsWhatOtherPrimitivesHide) {
  // The pendulum's top: a block with a link hanging from its bottom face, the link's top cap
  // pressed against that face, and a second block overlapping the first.
  const std::vector<Primitive> parts = {
      {geometry::BoxShape{Vector3d(0, 0.95, 0), Vector3d(0.1, 0.05, 0.1)}, {}},
      {geometry::CylinderShape{Vector3d(0, 0.9, 0), Vector3d(0, 0.7, 0), 0.02}, {}},
      {geometry::BoxShape{Vector3d(0.15, 0.95, 0), Vector3d(0.1, 0.05, 0.1)}, {}},
  };
  const double spacing = 0.01;
  const PrimitiveSurface s = union_surface(parts, spacing);
  std::size_t all = 0;
  for (const Primitive& p : parts)
    all += static_cast<std::size_t>(primitive_surface(p, spacing).triangles.rows());
  EXPECT_LT(static_cast<std::size_t>(s.triangles.rows()), all);

  // No triangle of the link's top cap is left (it lies flat against the block).
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    const bool cap = s.vertices(v, 1) == 0.9 && s.normals(v, 1) == 1.0;
    EXPECT_FALSE(cap) << "vertex " << v;
  }
  // No triangle is wholly inside the body; every triangle touches the union's boundary or
  // crosses into a neighbour, and the union's surface is covered: its area is at most the
  // triangles' area.
  const geometry::Sdf body =
      geometry::unite({geometry::primitive_sdf(parts[0]), geometry::primitive_sdf(parts[1]),
                       geometry::primitive_sdf(parts[2])});
  for (Eigen::Index f = 0; f < s.triangles.rows(); ++f) {
    double most = -1e300;
    for (int k = 0; k < 3; ++k)
      most = std::max(most, body(vertex(s, s.triangles(f, k)) + 1e-9 * face_normal(s, f)));
    EXPECT_GT(most, -1e-12) << "triangle " << f;
  }
  // The union's boundary: the two blocks' box [-0.1, 0.25] x [0.9, 1] x [-0.1, 0.1] less the
  // disc the link hangs from, the link's side and bottom cap.
  const double disc = std::numbers::pi * 0.02 * 0.02;
  const double boundary =
      2 * (0.35 * 0.1 + 0.1 * 0.2 + 0.35 * 0.2) - disc + 2 * std::numbers::pi * 0.02 * 0.2 + disc;
  const double area = volume_and_area(s).second;
  EXPECT_GT(area, boundary - 1e-4);  // the link's polygon is a little smaller than its circle
  // Kept beyond it: the overlap's top, bottom, front and back twice (coplanar, same way), and
  // the part of the block's face under the link (hidden in the link).
  EXPECT_LT(area, boundary + 2 * 0.05 * 0.2 + 2 * 0.05 * 0.1 + 2 * disc);
}

TEST(PrimitiveSurface, RefusesABadSpacing) {
  const Primitive box{geometry::BoxShape{Vector3d::Zero(), Vector3d::Ones()}, {}};
  EXPECT_THROW(primitive_surface(box, 0.0), std::invalid_argument);
  EXPECT_THROW(primitive_surface(box, std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::render
