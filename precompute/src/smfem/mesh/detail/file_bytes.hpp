#pragma once
// The whole content of a mesh file, read in binary mode (no newline translation), so that the
// in-memory parsers see exactly what the fuzzers feed them.
#include <filesystem>
#include <string>

namespace smfem::mesh::detail {

// Fails with MeshError ("<path>: cannot open file") when the file cannot be read.
std::string read_file_bytes(const std::filesystem::path& path);

}  // namespace smfem::mesh::detail
