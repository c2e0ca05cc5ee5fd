#include "smfem/subspace/comparison_bases.hpp"

#include <chrono>

#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/displacement_basis.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/elastic_stiffness.hpp"
#include "smfem/subspace/linear_modes.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/modal_derivatives.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"

namespace smfem::subspace {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int fitting_derivative_modes(int coordinates, int rigid) {
  int modes = 1;
  while (rigid + (modes + 1) + (modes + 1) * (modes + 2) / 2 <= coordinates) ++modes;
  return modes;
}

std::vector<ComparisonBasis> comparison_bases(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
    const Eigen::Ref<const Eigen::VectorXd>& density,
    const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices, const BasisSizes& sizes) {
  const Eigen::VectorXd mass = lumped_mass(mesh, density);
  EigenmodeOptions options;
  options.threads = sizes.threads;
  std::vector<ComparisonBasis> bases;

  auto start = Clock::now();
  const SkinningModes skinning =
      skinning_eigenmodes(elastic_laplacian(mesh, youngs_modulus, poisson_ratio), mass,
                          mesh.vertices, sizes.skinning_modes, pinned_vertices, options);
  Eigen::MatrixXd skinning_basis =
      skinning_displacement_basis(vertex_basis(mesh, skinning.weights));
  bases.push_back({"skinning", std::move(skinning_basis), seconds_since(start),
                   sizes.skinning_modes, skinning.constant_modes, 0});
  const int coordinates = 12 * sizes.skinning_modes;

  start = Clock::now();
  const int k = sizes.linear_modes > 0 ? sizes.linear_modes : coordinates;
  LinearModes linear = linear_modes(elastic_stiffness(mesh, youngs_modulus, poisson_ratio), mass,
                                    mesh.vertices, k, pinned_vertices, options);
  bases.push_back(
      {"linear", std::move(linear.vectors), seconds_since(start), k, linear.rigid_modes, 0});

  start = Clock::now();
  const int rigid = linear.rigid_modes;
  const int differentiated = sizes.derivative_modes > 0
                                 ? sizes.derivative_modes
                                 : fitting_derivative_modes(coordinates, rigid);
  const LinearModes first =
      linear_modes(elastic_stiffness(mesh, youngs_modulus, poisson_ratio), mass, mesh.vertices,
                   rigid + differentiated, pinned_vertices, options);
  const ModalDerivatives derivatives =
      modal_derivatives(mesh, youngs_modulus, poisson_ratio, sizes.material, mass, pinned_vertices,
                        first, {1e-4, sizes.threads});
  Eigen::MatrixXd columns(first.vectors.rows(), first.vectors.cols() + derivatives.vectors.cols());
  columns << first.vectors, derivatives.vectors;
  OrthonormalColumns orthonormal = mass_orthonormalize(columns, mass);
  const auto dropped = static_cast<int>(columns.cols() - orthonormal.basis.cols());
  bases.push_back({"modal_derivatives", std::move(orthonormal.basis), seconds_since(start),
                   differentiated, first.rigid_modes, dropped});
  return bases;
}

}  // namespace smfem::subspace
