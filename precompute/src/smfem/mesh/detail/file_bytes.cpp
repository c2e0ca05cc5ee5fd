#include "smfem/mesh/detail/file_bytes.hpp"

#include <fstream>
#include <limits>

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
  // A 32-bit build (WebAssembly) reads at most 2 GB at once.
  if (size > std::numeric_limits<std::streamsize>::max() ||
      static_cast<unsigned long long>(size) > std::string().max_size()) {
    throw MeshError::in_file(path.string(),
                             "is too large to read (" + std::to_string(size) + " bytes)");
  }
  std::string bytes(static_cast<std::size_t>(size), '\0');
  stream.seekg(0);
  if (!stream.read(bytes.data(), static_cast<std::streamsize>(size))) {
    throw MeshError::in_file(path.string(), "cannot read file");
  }
  return bytes;
}

}  // namespace smfem::mesh::detail
