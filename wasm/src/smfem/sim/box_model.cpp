#include "smfem/sim/box_model.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "smfem/contact/contact_sampling.hpp"
#include "smfem/fem/linear_tet.hpp"

namespace smfem::sim {
namespace {

// Weight function i at scaled coordinates p: 1 (so that every affine map is in the subspace),
// then plane waves sin(f_i d_i . p + phase_i). Not polynomials: with polynomial weights the
// products W_i [X; 1] are linearly dependent (x times the constant mode's 1 equals 1 times a
// linear mode's x), and the reduced mass would be singular.
double weight(int i, const Eigen::Vector3d& p) {
  if (i == 0) return 1.0;
  // Every direction varies along x, the long axis: a wave along a short axis alone would take
  // only a few distinct values on a coarse grid and make modes dependent there.
  static constexpr int kDirections[kMaxBoxModes - 1][3] = {
      {1, 0, 0},  {1, 1, 0},  {1, 0, 1},   {1, -1, 0}, {1, 0, -1}, {1, 1, 1}, {1, -1, 1},
      {2, 1, 0},  {2, 0, 1},  {1, 1, -1},  {2, -1, 1}, {1, 2, 0},  {1, 0, 2}, {2, 1, 1},
      {1, -2, 0}, {1, 0, -2}, {2, -1, -1}, {1, 2, 1},  {3, 1, 0}};
  const int* d = kDirections[i - 1];
  const double frequency = 1.3 + 0.23 * i;
  const double phase = 0.7 * i;
  return std::sin(frequency * (d[0] * p.x() + d[1] * p.y() + d[2] * p.z()) + phase);
}

}  // namespace

BoxModelOptions synthetic_box_options(int mode_count, int cubature_count) {
  BoxModelOptions options;
  options.lower = Eigen::Vector3d(0.0, 0.0, 0.0);
  options.upper = Eigen::Vector3d(1.0, 0.4, 0.4);
  options.nx = 5;
  options.ny = options.nz = 2;
  // Refine (x by 5, y and z by 2 cubes each round) until the mesh has enough tets and vertices;
  // bounded, since make_box_model refuses absurd counts anyway.
  const auto vertices = [&] { return (options.nx + 1) * (options.ny + 1) * (options.nz + 1); };
  while (
      (6 * options.nx * options.ny * options.nz < cubature_count || vertices() < 4 * mode_count) &&
      options.nx < 1000) {
    options.nx += 5;
    options.ny += 2;
    options.nz += 2;
  }
  options.mode_count = mode_count;
  options.cubature_count = cubature_count;
  options.youngs[0] = 1e5;
  options.youngs[1] = 1e7;
  return options;
}

BoxModel make_box_model(const BoxModelOptions& options) {
  const int nx = options.nx, ny = options.ny, nz = options.nz;
  const int m = options.mode_count;
  const Eigen::Vector3d size = options.upper - options.lower;
  if (nx < 1 || ny < 1 || nz < 1) throw std::invalid_argument("box model: grid must be >= 1");
  if (m < 1 || m > kMaxBoxModes) {
    throw std::invalid_argument("box model: mode count " + std::to_string(m) + " is outside 1.." +
                                std::to_string(kMaxBoxModes));
  }
  if (!(size.minCoeff() > 0.0) || !size.allFinite()) {
    throw std::invalid_argument("box model: upper must exceed lower on every axis");
  }
  const int T = 6 * nx * ny * nz;
  if (options.cubature_count < 0 || options.cubature_count > T) {
    throw std::invalid_argument("box model: cubature count " +
                                std::to_string(options.cubature_count) + " is outside 0.." +
                                std::to_string(T));
  }

  BoxModel result;
  const auto vertex_id = [&](int i, int j, int k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
  const int nv = (nx + 1) * (ny + 1) * (nz + 1);
  result.rest.resize(nv, 3);
  for (int k = 0; k <= nz; ++k) {
    for (int j = 0; j <= ny; ++j) {
      for (int i = 0; i <= nx; ++i) {
        result.rest.row(vertex_id(i, j, k)) =
            (options.lower +
             Eigen::Vector3d(i * size.x() / nx, j * size.y() / ny, k * size.z() / nz))
                .transpose();
      }
    }
  }
  // Kuhn split: 6 tets per cube along the diagonal 000 -> 111, one per axis order.
  result.tets.resize(T, 4);
  const std::array<std::array<int, 3>, 6> orders = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  int t = 0;
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        for (const auto& order : orders) {
          std::array<int, 3> corner = {i, j, k};
          std::array<int, 4> tet;
          tet[0] = vertex_id(corner[0], corner[1], corner[2]);
          for (int step = 0; step < 3; ++step) {
            ++corner[static_cast<std::size_t>(order[static_cast<std::size_t>(step)])];
            tet[static_cast<std::size_t>(step + 1)] = vertex_id(corner[0], corner[1], corner[2]);
          }
          fem::TetCorners X;
          for (int c = 0; c < 4; ++c) X.row(c) = result.rest.row(tet[static_cast<std::size_t>(c)]);
          if (fem::linear_tet_volume(X) < 0) std::swap(tet[2], tet[3]);
          for (int c = 0; c < 4; ++c) result.tets(t, c) = tet[static_cast<std::size_t>(c)];
          ++t;
        }
      }
    }
  }

  const Eigen::Vector3d centre = 0.5 * (options.lower + options.upper);
  const Eigen::Vector3d half = 0.5 * size;
  Eigen::MatrixXd W(nv, m);
  result.basis.resize(nv, 4 * m);
  for (int v = 0; v < nv; ++v) {
    const Eigen::Vector3d X = result.rest.row(v).transpose();
    const Eigen::Vector3d p = (X - centre).cwiseQuotient(half);
    for (int i = 0; i < m; ++i) {
      W(v, i) = weight(i, p);
      result.basis.block<1, 3>(v, 4 * i) = W(v, i) * X.transpose();
      result.basis(v, 4 * i + 3) = W(v, i);
    }
  }

  // Per tet: volume, region and Y_t = sum_j b_j grad phi_j^T (4m x 3); lumped masses.
  result.vertex_mass.setZero(nv);
  std::vector<double> volume(static_cast<std::size_t>(T));
  std::vector<int> region(static_cast<std::size_t>(T));
  Eigen::MatrixXd Y_all(3 * T, 4 * m);
  for (int tet = 0; tet < T; ++tet) {
    fem::TetCorners X;
    for (int c = 0; c < 4; ++c) X.row(c) = result.rest.row(result.tets(tet, c));
    const auto index = static_cast<std::size_t>(tet);
    volume[index] = fem::linear_tet_volume(X);
    region[index] = X.col(0).mean() < centre.x() ? 0 : 1;
    const fem::TetCorners G = fem::linear_tet_dphi_dX(X);
    Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(4 * m, 3);
    for (int c = 0; c < 4; ++c) {
      const int v = result.tets(tet, c);
      Y += result.basis.row(v).transpose() * G.row(c);
      result.vertex_mass(v) += options.density * volume[index] / 4.0;
    }
    Y_all.middleRows(3 * tet, 3) = Y.transpose();
  }

  ReducedModel& model = result.model;
  model.source = "box model";
  model.eigenvalues = Eigen::VectorXd::LinSpaced(m, 0.0, double(m - 1));
  const int C = options.cubature_count == 0 ? T : options.cubature_count;
  std::vector<int> chosen(static_cast<std::size_t>(C));
  double chosen_volume = 0.0, total_volume = 0.0;
  for (int c = 0; c < C; ++c) {
    chosen[static_cast<std::size_t>(c)] =
        static_cast<int>(static_cast<long long>(c) * T / C);  // evenly spaced, all when C = T
    chosen_volume += volume[static_cast<std::size_t>(chosen[static_cast<std::size_t>(c)])];
  }
  for (double v : volume) total_volume += v;
  const double scale = C == T ? 1.0 : total_volume / chosen_volume;
  model.cubature_Y.resize(3 * C, 4 * m);
  model.cubature_weights.resize(C);
  model.cubature_youngs.resize(C);
  model.cubature_poisson.setConstant(C, options.poisson);
  model.cubature_region.resize(static_cast<std::size_t>(C));
  model.cubature_tets.resize(static_cast<std::size_t>(C));
  for (int c = 0; c < C; ++c) {
    const auto tet = static_cast<std::size_t>(chosen[static_cast<std::size_t>(c)]);
    model.cubature_Y.middleRows(3 * c, 3) = Y_all.middleRows(3 * static_cast<Eigen::Index>(tet), 3);
    model.cubature_weights(c) = scale * volume[tet];
    model.cubature_region[static_cast<std::size_t>(c)] = static_cast<std::uint32_t>(region[tet]);
    model.cubature_youngs(c) = options.youngs[region[tet]];
    model.cubature_tets[static_cast<std::size_t>(c)] = static_cast<std::uint32_t>(tet);
  }

  model.mass_block = result.basis.transpose() * result.vertex_mass.asDiagonal() * result.basis;
  model.mass_vector = result.basis.transpose() * result.vertex_mass;
  model.first_moment =
      (result.basis.transpose() * result.vertex_mass.asDiagonal() * result.rest).transpose();
  model.total_mass = result.vertex_mass.sum();
  model.rest_centroid = result.rest.transpose() * result.vertex_mass / model.total_mass;

  // Float in an asset: rounded here so that an asset round trip is exact.
  model.render_positions = result.rest.cast<float>().cast<double>();
  model.render_weights = W.cast<float>();
  if (options.contact_samples > 0) {
    model.contact = contact::sample_contact_surface(result.rest, W.cast<float>().cast<double>(),
                                                    result.tets, options.contact_samples);
  }
  return result;
}

Eigen::MatrixXd box_vertex_positions(const BoxModel& box, const ReducedMatrix& U) {
  return Eigen::MatrixXd(box.rest) + box.basis * U;
}

}  // namespace smfem::sim
