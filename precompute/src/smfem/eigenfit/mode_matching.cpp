#include "smfem/eigenfit/mode_matching.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

namespace smfem::eigenfit {

Eigen::MatrixXd embedded_weights(const mesh::TetMesh& coarse, const Eigen::MatrixXd& weights,
                                 const render::TetEmbedding& embedding) {
  const Eigen::Index n = embedding.tet.size();
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(n, weights.cols());
  for (Eigen::Index p = 0; p < n; ++p) {
    const Eigen::Index tet = embedding.tet(p);
    for (int k = 0; k < 4; ++k) {
      out.row(p) += embedding.barycentric(p, k) * weights.row(coarse.tets(tet, k));
    }
  }
  return out;
}

Eigen::MatrixXd reduced_modes_at(const Eigen::Ref<const mesh::Vertices>& positions,
                                 const Eigen::MatrixXd& weights, const Eigen::MatrixXd& modes) {
  const Eigen::Index n = positions.rows();
  const Eigen::Index m = weights.cols();
  const Eigen::Index block = 4 * m;
  Eigen::MatrixXd fields(3 * n, modes.cols());
  Eigen::VectorXd b(block);
  for (Eigen::Index p = 0; p < n; ++p) {
    for (Eigen::Index i = 0; i < m; ++i) {
      b.segment<3>(4 * i) = weights(p, i) * positions.row(p).transpose();
      b(4 * i + 3) = weights(p, i);
    }
    for (Eigen::Index d = 0; d < 3; ++d) {
      fields.row(3 * p + d) = b.transpose() * modes.middleRows(d * block, block);
    }
  }
  return fields;
}

Eigen::MatrixXd mass_cosines(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                             const Eigen::VectorXd& vertex_mass) {
  Eigen::VectorXd mass(3 * vertex_mass.size());
  for (Eigen::Index p = 0; p < vertex_mass.size(); ++p)
    mass.segment<3>(3 * p).setConstant(vertex_mass(p));
  const Eigen::MatrixXd Mb = mass.asDiagonal() * b;
  Eigen::MatrixXd cosines = (a.transpose() * Mb).cwiseAbs();
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    const double norm_a = std::sqrt(a.col(i).dot(mass.cwiseProduct(a.col(i))));
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      const double norm_b = std::sqrt(b.col(j).dot(Mb.col(j)));
      cosines(i, j) = norm_a > 0.0 && norm_b > 0.0 ? cosines(i, j) / (norm_a * norm_b) : 0.0;
    }
  }
  return cosines;
}

Eigen::VectorXi degenerate_groups(const Eigen::VectorXd& eigenvalues) {
  Eigen::VectorXi groups(eigenvalues.size());
  int group = 0;
  for (Eigen::Index j = 0; j < eigenvalues.size(); ++j) {
    if (j > 0 && eigenvalues(j) > (1.0 + kDegenerateGap) * eigenvalues(j - 1)) ++group;
    groups(j) = group;
  }
  return groups;
}

Eigen::MatrixXd group_cosines(const Eigen::MatrixXd& cosines, const Eigen::VectorXi& groups) {
  const Eigen::Index count = groups.size() > 0 ? groups.maxCoeff() + 1 : 0;
  Eigen::MatrixXd squared = Eigen::MatrixXd::Zero(cosines.rows(), count);
  for (Eigen::Index j = 0; j < cosines.cols(); ++j) {
    squared.col(groups(j)) += cosines.col(j).cwiseAbs2();
  }
  return squared.cwiseSqrt().cwiseMin(1.0);
}

ModeMatch match_modes(const Eigen::MatrixXd& cosines, const Eigen::VectorXi& groups) {
  const Eigen::MatrixXd by_group = group_cosines(cosines, groups);
  ModeMatch match;
  match.partner = Eigen::VectorXi::Constant(cosines.rows(), -1);
  match.cosine = by_group.rows() > 0 && by_group.cols() > 0
                     ? Eigen::VectorXd(by_group.rowwise().maxCoeff())
                     : Eigen::VectorXd::Zero(cosines.rows());
  std::vector<std::tuple<double, Eigen::Index, Eigen::Index>> pairs;
  for (Eigen::Index i = 0; i < by_group.rows(); ++i) {
    for (Eigen::Index g = 0; g < by_group.cols(); ++g) {
      if (by_group(i, g) > kMatchCosine) pairs.emplace_back(by_group(i, g), i, g);
    }
  }
  // Descending cosine; ties by row, then group, so the result never depends on the sort.
  std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    if (std::get<0>(x) != std::get<0>(y)) return std::get<0>(x) > std::get<0>(y);
    return std::make_pair(std::get<1>(x), std::get<2>(x)) <
           std::make_pair(std::get<1>(y), std::get<2>(y));
  });
  std::vector<std::vector<Eigen::Index>> members(static_cast<std::size_t>(by_group.cols()));
  for (Eigen::Index j = 0; j < groups.size(); ++j)
    members[static_cast<std::size_t>(groups(j))].push_back(j);
  std::vector<std::vector<Eigen::Index>> taken(members.size());  // coarse rows per group
  std::vector<char> row_used(static_cast<std::size_t>(cosines.rows()), 0);
  for (const auto& [cosine, i, g] : pairs) {
    auto& rows = taken[static_cast<std::size_t>(g)];
    if (row_used[static_cast<std::size_t>(i)] ||
        rows.size() == members[static_cast<std::size_t>(g)].size())
      continue;
    rows.push_back(i);
    row_used[static_cast<std::size_t>(i)] = 1;
    match.cosine(i) = cosine;
    ++match.matched;
  }
  for (std::size_t g = 0; g < taken.size(); ++g) {
    std::sort(taken[g].begin(), taken[g].end());
    for (std::size_t k = 0; k < taken[g].size(); ++k) {
      match.partner(taken[g][k]) = static_cast<int>(members[g][k]);
    }
  }
  return match;
}

int skipped_fine_mode(const ModeMatch& match) {
  const int highest = match.partner.size() > 0 ? match.partner.maxCoeff() : -1;
  for (int j = 0; j < highest; ++j) {
    if ((match.partner.array() != j).all()) return j;
  }
  return -1;
}

}  // namespace smfem::eigenfit
