// smfem-bake: a tet mesh, a closed surface mesh or a scene recipe in, a baked subspace asset
// out. The command itself is smfem/command/bake_command.hpp (the bake's WebAssembly module runs the
// same); exit status: 0 done, 2 bad input (a message on stderr names the problem), 1 internal
// error.
#include <iostream>
#include <string>
#include <vector>

#include "smfem/command/bake_command.hpp"

int main(int argc, char** argv) {
  return smfem::command::bake_command(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                      std::cerr);
}
