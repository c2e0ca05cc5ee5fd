#include "smfem/bake/reduced_forces.hpp"

#include <variant>

#include "smfem/geometry/sdf.hpp"

namespace smfem::bake {

std::vector<ReducedForce> reduced_forces(const std::vector<scene::SceneForce>& forces,
                                         const mesh::TetMesh& mesh,
                                         const Eigen::Ref<const subspace::RowMatrixXd>& basis,
                                         const Eigen::Ref<const Eigen::VectorXd>& mass) {
  const Eigen::Index r4 = basis.cols();
  std::vector<ReducedForce> reduced;
  for (const scene::SceneForce& force : forces) {
    ReducedForce out;
    out.mass_vector = Eigen::VectorXd::Zero(r4);
    const bool springs = !std::holds_alternative<scene::PeriodicForce>(force.kind);
    if (springs) {
      out.mass_block = Eigen::MatrixXd::Zero(r4, r4);
      out.rest_offset = Eigen::MatrixXd::Zero(r4, 3);
    }
    for (int v : force.vertices) {
      const Eigen::VectorXd b = basis.row(v).transpose();
      out.mass_vector += mass(v) * b;
      if (!springs) continue;
      const Eigen::Vector3d X = mesh.vertices.row(v).transpose();
      Eigen::Vector3d offset;
      if (const auto* twist = std::get_if<scene::TwistForce>(&force.kind)) {
        const Eigen::Matrix3d R =
            geometry::rotation_from_axis_angle_deg(twist->axis, twist->angle_deg);
        offset = twist->center + R * (X - twist->center) - X;
      } else {
        offset = std::get<scene::PullForce>(force.kind).offset;
      }
      out.mass_block.noalias() += mass(v) * b * b.transpose();
      out.rest_offset.noalias() += mass(v) * b * offset.transpose();
    }
    reduced.push_back(std::move(out));
  }
  return reduced;
}

}  // namespace smfem::bake
