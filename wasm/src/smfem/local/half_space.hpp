#pragma once
// The displacement of a homogeneous, isotropic, linear elastic half-space under a point force on
// its surface: Boussinesq's solution for the normal force, Cerruti's for a tangential one (K. L.
// Johnson, Contact Mechanics, 1985, eqs. 3.19 and 3.86a, written in one tensor here). Paper 001
// (Harmon and Zorin 2013, section 4.1) builds its local basis functions from them: three per
// loaded surface point, one per direction of the force, in the frame of the surface normal.
// Paper 001's printed Cerruti solution (its eqs. 8 and 9) is garbled; these are checked by the
// tests instead (tests/native/local/half_space_test.cpp): the fields solve Navier's equations
// (the divergence of their stress vanishes), leave the surface free of traction away from the
// load, balance the load on any hemisphere around it, and obey Maxwell-Betti reciprocity.
//
// Frame: the force acts at the origin; the body is z >= 0 (z is the depth: the inward normal),
// x and y lie in the surface.
#include <Eigen/Core>

namespace smfem::local {

// Shear modulus G > 0 (Pa) and Poisson's ratio nu in (-1, 0.5].
struct HalfSpaceMaterial {
  double shear = 0.0;
  double poisson = 0.0;
};

// The Green's tensor at p: column j is the displacement (m) at p per newton of force along axis j
// at the origin (columns x and y: Cerruti's tangential forces; column z: Boussinesq's normal force,
// pushing into the body). It decays as 1 / |p|. Defined wherever rho + z > 0 (rho = |p|): the
// closed half-space without the origin, and its smooth continuation to points above the surface
// except on the negative z axis (where it is singular, and large near it). Throws
// std::invalid_argument there, at the origin, for non-finite points, or for a material out of
// range.
Eigen::Matrix3d point_load_response(const Eigen::Vector3d& p, const HalfSpaceMaterial& material);

// The truncation of a local basis function: 1 at the centre, 0 from `outer` on, and between them
// 1 minus the quintic smoothstep of distance / outer (continuous with its first and second
// derivatives, flat at both ends). Paper 001 keeps 1 up to "e.g." 0.9 outer and tapers in the last
// tenth; the steep taper's strain costs energy that stiffens the dent the fields exist to show
// (a pressed block, tests/native/local/local_step_test.cpp, docs/local.md: 0.33-0.46 as deep as
// the whole mesh's with that taper, 0.78-0.83 with this one). outer > 0.
double truncation_weight(double distance, double outer);

// Paper 001's outer radius, (r^2 mean_element_volume)^(1/3) for a subspace of r global modes: a
// sphere of it holds O(r^2) elements of the mesh's mean volume (4 pi / 3 r^2 of them). It
// shrinks as the mesh is refined, below a patch's own size on fine meshes (docs/local.md).
double support_radius(int modes, double mean_element_volume);

}  // namespace smfem::local
