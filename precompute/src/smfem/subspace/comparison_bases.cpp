#include "smfem/subspace/comparison_bases.hpp"

#include <chrono>
#include <stdexcept>

#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/detail/floating_components.hpp"
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

namespace {

ComparisonBasis skinning_basis(const mesh::TetMesh& mesh, const Eigen::VectorXd& youngs_modulus,
                               const Eigen::VectorXd& poisson_ratio, const Eigen::VectorXd& mass,
                               const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                               const BasisSizes& sizes) {
  const auto start = Clock::now();
  EigenmodeOptions options;
  options.threads = sizes.threads;
  const SkinningModes skinning =
      skinning_eigenmodes(elastic_laplacian(mesh, youngs_modulus, poisson_ratio), mass,
                          mesh.vertices, sizes.skinning_modes, pinned_vertices, options);
  Eigen::MatrixXd basis = skinning_displacement_basis(vertex_basis(mesh, skinning.weights));
  return {"skinning",           std::move(basis),        seconds_since(start),
          sizes.skinning_modes, skinning.constant_modes, 0};
}

ComparisonBasis linear_basis(const mesh::TetMesh& mesh, const Eigen::VectorXd& youngs_modulus,
                             const Eigen::VectorXd& poisson_ratio, const Eigen::VectorXd& mass,
                             const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                             const BasisSizes& sizes) {
  const auto start = Clock::now();
  EigenmodeOptions options;
  options.threads = sizes.threads;
  const int k = sizes.linear_modes > 0 ? sizes.linear_modes : 12 * sizes.skinning_modes;
  LinearModes linear = linear_modes(elastic_stiffness(mesh, youngs_modulus, poisson_ratio), mass,
                                    mesh.vertices, k, pinned_vertices, options);
  return {"linear", std::move(linear.vectors), seconds_since(start), k, linear.rigid_modes, 0};
}

// The free parts' rigid modes: six for each tet-connected part without a pinned vertex.
int rigid_mode_count(const mesh::TetMesh& mesh, const Eigen::VectorXd& youngs_modulus,
                     const Eigen::VectorXd& poisson_ratio,
                     const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices) {
  std::vector<bool> pinned(static_cast<std::size_t>(mesh.vertices.rows()), false);
  for (const int v : pinned_vertices) {
    if (v < 0 || v >= mesh.vertices.rows()) {
      throw std::invalid_argument("pinned vertex " + std::to_string(v) + " is not one of the " +
                                  std::to_string(mesh.vertices.rows()) + " vertices");
    }
    pinned[static_cast<std::size_t>(v)] = true;
  }
  const auto parts =
      detail::floating_components(elastic_laplacian(mesh, youngs_modulus, poisson_ratio), pinned);
  return 6 * static_cast<int>(parts.size());
}

ComparisonBasis modal_derivatives_basis(const mesh::TetMesh& mesh,
                                        const Eigen::VectorXd& youngs_modulus,
                                        const Eigen::VectorXd& poisson_ratio,
                                        const Eigen::VectorXd& mass,
                                        const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                        const BasisSizes& sizes) {
  const auto start = Clock::now();
  EigenmodeOptions options;
  options.threads = sizes.threads;
  const int rigid = rigid_mode_count(mesh, youngs_modulus, poisson_ratio, pinned_vertices);
  const int differentiated = sizes.derivative_modes > 0
                                 ? sizes.derivative_modes
                                 : fitting_derivative_modes(12 * sizes.skinning_modes, rigid);
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
  return {"modal_derivatives",  std::move(orthonormal.basis),
          seconds_since(start), differentiated,
          first.rigid_modes,    dropped};
}

}  // namespace

std::string displacement_basis_choices() {
  return '"' + std::string(kDisplacementBasisNames[0]) + "\" or \"" +
         std::string(kDisplacementBasisNames[1]) + '"';
}

std::vector<ComparisonBasis> comparison_bases(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
    const Eigen::Ref<const Eigen::VectorXd>& density,
    const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices, const BasisSizes& sizes) {
  const Eigen::VectorXd mass = lumped_mass(mesh, density);
  std::vector<ComparisonBasis> bases;
  bases.push_back(
      skinning_basis(mesh, youngs_modulus, poisson_ratio, mass, pinned_vertices, sizes));
  bases.push_back(linear_basis(mesh, youngs_modulus, poisson_ratio, mass, pinned_vertices, sizes));
  bases.push_back(
      modal_derivatives_basis(mesh, youngs_modulus, poisson_ratio, mass, pinned_vertices, sizes));
  return bases;
}

ComparisonBasis displacement_basis(std::string_view name, const mesh::TetMesh& mesh,
                                   const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
                                   const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
                                   const Eigen::Ref<const Eigen::VectorXd>& density,
                                   const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                   const BasisSizes& sizes) {
  const Eigen::VectorXd mass = lumped_mass(mesh, density);
  if (name == kDisplacementBasisNames[0]) {
    return linear_basis(mesh, youngs_modulus, poisson_ratio, mass, pinned_vertices, sizes);
  }
  if (name == kDisplacementBasisNames[1]) {
    return modal_derivatives_basis(mesh, youngs_modulus, poisson_ratio, mass, pinned_vertices,
                                   sizes);
  }
  throw std::invalid_argument("unknown displacement basis \"" + std::string(name) +
                              "\": expected " + displacement_basis_choices());
}

}  // namespace smfem::subspace
