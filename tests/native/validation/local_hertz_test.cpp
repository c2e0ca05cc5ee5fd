// Hertz contact (issue 26): a rigid sphere pressed slowly into a block much larger than the
// contact, meshed finely under it and pinned at its base, baked as users bake theirs (skinning
// eigenmodes, cubature, its mesh with --full-mesh). The global modes alone and local deformations
// at the page's settings, against the whole mesh's static equilibrium by converged full-space FEM
// with the same barrier, and against Hertz's half-space: F = 4/3 E* sqrt(R) delta^(3/2), contact
// radius sqrt(R delta).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "local/drag_block.hpp"
#include "smfem/full/full_simulator.hpp"
#include "smfem/mesh/medit.hpp"
#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "support/test_paths.hpp"
#include "support/text_file.hpp"
#include "validation/baked_model.hpp"

namespace smfem::local::hertz {
namespace {

constexpr double kHalfWidth = 0.3, kHeight = 0.3;  // m: the block, its top at y = kHeight
// m: the cells under the sphere, 7 across the contact (3.5 across its radius).
constexpr double kFine = 0.01;
constexpr double kGrowth = 1.6;  // each cell this much larger than the last, away from there
constexpr double kYoungs = 1e5, kPoisson = 0.3;
constexpr double kRadius = 0.3;        // m, the sphere's
constexpr double kIndentation = 4e-3;  // m: the sphere's descent (contact radius 3.5 cm)
constexpr double kActivation = 1e-3;   // dhat, m
constexpr double kStiffness = 3e6;     // kappa, Pa: a loaded sample rests about dhat / 2 away
// The sphere comes down at most half the closest distance a step: about 0.15 mm.
constexpr int kPressSteps = 30, kHoldSteps = 10;
constexpr double kTimestep = 0.05;  // s: slow against the block's ringing, damped by the steps

// Cell boundaries from 0 to `length`: 3 cells of kFine, then each `growth` times the last.
std::vector<double> graded(double length, double growth) {
  std::vector<double> at = {0.0};
  double h = kFine;
  while (at.back() + 1e-12 < length) {
    at.push_back(std::min(length, at.back() + h));
    if (at.size() > 3) h *= growth;
  }
  if (at.back() - at[at.size() - 2] < 0.3 * h / growth) at.erase(at.end() - 2);  // no sliver
  at.back() = length;
  return at;
}

// The block (2 kHalfWidth wide and deep, kHeight high), its grid fine at the middle of its top and
// coarsening away from it, each cell split into 6 tets (Kuhn), as a MEDIT file.
std::filesystem::path write_block_mesh() {
  const std::vector<double> half = graded(kHalfWidth, kGrowth);
  std::vector<double> xs;
  for (auto it = half.rbegin(); it != half.rend(); ++it) xs.push_back(-*it);
  xs.insert(xs.end(), half.begin() + 1, half.end());
  std::vector<double> ys;
  for (const double depth : graded(kHeight, kGrowth)) ys.insert(ys.begin(), kHeight - depth);
  const int nx = static_cast<int>(xs.size()), ny = static_cast<int>(ys.size());
  const auto id = [&](int i, int j, int k) { return (k * ny + j) * nx + i; };
  mesh::TetMesh block;
  block.vertices.resize(nx * ny * nx, 3);
  for (int k = 0; k < nx; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) block.vertices.row(id(i, j, k)) << xs[i], ys[j], xs[k];
    }
  }
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<Eigen::Vector4i> tets;
  for (int k = 0; k + 1 < nx; ++k) {
    for (int j = 0; j + 1 < ny; ++j) {
      for (int i = 0; i + 1 < nx; ++i) {
        for (const auto& order : orders) {
          int corner[3] = {i, j, k};
          Eigen::Vector4i tet;
          tet(0) = id(i, j, k);
          for (int step = 0; step < 3; ++step) {
            ++corner[order[step]];
            tet(step + 1) = id(corner[0], corner[1], corner[2]);
          }
          const auto x = [&](int c) { return Eigen::Vector3d(block.vertices.row(tet(c))); };
          if ((x(1) - x(0)).cross(x(2) - x(0)).dot(x(3) - x(0)) < 0.0) std::swap(tet(2), tet(3));
          tets.push_back(tet);
        }
      }
    }
  }
  block.tets.resize(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t t = 0; t < tets.size(); ++t)
    block.tets.row(static_cast<Eigen::Index>(t)) = tets[t];
  block.regions = Eigen::VectorXi::Zero(block.tets.rows());
  const std::filesystem::path file = smfem::test::scratch_dir("hertz_mesh") / "graded_block.mesh";
  smfem::test::write_text(
      file, mesh::format_medit_mesh(block, "a block graded towards its top's middle"));
  return file;
}

contact::Obstacle sphere_above_top() {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.radius = kRadius;
  sphere.point = Eigen::Vector3d(0.0, kHeight + kRadius + 0.5 * kActivation, 0.0);
  return sphere;
}

contact::ContactParameters barrier() {
  contact::ContactParameters parameters;
  parameters.activation = kActivation;
  parameters.stiffness = kStiffness;
  return parameters;
}

// Converged FEM steps of kTimestep, without gravity.
sim::SolverSettings converged_settings() {
  sim::SolverSettings settings = test::page_settings(sim::SolverMethod::fem, 40);
  settings.until_converged = true;
  settings.timestep = kTimestep;
  return settings;
}

// The sphere's target descent at a step: down to kIndentation over the press, then held.
double target(int step) { return kIndentation * std::min(1.0, step / double(kPressSteps)); }

// How far the sphere may come down this step: towards the target, by at most half the closest
// distance (a translating sphere changes no distance by more than its motion).
double next_descent(double descent, int step, double closest) {
  return descent + std::clamp(target(step) - descent, -0.5 * closest, 0.5 * closest);
}

// What a run ends with: the sphere's force (N, up), the indentation (the top middle's descent less
// the bottom's: zero, pinned), the contact radius from the samples' forces (for Hertz's pressure
// sqrt(1 - r^2 / a^2), the force-weighted mean of r^2 is 2 a^2 / 5), and every mesh vertex's
// displacement.
struct PressResult {
  double force = 0.0, indentation = 0.0, contact_radius = 0.0, descent = 0.0;
  Eigen::MatrixXd displacement;  // nv x 3
};

struct Block {
  full::FullModel mesh;
  sim::ReducedModel model;
  std::vector<int> sample_vertex;  // per contact sample
  int top_middle = 0;
};

void measure_contact(const Block& block, const contact::Obstacle& sphere, PressResult& result) {
  double force = 0.0, moment = 0.0;
  const contact::ContactSurface& surface = block.model.contact;
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    const int v = block.sample_vertex[static_cast<std::size_t>(k)];
    const Eigen::Vector3d x =
        block.mesh.positions.row(v).transpose() + result.displacement.row(v).transpose();
    const double d = contact::obstacle_distance(sphere, x).distance;
    const double f = -kStiffness * surface.areas(k) * contact::barrier_derivative(d, kActivation);
    force += f;
    moment += f * (x.x() * x.x() + x.z() * x.z());
  }
  result.contact_radius = force > 0.0 ? std::sqrt(2.5 * moment / force) : 0.0;
  result.indentation = -result.displacement(block.top_middle, 1);
}

// The whole mesh's static equilibrium with the sphere where `start` left it. Frictionless elastic
// contact does not depend on the path, so it starts from `start` (a run that got there, clear of
// the sphere) and takes quasi-static steps (a timestep of seconds: inertia is nothing against
// the stiffness) until the displacements stop changing. Pressing it down the whole way, as the
// subspace runs do, gave the same force, indentation and contact radius to six digits and cost
// eight times as much (105 s against 12.6 s natively, 2026-12-01).
PressResult settle_whole_mesh(const Block& block, const PressResult& start) {
  sim::SolverSettings settings = converged_settings();
  settings.timestep = 10.0;
  full::FullSimulator whole(block.mesh, settings);
  sim::ReducedMatrix U = start.displacement;
  for (const int v : block.mesh.pinned) U.row(v).setZero();
  whole.set_state(U, sim::ReducedMatrix::Zero(U.rows(), 3));
  std::vector<full::ObstacleContact::Point> points;
  const contact::ContactSurface& surface = block.model.contact;
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    const int v = block.sample_vertex[static_cast<std::size_t>(k)];
    points.push_back({v, block.mesh.positions.row(v).transpose(), surface.areas(k)});
  }
  contact::Obstacle sphere = sphere_above_top();
  sphere.offset = sphere.start_offset = Eigen::Vector3d(0.0, -start.descent, 0.0);
  whole.set_contact(std::make_unique<full::ObstacleContact>(
      std::move(points), std::vector<contact::Obstacle>{sphere}, barrier()));
  double change = 0.0;
  int steps = 0;
  do {
    const sim::ReducedMatrix before = whole.displacements();
    EXPECT_TRUE(whole.step().ok) << "the whole mesh, step " << steps;
    change = (whole.displacements() - before).rowwise().norm().maxCoeff();
  } while (++steps < 30 && change > 1e-4 * kIndentation);
  std::cout << "the whole mesh settled in " << steps << " steps (last change " << change << " m)\n";
  EXPECT_LE(change, 1e-4 * kIndentation);
  PressResult result;
  result.displacement = whole.displacements();
  result.force = whole.contact()->obstacle_forces(whole.displacements()).front().y();
  result.descent = start.descent;
  measure_contact(block, sphere, result);
  return result;
}

PressResult press_subspace(const Block& block, bool local, sim::SolverSettings settings) {
  std::vector<contact::Obstacle> obstacles = {sphere_above_top()};
  contact::ContactPotential potential(block.model.contact, {Eigen::Vector3d::Zero()});
  potential.set_environment(&obstacles, barrier(), settings.timestep);
  sim::Simulator simulator(block.model, settings);
  simulator.set_contact(&potential);
  if (local) simulator.enable_local_deformations(block.mesh);
  double descent = 0.0;
  for (int step = 1; step <= kPressSteps + kHoldSteps; ++step) {
    descent = next_descent(descent, step, simulator.contact_measure().min_distance);
    obstacles.front().start_offset = obstacles.front().offset;
    obstacles.front().offset = Eigen::Vector3d(0.0, -descent, 0.0);
    EXPECT_TRUE(simulator.step().ok) << "step " << step;
  }
  PressResult result;
  result.displacement.resize(block.mesh.vertex_count(), 3);
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    const Eigen::Vector3d rest = block.mesh.positions.row(v).transpose();
    result.displacement.row(v) =
        (test::grabbed_point(simulator, v, rest, full::vertex_basis(block.mesh, v)) - rest)
            .transpose();
  }
  result.force = simulator.obstacle_forces().front().y();
  result.descent = descent;
  measure_contact(block, obstacles.front(), result);
  if (local) {
    std::cout << "  " << simulator.local_deformations()->patch_count() << " patches at the end\n";
  }
  return result;
}

double hertz_force(double indentation) {
  const double modulus = kYoungs / (1.0 - kPoisson * kPoisson);
  return 4.0 / 3.0 * modulus * std::sqrt(kRadius) * std::pow(indentation, 1.5);
}

// The top face's vertical displacement within 3 Hertz contact radii of the middle, its relative
// error against the whole mesh's.
double surface_error(const Block& block, const PressResult& run, const PressResult& whole) {
  const double reach = 3.0 * std::sqrt(kRadius * kIndentation);
  double error = 0.0, size = 0.0;
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    const Eigen::Vector3d x = block.mesh.positions.row(v).transpose();
    if (std::abs(x.y() - kHeight) > 1e-9 || std::hypot(x.x(), x.z()) > reach) continue;
    error += std::pow(run.displacement(v, 1) - whole.displacement(v, 1), 2);
    size += std::pow(whole.displacement(v, 1), 2);
  }
  return std::sqrt(error / size);
}

TEST(LocalHertz, ASpherePressedIntoABlockFollowsHertzAndTheWholeMesh) {
  const nlohmann::json recipe = {
      {"name", "hertz block"},
      {"description", "A block graded towards its top's middle, pinned at its base."},
      {"geometry", {{"mesh", "graded_block.mesh"}}},
      {"materials",
       {{{"name", "gel"}, {"youngs", kYoungs}, {"poisson", kPoisson}, {"density", 1000}}}},
      {"pins",
       {{{"where", {{"box", {{"center", {0, 0, 0}}, {"half_extents", {1.0, 1e-4, 1.0}}}}}}}}},
      {"subspace", {{"modes", 16}, {"cubature", 200}}},
      {"solver",
       {{"method", "mfem"},
        {"iterations", 2},
        {"timestep", 1.0 / 60.0},
        {"gravity", {0.0, 0.0, 0.0}},
        {"material_model", "snh"}}}};
  const smfem::test::BakedWithMesh baked =
      smfem::test::bake_recipe_with_mesh("hertz_block", recipe, {write_block_mesh()}, 1 << 20);
  Block block{baked.mesh, baked.model, {}, 0};
  const contact::ContactSurface& surface = block.model.contact;
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    Eigen::Index nearest = 0;
    (block.mesh.positions.rowwise() - surface.positions.row(surface.samples(k)))
        .rowwise()
        .squaredNorm()
        .minCoeff(&nearest);
    block.sample_vertex.push_back(static_cast<int>(nearest));
  }
  Eigen::Index top_middle = 0;
  (block.mesh.positions.rowwise() - Eigen::RowVector3d(0.0, kHeight, 0.0))
      .rowwise()
      .squaredNorm()
      .minCoeff(&top_middle);
  block.top_middle = static_cast<int>(top_middle);
  std::cout << block.mesh.tet_count() << " tets, " << block.mesh.vertex_count() << " vertices, "
            << surface.samples.size() << " contact samples\n";

  const sim::SolverSettings page = test::page_settings(sim::SolverMethod::mfem, 2);
  const sim::SolverSettings converged = converged_settings();
  struct Run {
    const char* name;
    PressResult result;
  };
  const auto timed = [](const char* name, auto&& run) {
    const auto start = std::chrono::steady_clock::now();
    PressResult result = run();
    std::cout << name << " took "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s\n";
    return result;
  };
  const std::vector<Run> runs = {
      {"global modes alone",
       timed("global", [&] { return press_subspace(block, false, converged); })},
      {"local deformations, page settings",
       timed("local", [&] { return press_subspace(block, true, page); })}};
  const PressResult whole =
      timed("the whole mesh", [&] { return settle_whole_mesh(block, runs[1].result); });
  const auto report = [&](const char* name, const PressResult& r) {
    std::cout << name << ": descent " << r.descent << " m, indentation " << r.indentation
              << " m, force " << r.force << " N (Hertz at that indentation "
              << hertz_force(r.indentation) << " N), contact radius " << r.contact_radius
              << " m (Hertz " << std::sqrt(kRadius * r.indentation) << " m)\n";
  };
  report("whole mesh", whole);
  const double global_error = surface_error(block, runs[0].result, whole);
  for (const Run& run : runs) {
    report(run.name, run.result);
    std::cout << "  surface error against the whole mesh "
              << surface_error(block, run.result, whole) << "\n";
  }
  // The whole mesh reaches the indentation and makes a Hertzian contact (its force is stiffer
  // than Hertz's on this coarse mesh: reported above, and in docs/local.md on finer ones).
  EXPECT_NEAR(whole.descent, kIndentation, 1e-12);
  EXPECT_NEAR(whole.contact_radius, std::sqrt(kRadius * whole.indentation),
              0.25 * std::sqrt(kRadius * whole.indentation));
  // The global modes alone hold the sphere off: far from the whole mesh's dent.
  EXPECT_GT(global_error, 0.5);
  for (std::size_t r = 1; r < runs.size(); ++r) {
    const PressResult& local = runs[r].result;
    EXPECT_NEAR(local.descent, kIndentation, 1e-12) << runs[r].name;
    EXPECT_LT(surface_error(block, local, whole), global_error / 3.0) << runs[r].name;
    EXPECT_NEAR(local.force, whole.force, 0.15 * whole.force) << runs[r].name;
    EXPECT_NEAR(local.contact_radius, std::sqrt(kRadius * local.indentation),
                0.25 * std::sqrt(kRadius * local.indentation))
        << runs[r].name;
  }
}

}  // namespace
}  // namespace smfem::local::hertz
