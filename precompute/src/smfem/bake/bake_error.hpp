#pragma once
// A problem with what the user gave the bake (a file, an option, a value): the CLI reports it
// and exits with status 2. Messages name the file or option and the problem.
#include <stdexcept>
#include <string>

namespace smfem::bake {

class BakeInputError : public std::runtime_error {
 public:
  explicit BakeInputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace smfem::bake
