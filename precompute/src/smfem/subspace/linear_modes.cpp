#include "smfem/subspace/linear_modes.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "smfem/subspace/detail/check_inputs.hpp"
#include "smfem/subspace/detail/floating_components.hpp"
#include "smfem/subspace/detail/nested_dissection.hpp"
#include "smfem/subspace/detail/smallest_eigenpairs.hpp"

namespace smfem::subspace {
namespace {

constexpr const char* kLinearModes = "linear_modes";

[[noreturn]] void refuse_modes(const std::string& problem) {
  throw std::invalid_argument(std::string(kLinearModes) + ": " + problem);
}

// The six rigid modes of one free part (its vertices), M-orthonormal, in the columns
// [first, first + 6) of modes: translations x, y, z, then rotations about the centre of mass
// along the principal axes, by ascending principal moment (their M-products are the inertia
// tensor, which the principal axes diagonalize).
void put_rigid_modes(const std::vector<int>& part, const Eigen::Ref<const Eigen::VectorXd>& mass,
                     const Eigen::Ref<const mesh::Vertices>& positions, int first,
                     Eigen::MatrixXd& modes) {
  double total = 0.0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const int v : part) {
    total += mass(v);
    centre += mass(v) * positions.row(v).transpose();
  }
  centre /= total;
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
  for (const int v : part) {
    const Eigen::Vector3d x = positions.row(v).transpose() - centre;
    inertia += mass(v) * (x.squaredNorm() * Eigen::Matrix3d::Identity() - x * x.transpose());
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> principal(inertia);
  for (const int v : part) {
    const Eigen::Vector3d x = positions.row(v).transpose() - centre;
    for (int k = 0; k < 3; ++k) {
      modes(3 * v + k, first + k) = 1.0 / std::sqrt(total);
      modes.block<3, 1>(3 * v, first + 3 + k) =
          principal.eigenvectors().col(k).cross(x) / std::sqrt(principal.eigenvalues()(k));
    }
  }
}

}  // namespace

LinearModes linear_modes(const Eigen::SparseMatrix<double>& K,
                         const Eigen::Ref<const Eigen::VectorXd>& mass,
                         const Eigen::Ref<const mesh::Vertices>& positions, int modes,
                         const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                         const EigenmodeOptions& options) {
  const auto n = static_cast<int>(mass.size());
  if (n == 0) refuse_modes("the mesh has no vertices");
  if (K.rows() != 3 * n || K.cols() != 3 * n) {
    refuse_modes("K is " + std::to_string(K.rows()) + " x " + std::to_string(K.cols()) +
                 ", expected " + std::to_string(3 * n) + " x " + std::to_string(3 * n) + " for " +
                 std::to_string(n) + " vertex masses");
  }
  if (positions.rows() != n) {
    refuse_modes("positions has " + std::to_string(positions.rows()) + " rows, mass has " +
                 std::to_string(n) + " entries");
  }
  if (!positions.allFinite()) refuse_modes("a vertex position is not finite");
  if (modes < 1) refuse_modes("asked for " + std::to_string(modes) + " modes, need at least 1");

  const detail::FreeVertices split = detail::free_vertices(kLinearModes, mass, pinned_vertices);
  const auto free_count = static_cast<int>(split.vertices.size());
  if (modes >= 3 * free_count) {
    refuse_modes("asked for " + std::to_string(modes) + " modes, but only " +
                 std::to_string(3 * free_count) +
                 " unknowns are free (need modes < free unknowns)");
  }
  const std::vector<int> free_unknown = split.free_unknowns();
  std::vector<bool> pinned_unknown(static_cast<std::size_t>(3 * n));
  for (int i = 0; i < 3 * n; ++i) pinned_unknown[i] = free_unknown[i] < 0;
  // The parts of K's graph (a vertex's three unknowns are always joined: its diagonal block is
  // stored whole) with no pinned unknown, as vertex lists.
  std::vector<std::vector<int>> parts;
  for (const std::vector<int>& unknowns : detail::floating_components(K, pinned_unknown)) {
    std::vector<int>& part = parts.emplace_back();
    for (const int i : unknowns) {
      if (i % 3 == 0) part.push_back(i / 3);
    }
  }
  const int rigid_count = 6 * static_cast<int>(parts.size());
  if (modes < rigid_count) {
    refuse_modes("the mesh has " + std::to_string(parts.size()) +
                 " parts with no pinned vertex, each with 6 rigid modes, but only " +
                 std::to_string(modes) + " modes were asked for");
  }

  LinearModes result;
  result.rigid_modes = rigid_count;
  result.vectors = Eigen::MatrixXd::Zero(3 * n, modes);
  result.eigenvalues = Eigen::VectorXd::Zero(modes);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    put_rigid_modes(parts[p], mass, positions, 6 * static_cast<int>(p), result.vectors);
  }

  const int free_unknowns = 3 * free_count;
  const Eigen::SparseMatrix<double> K_free = detail::free_block(K, free_unknown, free_unknowns);
  const Eigen::VectorXd free_mass = split.free_unknown_mass(mass);
  result.shift = detail::shift_below_spectrum(K_free, free_mass);

  const int wanted = modes - rigid_count;
  if (wanted > 0) {
    // The rigid modes in the symmetric form v = M^1/2 w, on the free unknowns.
    Eigen::MatrixXd null_vectors(free_unknowns, rigid_count);
    for (int i = 0; i < 3 * n; ++i) {
      if (free_unknown[i] >= 0) {
        null_vectors.row(free_unknown[i]) =
            std::sqrt(mass(i / 3)) * result.vectors.row(i).head(rigid_count);
      }
    }
    mesh::Vertices free_positions(free_count, 3);
    for (int f = 0; f < free_count; ++f) free_positions.row(f) = positions.row(split.vertices[f]);
    const detail::Eigenpairs found = detail::smallest_eigenpairs(
        kLinearModes, K_free, free_mass, detail::nested_dissection(K_free, free_positions, 3),
        null_vectors, wanted, result.shift, options);
    for (int k = 0; k < wanted; ++k) {
      result.eigenvalues(rigid_count + k) = found.eigenvalues(k);
      for (int i = 0; i < 3 * n; ++i) {
        if (free_unknown[i] >= 0)
          result.vectors(i, rigid_count + k) = found.vectors(free_unknown[i], k);
      }
    }
  }
  for (int c = 0; c < modes; ++c) detail::fix_sign(result.vectors.col(c));
  return result;
}

}  // namespace smfem::subspace
