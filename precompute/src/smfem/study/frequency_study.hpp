#pragma once
// Vibration frequencies of a reduced model as its stepper produces them (the EigenFit
// demonstration, Chen et al. 2019): small free vibrations from rest, started along the model's
// leading rest modes, stepped by converged MFEM, each mode's coordinate q_i(t) = U_i^T M u(t) timed
// by its zero crossings. In the linear regime the modes decouple (they are eigenvectors of the
// fitted stiffness too: sim/step/eigenfit_term.hpp), so each q_i swings at one frequency.
#include <Eigen/Core>

#include "smfem/eigenfit/fine_spectrum.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::study {

struct MeasuredFrequencies {
  // sqrt(lambda_i) / 2 pi of the stepper's rest problem along each mode: U_i^T K U_i with the
  // fitted stiffness when the fit is on, Hz.
  Eigen::VectorXd predicted_hz;
  Eigen::VectorXd measured_hz;  // from the zero crossings, Hz (0 where fewer than 3 crossings)
  double timestep = 0.0;        // s: a hundredth of the shortest predicted period
  int steps = 0;                // enough for three and a half of the longest
  bool converged = true;        // every step converged
};

// modes: 12m x k, M-orthonormal rest modes of the model (sim::reduced_rest_modes, or the fit's
// own); eigen_fit: whether the stepper applies the model's fit; amplitude: the RMS displacement
// each mode starts with, m (u0 = amplitude sqrt(total mass) sum_i U_i); gravity off.
// timestep: 0 for a hundredth of the shortest predicted period.
MeasuredFrequencies measure_frequencies(const sim::ReducedModel& model,
                                        const Eigen::MatrixXd& modes, bool eigen_fit,
                                        double amplitude, int threads, double timestep = 0.0);

// The stepper's rest stiffness (sim/eigenfit.hpp: rest_stiffness), with the model's fit added
// when eigen_fit (eigenfit_term.hpp at rest).
Eigen::MatrixXd stepper_rest_stiffness(const sim::ReducedModel& model, bool eigen_fit);

// The model's k lowest vibration modes as its stepper has them (fit on or off), measured: its
// first k oscillation frequencies.
MeasuredFrequencies measure_leading_frequencies(const sim::ReducedModel& model, bool eigen_fit,
                                                int k, double amplitude, int threads);

// The fine mesh's first k modes as the coarse model's reduced coordinates (12m x k): each
// field's nearest displacement in the coarse subspace in the fine mesh's mass norm, through the
// coarse skinning map at the fine vertices (eigenfit/mode_matching.hpp), then normalized in the
// reduced mass. A start that owes nothing to the coarse model's own modes, fitted or not: if
// its modes are not the object's, the start excites several and its frequency is not theirs.
// coarse, coarse_weights: the coarse bake's mesh and skinning weights (|Vc| x m);
// fine_positions: the fine mesh's vertices, the rows of spectrum.vectors. Throws
// std::invalid_argument if the weights do not fit the model or a mode projects to nothing.
// Memory: the coarse map at the fine vertices, dense (3n x 12m doubles twice: 0.55 GB at 310k
// tets and m = 16).
Eigen::MatrixXd fine_modes_in_subspace(const sim::ReducedModel& model, const mesh::TetMesh& coarse,
                                       const Eigen::MatrixXd& coarse_weights,
                                       const Eigen::Ref<const mesh::Vertices>& fine_positions,
                                       const eigenfit::FineSpectrum& spectrum, int k);

// measure_frequencies one start at a time: column i's run starts along column i alone, and
// its frequency is timed on q_i; every run takes the time step of the highest start (a
// hundredth of its predicted period, so that all share implicit Euler's error per period of
// the highest), each runs for three and a half of its own periods.
MeasuredFrequencies measure_frequencies_one_by_one(const sim::ReducedModel& model,
                                                   const Eigen::MatrixXd& starts, bool eigen_fit,
                                                   double amplitude, int threads);

}  // namespace smfem::study
