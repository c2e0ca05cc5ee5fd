#pragma once
// Turning a recipe into what the bake needs: the tet mesh with a material per tet, the pinned
// vertices, the forces' vertices and the render surface.
#include <optional>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"
#include "smfem/render/render_surface.hpp"
#include "smfem/scene/recipe.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"
#include "smfem/tetrahedralize/tet_quality.hpp"

namespace smfem::scene {

struct SceneForce {
  std::variant<PeriodicForce, TwistForce, PullForce> kind;
  std::vector<int> vertices;  // sorted tet-mesh vertex ids inside the force's region
};

struct SceneMesh {
  mesh::TetMesh mesh;              // regions[t]: index into the recipe's materials
  Eigen::VectorXd youngs;          // |T|, Pa
  Eigen::VectorXd poisson;         // |T|
  Eigen::VectorXd density;         // |T|, kg / m^3
  std::vector<int> pinned;         // sorted vertex ids inside any pin region
  std::vector<SceneForce> forces;  // in recipe order
  render::RenderSurface render_surface;
  std::optional<tetrahedralize::StuffingReport> stuffing;  // absent for a tet mesh file
  tetrahedralize::TetQuality quality;
  // What the reader skipped or fixed in the recipe's tet mesh file, "file: ..." each.
  std::vector<std::string> read_notes;
};

// Meshes the recipe's geometry and assigns everything. A tet's material is the first whose
// "where" holds its centroid (sdf <= 0), else the last material when it has no "where"; a
// vertex is pinned or driven when its position is in the region (sdf <= 0). Throws
// SceneError (at the recipe key to blame) when the resolution would give more than kMaxTets
// tets, a tet mesh file is broken, no tet fits, a tet falls in no material, a material's or
// pin's or force's region catches nothing, or there are fewer tets than cubature points.
SceneMesh build_scene(const SceneRecipe& recipe);

}  // namespace smfem::scene
