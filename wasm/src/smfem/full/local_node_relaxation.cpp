#include "smfem/full/local_node_relaxation.hpp"

#include <cmath>

#include <Eigen/Cholesky>

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
// At most two local nodes (a rod segment's directors): no allocation per element.
constexpr int kMaxUnknowns = 6;
using LocalVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxUnknowns, 1>;
using LocalMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxUnknowns, kMaxUnknowns>;
using LocalJacobian = Eigen::Matrix<double, 9, Eigen::Dynamic, 0, 9, kMaxUnknowns>;

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
    Element element{e, {}};
    for (int j = 0; j < 4; ++j) {
      if (local[static_cast<std::size_t>(model.elements(e, j))]) element.slots.push_back(j);
    }
    // (An element of more than two such nodes, which no thin body makes, is left to the solver.)
    const auto unknowns = static_cast<int>(3 * element.slots.size());
    if (unknowns > 0 && unknowns <= kMaxUnknowns) elements_.push_back(std::move(element));
  }
}

void LocalNodeRelaxation::relax(const TetMeshDeformation& deformation, sim::MaterialModel material,
                                const std::vector<sim::Lame>& lame,
                                const sim::ReducedMatrix& predicted, double timestep,
                                parallel::ThreadPool& pool, sim::ReducedMatrix& U) const {
  const double inv_h2 = 1.0 / (timestep * timestep);
  sim::parallel_for_tets(pool, static_cast<int>(elements_.size()), [&](int k) {
    const Element& local = elements_[static_cast<std::size_t>(k)];
    const int e = local.element;
    const sim::Lame& params = lame[static_cast<std::size_t>(e)];
    const double w = deformation.volumes()(e);
    const fem::TetCorners& G = model_.shape_gradients[static_cast<std::size_t>(e)];
    const auto size = static_cast<Eigen::Index>(3 * local.slots.size());
    const auto node = [&](std::size_t i) { return model_.elements(e, local.slots[i]); };

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
      for (std::size_t i = 0; i < local.slots.size(); ++i) {
        const int v = node(i);
        point.energy +=
            0.5 * model_.node_mass(v) * inv_h2 * (U.row(v) - predicted.row(v)).squaredNorm();
      }
      return point;
    };
    // d vec(F) / d u_j = g_j (x) I: column-major vec(F), F = I + sum_j u_j g_j^T.
    LocalJacobian K = LocalJacobian::Zero(9, size);
    for (std::size_t i = 0; i < local.slots.size(); ++i) {
      for (int c = 0; c < 3; ++c) {
        K.block<3, 3>(3 * c, static_cast<Eigen::Index>(3 * i)) =
            G(local.slots[i], c) * Matrix3<double>::Identity();
      }
    }
    // Trials are written into U's own rows of these nodes, which no other element reads.
    const auto place = [&](const LocalVector& y) {
      for (std::size_t i = 0; i < local.slots.size(); ++i) {
        U.row(node(i)) = y.segment<3>(static_cast<Eigen::Index>(3 * i)).transpose();
      }
    };
    Point current = evaluate();
    for (int iteration = 0; iteration < kMaxNewtonIterations; ++iteration) {
      const Vector9<double> P =
          polar::dstretch_dF(current.svd).transpose() * sim::dpsi_ds(material, current.s, params);
      LocalVector gradient = w * K.transpose() * P;
      LocalVector start(size);
      for (std::size_t i = 0; i < local.slots.size(); ++i) {
        const int v = node(i);
        const auto at = static_cast<Eigen::Index>(3 * i);
        start.segment<3>(at) = U.row(v).transpose();
        gradient.segment<3>(at) +=
            model_.node_mass(v) * inv_h2 * (U.row(v) - predicted.row(v)).transpose();
      }
      LocalMatrix hessian =
          w * K.transpose() * sim::d2psi_dF2_psd(material, current.svd, params) * K;
      for (std::size_t i = 0; i < local.slots.size(); ++i) {
        const auto at = static_cast<Eigen::Index>(3 * i);
        hessian.block<3, 3>(at, at).diagonal().array() += model_.node_mass(node(i)) * inv_h2;
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
  });
}

}  // namespace smfem::full
