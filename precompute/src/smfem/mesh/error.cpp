#include "smfem/mesh/error.hpp"

#include <utility>

namespace smfem::mesh {

MeshError MeshError::at_line(std::string file, std::size_t line, std::string problem) {
  std::string what = file + ":" + std::to_string(line) + ": " + problem;
  return MeshError(std::move(file), line, std::nullopt, std::move(problem), what);
}

MeshError MeshError::at_byte(std::string file, std::size_t offset, std::string problem) {
  std::string what = file + ": byte " + std::to_string(offset) + ": " + problem;
  return MeshError(std::move(file), 0, offset, std::move(problem), what);
}

MeshError MeshError::in_file(std::string file, std::string problem) {
  std::string what = file + ": " + problem;
  return MeshError(std::move(file), 0, std::nullopt, std::move(problem), what);
}

MeshError::MeshError(std::string file, std::size_t line, std::optional<std::size_t> byte_offset,
                     std::string problem, const std::string& what)
    : std::runtime_error(what),
      file_(std::move(file)),
      line_(line),
      byte_offset_(byte_offset),
      problem_(std::move(problem)) {}

}  // namespace smfem::mesh
