#include "smfem/cubature/training_forces.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "smfem/cubature/detail/parallel_chunks.hpp"
#include "smfem/cubature/detail/refuse.hpp"
#include "smfem/cubature/detail/uniform_random.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/subspace/basis.hpp"

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;
using TetGradient = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;  // Y_t, 4m x 3

void check_body(const char* caller, const ElasticBody& body) {
  const Index tets = body.mesh.tets.rows();
  if (body.weights.rows() != body.mesh.vertices.rows() ||
      body.eigenvalues.size() != body.weights.cols() || body.weights.cols() == 0) {
    detail::refuse(caller, "weights (" + std::to_string(body.weights.rows()) + " x " +
                               std::to_string(body.weights.cols()) + ") and eigenvalues (" +
                               std::to_string(body.eigenvalues.size()) + ") do not fit " +
                               std::to_string(body.mesh.vertices.rows()) + " vertices");
  }
  if (body.volumes.size() != tets || body.youngs.size() != tets || body.poisson.size() != tets) {
    detail::refuse(caller, "volumes, youngs and poisson must have one entry per tet (" +
                               std::to_string(tets) + ")");
  }
}

void check_tets(const char* caller, const ElasticBody& body,
                const Eigen::Ref<const Eigen::VectorXi>& tets) {
  if (tets.size() > 0 && (tets.minCoeff() < 0 || tets.maxCoeff() >= body.mesh.tets.rows())) {
    detail::refuse(caller, "a tet id is outside 0.." + std::to_string(body.mesh.tets.rows() - 1));
  }
}

// Adds scale g_t(U) (12m, u's order) to out.
void add_tet_force(const Eigen::Ref<const TetGradient>& Y, const Pose& U, const sim::Lame& lame,
                   sim::MaterialModel model, double scale, double* out) {
  const Matrix3<double> F = Matrix3<double>::Identity() + U.transpose() * Y;
  const polar::SignedSvd<double> svd = polar::signed_svd(F);
  const Vector9<double> dpsi_dF = polar::dstretch_dF(svd).transpose() *
                                  sim::dpsi_ds(model, polar::symmetric_stretch(svd), lame);
  const Eigen::Map<const Matrix3<double>> P(dpsi_dF.data());
  Eigen::Map<Pose>(out, Y.rows(), 3).noalias() += scale * Y * P.transpose();
}

}  // namespace

PoseAmplitudes pose_amplitudes(const Eigen::Ref<const Eigen::VectorXd>& eigenvalues) {
  const double largest = eigenvalues.maxCoeff();
  PoseAmplitudes out{{}, Eigen::VectorXd::Ones(eigenvalues.size())};
  double smallest = largest;
  for (Index i = 0; i < eigenvalues.size(); ++i) {
    if (eigenvalues(i) > 1e-10 * largest) {
      out.deforming.push_back(i);
      smallest = std::min(smallest, eigenvalues(i));
    }
  }
  for (const Index i : out.deforming) out.amplitude(i) = std::sqrt(smallest / eigenvalues(i));
  return out;
}

Poses sample_poses(const ElasticBody& body, int training, int held_out, std::uint64_t seed) {
  const char* caller = "sample_poses";
  check_body(caller, body);
  if (training < 0 || held_out < 0) detail::refuse(caller, "pose counts must be >= 0");
  const Index tets = body.mesh.tets.rows();
  if (tets == 0) detail::refuse(caller, "the mesh has no tets");
  const Index m = body.weights.cols();

  // sum_t V_t ||D^T Y_t||_F^2 = tr(D^T M D) with M = sum_t V_t Y_t Y_t^T: one 4m x 4m matrix
  // measures every pose. Y in chunks: memory does not grow with |T|.
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(4 * m, 4 * m);
  for (Index begin = 0; begin < tets; begin += detail::kChunkSize) {
    const Index count = std::min(detail::kChunkSize, tets - begin);
    const subspace::TetBasisGradients Y = subspace::tet_basis_gradients(
        body.mesh, body.weights,
        Eigen::VectorXi::LinSpaced(count, static_cast<int>(begin),
                                   static_cast<int>(begin + count - 1)));
    for (Index c = 0; c < count; ++c) {
      const auto Y_t = Y.middleRows(4 * m * c, 4 * m);
      M.noalias() += body.volumes(begin + c) * Y_t * Y_t.transpose();
    }
  }
  const double volume = body.volumes.sum();

  // Named, not structured bindings: the draw lambda below uses them (clang < 16 cannot).
  const PoseAmplitudes amplitudes = pose_amplitudes(body.eigenvalues);
  const std::vector<Index>& deforming = amplitudes.deforming;
  const Eigen::VectorXd& amplitude = amplitudes.amplitude;
  const int pure = std::min(static_cast<int>(deforming.size()), training / 4);

  std::mt19937_64 bits(seed);
  const auto draw = [&](int p) {
    Pose D = Pose::Zero(4 * m, 3);
    for (Index i = 0; i < m; ++i) {
      if (p < pure && i != deforming[static_cast<std::size_t>(p)]) continue;
      const double scale = p < pure ? 1.0 : amplitude(i);
      for (Index d = 0; d < 3; ++d) {
        for (Index k = 0; k < 4; ++k)
          D(4 * i + k, d) = scale * (2.0 * detail::uniform_01(bits) - 1.0);
      }
    }
    const double strain = std::sqrt((D.transpose() * M * D).trace() / volume);
    const double target = kMinStrain * std::pow(kMaxStrain / kMinStrain, detail::uniform_01(bits));
    // A pose that strains no tet (a translation, say) has no force: it stays zero.
    if (strain > 0.0) D *= target / strain;
    return D;
  };
  Poses poses;
  for (int p = 0; p < training; ++p) poses.training.push_back(draw(p));
  for (int p = 0; p < held_out; ++p) poses.held_out.push_back(draw(training));
  return poses;
}

Eigen::MatrixXd tet_forces(const ElasticBody& body, const Eigen::Ref<const Eigen::VectorXi>& tets,
                           const std::vector<Pose>& poses, int threads) {
  const char* caller = "tet_forces";
  check_body(caller, body);
  check_tets(caller, body, tets);
  const Index r = 12 * body.weights.cols();
  Eigen::MatrixXd forces = Eigen::MatrixXd::Zero(r * static_cast<Index>(poses.size()), tets.size());
  detail::parallel_chunks(
      tets.size(), detail::resolve_thread_count(threads), [&](Index, Index begin, Index end) {
        const subspace::TetBasisGradients Y = subspace::tet_basis_gradients(
            body.mesh, body.weights, tets.segment(begin, end - begin));
        for (Index c = begin; c < end; ++c) {
          const Index t = tets(c);
          const sim::Lame lame = energies::lame_from_young_poisson(body.youngs(t), body.poisson(t));
          const auto Y_t = Y.middleRows(r / 3 * (c - begin), r / 3);
          for (std::size_t p = 0; p < poses.size(); ++p) {
            add_tet_force(Y_t, poses[p], lame, body.model, 1.0,
                          forces.col(c).data() + r * static_cast<Index>(p));
          }
        }
      });
  return forces;
}

Eigen::VectorXd body_forces(const ElasticBody& body, const std::vector<Pose>& poses, int threads) {
  check_body("body_forces", body);
  const Index r = 12 * body.weights.cols();
  const Index tets = body.mesh.tets.rows();
  const Index rows = r * static_cast<Index>(poses.size());
  Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(rows, detail::chunk_count(tets));
  detail::parallel_chunks(
      tets, detail::resolve_thread_count(threads), [&](Index chunk, Index begin, Index end) {
        const subspace::TetBasisGradients Y = subspace::tet_basis_gradients(
            body.mesh, body.weights,
            Eigen::VectorXi::LinSpaced(end - begin, static_cast<int>(begin),
                                       static_cast<int>(end - 1)));
        for (Index t = begin; t < end; ++t) {
          const sim::Lame lame = energies::lame_from_young_poisson(body.youngs(t), body.poisson(t));
          const auto Y_t = Y.middleRows(r / 3 * (t - begin), r / 3);
          for (std::size_t p = 0; p < poses.size(); ++p) {
            add_tet_force(Y_t, poses[p], lame, body.model, body.volumes(t),
                          partial.col(chunk).data() + r * static_cast<Index>(p));
          }
        }
      });
  Eigen::VectorXd total = Eigen::VectorXd::Zero(rows);
  for (Index chunk = 0; chunk < partial.cols(); ++chunk) total += partial.col(chunk);
  return total;
}

}  // namespace smfem::cubature
