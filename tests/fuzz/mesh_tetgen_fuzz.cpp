// libFuzzer target: the TetGen reader on arbitrary bytes, split at the first NUL byte into the
// .node text and the .ele text (all of it is .node when there is no NUL). Returns a checked
// mesh or throws MeshError; a crash, a sanitizer report, another exception or a broken mesh is
// a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mesh_fuzz_checks.hpp"
#include "smfem/mesh/error.hpp"
#include "smfem/mesh/tetgen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  const std::size_t split = content.find('\0');
  const std::string_view node = content.substr(0, split);
  const std::string_view ele = split == std::string_view::npos ? "" : content.substr(split + 1);
  try {
    smfem::fuzz::check_mesh(smfem::mesh::parse_tetgen_mesh(node, "fuzz.node", ele, "fuzz.ele"));
  } catch (const smfem::mesh::MeshError&) {
  }
  return 0;
}
