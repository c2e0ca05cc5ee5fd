#include "smfem/study/frequency_study.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "smfem/eigenfit/mode_matching.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/render/tet_embedding.hpp"
#include "smfem/sim/eigenfit.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/step/eigenfit_term.hpp"

namespace smfem::study {
namespace {

constexpr double kTwoPi = 6.283185307179586;

}  // namespace

Eigen::MatrixXd stepper_rest_stiffness(const sim::ReducedModel& model, bool eigen_fit) {
  const std::vector<sim::Lame> lame = sim::baked_lame(model);
  Eigen::MatrixXd K = sim::rest_stiffness(model, model.defaults.material_model, lame);
  if (!eigen_fit || model.eigenfit.empty()) return K;
  sim::EigenFitTerm term(model);
  term.update_materials(model.defaults.material_model, lame);
  const Matrix6x9<double> J =
      polar::dstretch_dF(polar::signed_svd(Matrix3<double>(Matrix3<double>::Identity())));
  for (int c = 0; c < model.cubature_count(); ++c) term.set_tet_jacobian(c, J);
  parallel::ThreadPool pool(1);
  term.assemble(pool);
  K += term.coupling() * term.weights().asDiagonal() * term.coupling().transpose();
  return K;
}

MeasuredFrequencies measure_leading_frequencies(const sim::ReducedModel& model, bool eigen_fit,
                                                int k, double amplitude, int threads) {
  const sim::ReducedModes modes =
      sim::reduced_rest_modes(model, stepper_rest_stiffness(model, eigen_fit), k);
  return measure_frequencies(model, modes.vectors, eigen_fit, amplitude, threads);
}

MeasuredFrequencies measure_frequencies(const sim::ReducedModel& model,
                                        const Eigen::MatrixXd& modes, bool eigen_fit,
                                        double amplitude, int threads, double timestep) {
  const Eigen::Index k = modes.cols();
  const Eigen::MatrixXd M = sim::reduced_mass(model);
  const Eigen::MatrixXd K = stepper_rest_stiffness(model, eigen_fit);
  MeasuredFrequencies out;
  out.predicted_hz.resize(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    out.predicted_hz(i) = std::sqrt(modes.col(i).dot(K * modes.col(i))) / kTwoPi;
  }
  const double shortest = 1.0 / out.predicted_hz.maxCoeff();
  const double longest = 1.0 / out.predicted_hz.minCoeff();
  out.timestep = timestep > 0.0 ? timestep : shortest / 100.0;
  out.steps = static_cast<int>(std::ceil(3.5 * longest / out.timestep));

  sim::SolverSettings settings = model.defaults;
  settings.method = sim::SolverMethod::mfem;
  settings.timestep = out.timestep;
  settings.gravity.setZero();
  settings.until_converged = true;
  settings.iterations = 100;
  settings.relative_tolerance = 1e-9;
  settings.absolute_tolerance = 0.0;
  settings.eigen_fit = eigen_fit;
  sim::Simulator simulator(model, settings, threads);
  const Eigen::VectorXd u0 = amplitude * std::sqrt(model.total_mass) * modes.rowwise().sum();
  const Eigen::Index n = u0.size() / 3;
  simulator.set_state(Eigen::Map<const sim::ReducedMatrix>(u0.data(), n, 3),
                      sim::ReducedMatrix::Zero(n, 3));

  const Eigen::MatrixXd MU = M * modes;  // q = U^T M u
  const auto coordinates = [&]() {
    const sim::ReducedMatrix& U = simulator.coordinates();
    return Eigen::VectorXd(MU.transpose() * Eigen::Map<const Eigen::VectorXd>(U.data(), 3 * n));
  };
  Eigen::VectorXd previous = coordinates();
  std::vector<std::vector<double>> crossings(static_cast<std::size_t>(k));
  for (int step = 0; step < out.steps; ++step) {
    const sim::StepReport& report = simulator.step();
    out.converged = out.converged && report.ok && report.stats.converged;
    const Eigen::VectorXd q = coordinates();
    for (Eigen::Index i = 0; i < k; ++i) {
      if ((previous(i) > 0.0) != (q(i) > 0.0)) {
        crossings[static_cast<std::size_t>(i)].push_back(
            simulator.time() - out.timestep * q(i) / (q(i) - previous(i)));
      }
    }
    previous = q;
  }
  out.measured_hz.setZero(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    const std::vector<double>& times = crossings[static_cast<std::size_t>(i)];
    if (times.size() < 3) continue;
    // Half a period between crossings.
    out.measured_hz(i) =
        static_cast<double>(times.size() - 1) / (2.0 * (times.back() - times.front()));
  }
  return out;
}

Eigen::MatrixXd fine_modes_in_subspace(const sim::ReducedModel& model, const mesh::TetMesh& coarse,
                                       const Eigen::MatrixXd& coarse_weights,
                                       const Eigen::Ref<const mesh::Vertices>& fine_positions,
                                       const eigenfit::FineSpectrum& spectrum, int k) {
  const Eigen::Index r = model.reduced_size();
  if (r != 12 * coarse_weights.cols()) {
    throw std::invalid_argument("fine_modes_in_subspace: " + std::to_string(coarse_weights.cols()) +
                                " weights for a model of " + std::to_string(model.mode_count()) +
                                " modes");
  }
  const render::TetEmbedding embedding = render::embed_points(coarse, fine_positions);
  // B: 3n x r, column j the field of reduced coordinate j at the fine vertices.
  const Eigen::MatrixXd B = eigenfit::reduced_modes_at(
      fine_positions, eigenfit::embedded_weights(coarse, coarse_weights, embedding),
      Eigen::MatrixXd::Identity(r, r));
  const Eigen::VectorXd M = spectrum.vertex_mass.replicate(1, 3).transpose().reshaped();
  const Eigen::MatrixXd MB = M.asDiagonal() * B;
  const Eigen::MatrixXd fields = spectrum.vectors.leftCols(k);
  Eigen::MatrixXd starts = (B.transpose() * MB).ldlt().solve(MB.transpose() * fields);
  const Eigen::MatrixXd reduced = sim::reduced_mass(model);
  for (Eigen::Index i = 0; i < starts.cols(); ++i) {
    const double norm = std::sqrt(starts.col(i).dot(reduced * starts.col(i)));
    if (!(norm > 0.0)) {
      throw std::invalid_argument("fine_modes_in_subspace: fine mode " + std::to_string(i) +
                                  " has no part in the coarse subspace");
    }
    starts.col(i) /= norm;
  }
  return starts;
}

MeasuredFrequencies measure_frequencies_one_by_one(const sim::ReducedModel& model,
                                                   const Eigen::MatrixXd& starts, bool eigen_fit,
                                                   double amplitude, int threads) {
  MeasuredFrequencies out;
  out.predicted_hz.resize(starts.cols());
  out.measured_hz.resize(starts.cols());
  const Eigen::MatrixXd K = stepper_rest_stiffness(model, eigen_fit);
  double highest = 0.0;
  for (Eigen::Index i = 0; i < starts.cols(); ++i) {
    highest = std::max(highest, std::sqrt(starts.col(i).dot(K * starts.col(i))) / kTwoPi);
  }
  const double timestep = 1.0 / (100.0 * highest);
  for (Eigen::Index i = 0; i < starts.cols(); ++i) {
    const MeasuredFrequencies one =
        measure_frequencies(model, starts.col(i), eigen_fit, amplitude, threads, timestep);
    out.predicted_hz(i) = one.predicted_hz(0);
    out.measured_hz(i) = one.measured_hz(0);
    out.timestep = timestep;
    out.steps += one.steps;
    out.converged = out.converged && one.converged;
  }
  return out;
}

}  // namespace smfem::study
