#pragma once
// A body's contact geometry in its rest frame (assets/FORMAT.md, contact.*): the collision
// surface (the boundary of the simulation mesh, skinned by the same weights as everything
// else; the bake simplifies it, bake/collision_surface.hpp) and the contact samples, a
// well-spread subset of the boundary's vertices with the surface area each stands for. In reduced
// coordinates vertex v moves to x_v = X_v + U^T b_v, b_v[4i + k] = W_vi [X_v; 1]_k
// (sim/model/reduced_model.hpp).
#include <vector>

#include <Eigen/Core>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_writer.hpp"

namespace smfem::contact {

using SurfacePositions = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
using SurfaceTriangles = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;
// Rows b_v of surface vertices, each contiguous (sim/kernels/detail/reduced_dot.hpp reads them).
using SurfaceBasis = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct ContactSurface {
  SurfacePositions positions;  // ns x 3, rest
  // ns x m; where several bodies make one surface (part_first_mode below), ns x the most modes
  // of one body, row v holding its own body's weights only.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights;
  SurfaceTriangles triangles;  // nt x 3, outward (counter-clockwise seen from outside)
  Eigen::VectorXi samples;     // n, vertex ids
  Eigen::VectorXd areas;       // n, m^2
  // The body each vertex belongs to, where several bodies make one model
  // (multibody/composite_model.hpp); empty: all one body. Samples touch only other bodies'
  // triangles.
  Eigen::VectorXi part;
  // With part: each part's first mode in the whole model, whose modes number mode_count. A
  // vertex's weights are zero outside its own body's modes, so row v of weights holds just
  // those: the whole ns x m was nearly all zeros (27 MB for 30 jelly cubes, and allocating it
  // half of the time an island of them took to build). Empty for one body.
  std::vector<int> part_first_mode;
  int mode_count = 0;

  bool empty() const { return samples.size() == 0; }
  // The modes of the model the surface moves with (m).
  int modes() const {
    return part_first_mode.empty() ? static_cast<int>(weights.cols()) : mode_count;
  }
  // W_v,mode: vertex v's weight of mode `mode` of the whole model.
  double weight(Eigen::Index v, int mode) const {
    if (part_first_mode.empty()) return weights(v, mode);
    const int column = mode - part_first_mode[static_cast<std::size_t>(part(v))];
    return column >= 0 && column < weights.cols() ? weights(v, column) : 0.0;
  }
  // The mode column `column` of row v of weights stands for.
  int mode_of_column(Eigen::Index v, int column) const {
    return part_first_mode.empty() ? column
                                   : part_first_mode[static_cast<std::size_t>(part(v))] + column;
  }
};

// The asset's contact group (assets/FORMAT.md, "Contact group"; reduced_model.hpp lists it),
// for m modes; throws asset::AssetError naming the section whose dtype or shape is wrong (the
// values are checked with the whole model, check_reduced_model).
ContactSurface read_contact_surface(const asset::Asset& asset, Eigen::Index m);
// Adds the group to an asset being written (nothing for an empty surface); a surface of several
// bodies (an island's) has no place in an asset: std::invalid_argument.
void add_contact_surface(asset::AssetWriter& writer, const ContactSurface& surface);

// b_v's entries for modes [first_mode, first_mode + modes) into out[0 .. 4 modes): out[4i + k] =
// W_v,first_mode+i [X_v; 1]_k. Where several bodies make one surface, a vertex's b_v is zero
// outside its own body's modes, so that range is all of it.
void surface_basis_row(const ContactSurface& surface, Eigen::Index v, int first_mode, int modes,
                       double* out);
// The basis rows b_v of every surface vertex (ns x 4m).
SurfaceBasis surface_basis(const ContactSurface& surface);

}  // namespace smfem::contact
