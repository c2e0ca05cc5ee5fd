// The closest contact of a configuration (ContactPotential::measure, contact_potential.hpp): the
// closest distance, the active pairs, each body's closest distance to anything, and the barrier's
// energy (the pairs within dhat are all the barrier has).
//
// The samples are measured in chunks on the pool, then merged in sample order. A sample's search
// of another body's tree is bounded by the closest distance found so far (or dhat, if larger):
// the bound prunes most of the tree, and a body's closest distance counts only where it beats
// the bound (part_closest is exact below dhat only). Each chunk bounds its searches by what it
// found itself, never less than what the samples before it found in all, so it keeps every
// distance the one-thread loop keeps, each the same number (a bounded search returns the exact
// nearest wherever it lies below the bound); the merge then applies the one-thread loop's bound
// to them. The measure is therefore the same for any thread count, and the same as the loop
// over all samples on one thread.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include <Eigen/Geometry>

#include "smfem/geometry/aabb_tree.hpp"
#include "smfem/geometry/point_triangle.hpp"
#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/swept_box.hpp"

namespace smfem::contact {
namespace {

// Samples per chunk: fixed, so that the chunks do not depend on the thread count.
constexpr Eigen::Index kMeasureChunk = 256;

// What a chunk found for one sample: against the obstacles, their closest distance and how many
// are within dhat; against other bodies, ChunkFound::hits[first_hit, end_hit).
struct SampleFound {
  Eigen::Index sample = 0;
  double obstacle_closest = std::numeric_limits<double>::infinity();
  int obstacle_active = 0;
  std::size_t first_hit = 0, end_hit = 0;
};

// The nearest triangle of another body below the chunk's bound, and how many more of its
// triangles lie within dhat.
struct BodyHit {
  int part = 0;
  double distance = 0.0;
  int more_active = 0;
};

struct ChunkFound {
  std::vector<SampleFound> samples;
  std::vector<BodyHit> hits;
  double barrier_energy = 0.0;  // J, of the chunk's samples' pairs
};

}  // namespace

ContactMeasure ContactPotential::measure(const ReducedMatrix& U) {
  update_start(U);
  const SurfacePositions& P = start_;
  if (several_parts()) {
    motion_.setZero(P.rows(), 3);
    // Every body's tree: the nearest other body is wanted, however far.
    build_trees(P, motion_, 0.0, true);
  }
  const double dhat = parameters_.activation;
  const Eigen::Index sample_count = surface_.samples.size();
  // The gap between each body's samples and each other body's triangles, box to box: no sample
  // of p is nearer to q than that, so a search of q's tree that the gap already bounds is
  // skipped (the loop over every other body per sample was most of a settled pile's measure).
  const std::size_t part_count = parts_.size();
  std::vector<double> gap;
  if (several_parts()) {
    std::vector<Eigen::AlignedBox3d> sample_boxes(part_count);
    for (Eigen::Index k = 0; k < sample_count; ++k) {
      const int v = surface_.samples(k);
      sample_boxes[static_cast<std::size_t>(part(v))].extend(Eigen::Vector3d(P.row(v).transpose()));
    }
    gap.assign(part_count * part_count, 0.0);
    for (std::size_t p = 0; p < part_count; ++p) {
      for (std::size_t q = 0; q < part_count; ++q) {
        const std::vector<geometry::AabbTree::Node>& nodes = trees_[q].tree->nodes();
        if (p == q || sample_boxes[p].isEmpty() || nodes.empty()) continue;
        gap[p * part_count + q] = sample_boxes[p].exteriorDistance(nodes.front().box);
      }
    }
  }
  std::vector<ChunkFound> found(
      static_cast<std::size_t>((sample_count + kMeasureChunk - 1) / kMeasureChunk));
  for_chunks(sample_count, kMeasureChunk, [&](int chunk, Eigen::Index begin, Eigen::Index end) {
    ChunkFound& out = found[static_cast<std::size_t>(chunk)];
    double closest = std::numeric_limits<double>::infinity();  // what this chunk found so far
    for (Eigen::Index k = begin; k < end; ++k) {
      if (excluded(k)) continue;
      const int v = surface_.samples(k);
      const Eigen::Vector3d x = P.row(v).transpose();
      SampleFound sample;
      sample.sample = k;
      const double area = surface_.areas(k);
      if (obstacles_ != nullptr) {
        for (const Obstacle& obstacle : *obstacles_) {
          const double d = obstacle_distance(obstacle, x).distance;
          sample.obstacle_closest = std::min(sample.obstacle_closest, d);
          if (d < dhat) {
            ++sample.obstacle_active;
            out.barrier_energy += part_stiffness(part(v)) * area * barrier(d, dhat);
          }
        }
      }
      closest = std::min(closest, sample.obstacle_closest);
      sample.first_hit = out.hits.size();
      if (several_parts()) {
        for (std::size_t q = 0; q < trees_.size(); ++q) {
          if (static_cast<int>(q) == part(v) || !trees_[q].wanted) continue;
          const double bound = std::max(closest, dhat);
          if (gap[static_cast<std::size_t>(part(v)) * part_count + q] >= bound) continue;
          const PartTree& other = trees_[q];
          const auto triangle_distance = [&](int i) {
            const int t = parts_[q].triangles[static_cast<std::size_t>(i)];
            const Eigen::Vector3d y =
                geometry::closest_point_on_triangle(x, P.row(surface_.triangles(t, 0)).transpose(),
                                                    P.row(surface_.triangles(t, 1)).transpose(),
                                                    P.row(surface_.triangles(t, 2)).transpose());
            return (x - y).norm();
          };
          const double nearest = other.tree->minimize(
              [&](const Eigen::AlignedBox3d& box) { return box_distance(box, x); },
              triangle_distance, bound);
          if (!(nearest < bound)) continue;
          closest = std::min(closest, nearest);
          BodyHit hit{static_cast<int>(q), nearest, 0};
          if (nearest < dhat) {
            // Every other triangle of that body within dhat is an active pair too.
            const Eigen::AlignedBox3d near = grown_box(x, x, dhat);
            const double stiffness =
                std::max(part_stiffness(part(v)), part_stiffness(static_cast<int>(q)));
            int active_here = 0;
            other.tree->for_each_overlapping(
                [&](const Eigen::AlignedBox3d& box) { return box.intersects(near); },
                [&](int i) {
                  const double d = triangle_distance(i);
                  if (!(d < dhat)) return;
                  ++active_here;
                  out.barrier_energy += stiffness * area * barrier(d, dhat);
                });
            hit.more_active = active_here - 1;
          }
          out.hits.push_back(hit);
        }
      }
      sample.end_hit = out.hits.size();
      out.samples.push_back(sample);
    }
  });

  ContactMeasure result;
  result.min_distance = std::numeric_limits<double>::infinity();
  result.part_closest.assign(parts_.size(), std::numeric_limits<double>::infinity());
  const auto count = [&](double d, int sample_part, int other_part) {
    result.min_distance = std::min(result.min_distance, d);
    for (const int p : {sample_part, other_part}) {
      double& closest = result.part_closest[static_cast<std::size_t>(p)];
      closest = std::min(closest, d);
    }
  };
  for (const ChunkFound& chunk : found) {
    result.barrier_energy += chunk.barrier_energy;  // in chunk order: the same for any threads
    for (const SampleFound& sample : chunk.samples) {
      const int v = surface_.samples(sample.sample);
      const int sample_part = part(v);
      count(sample.obstacle_closest, sample_part, sample_part);
      result.active += sample.obstacle_active;
      bool sample_active = sample.obstacle_active > 0;
      for (std::size_t h = sample.first_hit; h < sample.end_hit; ++h) {
        const BodyHit& hit = chunk.hits[h];
        if (!(hit.distance < std::max(result.min_distance, dhat))) continue;
        count(hit.distance, sample_part, hit.part);
        if (hit.distance < dhat) {
          result.active += 1 + hit.more_active;
          sample_active = true;
        }
      }
      if (sample_active) result.active_points.push_back(P.row(v).transpose());
    }
  }
  return result;
}

}  // namespace smfem::contact
