// Times the subspace stages of a bake on a synthetic box mesh and prints one JSON object.
//
//   smfem-bench-subspace [--tets N] [--modes M] [--clusters C] [--threads T] [--homogeneous]
//
// The box is 2 x 1 x 1 with 2a x a x a cubes of six tets each, a chosen so that the tet count
// is near N (default 39,000). By default the half x < 1 is stiff (E 1e10) and the rest soft
// (E 1e6), like the paper's crab; --homogeneous makes it all 1e6. Unpinned, nu 0.45,
// density 1000. Stages: elastic Laplacian, lumped mass, eigenmodes, cubature (features and
// k-means), basis data (Y_t of the cubature tets, reduced mass and gravity, tet weights).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "smfem/cubature/cubature.hpp"
#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"
#include "subspace/box_mesh.hpp"

namespace {

struct Arguments {
  long tets = 39000;
  int modes = 16;
  int clusters = 0;  // 0: 20 m
  int threads = 0;
  bool homogeneous = false;
};

Arguments parse(int argc, char** argv) {
  Arguments out;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    if (flag == "--tets" && has_value) {
      out.tets = std::atol(argv[++i]);
    } else if (flag == "--modes" && has_value) {
      out.modes = std::atoi(argv[++i]);
    } else if (flag == "--clusters" && has_value) {
      out.clusters = std::atoi(argv[++i]);
    } else if (flag == "--threads" && has_value) {
      out.threads = std::atoi(argv[++i]);
    } else if (flag == "--homogeneous") {
      out.homogeneous = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--tets N] [--modes M] [--clusters C] [--threads T] "
                   "[--homogeneous]\n",
                   argv[0]);
      std::exit(2);
    }
  }
  return out;
}

class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

int main(int argc, char** argv) {
  using namespace smfem;
  const Arguments args = parse(argc, argv);
  const int a =
      std::max(1, static_cast<int>(std::lround(std::cbrt(static_cast<double>(args.tets) / 12.0))));
  const mesh::TetMesh box = test::box_mesh({2 * a, a, a}, {2.0, 1.0, 1.0});
  const Eigen::Index tets = box.tets.rows();
  Eigen::VectorXd E(tets);
  for (Eigen::Index t = 0; t < tets; ++t) {
    E(t) = !args.homogeneous && test::tet_centroid(box, t).x() < 1.0 ? 1e10 : 1e6;
  }

  Stopwatch clock;
  const auto H = subspace::elastic_laplacian(box, E, Eigen::VectorXd::Constant(tets, 0.45));
  const double laplacian_s = clock.lap();
  const Eigen::VectorXd mass = subspace::lumped_mass(box, Eigen::VectorXd::Constant(tets, 1000.0));
  const Eigen::VectorXd volumes = subspace::tet_rest_volumes(box);
  const double mass_s = clock.lap();
  const subspace::SkinningModes modes =
      subspace::skinning_eigenmodes(H, mass, box.vertices, args.modes, Eigen::VectorXi());
  const double eigenmodes_s = clock.lap();
  const Eigen::MatrixXd tet_weights = subspace::tet_averaged_weights(box, modes.weights);
  cubature::CubatureOptions options;
  options.clusters = args.clusters;
  options.threads = args.threads;
  const cubature::Cubature cubature =
      cubature::kmeans_cubature(volumes, tet_weights, modes.eigenvalues, options);
  const double cubature_s = clock.lap();
  const subspace::RowMatrixXd B = subspace::vertex_basis(box, modes.weights);
  const Eigen::MatrixXd M_u = subspace::reduced_mass(B, mass);
  const Eigen::VectorXd g_u = subspace::reduced_gravity(B, mass);
  const subspace::TetBasisGradients Y =
      subspace::tet_basis_gradients(box, modes.weights, cubature.tets);
  const double basis_s = clock.lap();

  std::printf(
      "{\"vertices\": %ld, \"tets\": %ld, \"modes\": %d, \"clusters\": %ld, "
      "\"heterogeneous\": %s, \"kmeans_iterations\": %d, \"kmeans_converged\": %s, "
      "\"eigenvalue_1\": %.6g, \"eigenvalue_last\": %.6g, \"checksum\": %.6g,\n"
      " \"seconds\": {\"laplacian\": %.4f, \"mass_and_volumes\": %.4f, \"eigenmodes\": %.4f, "
      "\"cubature\": %.4f, \"basis\": %.4f, \"total\": %.4f}}\n",
      static_cast<long>(box.vertices.rows()), static_cast<long>(tets), args.modes,
      static_cast<long>(cubature.tets.size()), args.homogeneous ? "false" : "true",
      cubature.iterations, cubature.converged ? "true" : "false", modes.eigenvalues(1),
      modes.eigenvalues(args.modes - 1), M_u.trace() + g_u.sum() + Y.sum(), laplacian_s, mass_s,
      eigenmodes_s, cubature_s, basis_s,
      laplacian_s + mass_s + eigenmodes_s + cubature_s + basis_s);
  return 0;
}
