#pragma once
// A scene recipe as read from its JSON file (assets/scenes/README.md documents the format):
// what to mesh, at which resolution, which materials where, what is pinned and pushed, and
// the simulation settings the baked asset carries to the page. Units are SI: metres,
// seconds, pascals, kilograms per cubic metre.
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include "smfem/cubature/cubature_method.hpp"
#include "smfem/geometry/sdf.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::scene {

// The range of a scale factor: a transform node's "scale" and smfem-bake's --scale.
inline constexpr double kMinScale = 1e-4, kMaxScale = 1e4;

// What to fill with tets: exactly one of
//   - sdf alone: a procedural shape;
//   - sdf and surface: a closed surface mesh file, its vertices moved by the recipe's transforms
//     around it (as they are read), whose triangles also become the render surface (embedded in
//     the tets);
//   - tet_mesh: a tet mesh file, its vertices moved by tet_placement (the recipe's transforms
//     around it; identity where there are none).
struct SceneGeometry {
  std::optional<geometry::Sdf> sdf;
  std::optional<mesh::SurfaceMesh> surface;
  std::optional<std::filesystem::path> tet_mesh;
  geometry::Similarity tet_placement;
};

// Exactly one is set for SDF geometry; neither for a tet mesh.
struct Resolution {
  std::optional<double> edge_length;  // lattice spacing h
  std::optional<double> target_tets;
};

struct Material {
  std::string name;
  double youngs;                       // Pa
  double poisson;                      // in (-1, 1/2)
  double density;                      // kg / m^3
  std::optional<geometry::Sdf> where;  // none: every tet (only the last material)
};

// An acceleration amplitude * sin(2 pi frequency t) * direction (unit) on the region.
struct PeriodicForce {
  double amplitude;  // m / s^2
  double frequency;  // Hz
  Eigen::Vector3d direction;
};

// Zero-rest-length springs (stiffness per unit mass, 1/s^2) pulling the region's vertices to
// their rest positions rotated by angle_deg about the axis through `center` (right-handed),
// until `release` seconds (never when absent).
struct TwistForce {
  Eigen::Vector3d center;
  Eigen::Vector3d axis;  // unit
  double angle_deg;
  double stiffness;
  std::optional<double> release;
};

// Zero-rest-length springs pulling the region's vertices to rest position + offset, until
// `release` seconds (never when absent).
struct PullForce {
  Eigen::Vector3d offset;  // m
  double stiffness;        // 1 / s^2
  std::optional<double> release;
};

struct Force {
  geometry::Sdf where;
  std::variant<PeriodicForce, TwistForce, PullForce> kind;
};

struct SubspaceSettings {
  int modes;     // m, within solver_limits.json's range
  int cubature;  // |C|
  cubature::CubatureMethod cubature_method = cubature::CubatureMethod::kmeans;
};

struct SolverSettings {
  sim::SolverMethod method;
  int iterations;                     // per time step
  double timestep;                    // s
  Eigen::Vector3d gravity;            // m / s^2
  sim::MaterialModel material_model;  // named in the recipe by its short name
};

struct Camera {
  Eigen::Vector3d position;
  Eigen::Vector3d target;
};

// How to get the surface the page draws (render_surface.hpp); at most one is set. When none
// is: for a shape that is a union of primitives (geometry/primitives.hpp), their exact
// surface; for a surface mesh file, its own triangles; else the tet mesh's boundary.
struct RenderSettings {
  std::optional<double> edge_length;         // a finer stuffing of the SDF
  std::optional<mesh::SurfaceMesh> surface;  // a finer surface for a tet mesh
  std::optional<bool> exact;                 // the primitives' surface (true) or the boundary
};

struct SceneRecipe {
  std::string file;  // the recipe's path as given, for messages
  std::string name;
  std::string description;  // one sentence: what to look for
  SceneGeometry geometry;
  Resolution resolution;
  // A finer resolution the bake fits the leading vibration modes to (EigenFit,
  // eigenfit/eigenfit_stage.hpp): the recipe baked there only for its spectrum.
  std::optional<Resolution> fit_resolution;
  std::vector<Material> materials;
  std::vector<geometry::Sdf> pins;
  std::vector<Force> forces;
  SubspaceSettings subspace;
  SolverSettings solver;
  std::optional<Camera> camera;
  RenderSettings render;
  // What the mesh readers skipped or fixed in the surface meshes the recipe names, one sentence
  // each, "file: ..." (its tet mesh file is read by build_scene: SceneMesh::read_notes).
  std::vector<std::string> read_notes;
};

}  // namespace smfem::scene
