#pragma once
// The Simulator's whole dynamic state, and its bytes (Simulator::save_state, load_state; the
// page's and the CLI's snapshots).
//
// Format 3, little-endian, no padding: "SMFS", u32 format, u32 m (modes), u32 C (cubature tets),
// f64 time, i64 step count, U and Udot (4m x 3 f64 each, column-major), z and lambda (6 x C
// each); then the local patches (local/local_deformations.hpp: PatchState): u32 P (patches), u32
// L (loaded vertices), u32 S (the patches' tets), L i32 loaded vertices, L f64 unloaded times,
// P rotations (3 x 3 f64 each, column-major), C and Cdot (P x 3 each), z and lambda (6 x S each).
// Format 1 is format 3 without the patches' part (no patch). Format 2 has format 3's layout, but
// its patches' z and lambda are the stretches of an energy the patches no longer have (before
// 2026-12-03: local/patch_set.hpp), so a format 2 state is taken only without a patch.
#include <cstdint>
#include <span>
#include <vector>

#include "smfem/local/local_deformations.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::sim {

struct SimulatorState {
  ReducedMatrix U;
  ReducedMatrix Udot;
  StretchField z;
  StretchField lambda;
  double time = 0.0;
  std::int64_t step_count = 0;
  local::PatchState patches;  // with local deformations (simulator.hpp); no patch otherwise
};

// The state as format 3's bytes; its sizes are the model's (m modes, C cubature tets).
std::vector<std::uint8_t> encode_state(const SimulatorState& state);
// The state of format 1, 2 or 3 bytes for a model of m modes and C cubature tets. Throws
// std::invalid_argument naming what does not fit: magic, format, sizes, the byte count, a format 2
// state's patches. The
// values are not checked here (Simulator::restore does).
SimulatorState decode_state(std::span<const std::uint8_t> bytes, int m, int C);

}  // namespace smfem::sim
