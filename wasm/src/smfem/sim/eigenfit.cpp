#include "smfem/sim/eigenfit.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_error.hpp"
#include "smfem/asset/asset_writer.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/model/detail/asset_arrays.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::sim {
namespace {

constexpr const char* kSections[] = {"eigenfit.modes", "eigenfit.ratios",
                                     "eigenfit.coarse_eigenvalues", "eigenfit.fine_eigenvalues"};

}  // namespace

std::optional<EigenFitProblem> check_eigenfit(const EigenFitData& fit,
                                              const Eigen::MatrixXd& mass_block) {
  const Eigen::Index n = mass_block.rows();  // 4m
  const Eigen::Index s = fit.ratios.size();
  const auto problem = [](const char* section, std::string text) {
    return std::optional<EigenFitProblem>(EigenFitProblem{section, std::move(text)});
  };
  if (s < 1) return problem("eigenfit.ratios", "there must be at least one fitted mode");
  if (s > 3 * n) {
    return problem("eigenfit.modes", "has " + std::to_string(s) + " modes, more than the 12m = " +
                                         std::to_string(3 * n) + " reduced coordinates");
  }
  if (fit.modes.rows() != 3 * n || fit.modes.cols() != s) {
    return problem("eigenfit.modes", "must hold s = " + std::to_string(s) + " modes of 12m = " +
                                         std::to_string(3 * n) + " coordinates");
  }
  if (fit.coarse_eigenvalues.size() != s) {
    return problem("eigenfit.coarse_eigenvalues", "must hold s = " + std::to_string(s) + " values");
  }
  if (fit.fine_eigenvalues.size() != s) {
    return problem("eigenfit.fine_eigenvalues", "must hold s = " + std::to_string(s) + " values");
  }
  if (!fit.modes.allFinite()) return problem("eigenfit.modes", "not finite");
  if (!(fit.ratios.array() > 0.0).all() || !fit.ratios.allFinite()) {
    return problem("eigenfit.ratios", "must be positive and finite");
  }
  if (!(fit.coarse_eigenvalues.array() > 0.0).all() || !fit.coarse_eigenvalues.allFinite()) {
    return problem("eigenfit.coarse_eigenvalues", "must be positive and finite");
  }
  if (!(fit.fine_eigenvalues.array() > 0.0).all() || !fit.fine_eigenvalues.allFinite()) {
    return problem("eigenfit.fine_eigenvalues", "must be positive and finite");
  }
  // U^T M U with M = I_3 (x) mass_block.
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(s, s);
  for (Eigen::Index d = 0; d < 3; ++d) {
    const auto block = fit.modes.middleRows(d * n, n);
    gram.noalias() += block.transpose() * mass_block * block;
  }
  if ((gram - Eigen::MatrixXd::Identity(s, s)).cwiseAbs().maxCoeff() > 1e-6) {
    return problem("eigenfit.modes", "are not orthonormal under the reduced mass");
  }
  return std::nullopt;
}

EigenFitData read_eigenfit(const asset::Asset& asset, int mode_count) {
  EigenFitData fit;
  int present = 0;
  for (const char* name : kSections) present += asset.has(name) ? 1 : 0;
  if (present == 0) return fit;
  for (const char* name : kSections) {
    if (!asset.has(name)) {
      throw asset::AssetError::in_section(asset.source_name(), name,
                                          "section is missing (the eigenfit group is partial)");
    }
  }
  const Eigen::Index n = 4 * static_cast<Eigen::Index>(mode_count);
  const auto& info = asset.expect("eigenfit.modes", asset::DType::f64, {asset::kAnyExtent, n, 3});
  const auto s = static_cast<Eigen::Index>(info.shape[0]);
  const std::vector<double> modes = asset.array<double>("eigenfit.modes");
  fit.modes.resize(3 * n, s);
  for (Eigen::Index i = 0; i < s; ++i) {
    for (Eigen::Index k = 0; k < n; ++k) {
      for (Eigen::Index d = 0; d < 3; ++d) {
        fit.modes(d * n + k, i) = modes[static_cast<std::size_t>((i * n + k) * 3 + d)];
      }
    }
  }
  fit.ratios = detail::read_f64_vector(asset, "eigenfit.ratios", s);
  fit.coarse_eigenvalues = detail::read_f64_vector(asset, "eigenfit.coarse_eigenvalues", s);
  fit.fine_eigenvalues = detail::read_f64_vector(asset, "eigenfit.fine_eigenvalues", s);
  return fit;
}

void add_eigenfit(asset::AssetWriter& writer, const EigenFitData& fit) {
  if (fit.empty()) return;
  const Eigen::Index s = fit.modes.cols();
  const Eigen::Index n = fit.modes.rows() / 3;
  std::vector<double> modes(static_cast<std::size_t>(s * n * 3));
  for (Eigen::Index i = 0; i < s; ++i) {
    for (Eigen::Index k = 0; k < n; ++k) {
      for (Eigen::Index d = 0; d < 3; ++d) {
        modes[static_cast<std::size_t>((i * n + k) * 3 + d)] = fit.modes(d * n + k, i);
      }
    }
  }
  const auto count = static_cast<std::uint64_t>(s);
  const auto length = static_cast<std::size_t>(s);  // a span's (32 bits in wasm)
  writer.add("eigenfit.modes", std::span<const double>(modes),
             {count, static_cast<std::uint64_t>(n), 3});
  writer.add("eigenfit.ratios", std::span<const double>(fit.ratios.data(), length), {count});
  writer.add("eigenfit.coarse_eigenvalues",
             std::span<const double>(fit.coarse_eigenvalues.data(), length), {count});
  writer.add("eigenfit.fine_eigenvalues",
             std::span<const double>(fit.fine_eigenvalues.data(), length), {count});
}

Eigen::MatrixXd reduced_mass(const ReducedModel& model) {
  const Eigen::Index n = model.mass_block.rows();
  Eigen::MatrixXd mass = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  for (Eigen::Index d = 0; d < 3; ++d) mass.block(d * n, d * n, n, n) = model.mass_block;
  return mass;
}

std::vector<Lame> baked_lame(const ReducedModel& model) {
  std::vector<Lame> lame;
  lame.reserve(static_cast<std::size_t>(model.cubature_count()));
  for (int c = 0; c < model.cubature_count(); ++c) {
    lame.push_back(
        energies::lame_from_young_poisson(model.cubature_youngs(c), model.cubature_poisson(c)));
  }
  return lame;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> rest_strain_map(const ReducedModel& model, int tet) {
  const Eigen::Index n = model.mass_block.rows();
  Eigen::Matrix<double, 6, Eigen::Dynamic> E(6, 3 * n);
  ReducedMatrix unit = ReducedMatrix::Zero(n, 3);
  for (Eigen::Index d = 0; d < 3; ++d) {
    for (Eigen::Index k = 0; k < n; ++k) {
      unit(k, d) = 1.0;
      E.col(d * n + k) = polar::stretch_from_matrix(
          Matrix3<double>(displacement_gradient(model.cubature_Y, tet, unit)));
      unit(k, d) = 0.0;
    }
  }
  return E;
}

Eigen::MatrixXd rest_stiffness(const ReducedModel& model, MaterialModel material,
                               const std::vector<Lame>& lame) {
  const Eigen::Index r = 3 * model.mass_block.rows();
  const Vector6<double> rest = polar::identity_stretch<double>();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(r, r);
  for (int c = 0; c < model.cubature_count(); ++c) {
    const Eigen::Matrix<double, 6, Eigen::Dynamic> E = rest_strain_map(model, c);
    const Matrix6<double> H = d2psi_ds2_psd(material, rest, lame[static_cast<std::size_t>(c)]);
    K.noalias() += model.cubature_weights(c) * (E.transpose() * (H * E));
  }
  return 0.5 * (K + K.transpose());
}

ReducedModes reduced_rest_modes(const ReducedModel& model, const Eigen::MatrixXd& stiffness,
                                int count) {
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(stiffness,
                                                                         reduced_mass(model));
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("the reduced rest eigenproblem did not converge");
  }
  const Eigen::VectorXd& values = solver.eigenvalues();
  const double largest = values.cwiseAbs().maxCoeff();
  ReducedModes modes;
  while (modes.null_modes < values.size() &&
         values(modes.null_modes) <= kNullEigenvalue * largest) {
    ++modes.null_modes;
  }
  const Eigen::Index available = values.size() - modes.null_modes;
  if (count < 1 || count > available) {
    throw std::invalid_argument("asked for " + std::to_string(count) +
                                " reduced modes; the model has " + std::to_string(available) +
                                " that are not null (of " + std::to_string(values.size()) + ")");
  }
  modes.vectors = solver.eigenvectors().middleCols(modes.null_modes, count);
  modes.eigenvalues = values.segment(modes.null_modes, count);
  for (Eigen::Index i = 0; i < count; ++i) {
    Eigen::Index largest_entry = 0;
    modes.vectors.col(i).cwiseAbs().maxCoeff(&largest_entry);
    if (modes.vectors(largest_entry, i) < 0.0) modes.vectors.col(i) *= -1.0;
  }
  return modes;
}

}  // namespace smfem::sim
