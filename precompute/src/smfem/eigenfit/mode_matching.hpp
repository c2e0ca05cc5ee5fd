#pragma once
// Which of the fine mesh's vibration modes each coarse reduced mode stands for (EigenFit,
// Chen et al. 2019, §3.5): both compared as displacement fields on the fine mesh, in its mass inner
// product.
//
// The coarse model's reduced modes become fine-mesh fields through the barycentric map from the
// coarse mesh to the fine one: each fine vertex p sits in a coarse tet (on the coarse mesh's
// curved boundary, the nearest one, extrapolated: render/tet_embedding.hpp), its skinning
// weights W_p are the barycentric mix of that tet's vertex weights, and the reduced mode U
// (4m x 3, reduced_model.hpp) moves it by U^T b_p, b_p[4i + k] = W_pi [X_p; 1]_k.
//
// Fields are 3n x k, vertex-major (row 3p + d is coordinate d of vertex p), like
// subspace/linear_modes.hpp.
#include <Eigen/Core>

#include "smfem/mesh/types.hpp"
#include "smfem/render/tet_embedding.hpp"

namespace smfem::eigenfit {

// Cosine a match needs (Chen et al. 2019, §3.5: "an entry larger than 0.6").
inline constexpr double kMatchCosine = 0.6;

// The fine vertices' skinning weights (n x m) from the coarse ones (|Vc| x m).
Eigen::MatrixXd embedded_weights(const mesh::TetMesh& coarse, const Eigen::MatrixXd& weights,
                                 const render::TetEmbedding& embedding);

// The reduced modes (12m x k, u = vec(U) per column) as fields on vertices at `positions`
// (n x 3) with skinning weights `weights` (n x m): 3n x k.
Eigen::MatrixXd reduced_modes_at(const Eigen::Ref<const mesh::Vertices>& positions,
                                 const Eigen::MatrixXd& weights, const Eigen::MatrixXd& modes);

// |a_i . M b_j| / (|a_i|_M |b_j|_M) for fields a (3n x k) and b (3n x l), M the lumped vertex
// masses on each coordinate: k x l, in [0, 1]. A field of zero norm has cosine 0 with all.
Eigen::MatrixXd mass_cosines(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                             const Eigen::VectorXd& vertex_mass);

// Fine modes whose eigenvalue lies within this fraction of the one below it are taken as one
// group: a symmetric body's equal frequencies (a square beam's two bendings, a cylinder's) have
// mode shapes that are any rotation within their group, which the coarse and fine meshes each
// pick their own way, so a coarse mode is matched to a group's span, not to one of its modes.
// 5 % in eigenvalue is 2.5 % in frequency: the most a fitted frequency can be off within a group.
inline constexpr double kDegenerateGap = 0.05;

// The group of each fine mode (eigenvalues ascending): 0, 0, 1, 2, 2, ... each mode joins the
// group of the one below it when its eigenvalue exceeds that one's by at most kDegenerateGap.
Eigen::VectorXi degenerate_groups(const Eigen::VectorXd& eigenvalues);

// The cosine of each coarse mode (row of `cosines`, its mass cosines with the M-orthonormal
// fine modes) with each group's span: the square root of the sum of its squared cosines with
// the group's modes. k x (number of groups).
Eigen::MatrixXd group_cosines(const Eigen::MatrixXd& cosines, const Eigen::VectorXi& groups);

struct ModeMatch {
  Eigen::VectorXi partner;  // per row of the cosines: the matched column, or -1
  Eigen::VectorXd cosine;   // per row: its cosine with the partner's group, or its best one if none
  int matched = 0;
};

// Pairs coarse modes (rows) with groups of fine modes (columns grouped by `groups`) greedily by
// descending group cosine, only above kMatchCosine, a group taking at most as many coarse modes
// as it has modes; within a group, its modes go to the coarse modes matched to it in order
// (the lower coarse mode takes the lower fine one).
ModeMatch match_modes(const Eigen::MatrixXd& cosines, const Eigen::VectorXi& groups);

// The lowest fine mode (column) that no coarse mode matches while a higher one is matched, or -1
// if there is none. Such a gap means the coarse model has no mode for a motion of the object
// below motions it does have: its leading modes are spurious (an under-integrating cubature,
// Subspace MFEM, Trusty et al. 2023, Fig. 14), and rescaling them to the fine eigenvalues moves
// them to the wrong ones.
int skipped_fine_mode(const ModeMatch& match);

}  // namespace smfem::eigenfit
