#include "smfem/geometry/triangle_mesh_sdf.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>

#include "smfem/geometry/error.hpp"
#include "smfem/geometry/point_triangle.hpp"

namespace smfem::geometry {
namespace {

// Centroids sampled for the inside check; enough for a stable mean, bounded cost.
constexpr int kSurfaceSamples = 2048;

// Validates the input and returns one bounding box per triangle.
std::vector<Eigen::AlignedBox3d> triangle_boxes(Eigen::Ref<const mesh::Vertices> vertices,
                                                Eigen::Ref<const mesh::Triangles> triangles) {
  if (triangles.rows() == 0) throw GeometryError("the surface has no triangles");
  if (!vertices.allFinite()) throw GeometryError("the surface has non-finite coordinates");
  if (triangles.minCoeff() < 0 || triangles.maxCoeff() >= vertices.rows()) {
    throw GeometryError("a triangle refers to a vertex that does not exist");
  }
  return geometry::element_boxes(vertices, triangles);
}

// What keeps a surface without an inside from having one, as advice: its open edges (holes), or
// edges its two triangles cross in the same direction (one of them faces the wrong way). A closed
// surface with flipped triangles was told to close holes it did not have.
std::string closing_advice(Eigen::Ref<const mesh::Triangles> triangles) {
  // Per undirected edge (low, high): its uses, and the uses going from low to high.
  std::map<std::pair<int, int>, std::pair<int, int>> edges;
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = triangles(t, k), b = triangles(t, (k + 1) % 3);
      auto& [uses, forward] = edges[{std::min(a, b), std::max(a, b)}];
      ++uses;
      if (a < b) ++forward;
    }
  }
  int open = 0, flipped = 0;
  for (const auto& [edge, count] : edges) {
    if (count.first == 1) ++open;
    if (count.first == 2 && count.second != 1) ++flipped;
  }
  std::ostringstream advice;
  if (open > 0) {
    advice << "it has " << open << " open edges: close its holes or give a tet mesh instead";
  } else if (flipped > 0) {
    advice << "it is closed, but across " << flipped
           << " edges its triangles face opposite ways: orient them all outwards (your modeller's "
              "\"recalculate normals\")";
  } else {
    advice << "give a closed surface or a tet mesh instead";
  }
  return advice.str();
}

}  // namespace

TriangleMeshSdf::TriangleMeshSdf(Eigen::Ref<const mesh::Vertices> vertices,
                                 Eigen::Ref<const mesh::Triangles> triangles)
    : vertices_(vertices), triangles_(triangles), tree_(triangle_boxes(vertices, triangles)) {
  bounds_ = tree_.nodes().front().box;
  build_dipoles();
  surface_winding_ = measure_surface_winding();
  if (std::abs(surface_winding_) < kMinSurfaceWinding) {
    std::ostringstream problem;
    problem << "the surface does not enclose a volume: its mean winding number on the surface "
               "is "
            << surface_winding_ << " (1/2 for a closed surface); " << closing_advice(triangles);
    throw GeometryError(problem.str());
  }
  if (surface_winding_ < 0.0) {
    orientation_ = -1.0;
    surface_winding_ = -surface_winding_;
  }
}

Eigen::Vector3d TriangleMeshSdf::corner(int triangle, int k) const {
  return vertices_.row(triangles_(triangle, k)).transpose();
}

void TriangleMeshSdf::build_dipoles() {
  const auto& nodes = tree_.nodes();
  dipoles_.resize(nodes.size());
  std::vector<double> areas(nodes.size(), 0.0);
  // Children come after their parents, so a reverse sweep sees children first.
  for (std::size_t n = nodes.size(); n-- > 0;) {
    const AabbTree::Node& node = nodes[n];
    Dipole& dipole = dipoles_[n];
    if (node.is_leaf()) {
      Eigen::Vector3d weighted = Eigen::Vector3d::Zero();
      dipole.area_normal.setZero();
      double area = 0.0;
      for (int i = node.begin; i < node.end; ++i) {
        const int t = tree_.order()[static_cast<std::size_t>(i)];
        const Eigen::Vector3d a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
        const Eigen::Vector3d n2 = (b - a).cross(c - a);
        const double triangle_area = 0.5 * n2.norm();
        dipole.area_normal += 0.5 * n2;
        weighted += triangle_area * (a + b + c) / 3.0;
        area += triangle_area;
      }
      dipole.centre = area > 0.0 ? Eigen::Vector3d(weighted / area) : node.box.center();
      dipole.radius = 0.0;
      for (int i = node.begin; i < node.end; ++i) {
        const int t = tree_.order()[static_cast<std::size_t>(i)];
        for (int k = 0; k < 3; ++k) {
          dipole.radius = std::max(dipole.radius, (corner(t, k) - dipole.centre).norm());
        }
      }
      areas[n] = area;
    } else {
      const auto l = static_cast<std::size_t>(node.left), r = static_cast<std::size_t>(node.right);
      const double area = areas[l] + areas[r];
      dipole.area_normal = dipoles_[l].area_normal + dipoles_[r].area_normal;
      dipole.centre =
          area > 0.0 ? Eigen::Vector3d(
                           (areas[l] * dipoles_[l].centre + areas[r] * dipoles_[r].centre) / area)
                     : node.box.center();
      dipole.radius = std::max((dipole.centre - dipoles_[l].centre).norm() + dipoles_[l].radius,
                               (dipole.centre - dipoles_[r].centre).norm() + dipoles_[r].radius);
      areas[n] = area;
    }
  }
}

double TriangleMeshSdf::raw_winding_number(const Eigen::Vector3d& p, int skipped_triangle) const {
  const auto& nodes = tree_.nodes();
  double solid_angle = 0.0;
  int stack[128];
  int size = 0;
  stack[size++] = 0;
  while (size > 0) {
    const int n = stack[--size];
    const Dipole& dipole = dipoles_[static_cast<std::size_t>(n)];
    const Eigen::Vector3d offset = dipole.centre - p;
    const double distance = offset.norm();
    if (distance > kFarField * dipole.radius) {
      solid_angle += offset.dot(dipole.area_normal) / (distance * distance * distance);
      continue;
    }
    const AabbTree::Node& node = nodes[static_cast<std::size_t>(n)];
    if (node.is_leaf()) {
      for (int i = node.begin; i < node.end; ++i) {
        const int t = tree_.order()[static_cast<std::size_t>(i)];
        if (t == skipped_triangle) continue;
        solid_angle += triangle_solid_angle(p, corner(t, 0), corner(t, 1), corner(t, 2));
      }
    } else {
      stack[size++] = node.right;
      stack[size++] = node.left;
    }
  }
  return solid_angle / (4.0 * std::numbers::pi);
}

double TriangleMeshSdf::measure_surface_winding() const {
  const Eigen::Index count = triangles_.rows();
  const Eigen::Index stride = std::max<Eigen::Index>(1, count / kSurfaceSamples);
  double weighted = 0.0, total_area = 0.0;
  for (Eigen::Index t = 0; t < count; t += stride) {
    const int triangle = static_cast<int>(t);
    const Eigen::Vector3d a = corner(triangle, 0), b = corner(triangle, 1), c = corner(triangle, 2);
    const double area = 0.5 * (b - a).cross(c - a).norm();
    if (area <= 0.0) continue;
    weighted += area * raw_winding_number((a + b + c) / 3.0, triangle);
    total_area += area;
  }
  return total_area > 0.0 ? weighted / total_area : 0.0;
}

double TriangleMeshSdf::winding_number(const Eigen::Vector3d& p) const {
  return orientation_ * raw_winding_number(p, -1);
}

double TriangleMeshSdf::exact_winding_number(const Eigen::Vector3d& p) const {
  double solid_angle = 0.0;
  for (int t = 0; t < static_cast<int>(triangles_.rows()); ++t) {
    solid_angle += triangle_solid_angle(p, corner(t, 0), corner(t, 1), corner(t, 2));
  }
  return orientation_ * solid_angle / (4.0 * std::numbers::pi);
}

double TriangleMeshSdf::unsigned_distance(const Eigen::Vector3d& p) const {
  const double squared = tree_.minimize(
      [&](const Eigen::AlignedBox3d& box) { return box.squaredExteriorDistance(p); },
      [&](int t) {
        return (closest_point_on_triangle(p, corner(t, 0), corner(t, 1), corner(t, 2)) - p)
            .squaredNorm();
      });
  return std::sqrt(squared);
}

double TriangleMeshSdf::signed_distance(const Eigen::Vector3d& p) const {
  const double distance = unsigned_distance(p);
  return winding_number(p) > 0.5 ? -distance : distance;
}

}  // namespace smfem::geometry
