#pragma once
// The procedural box of sim/fixtures/box_model.hpp as a full-space model (every tet, its region's
// material), and the same as asset bytes with the mesh.* sections smfem-bake --full-mesh writes.
#include <cstdint>
#include <vector>

#include "smfem/full/full_model.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::full::test {

// The box with cubature = every tet (so the cubature materials are per tet); vertices with
// x <= pin_below_x are pinned (none by default).
FullModel full_box(const sim::BoxModelOptions& options = {}, double pin_below_x = -1e9);

std::vector<std::uint8_t> full_model_asset_bytes(const FullModel& model);

}  // namespace smfem::full::test
