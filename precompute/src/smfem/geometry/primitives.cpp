#include "smfem/geometry/primitives.hpp"

#include <cmath>
#include <type_traits>

#include <Eigen/LU>  // determinant()

#include "smfem/geometry/detail/sdf_program.hpp"

namespace smfem::geometry {
namespace {

// world = linear * local + offset.
struct Affine {
  Eigen::Matrix3d linear = Eigen::Matrix3d::Identity();
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
};

Similarity as_similarity(const Affine& a) {
  // Frames come from transform(): linear = scale * rotation, scale > 0.
  Similarity s;
  s.scale = std::cbrt(a.linear.determinant());
  s.rotation = a.linear / s.scale;
  s.translation = a.offset;
  return s;
}

}  // namespace

std::optional<std::vector<Primitive>> union_primitives(const Sdf& sdf) {
  std::vector<Affine> frames(1);
  std::vector<Primitive> primitives;
  for (const detail::Instruction& instruction : sdf.program().code) {
    bool ok = true;
    std::visit(
        [&](const auto& op) {
          using Op = std::decay_t<decltype(op)>;
          const Similarity to_world = as_similarity(frames.back());
          if constexpr (std::is_same_v<Op, detail::BoxOp>) {
            const Eigen::Vector3d half = op.inner_half.array() + op.rounding;
            primitives.push_back({BoxShape{op.center, half, op.rounding}, to_world});
          } else if constexpr (std::is_same_v<Op, detail::CylinderOp>) {
            const Eigen::Vector3d half = op.half_length * op.unit_axis;
            primitives.push_back(
                {CylinderShape{op.middle - half, op.middle + half, op.radius}, to_world});
          } else if constexpr (std::is_same_v<Op, detail::CapsuleOp>) {
            primitives.push_back({CapsuleShape{op.from, op.from + op.axis, op.radius}, to_world});
          } else if constexpr (std::is_same_v<Op, detail::EllipsoidOp>) {
            primitives.push_back(
                {EllipsoidShape{op.center, op.inverse_radii.cwiseInverse()}, to_world});
          } else if constexpr (std::is_same_v<Op, detail::MinOp>) {
            // A union: nothing to record.
          } else if constexpr (std::is_same_v<Op, detail::PushFrameOp>) {
            // local' = L local + o, so local = L^-1 (local' - o).
            const Eigen::Matrix3d inverse = op.linear.inverse();
            const Affine& outer = frames.back();
            frames.push_back(
                {outer.linear * inverse, outer.offset - outer.linear * inverse * op.offset});
          } else if constexpr (std::is_same_v<Op, detail::PopFrameOp>) {
            frames.pop_back();
          } else {
            ok = false;  // MeshOp, MaxOp, SubtractOp, SmoothMinOp
          }
        },
        instruction);
    if (!ok) return std::nullopt;
  }
  if (primitives.empty()) return std::nullopt;
  return primitives;
}

Sdf primitive_sdf(const Primitive& primitive) {
  const Sdf local = std::visit(
      [](const auto& s) -> Sdf {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, BoxShape>)
          return box(s.center, s.half_extents, s.rounding);
        else if constexpr (std::is_same_v<S, CylinderShape>)
          return cylinder(s.from, s.to, s.radius);
        else if constexpr (std::is_same_v<S, CapsuleShape>)
          return capsule(s.from, s.to, s.radius);
        else
          return ellipsoid(s.center, s.radii);
      },
      primitive.shape);
  const Similarity& t = primitive.to_world;
  if (t.scale == 1.0 && t.rotation == Eigen::Matrix3d::Identity() && t.translation.isZero()) {
    return local;
  }
  return transform(local, t);
}

}  // namespace smfem::geometry
