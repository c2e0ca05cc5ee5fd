#pragma once
// The material regions present in a mesh (mesh.regions: any integer per tet), numbered 0..R-1
// in ascending order of their ids, for the cubatures stratified by region.
#include <algorithm>
#include <vector>

#include <Eigen/Core>

namespace smfem::cubature::detail {

struct MaterialRegions {
  std::vector<int> ids;    // R region ids, ascending
  Eigen::VectorXi of_tet;  // |T|: each tet's region, 0..R-1
  Eigen::VectorXi tets;    // R: tets per region, each >= 1
};

inline MaterialRegions material_regions(const Eigen::Ref<const Eigen::VectorXi>& tet_regions) {
  MaterialRegions out;
  out.ids.assign(tet_regions.data(), tet_regions.data() + tet_regions.size());
  std::sort(out.ids.begin(), out.ids.end());
  out.ids.erase(std::unique(out.ids.begin(), out.ids.end()), out.ids.end());
  out.of_tet.resize(tet_regions.size());
  out.tets = Eigen::VectorXi::Zero(static_cast<Eigen::Index>(out.ids.size()));
  for (Eigen::Index t = 0; t < tet_regions.size(); ++t) {
    out.of_tet(t) = static_cast<int>(
        std::lower_bound(out.ids.begin(), out.ids.end(), tet_regions(t)) - out.ids.begin());
    ++out.tets(out.of_tet(t));
  }
  return out;
}

}  // namespace smfem::cubature::detail
