#pragma once
// The one exception recipe loading and scene meshing throw: the recipe file, a JSON pointer
// (RFC 6901) to the offending value, and the problem in plain words:
//   "crab.json: /materials/1/youngs: must be a positive number, got -3"
//   "crab.json: invalid JSON: parse error at line 3, column 5: ..."   (no pointer)
#include <stdexcept>
#include <string>

namespace smfem::scene {

class SceneError : public std::runtime_error {
 public:
  SceneError(std::string file, std::string pointer, std::string problem);

  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }  // empty when no value is to blame
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  std::string pointer_;
  std::string problem_;
};

}  // namespace smfem::scene
