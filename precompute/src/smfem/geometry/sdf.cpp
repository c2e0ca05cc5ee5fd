#include "smfem/geometry/sdf.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/LU>  // determinant()

#include "smfem/geometry/detail/parallel_for.hpp"
#include "smfem/geometry/detail/sdf_program.hpp"
#include "smfem/geometry/triangle_mesh_sdf.hpp"

namespace smfem::geometry {
namespace {

void require(bool ok, const std::string& problem) {
  if (!ok) throw std::invalid_argument(problem);
}

bool finite(const Eigen::Vector3d& v) { return v.allFinite(); }
bool positive(double x) { return std::isfinite(x) && x > 0.0; }

Sdf primitive(detail::Instruction op, const Eigen::AlignedBox3d& bounds) {
  auto program = std::make_shared<detail::Program>();
  program->code.push_back(std::move(op));
  program->bounds = bounds;
  detail::finish_program(*program);
  return Sdf(std::move(program));
}

// Concatenates the operands' code, joining them left to right with `join`.
std::shared_ptr<detail::Program> fold(const std::vector<Sdf>& operands,
                                      const detail::Instruction& join, const char* what) {
  require(!operands.empty(), std::string(what) + " needs at least one operand");
  auto program = std::make_shared<detail::Program>();
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const auto& code = operands[i].program().code;
    program->code.insert(program->code.end(), code.begin(), code.end());
    if (i > 0) program->code.push_back(join);
  }
  return program;
}

Eigen::AlignedBox3d merged_bounds(const std::vector<Sdf>& operands) {
  Eigen::AlignedBox3d box;  // empty
  for (const Sdf& operand : operands) {
    if (!operand.bounds().isEmpty()) box.extend(operand.bounds());
  }
  return box;
}

}  // namespace

Sdf::Sdf(std::shared_ptr<const detail::Program> program) : program_(std::move(program)) {}

double Sdf::operator()(const Eigen::Vector3d& point) const {
  double value = 0.0;
  detail::run_program(*program_, point.data(), &value, 1);
  return value;
}

void Sdf::evaluate(Eigen::Ref<const Points> points, Eigen::Ref<Eigen::VectorXd> values) const {
  if (values.size() != points.rows()) {
    throw std::invalid_argument("Sdf::evaluate: values must have one entry per point");
  }
  const std::size_t count = static_cast<std::size_t>(points.rows());
  // Ref<const Points> may still have an outer stride; copy slabs into contiguous rows then.
  const bool contiguous = points.outerStride() == 3;
  detail::parallel_for(count, 4096, [&](std::size_t begin, std::size_t end) {
    if (begin == end) return;
    if (contiguous) {
      detail::run_program(*program_, points.data() + 3 * begin, values.data() + begin, end - begin);
    } else {
      Points slab = points.middleRows(static_cast<Eigen::Index>(begin),
                                      static_cast<Eigen::Index>(end - begin));
      detail::run_program(*program_, slab.data(), values.data() + begin, end - begin);
    }
  });
}

Eigen::VectorXd Sdf::evaluate(Eigen::Ref<const Points> points) const {
  Eigen::VectorXd values(points.rows());
  evaluate(points, values);
  return values;
}

Eigen::Vector3d Sdf::gradient(const Eigen::Vector3d& point, double step) const {
  Points probes(6, 3);
  for (int axis = 0; axis < 3; ++axis) {
    probes.row(2 * axis) = point.transpose();
    probes.row(2 * axis + 1) = point.transpose();
    probes(2 * axis, axis) += step;
    probes(2 * axis + 1, axis) -= step;
  }
  const Eigen::VectorXd v = evaluate(probes);
  return Eigen::Vector3d(v[0] - v[1], v[2] - v[3], v[4] - v[5]) / (2.0 * step);
}

const Eigen::AlignedBox3d& Sdf::bounds() const { return program_->bounds; }

Eigen::Matrix3d rotation_from_euler_deg(const Eigen::Vector3d& angles_deg) {
  const Eigen::Vector3d r = angles_deg * (std::numbers::pi / 180.0);
  return (Eigen::AngleAxisd(r.z(), Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(r.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(r.x(), Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Matrix3d rotation_from_axis_angle_deg(const Eigen::Vector3d& axis, double angle_deg) {
  require(finite(axis) && axis.norm() > 0.0 && std::isfinite(angle_deg),
          "rotation axis must be a finite nonzero vector and the angle finite");
  return Eigen::AngleAxisd(angle_deg * (std::numbers::pi / 180.0), axis.normalized())
      .toRotationMatrix();
}

Sdf box(const Eigen::Vector3d& center, const Eigen::Vector3d& half_extents, double rounding) {
  require(finite(center), "box center must be finite");
  require(positive(half_extents.minCoeff()) && finite(half_extents),
          "box half extents must be positive");
  require(std::isfinite(rounding) && rounding >= 0.0 && rounding <= half_extents.minCoeff(),
          "box rounding must lie in [0, smallest half extent]");
  return primitive(detail::BoxOp{center, half_extents.array() - rounding, rounding},
                   Eigen::AlignedBox3d(center - half_extents, center + half_extents));
}

Sdf capsule(const Eigen::Vector3d& from, const Eigen::Vector3d& to, double radius) {
  require(finite(from) && finite(to), "capsule end points must be finite");
  require(positive(radius), "capsule radius must be positive");
  const Eigen::Vector3d axis = to - from;
  const double length_squared = axis.squaredNorm();
  const double inverse = length_squared > 0.0 ? 1.0 / length_squared : 0.0;
  Eigen::AlignedBox3d bounds(from.cwiseMin(to).array() - radius,
                             from.cwiseMax(to).array() + radius);
  return primitive(detail::CapsuleOp{from, axis, inverse, radius}, bounds);
}

Sdf ellipsoid(const Eigen::Vector3d& center, const Eigen::Vector3d& radii) {
  require(finite(center), "ellipsoid center must be finite");
  require(finite(radii) && positive(radii.minCoeff()), "ellipsoid radii must be positive");
  const Eigen::Vector3d inverse = radii.cwiseInverse();
  return primitive(
      detail::EllipsoidOp{center, inverse, inverse.cwiseProduct(inverse), radii.minCoeff()},
      Eigen::AlignedBox3d(center - radii, center + radii));
}

Sdf cylinder(const Eigen::Vector3d& from, const Eigen::Vector3d& to, double radius) {
  require(finite(from) && finite(to), "cylinder end points must be finite");
  require(positive(radius), "cylinder radius must be positive");
  const Eigen::Vector3d axis = to - from;
  const double length = axis.norm();
  require(length > 0.0, "cylinder end points must differ");
  const Eigen::Vector3d unit = axis / length;
  // The caps are discs: along each coordinate a disc reaches radius * sqrt(1 - u_i^2).
  const Eigen::Vector3d reach =
      radius * (Eigen::Vector3d::Ones() - unit.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
  Eigen::AlignedBox3d bounds(from.cwiseMin(to) - reach, from.cwiseMax(to) + reach);
  return primitive(detail::CylinderOp{0.5 * (from + to), unit, 0.5 * length, radius}, bounds);
}

Sdf triangle_mesh(std::shared_ptr<const TriangleMeshSdf> surface) {
  require(surface != nullptr, "triangle_mesh needs a surface");
  const Eigen::AlignedBox3d bounds = surface->bounds();
  return primitive(detail::MeshOp{std::move(surface)}, bounds);
}

Sdf unite(const std::vector<Sdf>& operands) {
  auto program = fold(operands, detail::MinOp{}, "union");
  program->bounds = merged_bounds(operands);
  detail::finish_program(*program);
  return Sdf(std::move(program));
}

Sdf intersect(const std::vector<Sdf>& operands) {
  auto program = fold(operands, detail::MaxOp{}, "intersection");
  Eigen::AlignedBox3d bounds = operands.front().bounds();
  for (const Sdf& operand : operands) bounds = bounds.intersection(operand.bounds());
  program->bounds = bounds;
  detail::finish_program(*program);
  return Sdf(std::move(program));
}

Sdf subtract(const Sdf& body, const Sdf& removed) {
  auto program = fold({body, removed}, detail::SubtractOp{}, "difference");
  program->bounds = body.bounds();
  detail::finish_program(*program);
  return Sdf(std::move(program));
}

Sdf smooth_unite(const std::vector<Sdf>& operands, double radius) {
  require(positive(radius), "smooth union radius must be positive");
  auto program = fold(operands, detail::SmoothMinOp{radius}, "smooth union");
  // The blend bulges out by at most radius / 4 where the operands are distances; a full
  // radius of margin also covers the ellipsoid's estimate.
  Eigen::AlignedBox3d bounds = merged_bounds(operands);
  if (!bounds.isEmpty()) {
    bounds.min().array() -= radius;
    bounds.max().array() += radius;
  }
  program->bounds = bounds;
  detail::finish_program(*program);
  return Sdf(std::move(program));
}

void place(const Similarity& t, Points& points) {
  points = (t.scale * points * t.rotation.transpose()).rowwise() + t.translation.transpose();
}

Sdf transform(const Sdf& operand, const Similarity& t) {
  require(finite(t.translation) && t.rotation.allFinite() && positive(t.scale),
          "transform needs a finite translation and rotation and a positive scale");
  require((t.rotation.transpose() * t.rotation - Eigen::Matrix3d::Identity()).norm() < 1e-9 &&
              t.rotation.determinant() > 0.0,
          "transform rotation must be a proper rotation matrix");
  auto program = std::make_shared<detail::Program>();
  // local = R^T (p - translation) / scale
  const Eigen::Matrix3d linear = t.rotation.transpose() / t.scale;
  program->code.push_back(detail::PushFrameOp{linear, -linear * t.translation});
  const auto& code = operand.program().code;
  program->code.insert(program->code.end(), code.begin(), code.end());
  program->code.push_back(detail::PopFrameOp{t.scale});
  Eigen::AlignedBox3d bounds;
  const Eigen::AlignedBox3d& inner = operand.bounds();
  if (!inner.isEmpty()) {
    for (int corner = 0; corner < 8; ++corner) {
      const Eigen::Vector3d p = inner.corner(static_cast<Eigen::AlignedBox3d::CornerType>(corner));
      bounds.extend(Eigen::Vector3d(t.scale * (t.rotation * p) + t.translation));
    }
  }
  program->bounds = bounds;
  detail::finish_program(*program);
  return Sdf(std::move(program));
}

}  // namespace smfem::geometry
