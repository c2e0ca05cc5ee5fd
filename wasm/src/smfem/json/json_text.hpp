#pragma once
// JSON that people type (recipes, scene files): parsed as nlohmann does, except that a key given
// twice in one object is refused (nlohmann keeps the last, so `"friction": 0.4, "friction": 0.9`
// ran with 0.9 and no word). One reader for the bake's recipes, scene files and thin recipes.
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace smfem::json {

// What is wrong with the text, without nlohmann's "[json.exception...] " prefix: "invalid JSON:
// ..." or "the key "k" appears twice in one object". Callers name the file.
class JsonTextError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::json parse_json_text(std::string_view text);

// A number as the messages about such text echo it: as %g prints (at least 6 significant digits:
// 100, 1e-05, 1e+13, 0.49), with as many more as reading it back as x needs (0.4900001).
std::string format_number(double x);

}  // namespace smfem::json
