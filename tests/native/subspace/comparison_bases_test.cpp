#include "smfem/subspace/comparison_bases.hpp"

#include <gtest/gtest.h>

#include "smfem/subspace/displacement_basis.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

TEST(ComparisonBases, DerivativeModesFitTheCoordinates) {
  EXPECT_EQ(fitting_derivative_modes(48, 0), 8);  // 8 + 36 = 44 <= 48 < 9 + 45
  EXPECT_EQ(fitting_derivative_modes(48, 6), 7);  // 6 + 7 + 28 = 41 <= 48 < 6 + 8 + 36
  EXPECT_EQ(fitting_derivative_modes(60, 6), 9);  // 6 + 9 + 45 = 60
  EXPECT_EQ(fitting_derivative_modes(1, 6), 1);   // nothing fits: one mode all the same
}

// A free bar and the same bar pinned at x = 0: the three bases, their sizes and conventions.
TEST(ComparisonBases, BuildsTheThreeSubspacesOfFigureFive) {
  const mesh::TetMesh box = test::box_mesh({6, 2, 2}, {3, 1, 1});
  const Eigen::Index T = box.tets.rows();
  const Eigen::VectorXd E = Eigen::VectorXd::Constant(T, 1e6);
  const Eigen::VectorXd nu = Eigen::VectorXd::Constant(T, 0.4);
  const Eigen::VectorXd density = Eigen::VectorXd::Constant(T, 1000.0);
  const Eigen::VectorXd M = unknown_mass(lumped_mass(box, density));
  std::vector<int> face;
  for (int v = 0; v < box.vertices.rows(); ++v) {
    if (box.vertices(v, 0) == 0.0) face.push_back(v);
  }
  const Eigen::VectorXi pinned = Eigen::Map<const Eigen::VectorXi>(face.data(), 9);
  BasisSizes sizes;
  sizes.skinning_modes = 3;
  sizes.threads = 1;
  for (const bool free : {true, false}) {
    const std::vector<ComparisonBasis> bases =
        comparison_bases(box, E, nu, density, free ? Eigen::VectorXi() : pinned, sizes);
    ASSERT_EQ(bases.size(), 3u);
    EXPECT_EQ(bases[0].name, "skinning");
    EXPECT_EQ(bases[0].basis.cols(), 36);
    EXPECT_EQ(bases[0].rigid_modes, free ? 1 : 0);
    EXPECT_EQ(bases[1].name, "linear");
    EXPECT_EQ(bases[1].basis.cols(), 36);
    EXPECT_EQ(bases[1].rigid_modes, free ? 6 : 0);
    EXPECT_EQ(bases[2].name, "modal_derivatives");
    EXPECT_EQ(bases[2].modes, free ? 6 : 7);  // 6 + 6 + 21 = 33, 7 + 28 = 35
    EXPECT_EQ(bases[2].basis.cols() + bases[2].dropped, free ? 33 : 35);
    for (const ComparisonBasis& basis : bases) {
      EXPECT_GT(basis.seconds, 0.0);
      for (const int v : face) {
        if (!free) {
          EXPECT_EQ(basis.basis.middleRows<3>(3 * v).norm(), 0.0) << basis.name;
        }
      }
    }
    const Eigen::MatrixXd& Phi = bases[2].basis;
    EXPECT_LT(
        (Phi.transpose() * M.asDiagonal() * Phi - Eigen::MatrixXd::Identity(Phi.cols(), Phi.cols()))
            .norm(),
        1e-10);
    // One basis by name is the same basis, bit for bit (the bake writes it so).
    for (std::size_t i = 1; i < bases.size(); ++i) {
      const ComparisonBasis one = displacement_basis(bases[i].name, box, E, nu, density,
                                                     free ? Eigen::VectorXi() : pinned, sizes);
      EXPECT_EQ(one.basis, bases[i].basis) << one.name;
      EXPECT_EQ(one.rigid_modes, bases[i].rigid_modes) << one.name;
      EXPECT_EQ(one.modes, bases[i].modes) << one.name;
    }
  }
  EXPECT_THROW(displacement_basis("skinning", box, E, nu, density, pinned, sizes),
               std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
