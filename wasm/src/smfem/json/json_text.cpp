#include "smfem/json/json_text.hpp"

#include <set>
#include <sstream>
#include <vector>

namespace smfem::json {

nlohmann::json parse_json_text(std::string_view text) {
  using Json = nlohmann::json;
  std::vector<std::set<std::string>> open_objects;
  std::string duplicate;
  const Json::parser_callback_t watch = [&](int, Json::parse_event_t event, Json& value) {
    if (event == Json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == Json::parse_event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Json::parse_event_t::key && !open_objects.empty() && duplicate.empty()) {
      const std::string& key = value.get_ref<const std::string&>();
      if (!open_objects.back().insert(key).second) duplicate = key;
    }
    return true;
  };
  Json root;
  try {
    root = Json::parse(text.begin(), text.end(), watch);
  } catch (const Json::exception& error) {
    // Syntax errors, and numbers too large for a double.
    std::string message = error.what();
    const auto bracket = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) {
      message = message.substr(bracket + 2);
    }
    throw JsonTextError("invalid JSON: " + message);
  }
  if (!duplicate.empty()) {
    throw JsonTextError("the key \"" + duplicate + "\" appears twice in one object");
  }
  return root;
}

std::string format_number(double x) {
  std::string text;
  for (int digits = 6; digits <= 17; ++digits) {
    std::ostringstream out;
    out.precision(digits);
    out << x;
    text = out.str();
    if (std::stod(text) == x) break;
  }
  return text;
}

}  // namespace smfem::json
