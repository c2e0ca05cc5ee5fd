#pragma once
// Writing a baked asset (.smfem, see assets/FORMAT.md). The writer applies the reader's rules
// as data comes in (names, shapes against data sizes, finite floats, UTF-8, metadata), so it
// can only produce files that Asset::from_bytes accepts; a violation throws AssetError with
// source "asset writer". Sections are laid out in the order they were added, after `meta`.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/format.hpp"

namespace smfem::asset {

class AssetWriter {
 public:
  // Required before to_bytes/write_file: a JSON object with "format": "smfem-asset" and
  // non-empty strings "kind" and "generator" (other keys are free). Replaces earlier metadata.
  void set_meta(const nlohmann::json& meta);
  // The metadata set so far (null before set_meta), for a stage that adds a key to it.
  nlohmann::json meta() const;

  // Adds a section. `values` are in row-major order (Eigen's default column-major matrices
  // must be transposed first); their count must equal the product of `shape` (rank 1..4).
  void add(std::string_view name, std::span<const float> values, const Shape& shape);
  void add(std::string_view name, std::span<const double> values, const Shape& shape);
  void add(std::string_view name, std::span<const std::int32_t> values, const Shape& shape);
  void add(std::string_view name, std::span<const std::uint32_t> values, const Shape& shape);
  void add(std::string_view name, std::span<const std::uint8_t> values, const Shape& shape);
  // Adds a utf8 section (rank 1, extent = byte length); `text` must be valid UTF-8.
  void add_text(std::string_view name, std::string_view text);

  std::vector<std::uint8_t> to_bytes() const;
  // Writes <path>.tmp-<random> in the same folder, then renames it over `path`: a failure
  // (invalid data, missing folder, full disk) leaves any existing file at `path` untouched.
  void write_file(const std::filesystem::path& path) const;

 private:
  struct Section {
    std::string name;
    DType dtype;
    Shape shape;
    std::vector<std::uint8_t> data;
  };

  template <Element T>
  void add_elements(std::string_view name, std::span<const T> values, const Shape& shape);
  void add_section(std::string_view name, DType dtype, const Shape& shape,
                   std::span<const std::uint8_t> data, std::uint64_t value_count);

  std::string meta_text_;  // empty until set_meta
  std::vector<Section> sections_;
};

// Writes bytes to path through a temporary file beside it, renamed over it only once whole (a
// failure leaves path as it was); throws AssetError naming path.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace smfem::asset
