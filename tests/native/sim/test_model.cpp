#include "sim/test_model.hpp"

#include <array>
#include <random>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/fem/linear_tet.hpp"

namespace smfem::sim::test {
namespace {

// Weight function i at scaled coordinates p (centred on the box, unit half-extent).
double weight(int i, const Eigen::Vector3d& p) {
  switch (i) {
    case 0:
      return 1.0;
    case 1:
      return p.x();
    case 2:
      return p.y();
    case 3:
      return p.z();
    case 4:
      return p.x() * p.x();
    case 5:
      return p.y() * p.y();
    case 6:
      return p.z() * p.z();
    case 7:
      return p.x() * p.y();
    case 8:
      return p.y() * p.z();
    default:
      return p.z() * p.x();
  }
}

}  // namespace

TestModel make_test_model(const TestModelOptions& options) {
  TestModel result;
  const int nx = options.nx, ny = options.ny, nz = options.nz;
  const int m = options.mode_count;
  const auto vertex_id = [&](int i, int j, int k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
  const int nv = (nx + 1) * (ny + 1) * (nz + 1);
  result.rest.resize(nv, 3);
  const Eigen::Vector3d size = options.upper - options.lower;
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
  std::vector<std::array<int, 4>> tets;
  const std::array<std::array<int, 3>, 6> orders = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
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
          for (int corner_index = 0; corner_index < 4; ++corner_index) {
            X.row(corner_index) = result.rest.row(tet[static_cast<std::size_t>(corner_index)]);
          }
          if (fem::linear_tet_volume(X) < 0) std::swap(tet[2], tet[3]);
          tets.push_back(tet);
        }
      }
    }
  }
  const int T = static_cast<int>(tets.size());
  result.tets.resize(T, 4);
  for (int t = 0; t < T; ++t) {
    for (int corner = 0; corner < 4; ++corner) {
      result.tets(t, corner) = tets[static_cast<std::size_t>(t)][static_cast<std::size_t>(corner)];
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

  ReducedModel& model = result.model;
  model.source = "test model";
  model.eigenvalues = Eigen::VectorXd::LinSpaced(m, 0.0, double(m - 1));
  result.vertex_mass.setZero(nv);
  model.cubature_Y.resize(3 * T, 4 * m);
  model.cubature_weights.resize(T);
  model.cubature_youngs.resize(T);
  model.cubature_poisson.setConstant(T, options.poisson);
  model.cubature_region.resize(static_cast<std::size_t>(T));
  model.cubature_tets.resize(static_cast<std::size_t>(T));
  const double middle = centre.x();
  for (int t = 0; t < T; ++t) {
    fem::TetCorners X;
    for (int corner = 0; corner < 4; ++corner)
      X.row(corner) = result.rest.row(result.tets(t, corner));
    const double volume = fem::linear_tet_volume(X);
    const fem::TetCorners G = fem::linear_tet_dphi_dX(X);
    // Y_c = sum_j b_j grad phi_j^T (4m x 3), stored transposed in rows 3c..3c+2.
    Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(4 * m, 3);
    for (int corner = 0; corner < 4; ++corner) {
      const int v = result.tets(t, corner);
      Y += result.basis.row(v).transpose() * G.row(corner);
      result.vertex_mass(v) += options.density * volume / 4.0;
    }
    model.cubature_Y.middleRows(3 * t, 3) = Y.transpose();
    model.cubature_weights(t) = volume;
    const int region = X.col(0).mean() < middle ? 0 : 1;
    model.cubature_region[static_cast<std::size_t>(t)] = static_cast<std::uint32_t>(region);
    model.cubature_youngs(t) = options.youngs[region];
    model.cubature_tets[static_cast<std::size_t>(t)] = static_cast<std::uint32_t>(t);
  }

  model.mass_block = result.basis.transpose() * result.vertex_mass.asDiagonal() * result.basis;
  model.mass_vector = result.basis.transpose() * result.vertex_mass;
  model.first_moment =
      (result.basis.transpose() * result.vertex_mass.asDiagonal() * result.rest).transpose();
  model.total_mass = result.vertex_mass.sum();
  model.rest_centroid = result.rest.transpose() * result.vertex_mass / model.total_mass;

  // Float in the asset: rounded here so that an asset round trip is exact.
  model.render_positions = result.rest.cast<float>().cast<double>();
  model.render_weights = W.cast<float>();
  return result;
}

Eigen::MatrixXd vertex_positions(const TestModel& test_model, const ReducedMatrix& U) {
  return Eigen::MatrixXd(test_model.rest) + test_model.basis * U;
}

std::vector<std::uint8_t> model_asset_bytes(const ReducedModel& model,
                                            const nlohmann::json& meta_extra) {
  asset::AssetWriter writer;
  nlohmann::json meta = {{"format", "smfem-asset"}, {"kind", "scene"}, {"generator", "sim tests"}};
  meta.update(meta_extra);
  writer.set_meta(meta);
  const auto n = static_cast<std::uint64_t>(4 * model.mode_count());
  const auto C = static_cast<std::uint64_t>(model.cubature_count());
  const auto add = [&](const char* name, const Eigen::MatrixXd& row_major_values,
                       const asset::Shape& shape) {
    // Eigen is column-major: write the transpose's storage to get row-major order.
    const Eigen::MatrixXd transposed = row_major_values.transpose();
    writer.add(name, std::span<const double>(transposed.data(), transposed.size()), shape);
  };
  add("subspace.eigenvalues", model.eigenvalues, {static_cast<std::uint64_t>(model.mode_count())});
  add("subspace.mass_block", model.mass_block, {n, n});
  add("subspace.mass_vector", model.mass_vector,
      {static_cast<std::uint64_t>(model.mass_vector.size())});
  add("subspace.first_moment", model.first_moment, {3, n});
  add("subspace.total_mass", Eigen::MatrixXd::Constant(1, 1, model.total_mass), {1});
  add("subspace.rest_centroid", model.rest_centroid, {3});
  std::vector<double> Y(static_cast<std::size_t>(C * n * 3));
  for (std::uint64_t c = 0; c < C; ++c) {
    for (std::uint64_t k = 0; k < n; ++k) {
      for (std::uint64_t j = 0; j < 3; ++j) {
        Y[(c * n + k) * 3 + j] =
            model.cubature_Y(static_cast<Eigen::Index>(3 * c + j), static_cast<Eigen::Index>(k));
      }
    }
  }
  writer.add("cubature.Y", std::span<const double>(Y), {C, n, 3});
  add("cubature.weights", model.cubature_weights, {C});
  add("cubature.youngs", model.cubature_youngs, {C});
  add("cubature.poisson", model.cubature_poisson, {C});
  writer.add("cubature.region", std::span<const std::uint32_t>(model.cubature_region), {C});
  writer.add("cubature.tets", std::span<const std::uint32_t>(model.cubature_tets), {C});
  if (model.render_weights.rows() > 0) {
    const auto nv = static_cast<std::uint64_t>(model.render_positions.rows());
    const Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor> positions =
        model.render_positions.cast<float>();
    writer.add("render.positions", std::span<const float>(positions.data(), positions.size()),
               {nv, 3});
    writer.add("render.weights",
               std::span<const float>(model.render_weights.data(), model.render_weights.size()),
               {nv, static_cast<std::uint64_t>(model.mode_count())});
  }
  return writer.to_bytes();
}

ReducedMatrix random_reduced(int mode_count, double scale, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  ReducedMatrix U(4 * mode_count, 3);
  for (Eigen::Index i = 0; i < U.size(); ++i) U.data()[i] = uniform(generator);
  return U;
}

}  // namespace smfem::sim::test
