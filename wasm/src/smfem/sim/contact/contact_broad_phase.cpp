// Contact's broad phase (contact_potential.hpp): which sample-triangle and sample-obstacle pairs
// a segment U -> U + dU may bring within a margin, body boxes first, then each body's triangle
// tree against groups of another body's samples, then the distance bounds.
#include <algorithm>
#include <cstddef>
#include <vector>

#include <Eigen/Geometry>

#include "smfem/geometry/aabb_tree.hpp"
#include "smfem/geometry/point_triangle.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/swept_box.hpp"

namespace smfem::contact {
namespace {

// The chunks the loops over samples and groups are cut into (for_chunks), fixed so that the pairs
// do not depend on the thread count; and the samples per group of the broad phase between bodies.
constexpr Eigen::Index kSampleChunk = 256;
constexpr Eigen::Index kGroupChunk = 32;
constexpr int kSampleGroup = 8;

}  // namespace

void ContactPotential::form_sample_groups(const ContactSurface& surface) {
  if (!several_parts()) return;
  std::vector<std::vector<int>> own(parts_.size());
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    own[static_cast<std::size_t>(part(surface.samples(k)))].push_back(static_cast<int>(k));
  }
  group_first_.push_back(0);
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    std::vector<Eigen::AlignedBox3d> points;
    for (const int k : own[p]) {
      const Eigen::Vector3d x = surface.positions.row(surface.samples(k)).transpose();
      points.emplace_back(x, x);
    }
    const geometry::AabbTree tree(points, kSampleGroup);
    for (const geometry::AabbTree::Node& node : tree.nodes()) {
      if (!node.is_leaf()) continue;
      for (int i = node.begin; i < node.end; ++i) {
        group_samples_.push_back(own[p][static_cast<std::size_t>(tree.order()[i])]);
      }
      group_first_.push_back(static_cast<int>(group_samples_.size()));
      group_part_.push_back(static_cast<int>(p));
    }
  }
}

void ContactPotential::build_trees(const SurfacePositions& P, const SurfacePositions& D,
                                   double margin, bool every_body) {
  // Body-level broad phase first: a body whose swept box meets no other body's needs no tree.
  // Each body's box, and then its tree, is one chunk of the pool's loops.
  const std::size_t count = parts_.size();
  const auto parts = static_cast<Eigen::Index>(count);
  std::vector<Eigen::AlignedBox3d> part_boxes(count);
  for_chunks(parts, 1, [&](int, Eigen::Index p, Eigen::Index) {
    Eigen::AlignedBox3d& box = part_boxes[static_cast<std::size_t>(p)];
    const Part& part = parts_[static_cast<std::size_t>(p)];
    for (int v = part.first_vertex; v < part.end_vertex; ++v) {
      const Eigen::Vector3d x0 = P.row(v).transpose();
      box.extend(grown_box(x0, x0 + D.row(v).transpose(), margin));
    }
  });
  // Two bodies that both keep still (an impact's further iterations move a few) cannot meet:
  // their trees are not refitted for each other.
  near_.assign(count * count, 0);
  for (std::size_t p = 0; p < count; ++p) {
    for (std::size_t q = 0; q < count; ++q) {
      near_[p * count + q] = p != q && (every_body || ((moving_part(p) || moving_part(q)) &&
                                                       part_boxes[p].intersects(part_boxes[q])))
                                 ? 1
                                 : 0;
    }
  }
  drift_.assign(count, Eigen::Vector3d::Zero());
  tree_boxes_.resize(pool_ != nullptr ? static_cast<std::size_t>(pool_->thread_count()) : 1);
  for_chunks(parts, 1, [&](int chunk, Eigen::Index index, Eigen::Index) {
    const auto q = static_cast<std::size_t>(index);
    PartTree& tree = trees_[q];
    tree.wanted = false;
    for (std::size_t p = 0; p < count; ++p) tree.wanted = tree.wanted || near_[p * count + q];
    if (!tree.wanted) return;
    const Part& part = parts_[q];
    drift_[q] = D.middleRows(part.first_vertex, part.end_vertex - part.first_vertex)
                    .colwise()
                    .mean()
                    .transpose();
    std::vector<Eigen::AlignedBox3d>& boxes = tree_boxes_[thread_of(chunk)];
    triangle_boxes(part, P, D, drift_[q], margin, boxes);
    tree.tree->refit(boxes);
  });
}

void ContactPotential::triangle_boxes(const Part& part, const SurfacePositions& P,
                                      const SurfacePositions& D, const Eigen::Vector3d& drift,
                                      double margin,
                                      std::vector<Eigen::AlignedBox3d>& boxes) const {
  boxes.clear();
  for (const int t : part.triangles) {
    Eigen::AlignedBox3d box;
    for (int c = 0; c < 3; ++c) {
      const int v = surface_.triangles(t, c);
      const Eigen::Vector3d x0 = P.row(v).transpose();
      box.extend(grown_box(x0, x0 + D.row(v).transpose() - drift, margin));
    }
    boxes.push_back(box);
  }
}

double ContactPotential::start_distance(const Eigen::Vector3d& x0, int triangle) const {
  const auto corner = [&](int c) {
    return Eigen::Vector3d(start_.row(surface_.triangles(triangle, c)).transpose());
  };
  return (x0 - geometry::closest_point_on_triangle(x0, corner(0), corner(1), corner(2))).norm();
}

double ContactPotential::start_box_distance(const Eigen::Vector3d& x0, int triangle) const {
  Eigen::AlignedBox3d box;
  for (int c = 0; c < 3; ++c)
    box.extend(Eigen::Vector3d(start_.row(surface_.triangles(triangle, c)).transpose()));
  return box_distance(box, x0);
}

double ContactPotential::relative_motion(const Eigen::Vector3d& sample_motion, int triangle) const {
  double largest = 0.0;
  for (int c = 0; c < 3; ++c) {
    largest = std::max(
        largest, (sample_motion - motion_.row(surface_.triangles(triangle, c)).transpose()).norm());
  }
  return largest;
}

void ContactPotential::gather(const ReducedMatrix& U, const ReducedMatrix& dU, double margin,
                              std::vector<Pair>& pairs) {
  pairs.clear();
  update_start(U);
  // The bodies that keep still (an impact's further iterations move a few) do not move.
  motion_.setZero(start_.rows(), 3);
  if (!dU.isZero(0.0)) {
    const std::vector<char> moving = parts_nonzero(dU);
    displacements(dU, motion_, &moving);
  }
  if (several_parts()) {
    build_trees(start_, motion_, margin, false);
    gather_between_bodies(margin, pairs);
  } else {
    gather_against_obstacles(margin, pairs);
  }
  segment_U_ = U;
  segment_dU_ = dU;
  segment_pairs_ = &pairs;
}

void ContactPotential::add_obstacle_pairs(Eigen::Index sample, const Eigen::Vector3d& x0,
                                          const Eigen::Vector3d& dx, double margin,
                                          std::vector<Pair>& found) const {
  if (obstacles_ == nullptr ||
      !moving_part(static_cast<std::size_t>(part(surface_.samples(sample)))))
    return;
  const double reach = dx.norm() + margin;
  for (std::size_t o = 0; o < obstacles_->size(); ++o) {
    const double distance = obstacle_distance((*obstacles_)[o], x0).distance;
    if (distance < reach)
      found.push_back({static_cast<int>(sample), static_cast<int>(o), -1, distance, dx.norm()});
  }
}

void ContactPotential::gather_against_obstacles(double margin, std::vector<Pair>& pairs) {
  const Eigen::Index n = surface_.samples.size();
  chunk_pairs_.resize(static_cast<std::size_t>((n + kSampleChunk - 1) / kSampleChunk));
  for_chunks(n, kSampleChunk, [&](int chunk, Eigen::Index begin, Eigen::Index end) {
    std::vector<Pair>& found = chunk_pairs_[static_cast<std::size_t>(chunk)];
    found.clear();
    for (Eigen::Index k = begin; k < end; ++k) {
      if (excluded(k)) continue;
      const int v = surface_.samples(k);
      add_obstacle_pairs(k, start_.row(v).transpose(), motion_.row(v).transpose(), margin, found);
    }
  });
  for (const std::vector<Pair>& found : chunk_pairs_)
    pairs.insert(pairs.end(), found.begin(), found.end());
}

void ContactPotential::gather_between_bodies(double margin, std::vector<Pair>& pairs) {
  const std::size_t count = parts_.size();
  const auto groups = static_cast<Eigen::Index>(group_part_.size());
  const auto chunks = static_cast<std::size_t>((groups + kGroupChunk - 1) / kGroupChunk);
  chunk_pairs_.resize(chunks);
  chunk_leaves_.resize(chunks);
  sample_runs_.assign(static_cast<std::size_t>(surface_.samples.size()), SampleRun{});
  for_chunks(groups, kGroupChunk, [&](int chunk, Eigen::Index begin, Eigen::Index end) {
    std::vector<Pair>& found = chunk_pairs_[static_cast<std::size_t>(chunk)];
    std::vector<NearLeaf>& leaves = chunk_leaves_[static_cast<std::size_t>(chunk)];
    found.clear();
    for (Eigen::Index g = begin; g < end; ++g) {
      const auto p = static_cast<std::size_t>(group_part_[static_cast<std::size_t>(g)]);
      const int* first = group_samples_.data() + group_first_[static_cast<std::size_t>(g)];
      const int* last = group_samples_.data() + group_first_[static_cast<std::size_t>(g) + 1];
      // The other bodies' triangle leaves that the group's samples, swept, may meet: one walk
      // of each tree for the group.
      leaves.clear();
      Eigen::AlignedBox3d start_box, end_box;
      for (const int* k = first; k != last; ++k) {
        const int v = surface_.samples(*k);
        const Eigen::Vector3d x0 = start_.row(v).transpose();
        start_box.extend(x0);
        end_box.extend(Eigen::Vector3d(x0 + motion_.row(v).transpose()));
      }
      for (std::size_t q = 0; q < count; ++q) {
        if (!near_[p * count + q]) continue;
        // Swept in the frame of q's tree (build_trees).
        const Eigen::AlignedBox3d swept =
            start_box.merged(Eigen::AlignedBox3d(end_box).translate(-drift_[q]));
        trees_[q].tree->for_each_overlapping_leaf(
            [&](const Eigen::AlignedBox3d& box) { return box.intersects(swept); },
            [&](const geometry::AabbTree::Node& leaf) {
              leaves.push_back({static_cast<int>(q), &leaf});
            });
      }
      for (const int* k = first; k != last; ++k) {
        if (excluded(*k)) continue;
        SampleRun& run = sample_runs_[static_cast<std::size_t>(*k)];
        run = {chunk, found.size(), found.size()};
        const int v = surface_.samples(*k);
        const Eigen::Vector3d x0 = start_.row(v).transpose();
        const Eigen::Vector3d dx = motion_.row(v).transpose();
        add_obstacle_pairs(*k, x0, dx, margin, found);
        for (const NearLeaf& near : leaves) {
          const auto q = static_cast<std::size_t>(near.part);
          const Eigen::AlignedBox3d swept = grown_box(x0, x0 + dx - drift_[q], 0.0);
          if (!near.leaf->box.intersects(swept)) continue;
          const std::vector<int>& order = trees_[q].tree->order();
          for (int i = near.leaf->begin; i < near.leaf->end; ++i) {
            const int t =
                parts_[q].triangles[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
            // The triangle's box is nearer than the triangle: where even it stays beyond
            // margin, the exact distance is not needed.
            const double closing = relative_motion(dx, t);
            if (start_box_distance(x0, t) - closing >= margin) continue;
            const double distance = start_distance(x0, t);
            if (distance - closing < margin) {
              found.push_back({*k, -1, t, distance, closing});
            }
          }
        }
        run.end = found.size();
      }
    }
  });
  // In sample order, as a loop over the samples would find them.
  for (const SampleRun& run : sample_runs_) {
    if (run.chunk < 0) continue;
    const std::vector<Pair>& found = chunk_pairs_[static_cast<std::size_t>(run.chunk)];
    pairs.insert(pairs.end(), found.begin() + static_cast<std::ptrdiff_t>(run.begin),
                 found.begin() + static_cast<std::ptrdiff_t>(run.end));
  }
}

}  // namespace smfem::contact
