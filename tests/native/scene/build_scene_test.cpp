#include "smfem/scene/build_scene.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "geometry/surface_shapes.hpp"
#include "scene/recipe_files.hpp"
#include "smfem/mesh/read_mesh.hpp"
#include "smfem/scene/load_recipe.hpp"
#include "smfem/scene/metadata.hpp"
#include "smfem/scene/scene_error.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"
#include "smfem/tetrahedralize/regions.hpp"
#include "support/test_paths.hpp"

namespace smfem::scene {
namespace {

using nlohmann::json;

class BuildScene : public ::testing::Test {
 protected:
  void SetUp() override { folder_ = test::scratch_dir("scene"); }

  SceneMesh build(const json& recipe) {
    return build_scene(parse_scene_recipe(recipe.dump(), "bar.json", folder_));
  }

  std::string error_of(const json& recipe) {
    try {
      build(recipe);
    } catch (const SceneError& error) {
      return error.what();
    }
    ADD_FAILURE() << "built: " << recipe.dump();
    return "";
  }

  // A stuffed 2 x 0.5 x 0.5 m bar written as bar.mesh in the folder; returns it.
  mesh::TetMesh write_bar_mesh() const {
    tetrahedralize::StuffingOptions options;
    options.edge_length = 0.15;
    mesh::TetMesh bar = tetrahedralize::stuff_isosurface(
        geometry::box(Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0.25, 0.25)), options);
    test::write_text(folder_ / "bar.mesh", test::medit_text(bar));
    return bar;
  }

  std::filesystem::path folder_;
};

// The placement both transformed-mesh tests give, {"translate": [1, 0, 0], "of": {"scale": s,
// "rotate_deg": [0, 0, 90]}}: scaled by s, turned 90 degrees about z ((x, y) -> (-y, x)), then
// moved 1 m along x.
json placed_geometry(double scale, const std::string& file) {
  return {{"transform",
           {{"translate", {1, 0, 0}},
            {"of",
             {{"transform",
               {{"scale", scale}, {"rotate_deg", {0, 0, 90}}, {"of", {{"mesh", file}}}}}}}}}};
}
Eigen::Vector3d placed_point(double scale, const Eigen::Vector3d& x) {
  return {1.0 - scale * x.y(), scale * x.x(), scale * x.z()};
}

TEST_F(BuildScene, FullRecipeGivesRegionsPinsForcesAndRenderSurface) {
  const json r = test::base_recipe();
  const SceneRecipe recipe = parse_scene_recipe(r.dump(), "bar.json", folder_);
  const SceneMesh scene = build_scene(recipe);
  const mesh::TetMesh& m = scene.mesh;
  ASSERT_GT(m.tets.rows(), 1000);
  ASSERT_TRUE(scene.stuffing.has_value());
  EXPECT_GE(scene.quality.min_dihedral_deg, tetrahedralize::kMinDihedralBoundDeg);

  // Materials: the core capsule holds the centroids of region-0 tets, no others.
  const geometry::Points centroids = tetrahedralize::tet_centroids(m);
  const Eigen::VectorXd core = recipe.materials[0].where->evaluate(centroids);
  for (Eigen::Index t = 0; t < m.tets.rows(); ++t) {
    EXPECT_EQ(m.regions[t], core[t] <= 0 ? 0 : 1);
    EXPECT_EQ(scene.youngs[t], core[t] <= 0 ? 1e8 : 1e5);
    EXPECT_EQ(scene.poisson[t], core[t] <= 0 ? 0.3 : 0.45);
    EXPECT_EQ(scene.density[t], core[t] <= 0 ? 1200 : 1000);
  }
  EXPECT_GT((m.regions.array() == 0).count(), 50);

  // Pins: exactly the vertices inside the pin box, i.e. with x <= -0.95 (up to rounding).
  ASSERT_FALSE(scene.pinned.empty());
  EXPECT_TRUE(std::is_sorted(scene.pinned.begin(), scene.pinned.end()));
  const Eigen::VectorXd pin = recipe.pins[0].evaluate(m.vertices);
  for (Eigen::Index v = 0; v < m.vertices.rows(); ++v) {
    const bool pinned =
        std::binary_search(scene.pinned.begin(), scene.pinned.end(), static_cast<int>(v));
    EXPECT_EQ(pinned, pin[v] <= 0.0);
    if (pinned) {
      EXPECT_LT(m.vertices(v, 0), -0.95 + 1e-12);
    }
  }

  ASSERT_EQ(scene.forces.size(), 1u);
  for (int v : scene.forces[0].vertices) {
    EXPECT_LE((m.vertices.row(v) - Eigen::RowVector3d(1, 0, 0)).norm(), 0.3);
  }
  // The default render surface of a box, rounded or not, is its exact surface (with normals).
  EXPECT_GT(scene.render_surface.triangles.rows(), 0);
  EXPECT_EQ(scene.render_surface.normals.rows(), scene.render_surface.vertices.rows());

  const json meta = scene_metadata(recipe, scene);
  EXPECT_EQ(meta["name"], "bar");
  EXPECT_EQ(meta["materials"][0]["tets"], (m.regions.array() == 0).count());
  EXPECT_EQ(meta["solver"]["material_model"], "fixed_corotational");
  EXPECT_EQ(meta["forces"][0]["kind"], "periodic");
  EXPECT_EQ(meta["forces"][0]["vertices"], scene.forces[0].vertices.size());
  EXPECT_EQ(meta["mesh"]["pinned"], scene.pinned.size());
  EXPECT_EQ(meta["camera"]["target"], json({0.0, 0.0, 0.0}));
}

TEST_F(BuildScene, TargetTetCount) {
  json r = test::base_recipe();
  r["resolution"] = {{"target_tets", 8000}};
  const SceneMesh scene = build(r);
  EXPECT_NEAR(static_cast<double>(scene.mesh.tets.rows()), 8000.0, 800.0);
}

TEST_F(BuildScene, RegionsThatCatchNothingAreErrors) {
  json r = test::base_recipe();
  r["pins"][0]["where"]["box"]["center"] = {5, 0, 0};
  EXPECT_EQ(error_of(r), "bar.json: /pins/0/where: catches no vertex of the mesh");
  r = test::base_recipe();
  r["forces"][0]["periodic"]["where"]["sphere"]["center"] = {0, 5, 0};
  EXPECT_EQ(error_of(r), "bar.json: /forces/0/periodic/where: catches no vertex of the mesh");
  r = test::base_recipe();
  r["materials"][0]["where"] = {{"sphere", {{"center", {0, 9, 0}}, {"radius", 1}}}};
  EXPECT_EQ(error_of(r).rfind("bar.json: /materials/0/where: no tet is left for this material", 0),
            0u);
  r = test::base_recipe();
  r["materials"].erase(1);  // no default: the rubber tets belong to nobody
  EXPECT_EQ(error_of(r).rfind("bar.json: /materials: the tet with centroid (", 0), 0u);
  r = test::base_recipe();
  r["subspace"]["cubature"] = 100000;
  EXPECT_EQ(error_of(r).rfind(
                "bar.json: /subspace/cubature: 100000 cubature tets, but the mesh has only ", 0),
            0u);
  r = test::base_recipe();
  r["resolution"]["edge_length"] = 0.002;
  EXPECT_EQ(error_of(r).rfind("bar.json: /resolution/edge_length: gives about ", 0), 0u);
  r = test::base_recipe();
  r["geometry"] = {{"box", {{"center", {0, 0, 0}}, {"half_extents", {1, 1, 0.001}}}}};
  r["resolution"]["edge_length"] = 0.5;
  EXPECT_EQ(error_of(r).rfind("bar.json: /geometry: no tet fits inside the shape", 0), 0u);
}

TEST_F(BuildScene, SurfaceMeshIsFilledAndKeptAsTheRenderSurface) {
  const mesh::SurfaceMesh ball = test::icosphere(1.0, 3);
  test::write_text(folder_ / "ball.obj", test::obj_text(ball));
  json r = test::base_recipe();
  r["geometry"] = {{"mesh", "ball.obj"}};
  r["resolution"] = {{"edge_length", 0.2}};
  r["materials"][0]["where"] = {{"sphere", {{"center", {0, 0, 0}}, {"radius", 0.4}}}};
  r["pins"][0]["where"] = {{"box", {{"center", {0, -1, 0}}, {"half_extents", {1, 0.1, 1}}}}};
  r["forces"][0]["periodic"]["where"] = {{"sphere", {{"center", {0, 1, 0}}, {"radius", 0.3}}}};
  const SceneMesh scene = build(r);
  EXPECT_EQ(scene.render_surface.vertices.rows(), ball.vertices.rows());
  EXPECT_EQ(scene.render_surface.triangles, ball.triangles);
  // Interpolating the tet-mesh positions gives back the surface's (the weights are barycentric).
  Eigen::MatrixXd positions = scene.mesh.vertices;
  const Eigen::MatrixXd interpolated = render::render_weights(scene.render_surface, positions);
  EXPECT_LT((interpolated - Eigen::MatrixXd(scene.render_surface.vertices)).cwiseAbs().maxCoeff(),
            1e-6);
}

TEST_F(BuildScene, TetMeshIsUsedAsItIs) {
  const mesh::TetMesh source = write_bar_mesh();
  json r = test::base_recipe();
  r["geometry"] = {{"mesh", "bar.mesh"}};
  EXPECT_EQ(error_of(r),
            "bar.json: /resolution: a tet mesh is used as it is; remove the resolution");
  r.erase("resolution");
  const SceneMesh scene = build(r);
  EXPECT_EQ(scene.mesh.tets, source.tets);
  EXPECT_FALSE(scene.stuffing.has_value());
  EXPECT_GT(scene.quality.min_dihedral_deg, 0.0);

  test::write_text(folder_ / "skin.obj", test::obj_text(test::cube_surface(0.2)));
  r["render"] = {{"mesh", "skin.obj"}};
  EXPECT_EQ(build(r).render_surface.vertices.rows(), 8);
  r["render"] = {{"edge_length", 0.05}};
  EXPECT_EQ(error_of(r).rfind("bar.json: /render/edge_length: a finer stuffing needs a shape", 0),
            0u);
}

// A tet mesh file under transforms (a recipe's only way to scale one, as a mesh in millimetres
// needs): its vertices are moved by them, the inner one first, and its tets kept.
TEST_F(BuildScene, TetMeshUnderTransformsHasItsVerticesMoved) {
  const mesh::TetMesh source = write_bar_mesh();
  json r = test::base_recipe();
  r.erase("resolution");
  r.erase("pins");
  r.erase("forces");
  r["materials"] = json::array({r["materials"][1]});
  r["geometry"] = placed_geometry(2.0, "bar.mesh");
  const SceneMesh scene = build(r);
  EXPECT_EQ(scene.mesh.tets, source.tets);
  ASSERT_EQ(scene.mesh.vertices.rows(), source.vertices.rows());
  for (Eigen::Index v = 0; v < source.vertices.rows(); ++v) {
    // To the file's printed digits (about 1e-11 m here).
    EXPECT_LT(
        (scene.mesh.vertices.row(v) - placed_point(2.0, source.vertices.row(v)).transpose()).norm(),
        1e-9)
        << v;
  }
  EXPECT_GT(scene.quality.min_dihedral_deg, 0.0);
}

// A surface mesh file under transforms: its vertices are moved by them, the inner one first, and
// the file's triangles, so placed, are the render surface, as they are without a transform.
TEST_F(BuildScene, SurfaceMeshUnderTransformsHasItsVerticesMoved) {
  test::write_text(folder_ / "ball.obj", test::obj_text(test::icosphere(1.0, 2)));
  const mesh::SurfaceMesh ball = mesh::read_surface_mesh(folder_ / "ball.obj");  // as printed
  json r = test::base_recipe();
  r["geometry"] = placed_geometry(0.5, "ball.obj");
  r["resolution"] = {{"edge_length", 0.1}};
  r["materials"] = json::array({r["materials"][1]});
  r.erase("pins");
  r.erase("forces");
  const SceneMesh scene = build(r);
  EXPECT_EQ(scene.render_surface.triangles, ball.triangles);
  ASSERT_EQ(scene.render_surface.vertices.rows(), ball.vertices.rows());
  for (Eigen::Index v = 0; v < ball.vertices.rows(); ++v) {
    EXPECT_LT(
        (scene.render_surface.vertices.row(v) - placed_point(0.5, ball.vertices.row(v)).transpose())
            .norm(),
        1e-12)
        << v;
  }
  // The tets fill the placed ball: within its radius of its centre, every one.
  const Eigen::RowVector3d centre(1.0, 0.0, 0.0);
  EXPECT_LT((scene.mesh.vertices.rowwise() - centre).rowwise().norm().maxCoeff(), 0.5 + 1e-9);
  EXPECT_GT((scene.mesh.vertices.rowwise() - centre).rowwise().norm().maxCoeff(), 0.45);
}

TEST_F(BuildScene, SmoothRenderSurfaceForAShape) {
  json r = test::base_recipe();
  r["render"] = {{"edge_length", 0.05}};
  const SceneMesh scene = build(r);
  EXPECT_GT(scene.render_surface.triangles.rows(),
            2 * render::boundary_render_surface(scene.mesh).triangles.rows());
}

TEST_F(BuildScene, UnionOfPrimitivesIsDrawnExactly) {
  // The beam: a sharp box. Its render surface is the box itself, embedded in the tets.
  json r = test::base_recipe();
  r["geometry"] = {{"box", {{"center", {0, 0, 0}}, {"half_extents", {1, 0.25, 0.25}}}}};
  r["materials"][0]["where"] = {{"box", {{"center", {-0.5, 0, 0}}, {"half_extents", {0.5, 1, 1}}}}};
  const SceneMesh scene = build(r);
  const render::RenderSurface& s = scene.render_surface;
  ASSERT_EQ(s.normals.rows(), s.vertices.rows());
  int corners = 0;
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    const Eigen::Vector3d p = s.vertices.row(v).transpose();
    if (p.cwiseAbs() == Eigen::Vector3d(1, 0.25, 0.25)) ++corners;
    EXPECT_EQ(s.normals.row(v).cwiseAbs().sum(), 1.0);
  }
  EXPECT_EQ(corners, 24);  // 8 corners, on 3 faces each
  // Skinning weights that are affine in position give back the rest positions.
  Eigen::MatrixXd affine(scene.mesh.vertices.rows(), 3);
  affine = scene.mesh.vertices;
  const Eigen::MatrixXd rest = render::render_weights(s, affine);
  EXPECT_LT((rest - Eigen::MatrixXd(s.vertices)).cwiseAbs().maxCoeff(), 1e-12);

  // "exact": false keeps the tet boundary.
  r["render"] = {{"exact", false}};
  const SceneMesh boundary = build(r);
  EXPECT_EQ(boundary.render_surface.normals.rows(), 0);
  EXPECT_EQ(boundary.render_surface.barycentric.col(0).minCoeff(), 1.0);
}

TEST_F(BuildScene, ExactRenderSurfaceNeedsAUnionOfPrimitives) {
  json r = test::base_recipe();
  r["geometry"] = {
      {"smooth_union",
       {{"radius", 0.05},
        {"of", {r["geometry"], {{"sphere", {{"center", {1, 0, 0}}, {"radius", 0.3}}}}}}}}};
  EXPECT_EQ(build(r).render_surface.normals.rows(), 0);  // the blend leaves the primitives
  r["render"] = {{"exact", true}};
  EXPECT_EQ(error_of(r),
            "bar.json: /render/exact: the geometry is not a union of boxes, cylinders, capsules "
            "and ellipsoids, so it has no exact surface to draw");
  r["render"] = {{"exact", 1}};
  EXPECT_EQ(error_of(r), "bar.json: /render/exact: must be true or false, got 1");
  r["render"] = {{"exact", true}, {"edge_length", 0.05}};
  EXPECT_EQ(error_of(r),
            "bar.json: /render: give exactly one of \"edge_length\", \"mesh\" and \"exact\"");
}

}  // namespace
}  // namespace smfem::scene
