#pragma once
// The two ways the bake builds a cubature, by the names the command line (--cubature-method)
// and scene recipes (subspace.cubature_method) use: "kmeans" (cubature.hpp, the paper's) and
// "nnls" (optimized_cubature.hpp, An et al. 2008). Header-only, so that the recipe reader
// names them without linking the cubature code.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace smfem::cubature {

enum class CubatureMethod { kmeans, nnls };

inline constexpr std::array<CubatureMethod, 2> kCubatureMethods = {CubatureMethod::kmeans,
                                                                   CubatureMethod::nnls};

inline std::string_view cubature_method_name(CubatureMethod method) {
  return method == CubatureMethod::kmeans ? "kmeans" : "nnls";
}

inline std::optional<CubatureMethod> cubature_method_from_name(std::string_view name) {
  for (CubatureMethod method : kCubatureMethods) {
    if (name == cubature_method_name(method)) return method;
  }
  return std::nullopt;
}

// For messages: "\"kmeans\" or \"nnls\"".
inline std::string cubature_method_choices() {
  std::string choices;
  for (std::size_t i = 0; i < kCubatureMethods.size(); ++i) {
    if (i > 0) choices += i + 1 < kCubatureMethods.size() ? ", " : " or ";
    choices += '"' + std::string(cubature_method_name(kCubatureMethods[i])) + '"';
  }
  return choices;
}

}  // namespace smfem::cubature
