#include "smfem/geometry/detail/sdf_program.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "smfem/geometry/triangle_mesh_sdf.hpp"

namespace smfem::geometry::detail {
namespace {

// Points per block: large enough for the per-instruction loops to vectorize, small enough
// for a deep program's stacks to stay in L1.
constexpr std::size_t kBlock = 64;

struct Frame {
  std::array<double, kBlock> x, y, z;
};

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

class BlockMachine {
 public:
  explicit BlockMachine(const Program& program)
      : program_(program),
        frames_(static_cast<std::size_t>(program.frame_depth) + 1),
        values_(static_cast<std::size_t>(program.value_depth) * kBlock) {}

  // n <= kBlock points, xyz interleaved.
  void run(const double* points, double* out, std::size_t n) {
    n_ = n;
    frame_ = 0;
    top_ = 0;
    Frame& base = frames_[0];
    for (std::size_t i = 0; i < n; ++i) {
      base.x[i] = points[3 * i];
      base.y[i] = points[3 * i + 1];
      base.z[i] = points[3 * i + 2];
    }
    for (const Instruction& instruction : program_.code) std::visit(*this, instruction);
    std::copy_n(values_.data(), n, out);
  }

  void operator()(const BoxOp& op) {
    const Frame& f = frames_[frame_];
    double* v = push();
    for (std::size_t i = 0; i < n_; ++i) {
      const double qx = std::abs(f.x[i] - op.center.x()) - op.inner_half.x();
      const double qy = std::abs(f.y[i] - op.center.y()) - op.inner_half.y();
      const double qz = std::abs(f.z[i] - op.center.z()) - op.inner_half.z();
      const double ox = std::max(qx, 0.0), oy = std::max(qy, 0.0), oz = std::max(qz, 0.0);
      const double inside = std::min(std::max(qx, std::max(qy, qz)), 0.0);
      v[i] = std::sqrt(ox * ox + oy * oy + oz * oz) + inside - op.rounding;
    }
  }

  void operator()(const CapsuleOp& op) {
    const Frame& f = frames_[frame_];
    double* v = push();
    for (std::size_t i = 0; i < n_; ++i) {
      const double px = f.x[i] - op.from.x(), py = f.y[i] - op.from.y(), pz = f.z[i] - op.from.z();
      const double along =
          (px * op.axis.x() + py * op.axis.y() + pz * op.axis.z()) * op.inverse_axis_squared;
      const double h = std::clamp(along, 0.0, 1.0);
      const double dx = px - op.axis.x() * h, dy = py - op.axis.y() * h, dz = pz - op.axis.z() * h;
      v[i] = std::sqrt(dx * dx + dy * dy + dz * dz) - op.radius;
    }
  }

  void operator()(const EllipsoidOp& op) {
    const Frame& f = frames_[frame_];
    double* v = push();
    for (std::size_t i = 0; i < n_; ++i) {
      const double qx = f.x[i] - op.center.x(), qy = f.y[i] - op.center.y(),
                   qz = f.z[i] - op.center.z();
      const double ax = qx * op.inverse_radii.x(), ay = qy * op.inverse_radii.y(),
                   az = qz * op.inverse_radii.z();
      const double bx = qx * op.inverse_radii_squared.x(), by = qy * op.inverse_radii_squared.y(),
                   bz = qz * op.inverse_radii_squared.z();
      const double k0 = std::sqrt(ax * ax + ay * ay + az * az);
      const double k1 = std::sqrt(bx * bx + by * by + bz * bz);
      const double estimate = k1 > 0.0 ? k0 * (k0 - 1.0) / k1 : -op.min_radius;
      v[i] = std::max(estimate, -op.min_radius);
    }
  }

  void operator()(const CylinderOp& op) {
    const Frame& f = frames_[frame_];
    double* v = push();
    for (std::size_t i = 0; i < n_; ++i) {
      const double qx = f.x[i] - op.middle.x(), qy = f.y[i] - op.middle.y(),
                   qz = f.z[i] - op.middle.z();
      const double s = qx * op.unit_axis.x() + qy * op.unit_axis.y() + qz * op.unit_axis.z();
      const double rx = qx - op.unit_axis.x() * s, ry = qy - op.unit_axis.y() * s,
                   rz = qz - op.unit_axis.z() * s;
      // A 2D box distance in (radial, axial) coordinates.
      const double radial = std::sqrt(rx * rx + ry * ry + rz * rz) - op.radius;
      const double axial = std::abs(s) - op.half_length;
      const double orad = std::max(radial, 0.0), oax = std::max(axial, 0.0);
      v[i] = std::sqrt(orad * orad + oax * oax) + std::min(std::max(radial, axial), 0.0);
    }
  }

  void operator()(const MeshOp& op) {
    const Frame& f = frames_[frame_];
    double* v = push();
    for (std::size_t i = 0; i < n_; ++i) {
      v[i] = op.surface->signed_distance(Eigen::Vector3d(f.x[i], f.y[i], f.z[i]));
    }
  }

  void operator()(const MinOp&) {
    combine([](double a, double b) { return std::min(a, b); });
  }
  void operator()(const MaxOp&) {
    combine([](double a, double b) { return std::max(a, b); });
  }
  void operator()(const SubtractOp&) {
    combine([](double a, double b) { return std::max(a, -b); });
  }
  void operator()(const SmoothMinOp& op) {
    const double k = op.radius;
    combine([k](double a, double b) {
      const double h = std::max(k - std::abs(a - b), 0.0) / k;
      return std::min(a, b) - h * h * k * 0.25;
    });
  }

  void operator()(const PushFrameOp& op) {
    const Frame& from = frames_[frame_];
    Frame& to = frames_[++frame_];
    const Eigen::Matrix3d& m = op.linear;
    for (std::size_t i = 0; i < n_; ++i) {
      const double x = from.x[i], y = from.y[i], z = from.z[i];
      to.x[i] = m(0, 0) * x + m(0, 1) * y + m(0, 2) * z + op.offset.x();
      to.y[i] = m(1, 0) * x + m(1, 1) * y + m(1, 2) * z + op.offset.y();
      to.z[i] = m(2, 0) * x + m(2, 1) * y + m(2, 2) * z + op.offset.z();
    }
  }

  void operator()(const PopFrameOp& op) {
    --frame_;
    double* v = values_.data() + (top_ - 1) * kBlock;
    for (std::size_t i = 0; i < n_; ++i) v[i] *= op.scale;
  }

 private:
  double* push() { return values_.data() + (top_++) * kBlock; }

  template <class Combine>
  void combine(Combine&& c) {
    --top_;
    double* a = values_.data() + (top_ - 1) * kBlock;
    const double* b = values_.data() + top_ * kBlock;
    for (std::size_t i = 0; i < n_; ++i) a[i] = c(a[i], b[i]);
  }

  const Program& program_;
  std::vector<Frame> frames_;
  std::vector<double> values_;
  std::size_t n_ = 0;
  std::size_t frame_ = 0;
  std::size_t top_ = 0;
};

}  // namespace

void finish_program(Program& program) {
  int values = 0, frames = 0;
  program.value_depth = 0;
  program.frame_depth = 0;
  const auto require = [](bool ok) {
    if (!ok) throw std::logic_error("malformed SDF program");
  };
  const auto combination = [&](const auto&) {
    require(values >= 2);
    values -= 1;
  };
  for (const Instruction& instruction : program.code) {
    std::visit(Overloaded{
                   [&](const MinOp& op) { combination(op); },
                   [&](const MaxOp& op) { combination(op); },
                   [&](const SubtractOp& op) { combination(op); },
                   [&](const SmoothMinOp& op) { combination(op); },
                   [&](const PushFrameOp&) { frames += 1; },
                   [&](const PopFrameOp&) {
                     require(frames >= 1 && values >= 1);
                     frames -= 1;
                   },
                   [&](const auto&) { values += 1; },
               },
               instruction);
    program.value_depth = std::max(program.value_depth, values);
    program.frame_depth = std::max(program.frame_depth, frames);
  }
  require(values == 1 && frames == 0);
}

void run_program(const Program& program, const double* points, double* values, std::size_t count) {
  BlockMachine machine(program);
  for (std::size_t begin = 0; begin < count; begin += kBlock) {
    const std::size_t n = std::min(kBlock, count - begin);
    machine.run(points + 3 * begin, values + begin, n);
  }
}

}  // namespace smfem::geometry::detail
