#include "smfem/eigenfit/fine_spectrum.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

#include "smfem/energies/lame.hpp"
#include "smfem/subspace/elastic_stiffness.hpp"
#include "smfem/subspace/linear_modes.hpp"
#include "smfem/subspace/lumped_mass.hpp"

namespace smfem::eigenfit {
namespace {

int find(std::vector<int>& parent, int v) {
  while (parent[static_cast<std::size_t>(v)] != v) {
    int& up = parent[static_cast<std::size_t>(v)];
    up = parent[static_cast<std::size_t>(up)];
    v = up;
  }
  return v;
}

}  // namespace

int free_parts(const mesh::TetMesh& mesh, const std::vector<int>& pinned) {
  const auto n = static_cast<std::size_t>(mesh.vertices.rows());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<char> used(n, 0);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    const int root = find(parent, mesh.tets(t, 0));
    for (int k = 0; k < 4; ++k) used[static_cast<std::size_t>(mesh.tets(t, k))] = 1;
    for (int k = 1; k < 4; ++k)
      parent[static_cast<std::size_t>(find(parent, mesh.tets(t, k)))] = root;
  }
  std::vector<char> has_pin(n, 0);
  for (const int v : pinned) has_pin[static_cast<std::size_t>(find(parent, v))] = 1;
  int parts = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (used[v] && find(parent, static_cast<int>(v)) == static_cast<int>(v) && !has_pin[v]) ++parts;
  }
  return parts;
}

FineSpectrum fine_spectrum(const mesh::TetMesh& mesh, const Eigen::VectorXd& youngs,
                           const Eigen::VectorXd& poisson, const Eigen::VectorXd& density,
                           const std::vector<int>& pinned, sim::MaterialModel material, int count,
                           int threads) {
  Eigen::VectorXd E = youngs;
  Eigen::VectorXd nu = poisson;
  if (material == sim::MaterialModel::arap) {
    // psi = mu |S - I|^2 linearizes to mu eps : eps: linear elasticity with lambda = 0, i.e.
    // E' = 2 mu, nu' = 0.
    for (Eigen::Index t = 0; t < E.size(); ++t) {
      E(t) = 2.0 * energies::lame_from_young_poisson(youngs(t), poisson(t)).mu;
      nu(t) = 0.0;
    }
  }
  FineSpectrum spectrum;
  spectrum.vertex_mass = subspace::lumped_mass(mesh, density);
  const int rigid = 6 * free_parts(mesh, pinned);
  subspace::EigenmodeOptions options;
  options.threads = threads;
  const subspace::LinearModes modes = subspace::linear_modes(
      subspace::elastic_stiffness(mesh, E, nu), spectrum.vertex_mass, mesh.vertices, rigid + count,
      Eigen::Map<const Eigen::VectorXi>(pinned.data(), static_cast<Eigen::Index>(pinned.size())),
      options);
  if (modes.rigid_modes + count > modes.vectors.cols()) {
    throw std::runtime_error("fine_spectrum: " + std::to_string(modes.rigid_modes) +
                             " rigid modes where " + std::to_string(rigid) + " were expected");
  }
  spectrum.rigid_modes = modes.rigid_modes;
  spectrum.vectors = modes.vectors.middleCols(modes.rigid_modes, count);
  spectrum.eigenvalues = modes.eigenvalues.segment(modes.rigid_modes, count);
  return spectrum;
}

}  // namespace smfem::eigenfit
