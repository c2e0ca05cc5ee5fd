#include "smfem/scene/build_scene.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "smfem/geometry/error.hpp"
#include "smfem/geometry/primitives.hpp"
#include "smfem/mesh/error.hpp"
#include "smfem/mesh/read_mesh.hpp"
#include "smfem/mesh/unused_vertices.hpp"
#include "smfem/scene/load_recipe.hpp"
#include "smfem/scene/scene_error.hpp"
#include "smfem/tetrahedralize/regions.hpp"
#include "smfem/tetrahedralize/resolution.hpp"

namespace smfem::scene {
namespace {

[[noreturn]] void fail(const SceneRecipe& recipe, const std::string& pointer,
                       const std::string& problem) {
  throw SceneError(recipe.file, pointer, problem);
}

std::string with_commas(double count) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(count)));
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

mesh::TetMesh mesh_geometry(const SceneRecipe& recipe,
                            std::optional<tetrahedralize::StuffingReport>& report,
                            std::vector<std::string>& read_notes) {
  if (recipe.geometry.tet_mesh) {
    try {
      mesh::ReadReport read;
      mesh::TetMesh mesh = mesh::read_tet_mesh(*recipe.geometry.tet_mesh, &read);
      read_notes = mesh::report_warnings(*recipe.geometry.tet_mesh, read);
      mesh::drop_unused_vertices(mesh);  // said in the notes ("left out")
      geometry::place(recipe.geometry.tet_placement, mesh.vertices);
      return mesh;
    } catch (const mesh::MeshError& error) {
      fail(recipe, "/geometry/mesh", error.what());
    }
  }
  const geometry::Sdf& sdf = *recipe.geometry.sdf;
  report.emplace();
  tetrahedralize::StuffingOptions options;
  try {
    if (recipe.resolution.edge_length) {
      options.edge_length = *recipe.resolution.edge_length;
      // A coarse volume is enough to refuse absurd resolutions before meshing.
      const double estimate = tetrahedralize::estimate_tet_count(
          tetrahedralize::estimate_volume(sdf, 32), options.edge_length);
      if (estimate > kMaxTets) {
        fail(recipe, "/resolution/edge_length",
             "gives about " + with_commas(estimate) + " tets, more than the limit of " +
                 with_commas(kMaxTets) + "; use a larger edge length");
      }
      return tetrahedralize::stuff_isosurface(sdf, options, &*report);
    }
    return tetrahedralize::stuff_to_tet_count(sdf, *recipe.resolution.target_tets, 0.1, options,
                                              &*report);
  } catch (const geometry::GeometryError& error) {
    fail(recipe, "/geometry", error.what());
  } catch (const std::invalid_argument& error) {
    // The lattice over the shape's bounding box would be too large.
    fail(recipe, "/resolution", error.what());
  }
}

// Vertex ids (sorted) whose positions are inside `region`.
std::vector<int> vertices_in(const geometry::Sdf& region, const mesh::TetMesh& mesh) {
  const Eigen::VectorXd values = region.evaluate(mesh.vertices);
  std::vector<int> inside;
  for (Eigen::Index v = 0; v < values.size(); ++v) {
    if (values[v] <= 0.0) inside.push_back(static_cast<int>(v));
  }
  return inside;
}

void assign_materials(const SceneRecipe& recipe, SceneMesh& scene) {
  mesh::TetMesh& mesh = scene.mesh;
  const Eigen::Index tets = mesh.tets.rows();
  const geometry::Points centroids = tetrahedralize::tet_centroids(mesh);
  mesh.regions = Eigen::VectorXi::Constant(tets, -1);
  for (std::size_t m = 0; m < recipe.materials.size(); ++m) {
    const Material& material = recipe.materials[m];
    Eigen::VectorXd values = Eigen::VectorXd::Constant(tets, -1.0);
    if (material.where) values = material.where->evaluate(centroids);
    Eigen::Index claimed = 0;
    for (Eigen::Index t = 0; t < tets; ++t) {
      if (mesh.regions[t] < 0 && values[t] <= 0.0) {
        mesh.regions[t] = static_cast<int>(m);
        ++claimed;
      }
    }
    if (claimed == 0) {
      const std::string pointer = "/materials/" + std::to_string(m);
      fail(recipe, material.where ? pointer + "/where" : pointer,
           "no tet is left for this material (its region misses the mesh, or earlier "
           "materials claim all of it)");
    }
  }
  for (Eigen::Index t = 0; t < tets; ++t) {
    if (mesh.regions[t] >= 0) continue;
    std::ostringstream problem;
    problem << "the tet with centroid (" << centroids.row(t) << ") lies in no material's "
            << "region; add a last material without \"where\" as the default";
    fail(recipe, "/materials", problem.str());
  }
  scene.youngs.resize(tets);
  scene.poisson.resize(tets);
  scene.density.resize(tets);
  for (Eigen::Index t = 0; t < tets; ++t) {
    const Material& material = recipe.materials[static_cast<std::size_t>(mesh.regions[t])];
    scene.youngs[t] = material.youngs;
    scene.poisson[t] = material.poisson;
    scene.density[t] = material.density;
  }
}

render::RenderSurface render_surface(const SceneRecipe& recipe, const mesh::TetMesh& mesh) {
  if (recipe.geometry.surface)
    return render::embedded_render_surface(mesh, *recipe.geometry.surface);
  if (recipe.render.surface) return render::embedded_render_surface(mesh, *recipe.render.surface);
  if (recipe.render.edge_length) {
    try {
      return render::smooth_render_surface(*recipe.geometry.sdf, *recipe.render.edge_length, mesh);
    } catch (const std::exception& error) {
      fail(recipe, "/render/edge_length", error.what());
    }
  }
  if (recipe.render.exact.value_or(true) && !recipe.geometry.tet_mesh) {
    if (const auto primitives = geometry::union_primitives(*recipe.geometry.sdf)) {
      return render::primitive_render_surface(*primitives, render::boundary_edge_length(mesh),
                                              mesh);
    }
  }
  return render::boundary_render_surface(mesh);
}

}  // namespace

SceneMesh build_scene(const SceneRecipe& recipe) {
  SceneMesh scene;
  scene.mesh = mesh_geometry(recipe, scene.stuffing, scene.read_notes);
  scene.quality =
      scene.stuffing ? scene.stuffing->quality : tetrahedralize::measure_quality(scene.mesh);
  assign_materials(recipe, scene);

  std::vector<int> pinned;
  for (std::size_t p = 0; p < recipe.pins.size(); ++p) {
    const std::vector<int> caught = vertices_in(recipe.pins[p], scene.mesh);
    if (caught.empty()) {
      fail(recipe, "/pins/" + std::to_string(p) + "/where", "catches no vertex of the mesh");
    }
    pinned.insert(pinned.end(), caught.begin(), caught.end());
  }
  std::sort(pinned.begin(), pinned.end());
  pinned.erase(std::unique(pinned.begin(), pinned.end()), pinned.end());
  scene.pinned = std::move(pinned);

  for (std::size_t f = 0; f < recipe.forces.size(); ++f) {
    const Force& force = recipe.forces[f];
    SceneForce applied{force.kind, vertices_in(force.where, scene.mesh)};
    if (applied.vertices.empty()) {
      const char* kind = std::holds_alternative<PeriodicForce>(force.kind) ? "periodic"
                         : std::holds_alternative<TwistForce>(force.kind)  ? "twist"
                                                                           : "pull";
      fail(recipe, "/forces/" + std::to_string(f) + "/" + kind + "/where",
           "catches no vertex of the mesh");
    }
    scene.forces.push_back(std::move(applied));
  }

  if (recipe.subspace.cubature > scene.mesh.tets.rows()) {
    fail(recipe, "/subspace/cubature",
         std::to_string(recipe.subspace.cubature) + " cubature tets, but the mesh has only " +
             std::to_string(scene.mesh.tets.rows()) + " tets");
  }
  scene.render_surface = render_surface(recipe, scene.mesh);
  return scene;
}

}  // namespace smfem::scene
