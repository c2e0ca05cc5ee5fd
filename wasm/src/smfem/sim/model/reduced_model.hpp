#pragma once
// Everything the run-time stepper knows about a scene: the skinning subspace's reduced mass,
// the cubature tets' Y matrices and materials, the render surface's weights (for drag springs)
// and the solver defaults. Nothing in it scales with the tet mesh.
//
// Reduced coordinates u in R^{12m} (m modes): u = [u_0; u_1; u_2], u_d in R^{4m},
// u_d[4i + k] = (A_i)_{dk}, A_i the 3x4 affine matrix of mode i. The solver keeps u as the
// 4m x 3 matrix U whose column d is u_d (so vec(U) = u). Vertex v moves to
//   x_v,d = X_v,d + u_d . b_v,   b_v[4i + k] = W_vi [X_v; 1]_k,
// and cubature tet c has the deformation gradient F_c with rows e_d^T + u_d^T Y_c, Y_c in
// R^{4m x 3}; u = 0 is the rest state.
//
// Asset sections (f64 unless noted; shapes row-major), written by add_reduced_model
// (reduced_model_writer.hpp) for the bake and for procedural models alike:
//   subspace.eigenvalues    [m]         eigenvalues of the weight-space problem
//   subspace.mass_block     [4m, 4m]    sum_v m_v b_v b_v^T (reduced mass = I_3 (x) this), SPD
//   subspace.mass_vector    [4m]        sum_v m_v b_v (gravity force; momentum p_d = udot_d . it)
//   subspace.first_moment   [3, 4m]     row b: sum_v m_v X_v,b b_v (angular momentum)
//   subspace.total_mass     [1]         kg
//   subspace.rest_centroid  [3]         mass-weighted, m
//   cubature.y              [C, 4m, 3]  Y_c
//   cubature.weights        [C]         rest volume each tet stands for, m^3
//   cubature.youngs         [C]         Pa
//   cubature.poisson        [C]
//   cubature.region         u32 [C]     material region of each tet
//   cubature.tets           u32 [C]     tet ids in the source mesh (informational)
//   render.positions        f32 [nv, 3] optional (with render.weights): drag springs
//   render.weights          f32 [nv, m]
//   force.<i>.*             the scene's loads, with meta "forces" (scene_loads.hpp)
//   contact.positions       [ns, 3]     optional group (sim/contact/contact_surface.hpp): the
//   contact.weights         f32 [ns, m] collision surface's rest positions, skinning weights
//   contact.triangles       u32 [nt, 3] and triangles, the contact samples (vertex ids) and
//   contact.samples         u32 [n]     the area each stands for (m^2)
//   contact.areas           [n]
//   eigenfit.*              optional group (eigenfit.hpp): the EigenFit modes and ratios
// and in meta (all optional): "solver": {"method": "mfem" | "fem", "iterations": int,
// "timestep": s, "gravity": [x, y, z], "material_model": name (material_model.hpp)},
// "materials": [{"name", "region", "youngs", "poisson", "density"}].
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/asset/asset.hpp"
#include "smfem/sim/contact/contact_surface.hpp"
#include "smfem/sim/eigenfit.hpp"
#include "smfem/sim/model/scene_loads.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::sim {

using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One entry of meta "materials" (informational: the cubature arrays carry the values).
struct MaterialRegion {
  std::string name;
  std::uint32_t region = 0;
  double youngs = 0.0;
  double poisson = 0.0;
  double density = 0.0;
};

struct ReducedModel {
  std::string source;  // names the model in messages (the asset's file name)

  Eigen::VectorXd eigenvalues;                            // m
  Eigen::MatrixXd mass_block;                             // 4m x 4m
  Eigen::VectorXd mass_vector;                            // 4m
  Eigen::Matrix<double, 3, Eigen::Dynamic> first_moment;  // 3 x 4m
  double total_mass = 0.0;
  Eigen::Vector3d rest_centroid = Eigen::Vector3d::Zero();

  // Y_c stacked by tets: rows 3c, 3c + 1, 3c + 2 hold the columns of Y_c,
  // cubature_Y(3c + j, k) = (Y_c)(k, j). 3C x 4m. In a model of several bodies (`bodies` below)
  // Y_c is zero outside its body's modes, and only those are stored: body b's rows hold its own
  // 4 m_b entries from column 0 on (cubature_Y(3c + j, k) = (Y_c)(4 first_mode + k, j)), zeros
  // after them, so 3C x the widest body's 4 m_b (cubature_width(); dense, an island of 30 cubes
  // held 44 MB of zeros).
  RowMatrixXd cubature_Y;
  Eigen::VectorXd cubature_weights;            // C
  Eigen::VectorXd cubature_youngs;             // C
  Eigen::VectorXd cubature_poisson;            // C
  std::vector<std::uint32_t> cubature_region;  // C
  std::vector<std::uint32_t> cubature_tets;    // C

  // Empty (0 rows) when the asset has no render surface weights.
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> render_positions;  // nv x 3
  RowMatrixXf render_weights;                                                  // nv x m

  contact::ContactSurface contact;  // empty when the asset has no contact group

  EigenFitData eigenfit;  // empty when the asset has no eigenfit group

  // Several bodies that share no tet and no mode (multibody/composite_model.hpp): body i's
  // cubature tets [first_tet, first_tet + tets) depend only on its modes [first_mode,
  // first_mode + modes), so K is block-diagonal and assembled body by body. Empty: one body.
  struct Body {
    int first_tet = 0, tets = 0, first_mode = 0, modes = 0;
  };
  std::vector<Body> bodies;

  std::vector<SceneLoad> loads;
  std::vector<MaterialRegion> materials;
  SolverSettings defaults;  // SolverSettings{} overridden by meta "solver"

  int mode_count() const { return static_cast<int>(eigenvalues.size()); }
  int cubature_count() const { return static_cast<int>(cubature_weights.size()); }
  int reduced_size() const { return 12 * mode_count(); }  // r = 12 m
};

// A violated consistency rule: the section it concerns and what is wrong.
struct ModelProblem {
  std::string section;
  std::string problem;
};

// cubature_Y's columns: 4m, or in a model of several bodies the widest body's 4 m_b.
Eigen::Index cubature_width(const ReducedModel& model);

// Checks sizes against each other and values: m >= 1, C >= 1, finite arrays, symmetric
// positive definite mass block, positive total mass and cubature weights, Young's moduli > 0,
// Poisson's ratios in (-1, 0.5), render positions and weights of matching sizes, scene loads
// of 4m rows with finite values, a contact group of consistent sizes (vertex ids in range,
// positive areas), an eigenfit group as check_eigenfit wants it (and a single body).
std::optional<ModelProblem> check_reduced_model(const ReducedModel& model);

// Where read_solver_defaults reads "solver" from. An asset's meta may come from a later version
// and keeps working: a key it does not read is ignored, and the material model goes by the
// stepper's name ("fixed_corotational"). A recipe someone typed (a shell's or a rod's) is told
// the misspelt key, and the material model goes by a recipe's name ("fcr"), as a body's
// recipe's does (sim/material_model.hpp).
enum class SolverSource { asset, recipe };

// The solver defaults of meta "solver" over `base` (every key optional); throws
// asset::AssetError naming "meta" and the key at fault. Also read by the full-space model and
// the thin bodies' recipes (thin/thin_recipe.hpp).
SolverSettings read_solver_defaults(const nlohmann::json& meta, const std::string& source,
                                    SolverSettings base = {},
                                    SolverSource from = SolverSource::asset);

// Reads the sections above (render.* optional as a pair) and meta's defaults; throws
// asset::AssetError naming the section at fault (shapes, dtypes, check_reduced_model, meta).
ReducedModel load_reduced_model(const asset::Asset& asset);

// b_p of a render vertex: b_p[4i + k] = W_pi [X_p; 1]_k (4m), from render.positions/weights.
Eigen::VectorXd render_vertex_basis(const ReducedModel& model, int render_vertex);

}  // namespace smfem::sim
