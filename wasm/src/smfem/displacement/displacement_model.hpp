#pragma once
// A displacement basis baked into an asset (smfem-bake --comparison-basis; assets/FORMAT.md,
// displacement.*): the comparison subspaces of Subspace MFEM (Trusty et al. 2023), Fig. 5 (linear
// modes, modal derivatives), stepped by DisplacementSimulator with the bake's cubature.
//
// Asset sections, beside the whole tet mesh the full-space solvers read (full/full_model.hpp):
//   displacement.basis             f64 [3n, k]  Phi, row 3v + d the coordinate d of vertex v
//   displacement.cubature_tets     u32 [C]      optional pair: the quadrature's tets ...
//   displacement.cubature_weights  f64 [C]      ... and the rest volume each stands for, m^3
// and meta "displacement": {"basis": "linear" | "modal_derivatives", ...} (the bake's summary;
// informational). Without the cubature pair, every tet is integrated (exact).
#include <optional>
#include <string>

#include "smfem/asset/asset.hpp"
#include "smfem/displacement/basis_deformation.hpp"
#include "smfem/full/full_model.hpp"

namespace smfem::displacement {

struct DisplacementModel {
  full::FullModel mesh;
  BasisRows basis;                       // 3n x k
  std::optional<Quadrature> quadrature;  // none: exact integration
  std::string basis_name;                // meta "displacement"."basis"
};

// Whether the asset carries a displacement basis.
bool has_displacement_basis(const asset::Asset& asset);

// Reads the sections above; throws asset::AssetError naming the section at fault (shapes,
// dtypes, the mesh's checks, a missing basis: "bake with --comparison-basis"). The basis's and
// the cubature's values are checked by DisplacementSimulator, which refuses them with
// std::invalid_argument.
DisplacementModel load_displacement_model(const asset::Asset& asset);

}  // namespace smfem::displacement
