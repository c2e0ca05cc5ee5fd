#pragma once
// The cubature functions' refusal of bad input: std::invalid_argument as "caller: problem".
#include <stdexcept>
#include <string>

namespace smfem::cubature::detail {

[[noreturn]] inline void refuse(const char* caller, const std::string& problem) {
  throw std::invalid_argument(std::string(caller) + ": " + problem);
}

}  // namespace smfem::cubature::detail
