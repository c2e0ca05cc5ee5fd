#pragma once
// Deformation gradients shared by the polar and material tests, reproducible (fixed seeds).
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/SVD>

namespace smfem::test {

struct Deformation {
  std::string name;
  Eigen::Matrix3d F;
};

inline Eigen::Matrix3d random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  const Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
  return q.normalized().toRotationMatrix();
}

// U diag(sigma) V^T with random rotations: sigma are the signed singular values.
inline Eigen::Matrix3d with_singular_values(std::mt19937& rng, const Eigen::Vector3d& sigma) {
  return random_rotation(rng) * sigma.asDiagonal() * random_rotation(rng).transpose();
}

// Where the polar factor is smooth, so finite differences apply: every pairwise sum of signed
// singular values at least 10% of the largest. Near identity, large and random, nearly
// singular (one singular value 1e-4 of the others), inverted (det < 0), each at deformation
// scales 1e-3, 1 and 1e3.
// A multiplier m of the constraint term m^T s(F), entries standard normal.
inline Eigen::Matrix<double, 6, 1> random_multiplier(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::Matrix<double, 6, 1> m;
  for (double& x : m) x = normal(rng);
  return m;
}

inline std::vector<Deformation> smooth_deformations() {
  std::mt19937 rng(20231212);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.2, 4.0);
  const auto random_matrix = [&](double spread) {
    Eigen::Matrix3d M;
    for (int i = 0; i < 9; ++i) M.data()[i] = spread * normal(rng);
    return M;
  };
  const auto smooth_enough = [](const Eigen::Matrix3d& F) {
    Eigen::Vector3d sigma = Eigen::JacobiSVD<Eigen::Matrix3d>(F).singularValues();
    if (F.determinant() < 0) sigma(2) = -sigma(2);
    return sigma(1) + sigma(2) > 0.1 * sigma(0);
  };

  std::vector<Deformation> cases;
  for (const double scale : {1e-3, 1.0, 1e3}) {
    const std::string at = " x" + std::to_string(scale);
    for (int i = 0; i < 3; ++i) {
      cases.push_back(
          {"near identity" + at, scale * (Eigen::Matrix3d::Identity() + random_matrix(0.1))});
    }
    for (int i = 0; i < 3; ++i) {
      Eigen::Vector3d sigma(uniform(rng), uniform(rng), uniform(rng));
      std::sort(sigma.data(), sigma.data() + 3, std::greater<>());
      cases.push_back({"large stretch" + at, scale * with_singular_values(rng, sigma)});
    }
    for (int found = 0; found < 3;) {
      const Eigen::Matrix3d F = random_matrix(1.5);
      if (!smooth_enough(F)) continue;
      cases.push_back({"large random" + at, scale * F});
      ++found;
    }
    cases.push_back({"near singular" + at, scale * with_singular_values(rng, {1.3, 0.7, 1e-4})});
    cases.push_back(
        {"near singular, det < 0" + at, scale * with_singular_values(rng, {2.0, 0.5, -1e-4})});
    cases.push_back({"inverted" + at, scale * with_singular_values(rng, {1.5, 0.9, -0.4})});
    cases.push_back(
        {"inverted, strongly" + at, scale * with_singular_values(rng, {1.1, 1.0, -0.8})});
    for (int found = 0; found < 2;) {
      const Eigen::Matrix3d F = random_matrix(1.0);
      if (F.determinant() >= 0 || !smooth_enough(F)) continue;
      cases.push_back({"inverted random" + at, scale * F});
      ++found;
    }
  }
  return cases;
}

// Repeated singular values: R and S are still smooth there (only pairwise sums enter the
// derivatives), but the singular vectors are not unique.
inline std::vector<Deformation> repeated_singular_values() {
  std::mt19937 rng(7);
  return {{"identity", Eigen::Matrix3d::Identity()},
          {"rotation", random_rotation(rng)},
          {"uniform scaling", 2.5 * random_rotation(rng)},
          {"two equal", with_singular_values(rng, {1.5, 1.5, 0.7})},
          {"two equal, det < 0", with_singular_values(rng, {1.2, 1.2, -0.5})}};
}

// Where R is not unique or not differentiable: outputs must still be finite.
inline std::vector<Deformation> degenerate_deformations() {
  std::mt19937 rng(11);
  std::vector<Deformation> cases = {
      {"zero", Eigen::Matrix3d::Zero()},
      {"rank one", with_singular_values(rng, {2.0, 0.0, 0.0})},
      {"rank two", with_singular_values(rng, {2.0, 1.0, 0.0})},
      {"pair sum zero", with_singular_values(rng, {2.0, 0.7, -0.7})},
      {"pair sum 1e-12", with_singular_values(rng, {2.0, 0.7, -0.7 + 1e-12})},
      {"minus identity", -Eigen::Matrix3d::Identity()},
      {"reflection", random_rotation(rng) * Eigen::Vector3d(1.0, 1.0, -1.0).asDiagonal()},
      {"tiny", 1e-150 * with_singular_values(rng, {1.0, 0.5, 0.25})},
      {"huge", 1e30 * with_singular_values(rng, {1.0, 0.5, -0.25})}};
  for (auto& c : repeated_singular_values()) cases.push_back(c);
  return cases;
}

// Every sample above: the smooth ones, then the degenerate ones.
inline std::vector<Deformation> all_deformations() {
  std::vector<Deformation> cases = smooth_deformations();
  for (auto& c : degenerate_deformations()) cases.push_back(c);
  return cases;
}

}  // namespace smfem::test
