#include "smfem/local/patch_support.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/polar/polar.hpp"

namespace smfem::local {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("patch_support: " + what);
}

// Per mesh vertex, whether it is one of the patch's.
std::vector<char> patch_vertex_flags(const full::FullModel& mesh, const LoadPatch& patch) {
  std::vector<char> in_patch(static_cast<std::size_t>(mesh.vertex_count()), 0);
  for (const int v : patch.vertices) {
    if (v < 0 || v >= mesh.vertex_count()) {
      fail("patch vertex " + std::to_string(v) + " is not one of the mesh's " +
           std::to_string(mesh.vertex_count()));
    }
    in_patch[static_cast<std::size_t>(v)] = 1;
  }
  return in_patch;
}

// The volume-weighted Poisson's ratio and Young's modulus of the tets around the patch's vertices.
HalfSpaceMaterial patch_material(const full::FullModel& mesh, const std::vector<char>& in_patch) {
  double volume = 0.0, youngs = 0.0, poisson = 0.0;
  for (int t = 0; t < mesh.tet_count(); ++t) {
    bool touches = false;
    for (int k = 0; k < 4; ++k) touches |= in_patch[static_cast<std::size_t>(mesh.tets(t, k))] != 0;
    if (!touches) continue;
    const double v = fem::linear_tet_volume(full::tet_corners(mesh, t));
    volume += v;
    youngs += v * mesh.youngs(t);
    poisson += v * mesh.poisson(t);
  }
  if (!(volume > 0.0)) fail("no tet has a corner in the patch");
  poisson /= volume;
  return {youngs / volume / (2.0 * (1.0 + poisson)), poisson};
}

}  // namespace

PatchSupport patch_support(const full::FullModel& mesh, const Eigen::VectorXd& vertex_mass,
                           const LoadPatch& patch, double support) {
  if (const auto problem = full::check_full_model(mesh)) {
    fail(problem->section + ": " + problem->problem);
  }
  if (mesh.weights.rows() != mesh.vertex_count() || mesh.weights.cols() < 1) {
    fail("the mesh has no skinning weights (mesh.weights)");
  }
  if (vertex_mass.size() != mesh.vertex_count()) {
    fail(std::to_string(vertex_mass.size()) + " vertex masses for " +
         std::to_string(mesh.vertex_count()) + " vertices");
  }
  PatchSupport out;
  out.patch = patch;
  const std::vector<char> in_patch = patch_vertex_flags(mesh, patch);
  out.material = patch_material(mesh, in_patch);
  const LocalColumns columns =
      patch_columns(mesh.positions, mesh.tets, patch, out.material, support);
  out.vertices = columns.vertices;
  out.fields = columns.displacements;
  // Pinned vertices stay where they are: the fields vanish there.
  for (const int pinned : mesh.pinned) {
    const auto at = std::lower_bound(out.vertices.begin(), out.vertices.end(), pinned);
    if (at != out.vertices.end() && *at == pinned) {
      out.fields[static_cast<std::size_t>(at - out.vertices.begin())].setZero();
    }
  }

  // Where each mesh vertex sits in the support (-1: outside).
  std::vector<int> slot(static_cast<std::size_t>(mesh.vertex_count()), -1);
  for (std::size_t k = 0; k < out.vertices.size(); ++k) {
    slot[static_cast<std::size_t>(out.vertices[k])] = static_cast<int>(k);
  }
  for (const int v : patch.vertices) {
    if (slot[static_cast<std::size_t>(v)] < 0) {
      fail("the support (" + std::to_string(support) + " m) does not reach patch vertex " +
           std::to_string(v));
    }
  }

  const auto count = static_cast<Eigen::Index>(out.vertices.size());
  const Eigen::Index width = 4 * mesh.weights.cols();
  out.mass.resize(count);
  out.basis.resize(count, width);
  for (auto& moment : out.moment) moment = Eigen::MatrixXd::Zero(width, 3);
  for (Eigen::Index k = 0; k < count; ++k) {
    const int v = out.vertices[static_cast<std::size_t>(k)];
    const Eigen::Matrix3d& B = out.fields[static_cast<std::size_t>(k)];
    out.mass(k) = vertex_mass(v);
    out.basis.row(k) = full::vertex_basis(mesh, v).transpose();
    for (int e = 0; e < 3; ++e) {
      out.moment[static_cast<std::size_t>(e)] +=
          out.mass(k) * out.basis.row(k).transpose() * B.row(e);
    }
    out.mass_matrix += out.mass(k) * B.transpose() * B;
    out.weight += out.mass(k) * B;
  }
  // Fields that vanish at every vertex they reach (all pinned) would give the basis a column of
  // no mass, and the projections onto it no solution.
  if (Eigen::LLT<Eigen::Matrix3d>(out.mass_matrix).info() != Eigen::Success) {
    fail("the pinned vertices hold every vertex the fields reach: no dent is possible there");
  }

  out.frame_Y.setZero(width, 3);
  double frame_volume = 0.0;
  for (int t = 0; t < mesh.tet_count(); ++t) {
    bool reached = false, framing = false;
    for (int k = 0; k < 4; ++k) {
      const auto v = static_cast<std::size_t>(mesh.tets(t, k));
      reached |= slot[v] >= 0;
      framing |= in_patch[v] != 0;
    }
    if (!reached) continue;
    const fem::TetCorners X = full::tet_corners(mesh, t);
    const fem::TetCorners dphi = fem::linear_tet_dphi_dX(X);
    SupportTet tet;
    tet.tet = t;
    tet.volume = fem::linear_tet_volume(X);
    tet.centroid = X.colwise().mean().transpose();
    tet.youngs = mesh.youngs(t);
    tet.poisson = mesh.poisson(t);
    tet.Y = Eigen::MatrixXd::Zero(width, 3);
    for (auto& G : tet.G) G.setZero();
    for (int k = 0; k < 4; ++k) {
      const int v = mesh.tets(t, k);
      tet.Y += full::vertex_basis(mesh, v) * dphi.row(k);
      const int s = slot[static_cast<std::size_t>(v)];
      if (s < 0) continue;
      for (int a = 0; a < 3; ++a) {
        tet.G[static_cast<std::size_t>(a)] +=
            out.fields[static_cast<std::size_t>(s)].col(a) * dphi.row(k);
      }
    }
    if (framing) {
      out.frame_Y += tet.volume * tet.Y;
      frame_volume += tet.volume;
    }
    out.tets.push_back(std::move(tet));
  }
  if (!(frame_volume > 0.0)) fail("the patch's vertices are corners of no tet of volume");
  out.frame_Y /= frame_volume;
  return out;
}

Eigen::Matrix3d field_at_vertex(const PatchSupport& support, int vertex) {
  const auto at = std::lower_bound(support.vertices.begin(), support.vertices.end(), vertex);
  if (at == support.vertices.end() || *at != vertex) return Eigen::Matrix3d::Zero();
  return support.fields[static_cast<std::size_t>(at - support.vertices.begin())];
}

Eigen::Matrix3d patch_rotation(const PatchSupport& support,
                               const Eigen::Ref<const sim::ReducedMatrix>& U) {
  return polar::polar_rotation<double>(Eigen::Matrix3d::Identity() +
                                       U.transpose() * support.frame_Y);
}

void mass_coupling(const PatchSupport& support, const Eigen::Matrix3d& rotation, int d,
                   Eigen::Ref<Eigen::MatrixXd> out) {
  out = rotation(d, 0) * support.moment[0];
  for (int e = 1; e < 3; ++e) out += rotation(d, e) * support.moment[static_cast<std::size_t>(e)];
}

Matrix9<double> pair_moments(const PatchSupport& p, const PatchSupport& q) {
  // The shared vertices' m_v vec(B_pv) and vec(B_qv) side by side, their outer products summed
  // by one product rather than a vertex at a time.
  std::vector<std::pair<Eigen::Index, Eigen::Index>> shared;
  for_each_shared_vertex(p, q, [&](Eigen::Index i, Eigen::Index j) { shared.emplace_back(i, j); });
  const auto count = static_cast<Eigen::Index>(shared.size());
  Eigen::Matrix<double, 9, Eigen::Dynamic> weighted(9, count), other(9, count);
  for (Eigen::Index k = 0; k < count; ++k) {
    const auto [a, b] = shared[static_cast<std::size_t>(k)];
    weighted.col(k) =
        p.mass(a) * Eigen::Map<const Vector9<double>>(p.fields[static_cast<std::size_t>(a)].data());
    other.col(k) = Eigen::Map<const Vector9<double>>(q.fields[static_cast<std::size_t>(b)].data());
  }
  // vec(B)(a + 3i) = B(a, i): the outer products' sum has entry (a + 3i, b + 3j).
  const Matrix9<double> outer = weighted * other.transpose();
  Matrix9<double> moments;
  for (int ii = 0; ii < 3; ++ii) {
    for (int jj = 0; jj < 3; ++jj) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) moments(ii + 3 * jj, a + 3 * b) = outer(a + 3 * ii, b + 3 * jj);
      }
    }
  }
  return moments;
}

Eigen::Matrix3d pair_mass(const Matrix9<double>& moments, const Eigen::Matrix3d& rotation_p,
                          const Eigen::Matrix3d& rotation_q) {
  const Eigen::Matrix3d relative = rotation_p.transpose() * rotation_q;
  const Vector9<double> pair = moments * Eigen::Map<const Vector9<double>>(relative.data());
  return Eigen::Map<const Eigen::Matrix3d>(pair.data());
}

Eigen::Matrix3d pair_mass(const PatchSupport& p, const Eigen::Matrix3d& rotation_p,
                          const PatchSupport& q, const Eigen::Matrix3d& rotation_q) {
  return pair_mass(pair_moments(p, q), rotation_p, rotation_q);
}

}  // namespace smfem::local
