#include "smfem/local/local_deformations.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Geometry>  // AngleAxisd
#include <Eigen/LU>        // determinant()

#include "smfem/energies/lame.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/local/basis_change.hpp"
#include "smfem/local/half_space.hpp"
#include "smfem/local/patch_grouping.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/sim/kernels/detail/reduced_dot.hpp"

namespace smfem::local {
namespace {

full::FullModel checked(const sim::ReducedModel& model, full::FullModel mesh) {
  if (model.bodies.size() > 1) {
    throw std::invalid_argument("local deformations: a model of one body only");
  }
  if (const auto problem = full::check_full_model(mesh)) {
    throw std::invalid_argument("local deformations: the asset's mesh: " + problem->section + ": " +
                                problem->problem);
  }
  if (mesh.weights.rows() != mesh.vertex_count() || mesh.weights.cols() != model.mode_count()) {
    throw std::invalid_argument(
        "local deformations need the asset's mesh with its skinning weights (smfem-bake "
        "--full-mesh): " +
        std::to_string(mesh.weights.cols()) + " weights per vertex, the model has " +
        std::to_string(model.mode_count()) + " modes");
  }
  return mesh;
}

double mean_tet_volume(const full::FullModel& mesh) {
  double volume = 0.0;
  for (int t = 0; t < mesh.tet_count(); ++t) {
    volume += fem::linear_tet_volume(full::tet_corners(mesh, t));
  }
  return volume / mesh.tet_count();
}

}  // namespace

LocalDeformations::LocalDeformations(const sim::ReducedModel& model, full::FullModel mesh,
                                     sim::MaterialModel material, sim::Dynamics& dynamics,
                                     sim::ReducedSystem& system, parallel::ThreadPool& pool)
    : model_(model),
      mesh_(checked(model, std::move(mesh))),
      global_dynamics_(dynamics),
      body_system_(system),
      pool_(pool),
      material_(material),
      vertex_mass_(full::lumped_vertex_mass(mesh_)) {
  const geometry::BoundaryFaces boundary =
      geometry::boundary_faces(mesh_.tets, mesh_.vertex_count());
  surface_.resize(boundary.triangles.rows(), 3);
  for (Eigen::Index f = 0; f < boundary.triangles.rows(); ++f) {
    for (int k = 0; k < 3; ++k) surface_(f, k) = boundary.vertex(boundary.triangles(f, k));
  }
  surface_vertices_.assign(boundary.vertex.data(), boundary.vertex.data() + boundary.vertex.size());
  support_ = support_radius(model_.mode_count(), mean_tet_volume(mesh_));
  vertex_modulus_ = vertex_plane_strain_modulus(mesh_);
  surface_neighbours_ = SurfaceNeighbours(surface_, mesh_.vertex_count());
  for (int t = 0; t < mesh_.tet_count(); ++t) {
    mesh_lame_.push_back(energies::lame_from_young_poisson(mesh_.youngs(t), mesh_.poisson(t)));
  }
  install(patch_set_for({}));
}

LocalDeformations::~LocalDeformations() = default;

int LocalDeformations::nearest_surface_vertex(const Eigen::Vector3d& rest) const {
  int nearest = surface_vertices_.front();
  double best = (mesh_.positions.row(nearest).transpose() - rest).squaredNorm();
  for (const int v : surface_vertices_) {
    const double distance = (mesh_.positions.row(v).transpose() - rest).squaredNorm();
    if (distance < best) nearest = v, best = distance;
  }
  return nearest;
}

bool LocalDeformations::drag_dents(int vertex, double stiffness) const {
  double area = 0.0;  // the vertex's third of each surface triangle it is a corner of
  for (Eigen::Index f = 0; f < surface_.rows(); ++f) {
    const auto row = surface_.row(f);
    if (row(0) != vertex && row(1) != vertex && row(2) != vertex) continue;
    const Eigen::Vector3d a = mesh_.positions.row(row(0)).transpose();
    const Eigen::Vector3d b = mesh_.positions.row(row(1)).transpose();
    const Eigen::Vector3d c = mesh_.positions.row(row(2)).transpose();
    area += (b - a).cross(c - a).norm() / 6.0;
  }
  constexpr double kPi = 3.141592653589793;
  const double body = kPi * std::sqrt(area / kPi) * vertex_modulus_(vertex) / 2.0;
  if (!(stiffness > 0.0 && stiffness >= kDragDentShare * (stiffness + body))) return false;
  const double stiffest =
      stiffest_plane_strain_modulus(mesh_, mesh_.positions.row(vertex).transpose(), support_);
  return stiffest <= kUniformSupport * vertex_modulus_(vertex);
}

std::unique_ptr<PatchSet> LocalDeformations::patch_set_for(const std::vector<int>& loaded) const {
  std::vector<PatchSupport> supports;
  if (!loaded.empty()) {
    const std::vector<LoadPatch> grouped = group_into_patches(
        mesh_.positions, surface_, loaded, kPatchesPerMode * model_.mode_count());
    for (const LoadPatch& patch : grouped) {
      // Paper 001's radius beyond the patch's farthest vertex: a contact spread wider than the
      // radius (a face resting on the floor, a deep press) is still all inside its support.
      double extent = 0.0;
      for (const int v : patch.vertices) {
        extent = std::max(extent, (mesh_.positions.row(v).transpose() - patch.centre).norm());
      }
      supports.push_back(patch_support(mesh_, vertex_mass_, patch, support_ + extent));
    }
  }
  const int P = static_cast<int>(supports.size());
  return std::make_unique<PatchSet>(std::move(supports), sim::cubature_width(model_),
                                    kSamplesPerPatch * P);
}

std::unique_ptr<PatchSet> LocalDeformations::install(std::unique_ptr<PatchSet> set) {
  // The old pieces refer to the old set: gone before it.
  system_.reset();
  dynamics_.reset();
  deformation_.reset();
  std::unique_ptr<PatchSet> old = std::move(patches_);
  patches_ = std::move(set);
  ++patch_sets_made_;
  const int P = patches_->patch_count();
  dynamics_ = std::make_unique<LocalDynamics>(global_dynamics_, *patches_);
  const int C = model_.cubature_count(), S = patches_->tet_count();
  std::vector<sim::Lame> patch_lame;
  for (int e = 0; e < S; ++e) {
    patch_lame.push_back(mesh_lame_[static_cast<std::size_t>(patches_->mesh_tet(e))]);
  }
  system_ = std::make_unique<LocalSystem>(body_system_, C, *dynamics_);
  deformation_ = std::make_unique<ExtendedDeformation>(model_, *patches_);
  fem_ = std::make_unique<sim::FemStep>(patches_->rows(), C + S);
  mfem_ = std::make_unique<sim::MfemStep>(patches_->rows(), C + S);
  weights_.resize(C + S);
  weights_.head(C) = model_.cubature_weights;
  weights_.tail(S) = patches_->weights();
  lame_.resize(static_cast<std::size_t>(C));  // the cubature's: set_cubature_lame
  lame_.insert(lame_.end(), patch_lame.begin(), patch_lame.end());
  local_force_.setZero(P, 3);
  update_spring_fields();
  link_contact();
  return old;
}

void LocalDeformations::link_contact() {
  if (contact_ == nullptr) return;
  contact_->set_patches(*patches_);
  system_->set_contact(contact_.get());
}

void LocalDeformations::set_contact(contact::ContactPotential* body,
                                    const contact::ContactSurface& surface) {
  if (body == nullptr) {
    if (system_ != nullptr) system_->set_contact(nullptr);
    contact_.reset();
    contact_loads_.clear();
    denting_loads_.clear();
    return;
  }
  const Eigen::Vector3d extent =
      mesh_.positions.colwise().maxCoeff() - mesh_.positions.colwise().minCoeff();
  const double tolerance = 1e-6 * extent.norm();
  std::vector<int> sample_vertex;
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    const Eigen::Vector3d rest = surface.positions.row(surface.samples(k)).transpose();
    const int v = nearest_surface_vertex(rest);
    const double off = (mesh_.positions.row(v).transpose() - rest).norm();
    if (off > tolerance) {
      throw std::invalid_argument(
          "local deformations: contact sample " + std::to_string(k) + " is " + std::to_string(off) +
          " m from the nearest vertex of the mesh's surface (the asset's contact surface and mesh "
          "do not agree; bake both with smfem-bake --full-mesh)");
    }
    sample_vertex.push_back(v);
  }
  auto next = std::make_unique<LocalContact>(*body, surface, std::move(sample_vertex));
  contact_ = std::move(next);
  link_contact();
}

void LocalDeformations::set_contact_loads(const std::vector<ContactLoad>& loads) {
  contact_loads_.clear();
  for (const ContactLoad& load : loads) contact_loads_.push_back(load.vertex);
  std::sort(contact_loads_.begin(), contact_loads_.end());
  contact_loads_.erase(std::unique(contact_loads_.begin(), contact_loads_.end()),
                       contact_loads_.end());
  std::vector<int> patched;
  for (int p = 0; p < patch_count(); ++p) {
    const std::vector<int>& vertices = patches_->patch(p).patch.vertices;
    patched.insert(patched.end(), vertices.begin(), vertices.end());
  }
  std::sort(patched.begin(), patched.end());
  denting_loads_ = denting_loads(loads, surface_neighbours_, vertex_modulus_,
                                 contact_ != nullptr ? contact_->dhat() : 0.0, patched);
}

void LocalDeformations::set_material(sim::MaterialModel material) { material_ = material; }

void LocalDeformations::set_loaded(std::vector<int> loaded, sim::ReducedMatrix& U,
                                   sim::ReducedMatrix& Udot, PatchState& state) {
  std::sort(loaded.begin(), loaded.end());
  loaded.erase(std::unique(loaded.begin(), loaded.end()), loaded.end());
  for (const int v : loaded) {
    if (!std::binary_search(surface_vertices_.begin(), surface_vertices_.end(), v)) {
      throw std::invalid_argument("local deformations: vertex " + std::to_string(v) +
                                  " is not on the mesh's surface");
    }
  }
  if (loaded == state.loaded && state.C.rows() == patch_count()) return;
  // The new set first: where it cannot be made, nothing has changed.
  std::unique_ptr<PatchSet> next = patch_set_for(loaded);
  // From the old basis under the rotations the state was stepped with, to the new one under the
  // rotations at U.
  sim::ReducedMatrix U_old, Udot_old;
  gather(U, state.C, U_old);
  gather(Udot, state.Cdot, Udot_old);
  const std::unique_ptr<PatchSet> old = install(std::move(next));
  patches_->set_rotations(U);
  if (contact_ != nullptr) contact_->turn_fields();
  const sim::ReducedMatrix U_new = project_coordinates(*old, U_old, *patches_, model_.mass_block);
  const sim::ReducedMatrix Udot_new =
      project_coordinates(*old, Udot_old, *patches_, model_.mass_block);
  scatter(U_new, U, state.C);
  scatter(Udot_new, Udot, state.Cdot);
  // A vertex still loaded keeps its time unloaded: a new load elsewhere does not hold a leaving
  // patch back.
  std::vector<double> unloaded_for;
  for (const int v : loaded) {
    const auto at = std::lower_bound(state.loaded.begin(), state.loaded.end(), v);
    const bool kept = at != state.loaded.end() && *at == v;
    unloaded_for.push_back(
        kept ? state.unloaded_for[static_cast<std::size_t>(at - state.loaded.begin())] : 0.0);
  }
  state.loaded = std::move(loaded);
  state.unloaded_for = std::move(unloaded_for);
  state.z.setZero(6, patches_->tet_count());
  state.lambda.setZero(6, patches_->tet_count());
  state.rotations = rotations();
}

std::vector<Eigen::Matrix3d> LocalDeformations::rotations() const {
  std::vector<Eigen::Matrix3d> rotations;
  for (int p = 0; p < patch_count(); ++p) rotations.push_back(patches_->rotation(p));
  return rotations;
}

void LocalDeformations::check_rotations(const std::vector<Eigen::Matrix3d>& rotations,
                                        Eigen::Index count) {
  if (static_cast<Eigen::Index>(rotations.size()) != count) {
    throw std::invalid_argument("local deformations: " + std::to_string(rotations.size()) +
                                " rotations for " + std::to_string(count) + " patches");
  }
  for (std::size_t p = 0; p < rotations.size(); ++p) {
    const Eigen::Matrix3d& R = rotations[p];
    if (!R.allFinite() || !(R.transpose() * R).isIdentity(1e-9) ||
        !(std::abs(R.determinant() - 1.0) < 1e-9)) {
      throw std::invalid_argument("local deformations: patch " + std::to_string(p) +
                                  "'s rotation is not a rotation");
    }
  }
}

void LocalDeformations::set_rotations(const std::vector<Eigen::Matrix3d>& rotations) {
  check_rotations(rotations, patch_count());
  patches_->set_rotations(rotations);
  if (contact_ != nullptr) contact_->turn_fields();
}

void LocalDeformations::set_cubature_lame(const std::vector<sim::Lame>& cubature_lame) {
  std::copy(cubature_lame.begin(), cubature_lame.end(), lame_.begin());
}

void LocalDeformations::set_spring_vertex(int vertex) {
  spring_vertex_ = vertex;
  update_spring_fields();
}

void LocalDeformations::update_spring_fields() {
  std::vector<Eigen::Matrix3d> fields;
  for (int p = 0; p < patch_count(); ++p) {
    fields.push_back(spring_vertex_ < 0 ? Eigen::Matrix3d::Zero()
                                        : field_at_vertex(patches_->patch(p), spring_vertex_));
  }
  dynamics_->set_spring_fields(fields);
}

void LocalDeformations::gather(const sim::ReducedMatrix& U, const sim::ReducedMatrix& C,
                               sim::ReducedMatrix& extended) const {
  extended.resize(patches_->rows(), 3);
  extended.topRows(U.rows()) = U;
  extended.bottomRows(patch_count()) = C;
}

void LocalDeformations::scatter(const sim::ReducedMatrix& extended, sim::ReducedMatrix& U,
                                sim::ReducedMatrix& C) const {
  U = extended.topRows(patches_->global_rows());
  C = extended.bottomRows(patch_count());
}

void LocalDeformations::gather_tets(const sim::StretchField& cubature,
                                    const sim::StretchField& patches,
                                    sim::StretchField& extended) const {
  extended.resize(6, cubature.cols() + patches.cols());
  extended.leftCols(cubature.cols()) = cubature;
  extended.rightCols(patches.cols()) = patches;
}

void LocalDeformations::scatter_tets(const sim::StretchField& extended, sim::StretchField& cubature,
                                     sim::StretchField& patches) const {
  cubature = extended.leftCols(model_.cubature_count());
  patches = extended.rightCols(patches_->tet_count());
}

bool LocalDeformations::begin_step(sim::ReducedMatrix& U_n, sim::ReducedMatrix& Udot_n,
                                   PatchState& state, const sim::ReducedMatrix& force,
                                   const Eigen::Vector3d& gravity,
                                   const std::vector<sim::Lame>& cubature_lame) {
  set_cubature_lame(cubature_lame);
  std::vector<Eigen::Matrix3d> before = rotations();
  sim::ReducedMatrix U_extended, Udot_extended;
  gather(U_n, state.C, U_extended);
  gather(Udot_n, state.Cdot, Udot_extended);
  const std::vector<Eigen::Matrix3d> turned = patches_->rotations_at(U_n);
  bool turn = false;
  for (std::size_t p = 0; p < turned.size(); ++p) {
    turn = turn || Eigen::AngleAxisd(turned[p] * before[p].transpose()).angle() > kTurnTolerance;
  }
  if (!turn) {
    start_dynamics(U_extended, Udot_extended, force, gravity);
    return false;
  }
  // The projection moves what the turned basis cannot hold, and a sample near an obstacle can land
  // in it (a block sliding on the floor at 2 iterations did, and every later step was stuck): a
  // turn that keeps less than CCD's share of the closest distance waits for a later step, the
  // rotations and the state as they were (a valid basis still, only less aligned).
  const sim::ReducedMatrix U_unturned = U_extended, Udot_unturned = Udot_extended;
  double unturned = 0.0;
  if (contact_ != nullptr) {
    contact_->turn_fields();
    unturned = contact_->measure(U_unturned).min_distance;
  }
  patches_->set_rotations(turned);
  project_across_rotations(*patches_, before, U_extended, Udot_extended, model_.mass_block);
  bool kept = true;
  if (contact_ != nullptr) {
    contact_->turn_fields();
    if (contact_->measure(U_extended).min_distance < contact_->keep() * unturned) {
      patches_->set_rotations(std::move(before));
      U_extended = U_unturned;
      Udot_extended = Udot_unturned;
      kept = false;
    }
  }
  scatter(U_extended, U_n, state.C);
  scatter(Udot_extended, Udot_n, state.Cdot);
  state.rotations = rotations();
  start_dynamics(U_extended, Udot_extended, force, gravity);
  return kept;
}

void LocalDeformations::start_dynamics(const sim::ReducedMatrix& U_extended,
                                       const sim::ReducedMatrix& Udot_extended,
                                       const sim::ReducedMatrix& force,
                                       const Eigen::Vector3d& gravity) {
  local_force_ = patches_->gravity_force(gravity);
  dynamics_->begin_step(U_extended, Udot_extended, force, local_force_);
  if (contact_ != nullptr) contact_->begin_step(U_extended);
}

sim::StepContext LocalDeformations::context(const sim::SolverSettings& attempt) {
  return {*deformation_, weights_, material_, lame_,         attempt,
          *dynamics_,    *system_, pool_,     contact_.get()};
}

double LocalDeformations::step_energy(const sim::ReducedMatrix& U_extended) {
  const int tets = model_.cubature_count() + patches_->tet_count();
  std::vector<double> elastic(static_cast<std::size_t>(tets));
  sim::parallel_for_tets(pool_, tets, [&](int t) {
    const Vector6<double> s = polar::symmetric_stretch(Matrix3<double>(
        Matrix3<double>::Identity() + deformation_->displacement_gradient(t, U_extended)));
    elastic[static_cast<std::size_t>(t)] =
        weights_(t) * sim::psi(material_, s, lame_[static_cast<std::size_t>(t)]);
  });
  double energy = dynamics_->energy(U_extended);
  for (const double e : elastic) energy += e;
  if (contact_ != nullptr) energy += contact_->energy(U_extended);
  return energy;
}

double LocalDeformations::kinetic_energy(const sim::ReducedMatrix& Udot_extended) const {
  const int n = patches_->global_rows(), P = patch_count();
  Eigen::VectorXd cdot(3 * P);
  for (int p = 0; p < P; ++p) cdot.segment<3>(3 * p) = Udot_extended.row(n + p).transpose();
  double energy = 0.5 * cdot.dot(patches_->local_mass() * cdot);
  for (int d = 0; d < 3; ++d) {
    energy += Udot_extended.col(d).head(n).dot(patches_->coupling(d) * cdot);
  }
  return energy;
}

double LocalDeformations::elastic_energy(const sim::StretchField& patch_stretch) const {
  const int C = model_.cubature_count();
  double energy = 0.0;
  for (int e = 0; e < patches_->tet_count(); ++e) {
    energy += patches_->weight(e) * sim::psi(material_, Vector6<double>(patch_stretch.col(e)),
                                             lame_[static_cast<std::size_t>(C + e)]);
  }
  return energy;
}

double LocalDeformations::spring_energy(const sim::ReducedMatrix& U_extended) {
  return dynamics_->spring_energy(U_extended);
}

void LocalDeformations::add_to_diagnostics(const sim::ReducedMatrix& U_extended,
                                           const sim::ReducedMatrix& Udot_extended,
                                           const sim::StretchField& patch_stretch,
                                           const sim::StretchField& patch_z,
                                           const Eigen::Vector3d& gravity,
                                           sim::Diagnostics& diagnostics) {
  if (patch_count() == 0) return;
  const int n = patches_->global_rows();
  const double kinetic = kinetic_energy(Udot_extended);
  const double elastic = elastic_energy(patch_stretch);
  const double stretch = elastic_energy(patch_z);
  // The dent's vertices' displacement and velocity, mass-weighted: sum_p R_p weight_p c_p.
  Eigen::Vector3d moment = Eigen::Vector3d::Zero(), momentum = Eigen::Vector3d::Zero();
  for (int p = 0; p < patch_count(); ++p) {
    const Eigen::Matrix3d turned = patches_->rotation(p) * patches_->patch(p).weight;
    moment += turned * U_extended.row(n + p).transpose();
    momentum += turned * Udot_extended.row(n + p).transpose();
  }
  const double gravity_potential = -gravity.dot(moment);
  const double spring = spring_energy(U_extended) - diagnostics.spring_energy;
  diagnostics.kinetic_energy += kinetic;
  diagnostics.elastic_energy += elastic;
  diagnostics.stretch_energy += stretch;
  diagnostics.gravity_potential += gravity_potential;
  diagnostics.spring_energy += spring;
  diagnostics.total_energy += kinetic + elastic + gravity_potential + spring;
  diagnostics.linear_momentum += momentum;
  diagnostics.angular_momentum += dent_angular_momentum(U_extended, Udot_extended);
  diagnostics.centroid += moment / vertex_mass_.sum();
}

Eigen::Vector3d LocalDeformations::dent_angular_momentum(
    const sim::ReducedMatrix& U_extended, const sim::ReducedMatrix& Udot_extended) const {
  // Per vertex the patches reach: x = X + U^T b where the global modes put it, its velocity, and
  // its dent l = sum_p l_p, l_p = R_p B_p c_p (a vertex may be in several patches' reach), with
  // its velocity. The dent adds m (x x ldot + l x xdot + l x ldot) to the global modes'
  // m x x xdot: patch by patch, the terms linear in the dent and each patch's l_p x ldot_p, and
  // over the vertices two patches share, l_p x ldot_q + l_q x ldot_p. The global motion of a
  // support's vertices is three dot products a basis row with U and with Udot (detail/
  // reduced_dot.hpp: Eigen's products have no wasm vectors, 5 % of the resting bunny's steps in
  // wasm with 18 patches).
  const int n = patches_->global_rows();
  const int P = patch_count();
  std::vector<Eigen::Matrix<double, Eigen::Dynamic, 3>> dent(static_cast<std::size_t>(P)),
      dent_rate(static_cast<std::size_t>(P));
  Eigen::Vector3d share = Eigen::Vector3d::Zero();
  for (int p = 0; p < P; ++p) {
    const PatchSupport& support = patches_->patch(p);
    const auto count = static_cast<Eigen::Index>(support.vertices.size());
    const Eigen::Matrix3d& R = patches_->rotation(p);
    const Eigen::Vector3d c = U_extended.row(n + p).transpose();
    const Eigen::Vector3d cdot = Udot_extended.row(n + p).transpose();
    Eigen::Matrix<double, Eigen::Dynamic, 3>& l = dent[static_cast<std::size_t>(p)];
    Eigen::Matrix<double, Eigen::Dynamic, 3>& ldot = dent_rate[static_cast<std::size_t>(p)];
    l.resize(count, 3);
    ldot.resize(count, 3);
    for (Eigen::Index k = 0; k < count; ++k) {
      const Eigen::Matrix3d& field = support.fields[static_cast<std::size_t>(k)];
      l.row(k) = (R * (field * c)).transpose();
      ldot.row(k) = (R * (field * cdot)).transpose();
      const Eigen::Vector3d at =
          mesh_.positions.row(support.vertices[static_cast<std::size_t>(k)]).transpose() +
          sim::detail::reduced_dot(&support.basis(k, 0), U_extended, 0, n);
      const Eigen::Vector3d xdot =
          sim::detail::reduced_dot(&support.basis(k, 0), Udot_extended, 0, n);
      const Eigen::Vector3d lk = l.row(k).transpose(), ldotk = ldot.row(k).transpose();
      share += support.mass(k) * (at.cross(ldotk) + lk.cross(xdot) + lk.cross(ldotk));
    }
  }
  for (int p = 0; p < P; ++p) {
    const auto& lp = dent[static_cast<std::size_t>(p)];
    const auto& ldp = dent_rate[static_cast<std::size_t>(p)];
    for (int q = 0; q < p; ++q) {
      const auto& lq = dent[static_cast<std::size_t>(q)];
      const auto& ldq = dent_rate[static_cast<std::size_t>(q)];
      for_each_shared_vertex(
          patches_->patch(p), patches_->patch(q), [&](Eigen::Index i, Eigen::Index j) {
            share += patches_->patch(p).mass(i) *
                     (Eigen::Vector3d(lp.row(i)).cross(Eigen::Vector3d(ldq.row(j))) +
                      Eigen::Vector3d(lq.row(j)).cross(Eigen::Vector3d(ldp.row(i))));
          });
    }
  }
  return share;
}

int LocalDeformations::covering_patch(int vertex) const {
  const Eigen::Vector3d at = mesh_.positions.row(vertex).transpose();
  for (int p = 0; p < patch_count(); ++p) {
    if ((at - patches_->patch(p).patch.centre).norm() < kCoveredRadius * support_) return p;
  }
  return -1;
}

std::vector<int> LocalDeformations::still_loaded(PatchState& state, double timestep) const {
  // A patch is pulled by a load on one of its vertices or one it covers.
  std::vector<char> covers_load(static_cast<std::size_t>(patch_count()), 0);
  for (const int v : contact_loads_) {
    const int p = covering_patch(v);
    if (p >= 0) covers_load[static_cast<std::size_t>(p)] = 1;
  }
  std::vector<int> kept;
  for (int p = 0; p < patch_count(); ++p) {
    const std::vector<int>& vertices = patches_->patch(p).patch.vertices;
    const bool pulled = covers_load[static_cast<std::size_t>(p)] ||
                        std::any_of(vertices.begin(), vertices.end(), [&](int v) {
                          return v == spring_vertex_ || std::binary_search(contact_loads_.begin(),
                                                                           contact_loads_.end(), v);
                        });
    const bool moving = state.Cdot.row(p).norm() >= kLeavingSpeed;
    for (const int v : vertices) {
      const auto at = std::lower_bound(state.loaded.begin(), state.loaded.end(), v);
      double& unloaded = state.unloaded_for[static_cast<std::size_t>(at - state.loaded.begin())];
      unloaded = pulled ? 0.0 : unloaded + timestep;
      if (pulled || (moving && unloaded < kLeavingTime)) kept.push_back(v);
    }
  }
  if (spring_vertex_ >= 0) kept.push_back(spring_vertex_);
  for (const int v : denting_loads_) {
    const bool patched = std::binary_search(state.loaded.begin(), state.loaded.end(), v);
    if (patched || covering_patch(v) < 0) kept.push_back(v);
  }
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  return kept;
}

}  // namespace smfem::local
