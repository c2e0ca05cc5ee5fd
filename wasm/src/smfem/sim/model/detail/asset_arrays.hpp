#pragma once
// f64 sections of an asset as Eigen objects, after checking dtype and shape (Asset::expect
// throws an AssetError naming the section otherwise). Shared by the model and load readers.
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/asset/asset.hpp"

namespace smfem::sim::detail {

// A section of shape [size].
inline Eigen::VectorXd read_f64_vector(const asset::Asset& asset, const std::string& name,
                                       std::int64_t size) {
  asset.expect(name, asset::DType::f64, {size});
  const std::vector<double> values = asset.array<double>(name);
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(size));
}

// A section of shape [rows, cols], stored row-major.
inline Eigen::MatrixXd read_f64_matrix(const asset::Asset& asset, const std::string& name,
                                       std::int64_t rows, std::int64_t cols) {
  asset.expect(name, asset::DType::f64, {rows, cols});
  const std::vector<double> values = asset.array<double>(name);
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
}

}  // namespace smfem::sim::detail
