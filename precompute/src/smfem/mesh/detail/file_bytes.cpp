#include "smfem/mesh/detail/file_bytes.hpp"

#include <fstream>

#include "smfem/mesh/error.hpp"

namespace smfem::mesh::detail {

std::string read_file_bytes(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw MeshError::in_file(path.string(), "is a directory, not a mesh file");
  }
  std::ifstream stream(path, std::ios::binary | std::ios::ate);
  if (!stream) throw MeshError::in_file(path.string(), "cannot open file");
  const std::streamoff size = stream.tellg();
  if (size < 0) throw MeshError::in_file(path.string(), "cannot read file");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  stream.seekg(0);
  if (!stream.read(bytes.data(), size)) throw MeshError::in_file(path.string(), "cannot read file");
  return bytes;
}

}  // namespace smfem::mesh::detail
