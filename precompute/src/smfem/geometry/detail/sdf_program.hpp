#pragma once
// The compiled form of an Sdf: a postfix program over a stack of value blocks and a stack of
// coordinate frames. Primitives push the distance of every point of the current frame;
// combinations pop two values and push one; a transform pushes a frame (the points mapped
// into the operand's coordinates) and pops it after the operand, rescaling the value.
#include <memory>
#include <variant>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace smfem::geometry {
class TriangleMeshSdf;
}

namespace smfem::geometry::detail {

struct BoxOp {
  Eigen::Vector3d center;
  Eigen::Vector3d inner_half;  // half extents minus the rounding
  double rounding;
};

struct CapsuleOp {
  Eigen::Vector3d from;
  Eigen::Vector3d axis;         // to - from
  double inverse_axis_squared;  // 0 for a sphere
  double radius;
};

struct EllipsoidOp {
  Eigen::Vector3d center;
  Eigen::Vector3d inverse_radii;
  Eigen::Vector3d inverse_radii_squared;
  double min_radius;
};

struct CylinderOp {
  Eigen::Vector3d middle;  // midpoint of the axis segment
  Eigen::Vector3d unit_axis;
  double half_length;
  double radius;
};

struct MeshOp {
  std::shared_ptr<const TriangleMeshSdf> surface;
};

struct MinOp {};
struct MaxOp {};
struct SubtractOp {};  // max(a, -b) with b on top
struct SmoothMinOp {
  double radius;
};

// local = linear * point + offset, the inverse of the operand's similarity transform.
struct PushFrameOp {
  Eigen::Matrix3d linear;
  Eigen::Vector3d offset;
};
struct PopFrameOp {
  double scale;
};

using Instruction = std::variant<BoxOp, CapsuleOp, EllipsoidOp, CylinderOp, MeshOp, MinOp, MaxOp,
                                 SubtractOp, SmoothMinOp, PushFrameOp, PopFrameOp>;

struct Program {
  std::vector<Instruction> code;
  Eigen::AlignedBox3d bounds;
  int value_depth = 0;  // deepest value stack the code reaches
  int frame_depth = 0;  // deepest frame stack, not counting the caller's points
};

// Fills depths from the code; throws std::logic_error if the code is not well formed.
void finish_program(Program& program);

// values[i] = program(points[3i], points[3i+1], points[3i+2]) for i < count.
void run_program(const Program& program, const double* points, double* values, std::size_t count);

}  // namespace smfem::geometry::detail
