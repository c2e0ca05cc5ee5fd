// libFuzzer target: the OBJ reader on arbitrary bytes returns a checked mesh or throws
// MeshError; a crash, a sanitizer report, another exception or a broken mesh is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mesh_fuzz_checks.hpp"
#include "smfem/mesh/error.hpp"
#include "smfem/mesh/obj.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    smfem::fuzz::check_mesh(smfem::mesh::parse_obj_mesh(content, "fuzz.obj"));
  } catch (const smfem::mesh::MeshError&) {
  }
  return 0;
}
