// The basis's deformation map is the tet mesh's map applied to u = Phi q, and its Jacobian is
// that map's derivative.
#include "smfem/displacement/basis_deformation.hpp"

#include <random>

#include <gtest/gtest.h>

#include "displacement/random_basis.hpp"
#include "full/full_box.hpp"

namespace smfem::displacement {
namespace {

TEST(BasisDeformation, IsTheMeshMapOfTheBasisDisplacements) {
  const full::FullModel model = full::test::full_box({}, 0.2);
  const full::TetMeshDeformation mesh(model);
  const BasisRows basis = test::random_basis(model, 5, 1u);
  const Quadrature quadrature = exact_quadrature(mesh);
  const BasisDeformation deformation(mesh, basis, quadrature);
  const sim::ReducedMatrix q = test::coordinates(test::random_vector(5, 0.1, 2u));
  const Eigen::VectorXd u = basis * q.col(0);
  const sim::ReducedMatrix U = u.reshaped(3, model.vertex_count()).transpose();
  TetJacobian J(9, 5);
  for (int t = 0; t < model.tet_count(); ++t) {
    const Matrix3<double> H = deformation.displacement_gradient(t, q);
    EXPECT_LT((H - mesh.displacement_gradient(t, U)).norm(), 1e-14 * (1.0 + H.norm()));
    deformation.jacobian(t, J);
    const Vector9<double> linear = J * q.col(0);
    EXPECT_LT((linear - Eigen::Map<const Vector9<double>>(H.data())).norm(),
              1e-14 * (1.0 + H.norm()))
        << "tet " << t;
  }
}

}  // namespace
}  // namespace smfem::displacement
