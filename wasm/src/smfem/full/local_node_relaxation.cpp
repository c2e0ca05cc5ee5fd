#include "smfem/full/local_node_relaxation.hpp"

#include <array>
#include <cmath>
#include <optional>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/step/step_context.hpp"

namespace smfem::full {
namespace {

// Converged when a Newton step moves the nodes less than kStepTolerance: directors are unit
// vectors at rest, so it is relative, and a director that far off stores a shear energy of
// order mu w 1e-14. Tighter (1e-9, with 30 halvings) the line searches near the minimum, at
// rounding, failed and took 3.4 times the evaluations (17.5 a relaxation on a net of rods
// against 7.7; Newton iterations 5.5 against 4.4), and the net of rods gained no more energy.
constexpr int kMaxNewtonIterations = 10;
constexpr int kMaxHalvings = 10;
constexpr double kStepTolerance = 1e-7;
// A segment's directors (segment_directors): the lateral stretch's Newton iterations, and its
// tolerance relative to the stretch; no guess for a segment shorter than kShortestSegment of its
// rest length.
constexpr int kMaxLengthIterations = 30;
constexpr double kLengthTolerance = 1e-12;
constexpr double kShortestSegment = 1e-6;
// A rest frame's rows are unit and orthogonal to this tolerance (thin/rod.cpp builds them from
// unitOrthogonal and a cross product: to rounding).
constexpr double kFrameTolerance = 1e-9;

// Whether G is a segment's with its two directors at slots 2 and 3 (thin/rod.cpp): rows 0 and 1
// -t / L and t / L, rows 2 and 3 unit normals n and b with t x n = b.
bool is_segment_with_directors(const fem::TetCorners& G, const std::vector<int>& slots) {
  if (slots != std::vector<int>{2, 3}) return false;
  const Eigen::Vector3d along = G.row(1).transpose();
  const double length = 1.0 / along.norm();
  const Eigen::Vector3d t = along * length;
  const Eigen::Vector3d n = G.row(2).transpose();
  const Eigen::Vector3d b = G.row(3).transpose();
  return std::isfinite(length) && (G.row(0) + G.row(1)).norm() <= kFrameTolerance * along.norm() &&
         std::abs(n.norm() - 1.0) <= kFrameTolerance && std::abs(t.dot(n)) <= kFrameTolerance &&
         (t.cross(n) - b).norm() <= kFrameTolerance;
}

// A segment's directors where they minimize its energy with their inertia neglected (it is
// rho pi r^4 / 4 per length: against the segment's stiffness times h^2, 1e-8 on the rods bunny,
// 1e-3 for a soft rod 2 cm thick, which the Newton iterations after it take up): orthogonal to the
// segment and to each other, right-handed, both of the length c that minimizes psi(diag(lambda, c,
// c)) for the segment's stretch lambda, and turned about the segment to where the inertia puts
// them: as close to the predicted directors as their masses weigh them (a two-dimensional
// Procrustes problem). Newton's method goes on from there (the header says why). None if the
// segment is crushed to a point or the stretch's Newton fails.
std::optional<std::array<Eigen::Vector3d, 2>> segment_directors(
    const fem::TetCorners& G, const Matrix3<double>& F, sim::MaterialModel material,
    const sim::Lame& params, const std::array<Eigen::Vector3d, 2>& predicted,
    const std::array<double, 2>& masses) {
  const Eigen::Vector3d segment = F * G.row(1).transpose().normalized();
  const double stretch = segment.norm();
  if (!(stretch > kShortestSegment)) return std::nullopt;
  const Eigen::Vector3d along = segment / stretch;
  const Eigen::Vector3d u = along.unitOrthogonal();
  const Eigen::Vector3d v = along.cross(u);
  double c = 1.0;
  bool converged = false;
  for (int iteration = 0; iteration < kMaxLengthIterations && !converged; ++iteration) {
    Vector6<double> s;
    s << stretch, c, c, 0.0, 0.0, 0.0;
    const Vector6<double> g = sim::dpsi_ds(material, s, params);
    const Matrix6<double> H = sim::d2psi_ds2(material, s, params);
    const double slope = g(1) + g(2);
    const double curvature = H(1, 1) + 2.0 * H(1, 2) + H(2, 2);
    if (!(curvature > 0.0) || !std::isfinite(slope)) return std::nullopt;
    const double change = slope / curvature;
    converged = std::abs(change) <= kLengthTolerance * c;
    c = c - change > 0.0 ? c - change : 0.5 * c;
  }
  if (!converged) return std::nullopt;
  // sum_i m_i d_i . d~_i with d_0 = c (cos theta u + sin theta v), d_1 = along x d_0 is
  // c (A cos theta + B sin theta): largest at theta = atan2(B, A).
  const double A = masses[0] * u.dot(predicted[0]) + masses[1] * v.dot(predicted[1]);
  const double B = masses[0] * v.dot(predicted[0]) - masses[1] * u.dot(predicted[1]);
  const double theta = std::atan2(B, A);
  const Eigen::Vector3d first = std::cos(theta) * u + std::sin(theta) * v;
  return std::array<Eigen::Vector3d, 2>{c * first, c * along.cross(first)};
}

}  // namespace

LocalNodeRelaxation::LocalNodeRelaxation(const ElementModel& model,
                                         const std::vector<int>& contact_nodes)
    : model_(model) {
  if (!model.relax_local_nodes) return;
  const auto n = static_cast<std::size_t>(model.node_count);
  std::vector<int> holders(n, 0);
  for (int e = 0; e < model.element_count(); ++e) {
    for (int j = 0; j < 4; ++j) ++holders[static_cast<std::size_t>(model.elements(e, j))];
  }
  std::vector<char> local(n, 1);
  for (std::size_t v = 0; v < n; ++v) {
    local[v] = holders[v] == 1 && model.translational_mass(static_cast<Eigen::Index>(v)) == 0.0;
  }
  for (const int v : model.pinned) local[static_cast<std::size_t>(v)] = 0;
  for (const int v : contact_nodes) local[static_cast<std::size_t>(v)] = 0;
  if (model.bending.size() > 0) {
    for (int col = 0; col < model.bending.outerSize(); ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(model.bending, col); it; ++it) {
        if (it.value() != 0.0) local[static_cast<std::size_t>(it.row())] = 0;
      }
    }
  }
  for (int e = 0; e < model.element_count(); ++e) {
    Element element{e, {}, false};
    for (int j = 0; j < 4; ++j) {
      if (local[static_cast<std::size_t>(model.elements(e, j))]) element.slots.push_back(j);
    }
    // (An element of more than two such nodes, which no thin body makes, is left to the solver.)
    if (element.slots.empty() || element.slots.size() > 2) continue;
    element.segment = is_segment_with_directors(model.shape_gradients[static_cast<std::size_t>(e)],
                                                element.slots);
    elements_.push_back(std::move(element));
  }
}

template <int Nodes>
void LocalNodeRelaxation::relax_element(const Element& local, const TetMeshDeformation& deformation,
                                        sim::MaterialModel material, const sim::Lame& params,
                                        const sim::ReducedMatrix& predicted, double inv_h2,
                                        sim::ReducedMatrix& U) const {
  constexpr int N = 3 * Nodes;
  using LocalVector = Eigen::Matrix<double, N, 1>;
  const int e = local.element;
  const double w = deformation.volumes()(e);
  const fem::TetCorners& G = model_.shape_gradients[static_cast<std::size_t>(e)];
  const auto node = [&](int i) {
    return model_.elements(e, local.slots[static_cast<std::size_t>(i)]);
  };

  // The element's F at U and the local energy there (U's rows of the local nodes as they are).
  struct Point {
    polar::SignedSvd<double> svd;
    Vector6<double> s;
    double energy;
  };
  const auto evaluate = [&]() {
    Point point;
    point.svd = polar::signed_svd(
        Matrix3<double>(Matrix3<double>::Identity() + deformation.displacement_gradient(e, U)));
    point.s = polar::symmetric_stretch(point.svd);
    point.energy = w * sim::psi(material, point.s, params);
    for (int i = 0; i < Nodes; ++i) {
      const int v = node(i);
      point.energy +=
          0.5 * model_.node_mass(v) * inv_h2 * (U.row(v) - predicted.row(v)).squaredNorm();
    }
    return point;
  };
  // d vec(F) / d u_j = g_j (x) I: column-major vec(F), F = I + sum_j u_j g_j^T.
  Eigen::Matrix<double, 9, N> K = Eigen::Matrix<double, 9, N>::Zero();
  for (int i = 0; i < Nodes; ++i) {
    for (int c = 0; c < 3; ++c) {
      K.template block<3, 3>(3 * c, 3 * i) =
          G(local.slots[static_cast<std::size_t>(i)], c) * Matrix3<double>::Identity();
    }
  }
  // Trials are written into U's own rows of these nodes, which no other element reads.
  const auto place = [&](const LocalVector& y) {
    for (int i = 0; i < Nodes; ++i) U.row(node(i)) = y.template segment<3>(3 * i).transpose();
  };
  if constexpr (Nodes == 2) {
    if (local.segment) {
      // The directors' "rest positions" are the frame's normals (G's rows 2 and 3): their
      // displacements are the directors less those.
      std::array<Eigen::Vector3d, 2> predicted_directors;
      std::array<double, 2> masses;
      for (int i = 0; i < 2; ++i) {
        predicted_directors[static_cast<std::size_t>(i)] =
            G.row(2 + i).transpose() + predicted.row(node(i)).transpose();
        masses[static_cast<std::size_t>(i)] = model_.node_mass(node(i));
      }
      const Matrix3<double> F =
          Matrix3<double>::Identity() + deformation.displacement_gradient(e, U);
      const auto guess = segment_directors(G, F, material, params, predicted_directors, masses);
      if (guess.has_value()) {
        LocalVector y;
        for (int i = 0; i < 2; ++i) {
          y.template segment<3>(3 * i) =
              (*guess)[static_cast<std::size_t>(i)] - G.row(2 + i).transpose();
        }
        place(y);
      }
    }
  }
  Point current = evaluate();
  LocalVector start;
  for (int iteration = 0; iteration < kMaxNewtonIterations; ++iteration) {
    const Vector9<double> P =
        polar::dstretch_dF(current.svd).transpose() * sim::dpsi_ds(material, current.s, params);
    LocalVector gradient = w * K.transpose() * P;
    for (int i = 0; i < Nodes; ++i) {
      const int v = node(i);
      start.template segment<3>(3 * i) = U.row(v).transpose();
      gradient.template segment<3>(3 * i) +=
          model_.node_mass(v) * inv_h2 * (U.row(v) - predicted.row(v)).transpose();
    }
    Eigen::Matrix<double, N, N> hessian =
        w * K.transpose() * sim::d2psi_dF2_psd(material, current.svd, params) * K;
    for (int i = 0; i < Nodes; ++i) {
      hessian.template block<3, 3>(3 * i, 3 * i).diagonal().array() +=
          model_.node_mass(node(i)) * inv_h2;
    }
    const LocalVector step = -hessian.ldlt().solve(gradient);
    if (!step.allFinite() || step.norm() <= kStepTolerance) break;
    double alpha = 1.0;
    bool accepted = false;
    for (int halving = 0; halving < kMaxHalvings && !accepted; ++halving, alpha *= 0.5) {
      place(start + alpha * step);
      Point trial = evaluate();
      if (trial.energy < current.energy) {
        accepted = true;
        current = trial;
      }
    }
    if (!accepted) {
      place(start);
      break;
    }
  }
}

void LocalNodeRelaxation::relax(const TetMeshDeformation& deformation, sim::MaterialModel material,
                                const std::vector<sim::Lame>& lame,
                                const sim::ReducedMatrix& predicted, double timestep,
                                parallel::ThreadPool& pool, sim::ReducedMatrix& U) const {
  const double inv_h2 = 1.0 / (timestep * timestep);
  sim::parallel_for_tets(pool, static_cast<int>(elements_.size()), [&](int k) {
    const Element& local = elements_[static_cast<std::size_t>(k)];
    const sim::Lame& params = lame[static_cast<std::size_t>(local.element)];
    if (local.slots.size() == 1) {
      relax_element<1>(local, deformation, material, params, predicted, inv_h2, U);
    } else {
      relax_element<2>(local, deformation, material, params, predicted, inv_h2, U);
    }
  });
}

}  // namespace smfem::full
