#include "smfem/subspace/elastic_stiffness.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include <Eigen/Dense>

#include "smfem/subspace/elastic_laplacian.hpp"
#include "subspace/box_mesh.hpp"
#include "subspace/dense_elasticity.hpp"

namespace smfem::subspace {
namespace {

mesh::TetMesh stiffness_box() { return test::warped(test::box_mesh({3, 2, 2}, {1.5, 1, 1}), 0.03); }

// Per tet E in [1e5, 1e7] and nu in [0.2, 0.45], varying smoothly over the box.
void graded_materials(const mesh::TetMesh& mesh, Eigen::VectorXd& E, Eigen::VectorXd& nu) {
  E.resize(mesh.tets.rows());
  nu.resize(mesh.tets.rows());
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    const Eigen::Vector3d c = test::tet_centroid(mesh, t);
    E(t) = 1e5 * std::pow(100.0, c.x() / 1.5);
    nu(t) = 0.2 + 0.25 * c.y();
  }
}

TEST(ElasticStiffness, IsTheRestHessianOfFixedCorotationalAndStableNeoHookean) {
  const mesh::TetMesh mesh = stiffness_box();
  Eigen::VectorXd E, nu;
  graded_materials(mesh, E, nu);
  const Eigen::MatrixXd K = elastic_stiffness(mesh, E, nu);
  std::vector<sim::Lame> lame;
  for (Eigen::Index t = 0; t < E.size(); ++t) {
    lame.push_back(energies::lame_from_young_poisson(E(t), nu(t)));
  }
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(K.rows());
  for (const sim::MaterialModel material :
       {sim::MaterialModel::fixed_corotational, sim::MaterialModel::stable_neo_hookean}) {
    const Eigen::MatrixXd tangent = test::DenseElasticity{mesh, lame, material}.stiffness(rest);
    EXPECT_LT((K - tangent).norm(), 1e-12 * K.norm()) << sim::material_model_name(material);
  }
  EXPECT_EQ((K - K.transpose()).norm(), 0.0) << "symmetric bit for bit";
}

TEST(ElasticStiffness, CoordinateBlocksSumToTheElasticLaplacian) {
  const mesh::TetMesh mesh = stiffness_box();
  Eigen::VectorXd E, nu;
  graded_materials(mesh, E, nu);
  const Eigen::MatrixXd K = elastic_stiffness(mesh, E, nu);
  const Eigen::MatrixXd H = elastic_laplacian(mesh, E, nu);
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(H.rows(), H.cols());
  for (int d = 0; d < 3; ++d) {
    sum += K(Eigen::seqN(d, H.rows(), 3), Eigen::seqN(d, H.cols(), 3));
  }
  EXPECT_LT((sum - H).norm(), 1e-12 * H.norm());
}

TEST(ElasticStiffness, RigidMotionsAreInItsNullSpaceAndItScalesWithTheMesh) {
  const mesh::TetMesh mesh = stiffness_box();
  Eigen::VectorXd E, nu;
  graded_materials(mesh, E, nu);
  const Eigen::SparseMatrix<double> K = elastic_stiffness(mesh, E, nu);
  const double scale = Eigen::MatrixXd(K).norm();
  for (int k = 0; k < 6; ++k) {
    Eigen::VectorXd u(K.rows());
    for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
      const Eigen::Vector3d X = mesh.vertices.row(v).transpose();
      u.segment<3>(3 * v) =
          k < 3 ? Eigen::Vector3d::Unit(k) : Eigen::Vector3d(Eigen::Vector3d::Unit(k - 3).cross(X));
    }
    EXPECT_LT((K * u).norm(), 1e-12 * scale * u.norm()) << "rigid motion " << k;
  }
  mesh::TetMesh scaled = mesh;
  scaled.vertices *= 3.0;
  const Eigen::MatrixXd K3 = elastic_stiffness(scaled, E, nu);
  EXPECT_LT((K3 - 3.0 * Eigen::MatrixXd(K)).norm(), 1e-12 * K3.norm());
}

TEST(ElasticStiffness, RefusesBadInput) {
  const mesh::TetMesh mesh = stiffness_box();
  const Eigen::Index T = mesh.tets.rows();
  const Eigen::VectorXd E = Eigen::VectorXd::Constant(T, 1e6);
  const Eigen::VectorXd nu = Eigen::VectorXd::Constant(T, 0.3);
  EXPECT_THROW(elastic_stiffness(mesh, E.head(T - 1), nu), std::invalid_argument);
  EXPECT_THROW(elastic_stiffness(mesh, E, Eigen::VectorXd::Constant(T, 0.5)),
               std::invalid_argument);
  EXPECT_THROW(elastic_stiffness(mesh, -E, nu), std::invalid_argument);
  mesh::TetMesh inverted = mesh;
  std::swap(inverted.tets(0, 1), inverted.tets(0, 2));
  EXPECT_THROW(elastic_stiffness(inverted, E, nu), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
