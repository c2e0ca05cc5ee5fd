#pragma once
// A small heterogeneous body for the optimized-cubature tests: a warped 2 x 1 x 1 box of 96
// tets, soft (E 1e6) for x < 1 and stiff (E 1e8) beyond, with smooth weights standing in for
// skinning modes (the cubature code only needs some W and eigenvalues, so the tests do not
// depend on the eigensolver): W = [1, x, x^2, x y], eigenvalues [0, 1, 3, 10].
#include <Eigen/Core>

#include "smfem/cubature/optimized_cubature.hpp"
#include "smfem/cubature/training_forces.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::test {

struct TestBody {
  mesh::TetMesh mesh;
  Eigen::MatrixXd weights;
  Eigen::VectorXd eigenvalues;
  Eigen::VectorXd volumes;
  Eigen::VectorXd youngs;
  Eigen::VectorXd poisson;

  cubature::ElasticBody view(sim::MaterialModel model) const {
    return {mesh, weights, eigenvalues, volumes, youngs, poisson, model};
  }
};

inline TestBody make_test_body() {
  TestBody body;
  body.mesh = warped(box_mesh({4, 2, 2}, {2, 1, 1}), 0.03);
  const Eigen::Index vertices = body.mesh.vertices.rows();
  const Eigen::Index tets = body.mesh.tets.rows();
  body.weights.resize(vertices, 4);
  for (Eigen::Index v = 0; v < vertices; ++v) {
    const double x = body.mesh.vertices(v, 0), y = body.mesh.vertices(v, 1);
    body.weights.row(v) << 1.0, x, x * x, x * y;
  }
  body.eigenvalues = Eigen::Vector4d(0.0, 1.0, 3.0, 10.0);
  body.volumes = subspace::tet_rest_volumes(body.mesh);
  body.youngs.resize(tets);
  for (Eigen::Index t = 0; t < tets; ++t)
    body.youngs(t) = tet_centroid(body.mesh, t).x() < 1.0 ? 1e6 : 1e8;
  body.poisson = Eigen::VectorXd::Constant(tets, 0.45);
  return body;
}

// Built once per test binary.
inline const TestBody& test_body() {
  static const TestBody body = make_test_body();
  return body;
}

// The optimized cubature's options for `tets` tets on `threads` threads.
inline cubature::OptimizedCubatureOptions cubature_options(int tets, int threads = 2) {
  cubature::OptimizedCubatureOptions options;
  options.tets = tets;
  options.threads = threads;
  return options;
}

}  // namespace smfem::test
