#include "smfem/asset/asset_error.hpp"

#include <utility>

namespace smfem::asset {

AssetError::AssetError(std::string source, std::string location, std::string problem)
    : std::runtime_error(source + ": " + location + ": " + problem),
      source_(std::move(source)),
      location_(std::move(location)),
      problem_(std::move(problem)) {}

AssetError AssetError::in_section(std::string source, std::string section, std::string problem) {
  AssetError error(std::move(source), "section '" + section + "'", std::move(problem));
  error.section_ = std::move(section);
  return error;
}

}  // namespace smfem::asset
