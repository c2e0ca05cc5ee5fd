#pragma once
// What the stepper tests build their models and states from: the procedural box model
// (smfem/sim/fixtures/box_model.hpp, which also keeps the mesh for independent checks), its asset
// (smfem/sim/model/reduced_model_writer.hpp), and random reduced coordinates.
#include <Eigen/Core>

#include "smfem/sim/fixtures/box_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::sim::test {

// Threads of the simulators the tests run: at most 2 in all, as the threaded WebAssembly test
// binary has a pool of 4 pthreads.
inline constexpr int kThreads = 2;

// A random 4m x 3 matrix with entries uniform in [-scale, scale] (fixed seed).
ReducedMatrix random_reduced(int mode_count, double scale, unsigned seed);

// A 4 x 1 x 1 box with 4 modes (20 vertices: enough for 4m = 16 independent reduced
// coordinates) whose second material is softer (E = 1e6).
BoxModelOptions small_box();
// small_box()'s model with `mode_count` modes.
ReducedModel small_box_model(int mode_count);

// model with an EigenFit group (eigenfit.hpp) on its own leading ratios.size() non-null rest
// modes (fixed corotational, its baked materials), each fine eigenvalue r_i lambda_i.
ReducedModel with_eigenfit(ReducedModel model, const Eigen::VectorXd& ratios);

}  // namespace smfem::sim::test
