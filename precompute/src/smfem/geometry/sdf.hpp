#pragma once
// Signed distance functions built from primitives, constructive solid geometry and similarity
// transforms: the shapes of procedural scenes and of material and pin regions.
//
// Sign convention: negative inside, zero on the surface, positive outside. The primitives are
// exact Euclidean distances except the ellipsoid (see ellipsoid()); union, intersection and
// difference (min / max) keep the sign exact and the magnitude a bound near creases; the
// smooth union blends within its radius.
//
// An Sdf is an immutable expression compiled to a flat postfix program when it is built, so
// evaluating it costs no allocation and no indirect call per point: evaluate() runs each
// instruction over blocks of points (and over threads for large batches).
#include <memory>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace smfem::geometry {

class TriangleMeshSdf;
namespace detail {
struct Program;
}

// Points, one per row (x y z); row-major like mesh::Vertices.
using Points = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

// x -> scale * rotation * x + translation, with rotation orthonormal (det +1) and scale > 0.
// Distances scale by `scale`, so a transformed SDF stays a distance.
struct Similarity {
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  double scale = 1.0;
};

// points <- t(points), row by row (a mesh file's vertices placed by a recipe's transforms).
void place(const Similarity& t, Points& points);

// Rotation by Euler angles in degrees, applied about x first, then y, then z (R = Rz Ry Rx).
Eigen::Matrix3d rotation_from_euler_deg(const Eigen::Vector3d& angles_deg);
// Rotation by angle_deg about `axis` (any nonzero length), right-handed.
Eigen::Matrix3d rotation_from_axis_angle_deg(const Eigen::Vector3d& axis, double angle_deg);

class Sdf {
 public:
  // Value at one point (for a few points; use evaluate() for many).
  double operator()(const Eigen::Vector3d& point) const;

  // values[i] = sdf(points.row(i)). Large batches are split over threads.
  void evaluate(Eigen::Ref<const Points> points, Eigen::Ref<Eigen::VectorXd> values) const;
  Eigen::VectorXd evaluate(Eigen::Ref<const Points> points) const;

  // Central-difference gradient with step `step` (about 1e-6 of the shape's size is right).
  Eigen::Vector3d gradient(const Eigen::Vector3d& point, double step) const;

  // A box containing every point where the value is <= 0 (conservative; may be loose). Empty
  // (isEmpty()) when the shape is provably empty, e.g. the intersection of disjoint boxes.
  const Eigen::AlignedBox3d& bounds() const;

  // Built by the functions below; the compiled program is for this folder's own use.
  explicit Sdf(std::shared_ptr<const detail::Program> program);
  const detail::Program& program() const { return *program_; }

 private:
  std::shared_ptr<const detail::Program> program_;
};

// Primitives. All throw std::invalid_argument for non-finite input, non-positive sizes or
// radii, or a rounding larger than the smallest half extent.

// Axis-aligned box; `rounding` rounds its edges and corners without changing its extents.
Sdf box(const Eigen::Vector3d& center, const Eigen::Vector3d& half_extents, double rounding = 0.0);
// All points within `radius` of the segment [from, to] (a sphere when from == to).
Sdf capsule(const Eigen::Vector3d& from, const Eigen::Vector3d& to, double radius);
// Axis-aligned ellipsoid. Not an exact distance (no closed form exists): the value is the
// first-order estimate (k0 - 1) k0 / k1 with k0 = |q / r|, k1 = |q / r^2|, q = p - center,
// i.e. g / |grad g| for g = k0 - 1. It has the exact surface and sign, unit gradient on the
// surface, is exact on the principal axes outside and never above the true distance far
// outside; inside it is clamped at -min(r), the deepest any interior point can be.
Sdf ellipsoid(const Eigen::Vector3d& center, const Eigen::Vector3d& radii);
// Solid cylinder of `radius` around the segment [from, to], flat caps at both ends.
Sdf cylinder(const Eigen::Vector3d& from, const Eigen::Vector3d& to, double radius);
// The inside of a closed triangle surface (winding-number sign, see triangle_mesh_sdf.hpp).
Sdf triangle_mesh(std::shared_ptr<const TriangleMeshSdf> surface);

// Combinations. Each throws std::invalid_argument when given no operand.
Sdf unite(const std::vector<Sdf>& operands);        // min
Sdf intersect(const std::vector<Sdf>& operands);    // max
Sdf subtract(const Sdf& body, const Sdf& removed);  // max(body, -removed)
// Polynomial smooth minimum with blend radius k > 0: smin(a, b) = min(a, b) - h^2 k / 4 with
// h = max(k - |a - b|, 0) / k; it fills creases within about k and bulges out by at most k/4.
// Applied left to right over the operands.
Sdf smooth_unite(const std::vector<Sdf>& operands, double radius);
// The shape moved by `transform`: value(p) = scale * operand(transform^-1 p).
Sdf transform(const Sdf& operand, const Similarity& transform);

}  // namespace smfem::geometry
