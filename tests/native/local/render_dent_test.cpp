// The dent drawn on the render surface (local/render_dent.hpp): at a mesh vertex it is that
// vertex's sum_p R_p B_p(v) c_p, inside a tet the barycentric blend of its corners', just outside
// the mesh the nearest tet's clamped blend; its gradient is the blend's (finite differences);
// no patch coefficients, no dent.
#include <gtest/gtest.h>

#include "local/pressed_block.hpp"
#include "smfem/local/patch_support.hpp"
#include "smfem/local/render_dent.hpp"

namespace smfem::local {
namespace {

// The dent of mesh vertex v straight from the patches' fields.
Eigen::Vector3d mesh_dent(const PatchSet& patches, const sim::ReducedMatrix& C, int v) {
  Eigen::Vector3d dent = Eigen::Vector3d::Zero();
  for (int p = 0; p < patches.patch_count(); ++p) {
    dent += patches.rotation(p) * field_at_vertex(patches.patch(p), v) * C.row(p).transpose();
  }
  return dent;
}

TEST(RenderDent, InterpolatesThePatchesFieldsFromTheMesh) {
  test::PressedBlock block(test::PressOptions{}, test::page_settings(sim::SolverMethod::mfem, 2),
                           true);
  for (int step = 1; step <= 20; ++step) ASSERT_TRUE(block.step_towards(0.0005 * step).ok);
  const sim::Simulator& simulator = block.simulator();
  const PatchSet& patches = simulator.local_deformations()->patches();
  const sim::ReducedMatrix& C = simulator.snapshot().patches.C;
  ASSERT_GT(patches.patch_count(), 0);
  const full::FullModel& mesh = block.mesh();

  // Every mesh vertex, the midpoint of tet 0's first edge, and the top's middle lifted 1 mm
  // out of the mesh (the nearest tet's blend, clamped to its top face).
  const auto n = static_cast<Eigen::Index>(mesh.positions.rows());
  Eigen::MatrixXd points(n + 2, 3);
  points.topRows(n) = mesh.positions;
  const int a = mesh.tets(0, 0), b = mesh.tets(0, 1);
  points.row(n) = 0.5 * (mesh.positions.row(a) + mesh.positions.row(b));
  Eigen::Index top = 0;
  (mesh.positions.rowwise() - Eigen::RowVector3d(0.0, 0.5, 0.0))
      .rowwise()
      .squaredNorm()
      .minCoeff(&top);
  points.row(n + 1) = mesh.positions.row(top) + Eigen::RowVector3d(0.0, 1e-3, 0.0);

  const RenderDent dent(mesh, points);
  std::vector<float> drawn;
  dent.displacements(patches, C, drawn);
  constexpr int kStride = RenderDent::kFloatsPerVertex;
  ASSERT_EQ(drawn.size(), static_cast<std::size_t>(kStride * (n + 2)));
  const auto at = [&](Eigen::Index v) {
    return Eigen::Vector3d(drawn[kStride * v], drawn[kStride * v + 1], drawn[kStride * v + 2]);
  };
  double largest = 0.0;
  for (Eigen::Index v = 0; v < n; ++v) {
    const Eigen::Vector3d expected = mesh_dent(patches, C, static_cast<int>(v));
    largest = std::max(largest, expected.norm());
    EXPECT_LT((at(v) - expected).norm(), 1e-6 * (1.0 + expected.norm())) << v;
  }
  EXPECT_GT(largest, 1e-4);  // the press dented the top
  EXPECT_LT((at(n) - 0.5 * (mesh_dent(patches, C, a) + mesh_dent(patches, C, b))).norm(), 1e-6);
  // (Its clamped coordinates put a share of about 1 mm over the tets' height on the top face's
  // other corners, whose dents are near the middle's.)
  EXPECT_LT((at(n + 1) - mesh_dent(patches, C, static_cast<int>(top))).norm(),
            0.05 * mesh_dent(patches, C, static_cast<int>(top)).norm() + 1e-7);

  // The gradient at the edge's midpoint against central differences along the edge (the blend is
  // linear inside the tet: exact but for rounding).
  const Eigen::Vector3d edge = mesh.positions.row(b) - mesh.positions.row(a);
  Eigen::MatrixXd nudged(2, 3);
  nudged.row(0) = points.row(n) + 0.1 * edge.transpose();
  nudged.row(1) = points.row(n) - 0.1 * edge.transpose();
  std::vector<float> ends;
  RenderDent(mesh, nudged).displacements(patches, C, ends);
  Eigen::Matrix3d G;
  for (int d = 0; d < 3; ++d) {
    for (int e = 0; e < 3; ++e) G(d, e) = drawn[kStride * n + 3 + 3 * d + e];
  }
  const Eigen::Vector3d along(ends[0] - ends[kStride], ends[1] - ends[kStride + 1],
                              ends[2] - ends[kStride + 2]);
  EXPECT_LT((G * (0.2 * edge) - along).norm(), 1e-5 * (1.0 + along.norm()) + 1e-8);
  EXPECT_GT(along.norm(), 0.0);

  dent.displacements(patches, sim::ReducedMatrix::Zero(C.rows(), 3), drawn);
  for (const float x : drawn) EXPECT_EQ(x, 0.0F);
  EXPECT_THROW(dent.displacements(patches, sim::ReducedMatrix::Zero(C.rows() + 1, 3), drawn),
               std::invalid_argument);
}

}  // namespace
}  // namespace smfem::local
