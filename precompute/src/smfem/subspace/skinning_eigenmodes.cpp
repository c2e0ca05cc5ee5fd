#include "smfem/subspace/skinning_eigenmodes.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "smfem/subspace/detail/check_inputs.hpp"
#include "smfem/subspace/detail/floating_components.hpp"
#include "smfem/subspace/detail/nested_dissection.hpp"
#include "smfem/subspace/detail/smallest_eigenpairs.hpp"

namespace smfem::subspace {

namespace {

constexpr const char* kCaller = "skinning_eigenmodes";

[[noreturn]] void refuse(const std::string& problem) {
  throw std::invalid_argument(std::string(kCaller) + ": " + problem);
}

}  // namespace

SkinningModes skinning_eigenmodes(const Eigen::SparseMatrix<double>& H,
                                  const Eigen::Ref<const Eigen::VectorXd>& mass,
                                  const Eigen::Ref<const mesh::Vertices>& positions, int modes,
                                  const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                  const EigenmodeOptions& options) {
  const int n = static_cast<int>(H.rows());
  if (n == 0) refuse("the mesh has no vertices");
  if (H.cols() != n) refuse("H is not square");
  if (mass.size() != n) {
    refuse("mass has " + std::to_string(mass.size()) + " entries, H has " + std::to_string(n) +
           " rows");
  }
  if (positions.rows() != n) {
    refuse("positions has " + std::to_string(positions.rows()) + " rows, H has " +
           std::to_string(n));
  }
  if (!positions.allFinite()) refuse("a vertex position is not finite");
  if (modes < 1) refuse("asked for " + std::to_string(modes) + " modes, need at least 1");

  const detail::FreeVertices split = detail::free_vertices(kCaller, mass, pinned_vertices);
  const std::vector<int>& free_index = split.free_index;
  const std::vector<int>& free_vertices = split.vertices;
  const int free_count = static_cast<int>(free_vertices.size());
  if (modes >= free_count) {
    refuse("asked for " + std::to_string(modes) + " modes, but only " + std::to_string(free_count) +
           " vertices are free (need modes < free vertices)");
  }
  const std::vector<std::vector<int>> floating = detail::floating_components(H, split.pinned);
  const int constant_count = static_cast<int>(floating.size());
  if (modes < constant_count) {
    refuse("the mesh has " + std::to_string(constant_count) +
           " parts with no pinned vertex, each needing its own constant mode, but only " +
           std::to_string(modes) + " modes were asked for");
  }

  Eigen::VectorXd free_mass(free_count);
  for (int f = 0; f < free_count; ++f) free_mass(f) = mass(free_vertices[f]);
  const Eigen::SparseMatrix<double> H_free = detail::free_block(H, free_index, free_count);

  // Constant modes in the symmetric form v = M^1/2 w: sqrt(m_v / mass of the part).
  Eigen::VectorXd part_mass = Eigen::VectorXd::Zero(constant_count);
  Eigen::MatrixXd null_vectors = Eigen::MatrixXd::Zero(free_count, constant_count);
  for (int c = 0; c < constant_count; ++c) {
    for (int v : floating[c]) part_mass(c) += mass(v);
    for (int v : floating[c]) null_vectors(free_index[v], c) = std::sqrt(mass(v) / part_mass(c));
  }

  const double shift = detail::shift_below_spectrum(H_free, free_mass);

  SkinningModes result;
  result.shift = shift;
  result.constant_modes = constant_count;
  result.weights = Eigen::MatrixXd::Zero(n, modes);
  result.eigenvalues = Eigen::VectorXd::Zero(modes);
  for (int c = 0; c < constant_count; ++c) {
    for (int v : floating[c]) result.weights(v, c) = 1.0 / std::sqrt(part_mass(c));
  }

  const int wanted = modes - constant_count;
  if (wanted == 0) return result;

  mesh::Vertices free_positions(free_count, 3);
  for (int f = 0; f < free_count; ++f) free_positions.row(f) = positions.row(free_vertices[f]);
  const detail::Eigenpairs found = detail::smallest_eigenpairs(
      kCaller, H_free, free_mass, detail::nested_dissection(H_free, free_positions), null_vectors,
      wanted, shift, options);
  for (int i = 0; i < wanted; ++i) {
    const int column = constant_count + i;
    result.eigenvalues(column) = found.eigenvalues(i);
    for (int f = 0; f < free_count; ++f) {
      result.weights(free_vertices[f], column) = found.vectors(f, i);
    }
    detail::fix_sign(result.weights.col(column));
  }
  return result;
}

}  // namespace smfem::subspace
