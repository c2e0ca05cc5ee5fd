#include "smfem/subspace/modal_derivatives.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <Eigen/Dense>

#include "smfem/subspace/elastic_stiffness.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"
#include "subspace/dense_elasticity.hpp"

namespace smfem::subspace {
namespace {

constexpr double kYoungs = 1e6;
constexpr double kPoisson = 0.4;

struct DerivativeBar {
  mesh::TetMesh mesh;
  Eigen::VectorXd E, nu, mass;
  std::vector<int> pinned;
  LinearModes modes;

  Eigen::VectorXi pins() const {
    return Eigen::Map<const Eigen::VectorXi>(pinned.data(),
                                             static_cast<Eigen::Index>(pinned.size()));
  }
  ModalDerivatives derivatives(sim::MaterialModel material, double step = 1e-4) const {
    return modal_derivatives(mesh, E, nu, material, mass, pins(), modes, {step, 1});
  }
};

// A warped bar, pinned at x = 0 or free, with m linear modes.
DerivativeBar make_derivative_bar(bool pinned, int m) {
  DerivativeBar s;
  const mesh::TetMesh box = test::box_mesh({4, 1, 1}, {2, 0.5, 0.5});
  for (int v = 0; pinned && v < box.vertices.rows(); ++v) {
    if (box.vertices(v, 0) == 0.0) s.pinned.push_back(v);
  }
  s.mesh = test::warped(box, 0.02);
  const Eigen::Index T = s.mesh.tets.rows();
  s.E = Eigen::VectorXd::Constant(T, kYoungs);
  s.nu = Eigen::VectorXd::Constant(T, kPoisson);
  s.mass = lumped_mass(s.mesh, Eigen::VectorXd::Constant(T, 1000.0));
  s.modes = linear_modes(elastic_stiffness(s.mesh, s.E, s.nu), s.mass, s.mesh.vertices, m, s.pins(),
                         {1e-12, 1000, 1});
  return s;
}

// The static displacement under the load K (a phi_i + b phi_j), by Newton's method on the
// nonlinear material with its exact tangent, from the linear response.
Eigen::VectorXd static_response(const DerivativeBar& s, const test::DenseElasticity& elasticity,
                                const Eigen::MatrixXd& K, int i, int j, double a, double b) {
  std::vector<int> free;
  for (int k = 0; k < K.rows(); ++k) {
    if (std::find(s.pinned.begin(), s.pinned.end(), k / 3) == s.pinned.end()) free.push_back(k);
  }
  const Eigen::VectorXd linear = a * s.modes.vectors.col(i) + b * s.modes.vectors.col(j);
  const Eigen::VectorXd load = K * linear;
  Eigen::VectorXd u = linear;
  for (int iteration = 0; iteration < 20; ++iteration) {
    const Eigen::VectorXd residual = (elasticity.force(u) - load)(free);
    if (residual.norm() <= 1e-14 * load(free).norm()) break;
    const Eigen::MatrixXd tangent = elasticity.stiffness(u)(free, free);
    u(free) -= tangent.ldlt().solve(residual);
  }
  return u;
}

// The largest entry of grad phi over the tets.
double largest_gradient(const DerivativeBar& s, const test::DenseElasticity& elasticity,
                        const Eigen::VectorXd& phi) {
  double largest = 0.0;
  for (Eigen::Index t = 0; t < s.mesh.tets.rows(); ++t) {
    fem::TetCorners G;
    double volume = 0.0;
    const Eigen::Matrix3d F = elasticity.F(t, phi, G, volume);
    largest = std::max(largest, (F - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff());
  }
  return largest;
}

// Psi_ij = d2u / dq_i dq_j of the static response, by central differences (error O(a^2)).
TEST(ModalDerivatives, AreTheSecondDerivativesOfTheNonlinearStaticResponse) {
  const DerivativeBar s = make_derivative_bar(true, 4);
  for (const sim::MaterialModel material :
       {sim::MaterialModel::fixed_corotational, sim::MaterialModel::stable_neo_hookean}) {
    const ModalDerivatives derivatives = s.derivatives(material);
    ASSERT_EQ(derivatives.pairs.size(), 10u);
    const test::DenseElasticity elasticity{s.mesh, test::uniform_lame(s.mesh, kYoungs, kPoisson),
                                           material};
    const Eigen::MatrixXd K = elastic_stiffness(s.mesh, s.E, s.nu);
    for (std::size_t c = 0; c < derivatives.pairs.size(); c += 3) {
      const int i = derivatives.pairs[c][0];
      const int j = derivatives.pairs[c][1];
      const double a = 1e-3 / largest_gradient(s, elasticity, s.modes.vectors.col(i));
      const double b = 1e-3 / largest_gradient(s, elasticity, s.modes.vectors.col(j));
      const auto u = [&](double sa, double sb) {
        return static_response(s, elasticity, K, i, j, sa * a, sb * b);
      };
      const Eigen::VectorXd expected = (u(1, 1) - u(1, -1) - u(-1, 1) + u(-1, -1)) / (4.0 * a * b);
      const Eigen::VectorXd psi = derivatives.vectors.col(static_cast<Eigen::Index>(c));
      EXPECT_LT((psi - expected).norm(), 1e-4 * expected.norm())
          << sim::material_model_name(material) << " pair (" << i << ", " << j << ")";
      for (const int v : s.pinned) EXPECT_EQ(psi.segment<3>(3 * v).norm(), 0.0);
    }
  }
}

// The central differences' error falls as the step squared, for both materials.
TEST(ModalDerivatives, CentralDifferencesConvergeAtSecondOrder) {
  const DerivativeBar s = make_derivative_bar(true, 3);
  for (const sim::MaterialModel material :
       {sim::MaterialModel::fixed_corotational, sim::MaterialModel::stable_neo_hookean}) {
    const Eigen::MatrixXd reference = s.derivatives(material, 1e-4).vectors;
    const double coarse = (s.derivatives(material, 1e-2).vectors - reference).norm();
    const double fine = (s.derivatives(material, 1e-3).vectors - reference).norm();
    EXPECT_GT(coarse / fine, 70.0) << sim::material_model_name(material);
    EXPECT_LT(coarse / fine, 140.0) << sim::material_model_name(material);
    EXPECT_LT(fine, 1e-4 * reference.norm()) << sim::material_model_name(material);
  }
}

// A free body: the load is balanced by the rigid inertia and Psi is M-orthogonal to the rigid
// modes; the loads are checked against central differences of the dense tangent stiffness.
TEST(ModalDerivatives, FreeBodySolvesTheBalancedProblemOffTheRigidModes) {
  const DerivativeBar s = make_derivative_bar(false, 9);
  ASSERT_EQ(s.modes.rigid_modes, 6);
  const ModalDerivatives derivatives = s.derivatives(sim::MaterialModel::fixed_corotational);
  ASSERT_EQ(derivatives.pairs.size(), 6u);
  EXPECT_EQ(derivatives.pairs.front()[0], 6);
  const test::DenseElasticity elasticity{s.mesh, test::uniform_lame(s.mesh, kYoungs, kPoisson),
                                         sim::MaterialModel::fixed_corotational};
  const Eigen::MatrixXd K = elastic_stiffness(s.mesh, s.E, s.nu);
  const Eigen::VectorXd M = s.mass.replicate(1, 3).transpose().reshaped();
  const Eigen::MatrixXd R = s.modes.vectors.leftCols(6);
  for (std::size_t c = 0; c < derivatives.pairs.size(); ++c) {
    const auto [i, j] = derivatives.pairs[c];
    const Eigen::VectorXd phi_i = s.modes.vectors.col(i);
    const double e = 1e-4 / largest_gradient(s, elasticity, phi_i);
    const Eigen::VectorXd load =
        (elasticity.stiffness(e * phi_i) - elasticity.stiffness(-e * phi_i)) *
        s.modes.vectors.col(j) / (2.0 * e);
    const Eigen::VectorXd balanced = load - M.asDiagonal() * (R * (R.transpose() * load));
    const Eigen::VectorXd psi = derivatives.vectors.col(static_cast<Eigen::Index>(c));
    EXPECT_LT((K * psi + balanced).norm(), 1e-6 * balanced.norm()) << "pair " << i << ", " << j;
    EXPECT_LT((R.transpose() * M.asDiagonal() * psi).norm(),
              1e-10 * std::sqrt(psi.dot(M.cwiseProduct(psi))));
  }
}

TEST(ModalDerivatives, RefusesBadInput) {
  const DerivativeBar s = make_derivative_bar(true, 3);
  EXPECT_THROW(s.derivatives(sim::MaterialModel::arap), std::invalid_argument);
  EXPECT_THROW(s.derivatives(sim::MaterialModel::fixed_corotational, 0.0), std::invalid_argument);
  EXPECT_THROW(s.derivatives(sim::MaterialModel::fixed_corotational,
                             std::numeric_limits<double>::quiet_NaN()),
               std::invalid_argument);
  DerivativeBar cut = s;
  cut.modes.vectors.conservativeResize(cut.modes.vectors.rows() - 3, Eigen::NoChange);
  EXPECT_THROW(cut.derivatives(sim::MaterialModel::fixed_corotational), std::invalid_argument);
  const DerivativeBar rigid_only = make_derivative_bar(false, 6);
  EXPECT_THROW(rigid_only.derivatives(sim::MaterialModel::fixed_corotational),
               std::invalid_argument);
  DerivativeBar wrong_materials = s;
  wrong_materials.nu(0) = 0.5;
  EXPECT_THROW(wrong_materials.derivatives(sim::MaterialModel::fixed_corotational),
               std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
