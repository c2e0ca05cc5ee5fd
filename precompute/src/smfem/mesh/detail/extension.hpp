#pragma once
// File extensions compared the way users expect: ".MESH" and ".mesh" are the same format.
#include <filesystem>
#include <string>

namespace smfem::mesh::detail {

// The extension with its dot, in lower case ("" when there is none).
inline std::string lowercase_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return extension;
}

}  // namespace smfem::mesh::detail
