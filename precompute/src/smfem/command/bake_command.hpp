#pragma once
// smfem-bake's command line as a function, so that the native tool (precompute/tools) and the
// bake's WebAssembly module (precompute/bindings) are one program: a tet mesh, a closed surface
// mesh or a scene recipe in, a baked subspace asset out (Subspace MFEM, Trusty et al. 2023,
// section 5; assets/FORMAT.md). The asset is written to a temporary file and renamed, so a
// failed bake never leaves a half-written or clobbered file.
#include <ostream>
#include <string>
#include <vector>

namespace smfem::command {

// args: the command line without the program's name. out: the usage for --help, the --json
// summary; err: progress ("[smfem-bake] ...") and errors ("smfem-bake: ..."). Returns the exit
// status: 0 done, 2 bad input (the message names the problem), 1 internal error.
int bake_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace smfem::command
