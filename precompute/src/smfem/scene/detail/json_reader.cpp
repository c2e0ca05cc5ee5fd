#include "smfem/scene/detail/json_reader.hpp"

#include <cmath>
#include <sstream>

#include "smfem/json/json_text.hpp"
#include "smfem/scene/scene_error.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::scene::detail {
namespace {

// RFC 6901: '~' and '/' in keys are escaped as ~0 and ~1.
std::string escape_pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_range(double lo, double hi, bool lo_open, bool hi_open) {
  return std::string(lo_open ? "(" : "[") + json::format_number(lo) + ", " +
         json::format_number(hi) + (hi_open ? ")" : "]");
}

}  // namespace

Place Place::operator/(const std::string& key) const {
  return Place(*file_, pointer_ + "/" + escape_pointer_token(key), notes_);
}

Place Place::operator/(std::size_t index) const {
  return Place(*file_, pointer_ + "/" + std::to_string(index), notes_);
}

void Place::fail(const std::string& problem) const { throw SceneError(*file_, pointer_, problem); }

std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::null:
      return "null";
    case Json::value_t::string: {
      const std::string text = value.dump();
      return text.size() <= 40 ? text : text.substr(0, 37) + "...\"";
    }
    default:
      return value.dump();
  }
}

double read_number(const Json& value, const Place& place) {
  if (!value.is_number()) place.fail("must be a number, got " + describe(value));
  const double x = value.get<double>();
  if (!std::isfinite(x)) place.fail("must be a finite number, got " + describe(value));
  return x;
}

double read_number_in(const Json& value, const Place& place, double lo, double hi, bool lo_open,
                      bool hi_open) {
  const std::string wanted = "must be a number in " + format_range(lo, hi, lo_open, hi_open);
  if (!value.is_number()) place.fail(wanted + ", got " + describe(value));
  const double x = value.get<double>();
  const bool above = lo_open ? x > lo : x >= lo;
  const bool below = hi_open ? x < hi : x <= hi;
  if (!(std::isfinite(x) && above && below)) place.fail(wanted + ", got " + describe(value));
  return x;
}

double read_positive(const Json& value, const Place& place, double min, double max) {
  if (!value.is_number()) place.fail("must be a positive number, got " + describe(value));
  const double x = value.get<double>();
  if (!(std::isfinite(x) && x > 0.0))
    place.fail("must be a positive number, got " + describe(value));
  if (x < min) {
    place.fail("must be at least " + json::format_number(min) + ", got " + describe(value));
  }
  if (x > max) {
    place.fail("must be at most " + json::format_number(max) + ", got " + describe(value));
  }
  return x;
}

double read_within_limits(const Json& value, const Place& place, double least, double most,
                          std::string_view unit) {
  if (!value.is_number()) {
    place.fail(sim::limits_wanted(least, most, unit) + ", not " + describe(value));
  }
  const double x = value.get<double>();
  if (const std::string problem = sim::outside_limits(x, least, most, unit); !problem.empty()) {
    place.fail(problem);
  }
  return x;
}

int read_whole_within_limits(const Json& value, const Place& place, int least, int most) {
  if (!value.is_number()) {
    place.fail(sim::whole_limits_wanted(least, most) + ", not " + describe(value));
  }
  const double x = value.get<double>();
  if (const std::string problem = sim::outside_whole_limits(x, least, most); !problem.empty()) {
    place.fail(problem);
  }
  return static_cast<int>(x);
}

int read_integer_in(const Json& value, const Place& place, int lo, int hi) {
  const std::string wanted =
      "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!value.is_number_integer()) {
    // 16.0 is still the integer 16 in JSON's eyes.
    if (!(value.is_number_float() && std::isfinite(value.get<double>()) &&
          std::floor(value.get<double>()) == value.get<double>())) {
      place.fail(wanted + ", got " + describe(value));
    }
  }
  const double x = value.get<double>();
  if (!(x >= lo && x <= hi)) place.fail(wanted + ", got " + describe(value));
  return static_cast<int>(x);
}

std::string read_string(const Json& value, const Place& place, std::size_t max_length) {
  if (!value.is_string()) place.fail("must be a string, got " + describe(value));
  const std::string& text = value.get_ref<const std::string&>();
  if (text.empty()) place.fail("must not be empty");
  if (text.size() > max_length) {
    place.fail("must be at most " + std::to_string(max_length) + " characters long");
  }
  for (unsigned char c : text) {
    if (c < 0x20) place.fail("must not contain control characters");
  }
  return text;
}

Eigen::Vector3d read_vector3(const Json& value, const Place& place, double max_abs) {
  if (!value.is_array() || value.size() != 3) {
    place.fail("must be an array of 3 numbers, got " + describe(value));
  }
  Eigen::Vector3d v;
  for (std::size_t i = 0; i < 3; ++i) {
    v[static_cast<Eigen::Index>(i)] =
        read_number_in(value[i], place / i, -max_abs, max_abs, false, false);
  }
  return v;
}

Eigen::Vector3d read_direction(const Json& value, const Place& place) {
  const Eigen::Vector3d v = read_vector3(value, place, 1e6);
  if (!(v.norm() > 0.0)) place.fail("must be a nonzero direction, got [0, 0, 0]");
  return v.normalized();
}

const Json& read_array(const Json& value, const Place& place, std::size_t min_size) {
  if (!value.is_array()) place.fail("must be an array, got " + describe(value));
  if (value.size() < min_size) {
    place.fail("must have at least " + std::to_string(min_size) +
               (min_size == 1 ? " element" : " elements"));
  }
  return value;
}

ObjectReader::ObjectReader(const Json& value, Place place,
                           std::initializer_list<const char*> allowed, const char* elsewhere)
    : value_(value), place_(std::move(place)) {
  if (!value.is_object()) place_.fail("must be an object, got " + describe(value));
  for (const auto& item : value.items()) {
    bool known = false;
    for (const char* key : allowed) known = known || item.key() == key;
    if (known) continue;
    std::string expected;
    for (const char* key : allowed) expected += (expected.empty() ? "" : ", ") + std::string(key);
    (place_ / item.key())
        .fail("unknown key (expected one of: " + expected + ")" +
              (elsewhere ? "; " + std::string(elsewhere) : std::string()));
  }
}

const Json& ObjectReader::required(const char* key) const {
  if (!value_.contains(key)) place_.fail(std::string("missing required key \"") + key + "\"");
  return value_.at(key);
}

const Json* ObjectReader::optional(const char* key) const {
  const auto it = value_.find(key);
  return it == value_.end() ? nullptr : &*it;
}

}  // namespace smfem::scene::detail
