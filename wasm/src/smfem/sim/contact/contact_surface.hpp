#pragma once
// A body's contact geometry in its rest frame (assets/FORMAT.md, contact.*): the collision
// surface (the boundary of the simulation mesh, skinned by the same weights as everything
// else; the bake simplifies it, bake/collision_surface.hpp) and the contact samples, a
// well-spread subset of the boundary's vertices with the surface area each stands for. In reduced
// coordinates vertex v moves to x_v = X_v + U^T b_v, b_v[4i + k] = W_vi [X_v; 1]_k
// (sim/model/reduced_model.hpp).
#include <Eigen/Core>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_writer.hpp"

namespace smfem::contact {

using SurfacePositions = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
using SurfaceTriangles = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;
// Rows b_v of surface vertices, each contiguous (sim/kernels/detail/reduced_dot.hpp reads them).
using SurfaceBasis = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct ContactSurface {
  SurfacePositions positions;                                                      // ns x 3, rest
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights;  // ns x m
  SurfaceTriangles triangles;  // nt x 3, outward (counter-clockwise seen from outside)
  Eigen::VectorXi samples;     // n, vertex ids
  Eigen::VectorXd areas;       // n, m^2
  // The body each vertex belongs to, where several bodies make one model
  // (multibody/composite_model.hpp); empty: all one body. Samples touch only other bodies'
  // triangles.
  Eigen::VectorXi part;

  bool empty() const { return samples.size() == 0; }
};

// The asset's contact group (assets/FORMAT.md, "Contact group"; reduced_model.hpp lists it),
// for m modes; throws asset::AssetError naming the section whose dtype or shape is wrong (the
// values are checked with the whole model, check_reduced_model).
ContactSurface read_contact_surface(const asset::Asset& asset, Eigen::Index m);
// Adds the group to an asset being written (nothing for an empty surface).
void add_contact_surface(asset::AssetWriter& writer, const ContactSurface& surface);

// b_v's entries for modes [first_mode, first_mode + modes) into out[0 .. 4 modes): out[4i + k] =
// W_v,first_mode+i [X_v; 1]_k. Where several bodies make one surface, a vertex's b_v is zero
// outside its own body's modes, so that range is all of it.
void surface_basis_row(const ContactSurface& surface, Eigen::Index v, int first_mode, int modes,
                       double* out);
// The basis rows b_v of every surface vertex (ns x 4m).
SurfaceBasis surface_basis(const ContactSurface& surface);

}  // namespace smfem::contact
