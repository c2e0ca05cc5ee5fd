#pragma once
// The connected components of each material region, for the cubature stratified by component
// (cubature.hpp). Two tets of one region are connected when they share a vertex (not only a
// face): a part of a region that another region's tets separate from the rest (the crab's ten
// knees in one "joints" region) is its own component, while the loose tets that a region's
// labelling leaves touching the region's body at an edge or a corner are not (by faces they
// would each be a component of their own and take a cubature tet each).
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::cubature::detail {

struct RegionComponents {
  Eigen::VectorXi of_tet;  // |T|: each tet's component, 0..K-1
  Eigen::VectorXi tets;    // K: tets per component, each >= 1
  Eigen::VectorXi region;  // K: each component's region (as region_of numbers them)
};

// tets: |T| x 4 vertex indices, >= 0; region_of: |T| region of each tet (any integers).
// Components are numbered by ascending (region, lowest tet).
inline RegionComponents region_components(const Eigen::Ref<const mesh::Tets>& tets,
                                          const Eigen::Ref<const Eigen::VectorXi>& region_of) {
  const Eigen::Index tet_count = region_of.size();
  if (tets.rows() != tet_count) {
    throw std::invalid_argument("region_components: tets has " + std::to_string(tets.rows()) +
                                " rows for " + std::to_string(tet_count) + " tets");
  }
  if (tet_count > 0 && tets.minCoeff() < 0) {
    throw std::invalid_argument("region_components: negative vertex index");
  }
  std::vector<int> parent(static_cast<std::size_t>(tet_count));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int t) {
    while (parent[t] != t) t = parent[t] = parent[parent[t]];
    return t;
  };
  // (vertex, region, tet): tets of one region around one vertex are joined.
  std::vector<std::tuple<int, int, int>> corners;
  corners.reserve(static_cast<std::size_t>(4 * tet_count));
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    for (int k = 0; k < 4; ++k) {
      corners.emplace_back(tets(t, k), region_of(t), static_cast<int>(t));
    }
  }
  std::sort(corners.begin(), corners.end());
  for (std::size_t i = 1; i < corners.size(); ++i) {
    const auto& [v0, r0, t0] = corners[i - 1];
    const auto& [v1, r1, t1] = corners[i];
    if (v0 != v1 || r0 != r1) continue;
    const int a = root(t0);
    const int b = root(t1);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // root: the lowest tet
  }
  // Roots are each component's lowest tet; order them by (region, lowest tet).
  std::vector<int> roots;
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    if (root(static_cast<int>(t)) == t) roots.push_back(static_cast<int>(t));
  }
  std::sort(roots.begin(), roots.end(), [&](int a, int b) {
    return std::make_pair(region_of(a), a) < std::make_pair(region_of(b), b);
  });
  std::vector<int> number(static_cast<std::size_t>(tet_count), -1);
  RegionComponents out;
  out.tets = Eigen::VectorXi::Zero(static_cast<Eigen::Index>(roots.size()));
  out.region.resize(static_cast<Eigen::Index>(roots.size()));
  for (std::size_t k = 0; k < roots.size(); ++k) {
    number[roots[k]] = static_cast<int>(k);
    out.region(static_cast<Eigen::Index>(k)) = region_of(roots[k]);
  }
  out.of_tet.resize(tet_count);
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    out.of_tet(t) = number[root(static_cast<int>(t))];
    ++out.tets(out.of_tet(t));
  }
  return out;
}

}  // namespace smfem::cubature::detail
