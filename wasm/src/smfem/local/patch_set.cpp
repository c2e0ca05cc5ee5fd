#include "smfem/local/patch_set.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace smfem::local {

PatchSet::PatchSet(std::vector<PatchSupport> patches, int global_rows)
    : patches_(std::move(patches)), global_rows_(global_rows) {
  // Each mesh tet once, in the order of its id, gathering the patches that reach it.
  std::map<int, std::size_t> index;
  for (std::size_t p = 0; p < patches_.size(); ++p) {
    if (patches_[p].basis.cols() != global_rows_) {
      throw std::invalid_argument("PatchSet: patch " + std::to_string(p) + "'s basis is " +
                                  std::to_string(patches_[p].basis.cols()) +
                                  " wide, not 4m = " + std::to_string(global_rows_));
    }
    for (const SupportTet& tet : patches_[p].tets) index.emplace(tet.tet, 0);
  }
  std::size_t next = 0;
  for (auto& [mesh_tet, slot] : index) slot = next++;
  tets_.resize(index.size());
  Y_.resize(3 * static_cast<Eigen::Index>(index.size()), global_rows_);
  for (std::size_t p = 0; p < patches_.size(); ++p) {
    for (const SupportTet& support : patches_[p].tets) {
      const std::size_t t = index.at(support.tet);
      Tet& tet = tets_[t];
      if (tet.rest.empty()) {
        tet.mesh_tet = support.tet;
        tet.volume = support.volume;
        Y_.middleRows(3 * static_cast<Eigen::Index>(t), 3) = support.Y.transpose();
      }
      tet.rest.push_back({static_cast<int>(p), support.G});
    }
  }
  rotations_.assign(patches_.size(), Eigen::Matrix3d::Identity());
  set_rotations(sim::ReducedMatrix::Zero(global_rows_, 3));
}

void PatchSet::set_rotations(const sim::ReducedMatrix& U) {
  const int P = patch_count();
  for (int p = 0; p < P; ++p) {
    rotations_[static_cast<std::size_t>(p)] = patch_rotation(patch(p), U.topRows(global_rows_));
  }
  for (Tet& tet : tets_) {
    tet.local = tet.rest;
    for (LocalGradient& entry : tet.local) {
      for (Eigen::Matrix3d& G : entry.G) G = rotation(entry.patch) * G;
    }
  }
  for (int d = 0; d < 3; ++d) {
    coupling_[static_cast<std::size_t>(d)].setZero(global_rows_, 3 * P);
  }
  local_mass_.setZero(3 * P, 3 * P);
  for (int p = 0; p < P; ++p) {
    for (int d = 0; d < 3; ++d) {
      mass_coupling(patch(p), rotation(p), d,
                    coupling_[static_cast<std::size_t>(d)].middleCols(3 * p, 3));
    }
    local_mass_.block<3, 3>(3 * p, 3 * p) = patch(p).mass_matrix;
    for (int q = 0; q < p; ++q) {
      const Eigen::Matrix3d pair = pair_mass(patch(p), rotation(p), patch(q), rotation(q));
      local_mass_.block<3, 3>(3 * p, 3 * q) = pair;
      local_mass_.block<3, 3>(3 * q, 3 * p) = pair.transpose();
    }
  }
}

Eigen::Matrix3d PatchSet::displacement_gradient(int tet, const sim::ReducedMatrix& U,
                                                bool global_only) const {
  Eigen::Matrix3d gradient = sim::displacement_gradient(Y_, tet, U, 0, global_rows_);
  if (global_only) return gradient;
  for (const LocalGradient& entry : local_gradients(tet)) {
    const Eigen::Index row = global_rows_ + entry.patch;
    for (int a = 0; a < 3; ++a) gradient += U(row, a) * entry.G[static_cast<std::size_t>(a)];
  }
  return gradient;
}

sim::ReducedMatrix PatchSet::gravity_force(const Eigen::Vector3d& g) const {
  sim::ReducedMatrix force(patch_count(), 3);
  for (int p = 0; p < patch_count(); ++p) {
    force.row(p) = ((rotation(p) * patch(p).weight).transpose() * g).transpose();
  }
  return force;
}

sim::ReducedMatrix PatchSet::load_force(const std::vector<VertexForce>& forces) const {
  sim::ReducedMatrix force = sim::ReducedMatrix::Zero(patch_count(), 3);
  for (int p = 0; p < patch_count(); ++p) {
    const PatchSupport& support = patch(p);
    for (const VertexForce& load : forces) {
      const auto at =
          std::lower_bound(support.vertices.begin(), support.vertices.end(), load.vertex);
      if (at == support.vertices.end() || *at != load.vertex) continue;
      const Eigen::Matrix3d& B =
          support.fields[static_cast<std::size_t>(at - support.vertices.begin())];
      force.row(p) += ((rotation(p) * B).transpose() * load.force).transpose();
    }
  }
  return force;
}

}  // namespace smfem::local
