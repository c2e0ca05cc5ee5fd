// Times the geometry side of the bake: SDF evaluation, isosurface stuffing of a procedural
// creature to a target tet count, and (given a tet mesh file) stuffing its boundary surface
// through the winding-number SDF. Prints counts, seconds and the dihedral angle range.
//   smfem-bench-stuffing [target_tets=500000] [mesh file for the surface test]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "smfem/bake/stage_clock.hpp"
#include "smfem/geometry/sdf.hpp"
#include "smfem/geometry/triangle_mesh_sdf.hpp"
#include "smfem/mesh/read_mesh.hpp"
#include "smfem/render/boundary_surface.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"
#include "smfem/tetrahedralize/resolution.hpp"

namespace {

using namespace smfem;
using Eigen::Vector3d;
using smfem::bake::Clock;
using smfem::bake::seconds_since;

// A body, eight legs and a head, blended: the kind of shape the scenes are built from.
geometry::Sdf creature() {
  std::vector<geometry::Sdf> parts = {
      geometry::ellipsoid(Vector3d(0, 0.5, 0), Vector3d(0.6, 0.35, 0.3)),
      geometry::transform(
          geometry::ellipsoid(Vector3d::Zero(), Vector3d(0.2, 0.15, 0.15)),
          {geometry::rotation_from_euler_deg(Vector3d(0, 0, 30)), Vector3d(0.7, 0.7, 0), 1.0})};
  for (int i = 0; i < 4; ++i) {
    const double x = -0.4 + 0.27 * i;
    for (double side : {-1.0, 1.0}) {
      parts.push_back(geometry::capsule(Vector3d(x, 0.4, 0.2 * side),
                                        Vector3d(x + 0.1, 0.0, 0.45 * side), 0.08));
    }
  }
  return geometry::smooth_unite(parts, 0.08);
}

void stuff_and_report(const char* what, const geometry::Sdf& sdf, double target) {
  auto start = Clock::now();
  const double volume = tetrahedralize::estimate_volume(sdf);
  tetrahedralize::StuffingOptions options;
  options.edge_length = tetrahedralize::edge_length_for_tet_count(volume, target);
  const double estimate_seconds = seconds_since(start);
  start = Clock::now();
  tetrahedralize::StuffingReport report;
  const mesh::TetMesh mesh = tetrahedralize::stuff_isosurface(sdf, options, &report);
  std::printf(
      "%s: volume estimate %.3f s; stuffing at h = %.5g: %ld tets, %ld vertices in %.3f s "
      "(lattice %zu vertices, %zu warped); dihedral angles [%.2f, %.2f] deg\n",
      what, estimate_seconds, options.edge_length, static_cast<long>(mesh.tets.rows()),
      static_cast<long>(mesh.vertices.rows()), seconds_since(start), report.lattice_vertices,
      report.warped_vertices, report.quality.min_dihedral_deg, report.quality.max_dihedral_deg);
}

}  // namespace

int main(int argc, char** argv) {
  const double target = argc > 1 ? std::atof(argv[1]) : 500000.0;
  const geometry::Sdf shape = creature();
  geometry::Points points(2'000'000, 3);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    points.row(i) << coordinate(rng), coordinate(rng), coordinate(rng);
  }
  auto start = Clock::now();
  const Eigen::VectorXd values = shape.evaluate(points);
  std::printf("creature SDF (11 primitives, smooth union): %ld points in %.3f s\n",
              static_cast<long>(values.size()), seconds_since(start));
  stuff_and_report("creature", shape, target);

  if (argc > 2) {
    const render::BoundarySurface surface = render::boundary_surface(mesh::read_tet_mesh(argv[2]));
    start = Clock::now();
    const auto mesh_sdf =
        std::make_shared<const geometry::TriangleMeshSdf>(surface.vertices, surface.triangles);
    std::printf("%s boundary: %ld triangles, SDF built in %.3f s (surface winding %.4f)\n", argv[2],
                static_cast<long>(surface.triangles.rows()), seconds_since(start),
                mesh_sdf->surface_winding());
    stuff_and_report("surface mesh", geometry::triangle_mesh(mesh_sdf), target);
  }
  return 0;
}
