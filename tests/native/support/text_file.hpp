#pragma once
// Writes a small text file for a test (one definition for every test: two inline functions of
// the same signature in different headers would silently be merged by the linker).
#include <filesystem>
#include <fstream>
#include <string>

namespace smfem::test {

// Returns the path, so a test can write and pass a file in one expression.
inline std::filesystem::path write_text(const std::filesystem::path& path,
                                        const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

}  // namespace smfem::test
