#include "smfem/local/patch_set.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "smfem/local/weighted_kmeans.hpp"

namespace smfem::local {

namespace {

struct Gathered {
  const SupportTet* first = nullptr;  // as the first patch to reach it has it
  std::vector<PatchSet::LocalGradient> rest;
  double importance = 0.0;  // v sum |G|^2
};

// One per weighted k-means cluster of `members` (indices into `tets`): the member nearest its
// cluster's weighted centre, standing for the cluster's share of the fields' strain.
void cluster_representatives(const std::vector<Gathered>& tets,
                             const std::vector<std::size_t>& members, int samples,
                             std::vector<std::pair<std::size_t, double>>& kept) {
  if (static_cast<std::size_t>(samples) >= members.size()) {
    for (const std::size_t t : members) kept.emplace_back(t, tets[t].first->volume);
    return;
  }
  Eigen::Matrix<double, Eigen::Dynamic, 3> centroids(static_cast<Eigen::Index>(members.size()), 3);
  Eigen::VectorXd importance(centroids.rows());
  for (std::size_t k = 0; k < members.size(); ++k) {
    centroids.row(static_cast<Eigen::Index>(k)) = tets[members[k]].first->centroid.transpose();
    importance(static_cast<Eigen::Index>(k)) = tets[members[k]].importance;
  }
  const std::vector<int> labels = weighted_kmeans(centroids, importance, samples);
  const int clusters = *std::max_element(labels.begin(), labels.end()) + 1;
  std::vector<Eigen::Vector3d> centre(static_cast<std::size_t>(clusters), Eigen::Vector3d::Zero());
  std::vector<double> mass(centre.size(), 0.0), volume(centre.size(), 0.0);
  for (std::size_t k = 0; k < members.size(); ++k) {
    const Gathered& tet = tets[members[k]];
    const auto c = static_cast<std::size_t>(labels[k]);
    centre[c] += tet.importance * tet.first->centroid;
    mass[c] += tet.importance;
    volume[c] += tet.first->volume;
  }
  std::vector<std::size_t> nearest(centre.size(), tets.size());
  for (std::size_t k = 0; k < members.size(); ++k) {
    const std::size_t t = members[k];
    const auto c = static_cast<std::size_t>(labels[k]);
    const Eigen::Vector3d middle =
        mass[c] > 0.0 ? Eigen::Vector3d(centre[c] / mass[c]) : tets[t].first->centroid;
    if (nearest[c] == tets.size() ||
        (tets[t].first->centroid - middle).squaredNorm() <
            (tets[nearest[c]].first->centroid - middle).squaredNorm()) {
      nearest[c] = t;
    }
  }
  for (std::size_t c = 0; c < centre.size(); ++c) {
    const Gathered& tet = tets[nearest[c]];
    // The representative stands for its cluster's share of the fields' strain, sum v |G|^2 (its
    // volume where the fields vanish): the fields' own energy stays right where their gradients
    // vary fastest, near the load. Weighed by the cluster's volume instead, 64 representatives
    // of 198 tets made a pressed block's dent half as deep as every tet did (docs/local.md).
    const double weight =
        tet.importance > 0.0 ? mass[c] * tet.first->volume / tet.importance : volume[c];
    kept.emplace_back(nearest[c], weight);
  }
}

// The tets to keep: every one, or representatives (above) of each material apart, so that no
// tet stands for tets of another modulus: where a patch reaches from a soft joint into a shell
// 1e4 times as stiff (the crab's), a shell tet standing for joint tets, or the other way, made
// the fields far too soft or too stiff, and the dragged crab's steps blew up. Each material gets
// samples in proportion to its share of the strain, at least one. Indices into `tets`,
// ascending, with their weights.
std::vector<std::pair<std::size_t, double>> representatives(const std::vector<Gathered>& tets,
                                                            int samples) {
  std::vector<std::pair<std::size_t, double>> kept;
  if (samples == 0 || static_cast<std::size_t>(samples) >= tets.size()) {
    for (std::size_t t = 0; t < tets.size(); ++t) kept.emplace_back(t, tets[t].first->volume);
    return kept;
  }
  std::map<std::pair<double, double>, std::vector<std::size_t>> materials;
  double strain = 0.0;
  for (std::size_t t = 0; t < tets.size(); ++t) {
    materials[{tets[t].first->youngs, tets[t].first->poisson}].push_back(t);
    strain += tets[t].importance;
  }
  for (const auto& [material, members] : materials) {
    double share = 0.0;
    for (const std::size_t t : members) share += tets[t].importance;
    const double fraction =
        strain > 0.0 ? share / strain
                     : static_cast<double>(members.size()) / static_cast<double>(tets.size());
    const int own = std::max(1, static_cast<int>(std::lround(fraction * samples)));
    cluster_representatives(tets, members, own, kept);
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace

PatchSet::PatchSet(std::vector<PatchSupport> patches, int global_rows, int samples)
    : patches_(std::move(patches)), global_rows_(global_rows) {
  if (samples < 0) throw std::invalid_argument("PatchSet: a negative number of samples");
  // Each mesh tet once, in the order of its id, gathering the patches that reach it.
  std::map<int, Gathered> gathered;
  for (std::size_t p = 0; p < patches_.size(); ++p) {
    if (patches_[p].basis.cols() != global_rows_) {
      throw std::invalid_argument("PatchSet: patch " + std::to_string(p) + "'s basis is " +
                                  std::to_string(patches_[p].basis.cols()) +
                                  " wide, not 4m = " + std::to_string(global_rows_));
    }
    for (const SupportTet& support : patches_[p].tets) {
      Gathered& tet = gathered[support.tet];
      if (tet.first == nullptr) tet.first = &support;
      tet.rest.push_back({static_cast<int>(p), support.G});
      for (const Eigen::Matrix3d& G : support.G) tet.importance += support.volume * G.squaredNorm();
    }
  }
  std::vector<Gathered> all;
  for (auto& [mesh_tet, tet] : gathered) all.push_back(std::move(tet));
  const std::vector<std::pair<std::size_t, double>> kept = representatives(all, samples);
  tets_.resize(kept.size());
  weights_.resize(static_cast<Eigen::Index>(kept.size()));
  for (std::size_t t = 0; t < kept.size(); ++t) {
    const Gathered& source = all[kept[t].first];
    tets_[t].mesh_tet = source.first->tet;
    tets_[t].rest = source.rest;
    weights_(static_cast<Eigen::Index>(t)) = kept[t].second;
  }
  for (std::size_t p = 0; p < patches_.size(); ++p) {
    for (std::size_t q = 0; q <= p; ++q) {
      pair_moments_.push_back(pair_moments(patches_[p], patches_[q]));
    }
  }
  rotations_.assign(patches_.size(), Eigen::Matrix3d::Identity());
  set_rotations(sim::ReducedMatrix::Zero(global_rows_, 3));
}

std::vector<Eigen::Matrix3d> PatchSet::rotations_at(const sim::ReducedMatrix& U) const {
  std::vector<Eigen::Matrix3d> rotations;
  for (int p = 0; p < patch_count(); ++p) {
    rotations.push_back(patch_rotation(patch(p), U.topRows(global_rows_)));
  }
  return rotations;
}

void PatchSet::set_rotations(const sim::ReducedMatrix& U) { set_rotations(rotations_at(U)); }

void PatchSet::set_rotations(std::vector<Eigen::Matrix3d> rotations) {
  if (rotations.size() != patches_.size()) {
    throw std::invalid_argument("PatchSet::set_rotations: one rotation per patch");
  }
  rotations_ = std::move(rotations);
  const int P = patch_count();
  for (Tet& tet : tets_) {
    tet.local = tet.rest;
    const Eigen::Matrix3d frame = rotation(tet.rest.front().patch).transpose();
    for (LocalGradient& entry : tet.local) {
      const Eigen::Matrix3d turn = frame * rotation(entry.patch);  // R_e^T R_p
      for (Eigen::Matrix3d& G : entry.G) G = turn * G;
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
      const Eigen::Matrix3d pair = pair_mass(p, rotation(p), q, rotation(q));
      local_mass_.block<3, 3>(3 * p, 3 * q) = pair;
      local_mass_.block<3, 3>(3 * q, 3 * p) = pair.transpose();
    }
  }
}

Eigen::Matrix3d PatchSet::pair_mass(int p, const Eigen::Matrix3d& rotation_p, int q,
                                    const Eigen::Matrix3d& rotation_q) const {
  // The moments are kept for q <= p; the pair the other way round is the transpose.
  if (q > p) return pair_mass(q, rotation_q, p, rotation_p).transpose();
  return local::pair_mass(pair_moments_[static_cast<std::size_t>(p * (p + 1) / 2 + q)], rotation_p,
                          rotation_q);
}

Eigen::Matrix3d PatchSet::displacement_gradient(int tet, const sim::ReducedMatrix& U) const {
  Eigen::Matrix3d gradient = Eigen::Matrix3d::Zero();
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
    for (const VertexForce& load : forces) {
      const Eigen::Matrix3d B = field_at_vertex(patch(p), load.vertex);
      force.row(p) += ((rotation(p) * B).transpose() * load.force).transpose();
    }
  }
  return force;
}

}  // namespace smfem::local
