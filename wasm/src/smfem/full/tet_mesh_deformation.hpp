#pragma once
// The full mesh's map from node displacements to deformation gradients, as the steps see it
// (sim/step/discretization.hpp): U is n x 3 (row v the displacement of node v, so
// x_v = X_v + U_v), and with G_t the element's node weights (element_model.hpp; for a tet
// dphi/dX, fem/linear_tet.hpp, row j corner j)
//
//   F_t - I = sum_j U_{v_j}^T G_t(j, :) = U_t^T G_t     (U_t: the 4 x 3 rows of its nodes),
//
// so dF_t(d, k)/dU(v_j, e) = delta_de G_t(j, k). "Tet" names an element throughout.
#include <vector>

#include <Eigen/Core>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/full/element_model.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::full {

class TetMeshDeformation final : public sim::TetDeformation {
 public:
  explicit TetMeshDeformation(const ElementModel& model);
  explicit TetMeshDeformation(const FullModel& model);  // its tets (element_model)

  Matrix3<double> displacement_gradient(int tet, const sim::ReducedMatrix& U) const override;

  int tet_count() const { return static_cast<int>(tets_.rows()); }
  const Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>& tets() const { return tets_; }
  const fem::TetCorners& shape_gradients(int tet) const {
    return shape_gradients_[static_cast<std::size_t>(tet)];
  }
  const Eigen::VectorXd& volumes() const { return volumes_; }  // weights w_t (rest volumes)

 private:
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> tets_;
  std::vector<fem::TetCorners> shape_gradients_;  // G_t
  Eigen::VectorXd volumes_;
};

}  // namespace smfem::full
