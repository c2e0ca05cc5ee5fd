#pragma once
// The one exception the mesh readers throw: a file, a place in it and a plain-words problem.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace smfem::mesh {

// what() reads like a compiler diagnostic:
//   "<file>:<line>: <problem>"         for text formats (lines count from 1),
//   "<file>: byte <offset>: <problem>" for binary data (offsets count from 0),
//   "<file>: <problem>"                when no place applies (missing file, bad extension).
class MeshError : public std::runtime_error {
 public:
  static MeshError at_line(std::string file, std::size_t line, std::string problem);
  static MeshError at_byte(std::string file, std::size_t offset, std::string problem);
  static MeshError in_file(std::string file, std::string problem);

  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }  // 0 when the place is not a line
  std::optional<std::size_t> byte_offset() const { return byte_offset_; }
  const std::string& problem() const { return problem_; }

 private:
  MeshError(std::string file, std::size_t line, std::optional<std::size_t> byte_offset,
            std::string problem, const std::string& what);

  std::string file_;
  std::size_t line_;
  std::optional<std::size_t> byte_offset_;
  std::string problem_;
};

}  // namespace smfem::mesh
