#pragma once
// What the geometry folder throws for unusable input data (as opposed to std::invalid_argument
// for a caller's bad parameters): e.g. a surface mesh too open to have an inside.
#include <stdexcept>
#include <string>

namespace smfem::geometry {

class GeometryError : public std::runtime_error {
 public:
  explicit GeometryError(const std::string& problem) : std::runtime_error(problem) {}
};

}  // namespace smfem::geometry
