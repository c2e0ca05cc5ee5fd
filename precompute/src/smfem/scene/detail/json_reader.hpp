#pragma once
// Reading a recipe's JSON with every value checked where it is read, so each error names the
// file, the JSON pointer and the problem (scene_error.hpp).
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace smfem::scene::detail {

using Json = nlohmann::json;

// Where a value sits in the recipe, and where what the mesh readers skipped or fixed while
// reading it is noted (notes: none kept where null).
class Place {
 public:
  Place(const std::string& file, std::string pointer, std::vector<std::string>* notes = nullptr)
      : file_(&file), pointer_(std::move(pointer)), notes_(notes) {}

  Place operator/(const std::string& key) const;  // member `key`
  Place operator/(std::size_t index) const;       // array element
  const std::string& file() const { return *file_; }
  const std::string& pointer() const { return pointer_; }

  // Throws SceneError(file, pointer, problem).
  [[noreturn]] void fail(const std::string& problem) const;
  // Keeps a note of what a reader did to the recipe's input (a mesh file's skipped lines).
  void note(const std::string& what) const {
    if (notes_ != nullptr) notes_->push_back(what);
  }

 private:
  const std::string* file_;
  std::string pointer_;
  std::vector<std::string>* notes_;
};

// How a value reads in "got ..." messages: numbers and short strings as written, other kinds
// by name ("an object", "an array").
std::string describe(const Json& value);

double read_number(const Json& value, const Place& place);  // any finite number
// A finite number in [lo, hi], or (lo, hi] etc. as the flags say; the message states the range.
double read_number_in(const Json& value, const Place& place, double lo, double hi, bool lo_open,
                      bool hi_open);
// A number > 0 within [min, max]; "must be a positive number" when it is not > 0.
double read_positive(const Json& value, const Place& place, double min, double max);
int read_integer_in(const Json& value, const Place& place, int lo, int hi);
// A setting within its range in sim/solver_limits.json, refused in the words of every reader of
// such settings (sim::outside_limits, sim::outside_whole_limits).
double read_within_limits(const Json& value, const Place& place, double least, double most,
                          std::string_view unit = "");
int read_whole_within_limits(const Json& value, const Place& place, int least, int most);
std::string read_string(const Json& value, const Place& place, std::size_t max_length);
// An array of three finite numbers, each within [-max_abs, max_abs].
Eigen::Vector3d read_vector3(const Json& value, const Place& place, double max_abs);
// A nonzero read_vector3, normalized.
Eigen::Vector3d read_direction(const Json& value, const Place& place);
// A non-empty array (fails otherwise); returns it.
const Json& read_array(const Json& value, const Place& place, std::size_t min_size);

// One JSON object: rejects keys outside `allowed` on construction (saying `elsewhere` too, if
// given: where such a key may belong instead), and missing required ones when asked for.
class ObjectReader {
 public:
  ObjectReader(const Json& value, Place place, std::initializer_list<const char*> allowed,
               const char* elsewhere = nullptr);

  const Json& required(const char* key) const;
  const Json* optional(const char* key) const;  // nullptr when absent
  bool has(const char* key) const { return value_.contains(key); }
  Place operator/(const char* key) const { return place_ / key; }
  const Place& place() const { return place_; }

 private:
  const Json& value_;
  Place place_;
};

}  // namespace smfem::scene::detail
