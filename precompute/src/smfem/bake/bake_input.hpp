#pragma once
// Stage 1 of the bake: from the input file and the command-line settings to a tet mesh with a
// material per tet, pinned vertices, forces and a render surface.
//
// Inputs, by extension:
//   - a scene recipe (.json, assets/scenes/README.md): meshed and assigned by build_scene();
//   - a tet mesh (.mesh, .msh, .node, .ele): used as it is; its file regions become material
//     regions (one material per region present, named "region <r>"); vertices used by no tet
//     are dropped (pin-file indices still refer to the file's numbering);
//   - a closed surface mesh (.obj, .stl, .off, .ply): filled by isosurface stuffing to about
//     `target_tets` tets, its own triangles kept as the render surface (embedded in the tets).
// Overrides, applied in this order: --region-materials (values per region: for recipes the
// region of a material is its index in the recipe), then --youngs / --poisson / --density (the
// value of every material), then --paint (a material of its own over a sphere), then
// --youngs-per-tet (Young's modulus per tet). --pin-file, --pin-lowest and --pin add pinned
// vertices to the recipe's.
//
// A body of several tet-connected parts is accepted: each part without a pinned vertex gets a
// constant mode of its own (skinning_eigenmodes.hpp), so m must be at least their number; the
// run stage refuses fewer with a message saying so.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "smfem/cubature/cubature.hpp"
#include "smfem/cubature/cubature_method.hpp"
#include "smfem/cubature/kmeans.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/render/render_surface.hpp"
#include "smfem/scene/build_scene.hpp"
#include "smfem/tetrahedralize/tet_quality.hpp"

namespace smfem::bake {

// Defaults for mesh-file inputs (recipes carry their own).
inline constexpr int kDefaultModes = 16;
// Free vertices a mode where the modes are not asked for (fewer than kDefaultModes on a coarse
// mesh): 4 are needed at the least; on 14 small grids of cubes (8 to 52 vertices) 4 left the
// reduced mass matrix singular on 5 of them and 5 never did.
inline constexpr int kFreeVerticesPerMode = 5;
// Contact samples per body (sim/contact/contact_sampling.hpp) where --contact-samples is not given.
inline constexpr int kDefaultContactSamples = 1024;
inline constexpr double kDefaultYoungs = 1e6;  // Pa
inline constexpr double kDefaultPoisson = 0.45;
inline constexpr double kDefaultDensity = 1000;      // kg / m^3
inline constexpr double kDefaultTargetTets = 30000;  // for surface meshes

// --paint X,Y,Z,R,E: the tets whose centroid lies within R of (X, Y, Z) become a material of
// their own, "painted k" (k from 1 in the order given, or on from the input's own painted
// materials; a later sphere paints over an earlier one), of Young's modulus E, with the Poisson's
// ratio and density of the material its first tet had. How the page's "Your model" paints a body
// soft or stiff where the user points.
struct PaintedSphere {
  Eigen::Vector3d center;
  double radius = 0.0;
  double youngs = 0.0;
};

// --pin X,Y,Z,R: the vertices within R of (X, Y, Z) are pinned (the page's pins by click).
struct PinnedSphere {
  Eigen::Vector3d center;
  double radius = 0.0;
};

struct BakeSettings {
  std::optional<int> modes;     // --modes (default: the recipe's, else kDefaultModes or what
                                // a coarse mesh carries: kFreeVerticesPerMode)
  std::optional<int> cubature;  // --cubature (default: the recipe's, else 20 m capped by |T|)
  // --cubature-method (default: the recipe's, else k-means; cubature/cubature_method.hpp).
  std::optional<cubature::CubatureMethod> cubature_method;
  // --cubature-fit-error: also measure a k-means cubature's force-fit error on the poses NNLS
  // would train on (cubature/optimized_cubature.hpp: force_fit); NNLS always reports its own.
  bool cubature_fit_error = false;
  // --cubature-per-region: the cubature of each material region is built from its own tets,
  // at least this many per region (k-means: cubature.hpp, stratified_kmeans_cubature, and per
  // connected component of each region; NNLS, per region only:
  // optimized_cubature.hpp); 0: the whole body at once (the paper's k-means, An et al.'s NNLS),
  // which can leave a region without any.
  int cubature_per_region = cubature::kDefaultTetsPerRegion;
  std::optional<double> youngs;
  std::optional<double> poisson;
  std::optional<double> density;
  std::optional<std::filesystem::path> youngs_per_tet;
  std::vector<PaintedSphere> paint;  // --paint, in order
  std::optional<std::filesystem::path> region_materials;
  std::optional<std::filesystem::path> pin_file;
  // --pin-lowest F: also pins the vertices within F of the body's height (y) above its lowest
  // point, F in (0, 1] (the page's "Pin the lowest points").
  std::optional<double> pin_lowest;
  std::vector<PinnedSphere> pin_spheres;  // --pin, in order
  // --max-tets N: a mesh of more tets is refused once read, before anything costly (the page's
  // bake bounds its memory so).
  std::optional<long long> max_tets;
  // --max-triangles N: a surface mesh of more triangles is refused once read, before it is
  // tetrahedralized (its triangles become the render surface, whose weights the bake computes
  // and the page draws).
  std::optional<long long> max_triangles;
  std::optional<double> target_tets;  // --target-tets, surface meshes only
  std::uint64_t seed = cubature::kDefaultSeed;
  int threads = 0;  // 0: one per hardware thread
  // --full-mesh: also write the tet mesh and its materials (mesh.*), which the full-space
  // reference solvers need (wasm/src/smfem/full/full_model.hpp); off for the page's assets.
  bool full_mesh = false;
  // --contact-samples: at most this many contact samples and the collision surface
  // (assets/FORMAT.md, contact.*); 0: none.
  int contact_samples = kDefaultContactSamples;
  // --collision-triangles: the collision surface simplified to about this many triangles
  // (bake/collision_surface.hpp); 0: the whole boundary; unset: twice the contact samples (a
  // closed surface with about as many vertices as samples).
  std::optional<int> collision_triangles;
  // --eigenfit FILE and --eigenfit-modes s: fit the s leading modes to FILE's
  // (eigenfit/eigenfit_stage.hpp); a recipe's fit_resolution asks for the same without them.
  std::optional<std::filesystem::path> eigenfit;
  std::optional<int> eigenfit_modes;
  // Load a recipe at its fit_resolution instead of its resolution (the EigenFit stage's fine
  // model); refused for a recipe without one.
  bool at_fit_resolution = false;
  // --scale S: a mesh file's coordinates times S, read as metres (a mesh in millimetres: 0.001);
  // a recipe scales its geometry with a transform instead.
  std::optional<double> scale;
};

struct MaterialInfo {
  std::string name;
  int region = 0;  // the value in mesh.regions of its tets
  double youngs = 0.0;
  double poisson = 0.0;
  double density = 0.0;
};

struct BakeInput {
  std::string source;       // the input file's name, for messages and metadata
  std::string kind;         // "recipe", "tet mesh" or "surface mesh"
  mesh::TetMesh mesh;       // regions[t]: the material region of tet t
  Eigen::VectorXd youngs;   // |T|, Pa
  Eigen::VectorXd poisson;  // |T|
  Eigen::VectorXd density;  // |T|, kg / m^3
  std::vector<MaterialInfo> materials;
  // The region of each --paint sphere, in order (a sphere painted over whole by later ones has
  // no material left in `materials`).
  std::vector<int> painted_regions;
  std::vector<int> pinned;  // sorted, unique vertex ids of `mesh`
  std::vector<scene::SceneForce> forces;
  render::RenderSurface render_surface;
  tetrahedralize::TetQuality quality;
  int modes = 0;     // m
  int cubature = 0;  // |C|
  cubature::CubatureMethod cubature_method = cubature::CubatureMethod::kmeans;
  // The page's settings: name, description, solver, camera, forces (scene_metadata's keys).
  nlohmann::json scene;
  // A recipe with a fit_resolution: the EigenFit stage fits the bake to itself baked there.
  bool fit_resolution = false;
  double read_seconds = 0.0;
  double tetrahedralize_seconds = 0.0;  // 0 for a tet mesh
  // What the user should know about the input that does not stop the bake, one sentence each
  // (smfem-bake prints them, --quiet or not, and its --json summary lists them): what the mesh
  // readers skipped or fixed (in a mesh file baked directly and in every mesh a recipe names), a
  // body so large or so small that its file is likely not in the units it is read as.
  std::vector<std::string> warnings;
};

// A body larger than this across (m) is most likely a mesh in millimetres or centimetres read as
// metres (a 16 cm bunny in millimetres bakes 160 m tall, and falls as if in slow motion).
inline constexpr double kLargestLikelySize = 10.0;
// A body smaller than this across (m) is most likely a file in metres baked as millimetres (the
// page's Units, --scale 0.001) or one whose numbers are not metres at all.
inline constexpr double kSmallestLikelySize = 0.01;

// The modes a default bake gives `input`'s mesh: one per kFreeVerticesPerMode free vertices,
// at least 1 (also what a refusal of too many modes suggests, run_bake.cpp).
int modes_carried(const BakeInput& input);

// Throws BakeInputError, scene::SceneError, mesh::MeshError or geometry::GeometryError for bad
// input, each naming the file (or option) and the problem.
BakeInput load_bake_input(const std::filesystem::path& input, const BakeSettings& settings);

}  // namespace smfem::bake
