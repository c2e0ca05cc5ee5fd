#include "smfem/scene/scene_error.hpp"

#include <utility>

namespace smfem::scene {
namespace {

std::string compose(const std::string& file, const std::string& pointer,
                    const std::string& problem) {
  return file + ": " + (pointer.empty() ? "" : pointer + ": ") + problem;
}

}  // namespace

SceneError::SceneError(std::string file, std::string pointer, std::string problem)
    : std::runtime_error(compose(file, pointer, problem)),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      problem_(std::move(problem)) {}

}  // namespace smfem::scene
