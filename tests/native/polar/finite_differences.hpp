#pragma once
// Finite-difference derivatives for the gradient and Hessian tests, and the error measure
// they report.
#include <algorithm>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>
#include <Eigen/Core>

namespace smfem::test {

// Fourth-order central differences, (-f(x+2h) + 8 f(x+h) - 8 f(x-h) + f(x-2h)) / 12h: error
// O(h^4), so a step h = 1e-4 relative to |x| leaves a truncation error far below the rounding
// error (about machine epsilon / h).
template <typename Fn>
Eigen::MatrixXd fd_jacobian(const Fn& f, const Eigen::VectorXd& x, double h) {
  const auto value = [&](const Eigen::VectorXd& at) -> Eigen::VectorXd {
    if constexpr (std::is_arithmetic_v<std::invoke_result_t<Fn, Eigen::VectorXd>>) {
      return Eigen::VectorXd::Constant(1, f(at));
    } else {
      return f(at);
    }
  };
  const Eigen::Index rows = value(x).size();
  Eigen::MatrixXd J(rows, x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const auto at = [&](double steps) {
      Eigen::VectorXd y = x;
      y(i) += steps * h;
      return value(y);
    };
    J.col(i) = (-at(2) + 8.0 * at(1) - 8.0 * at(-1) + at(-2)) / (12.0 * h);
  }
  return J;
}

// The step for variables of magnitude |x|.
inline double fd_step(const Eigen::VectorXd& x) { return 1e-4 * std::max(x.norm(), 1e-300); }

// |A - B| / |B| in the Frobenius norm (B the reference).
inline double relative_error(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  return (A - B).norm() / std::max(B.norm(), std::numeric_limits<double>::min());
}

inline Eigen::VectorXd vec(const Eigen::Matrix3d& F) {
  return Eigen::Map<const Eigen::VectorXd>(F.data(), 9);
}

inline Eigen::Matrix3d unvec(const Eigen::VectorXd& x) {
  return Eigen::Map<const Eigen::Matrix3d>(x.data());
}

// Records the worst error of a test in its XML properties and on stdout ("worst ..." lines).
inline void report_worst(const std::string& what, double worst) {
  ::testing::Test::RecordProperty("worst_relative_error", std::to_string(worst));
  std::cout << "worst relative error, " << what << ": " << worst << "\n";
}

}  // namespace smfem::test
