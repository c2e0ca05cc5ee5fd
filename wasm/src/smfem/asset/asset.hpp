#pragma once
// Reading a baked asset (.smfem, see assets/FORMAT.md). Everything is validated when the
// Asset is made, before any use: the header, the section table, every section's bounds,
// shape, checksum and values (finite floats, valid UTF-8), and the metadata. A bad file gives
// an AssetError naming the file, the part at fault and the problem; never a crash, never a
// huge allocation (every count is checked against the file's size first).
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_error.hpp"
#include "smfem/asset/format.hpp"

namespace smfem::asset {

// Section data is copied out as is: the format is little-endian and so are all our hosts
// (x86-64, arm64, WebAssembly). A big-endian port would byte-swap in Asset::array.
static_assert(std::endian::native == std::endian::little, "the asset reader assumes little-endian");

// One entry of the section table, as validated.
struct SectionInfo {
  std::string name;
  DType dtype = DType::u8;
  Shape shape;               // rank extents (1..4), row-major
  std::uint64_t offset = 0;  // of the data from the start of the file, a multiple of 16
  std::uint64_t length = 0;  // bytes: product(shape) * dtype_size(dtype)
  std::uint32_t crc32 = 0;   // of the data

  std::uint64_t element_count() const { return length / dtype_size(dtype); }
};

// An extent in Asset::expect that may be anything.
inline constexpr std::int64_t kAnyExtent = -1;

class Asset {
 public:
  // Validates `bytes` and keeps them. source_name names the asset in error messages.
  static Asset from_bytes(std::vector<std::uint8_t> bytes, std::string source_name);
  // Reads and validates a file; the path (as given) names it in error messages.
  static Asset from_file(const std::filesystem::path& path);

  const std::string& source_name() const { return source_; }
  // The major version is always kMajorVersion; newer minor versions are accepted.
  std::uint16_t minor_version() const { return minor_; }
  std::uint64_t file_size() const { return bytes_.size(); }
  // The section `meta`, parsed: a JSON object with at least "format", "kind", "generator".
  const nlohmann::json& meta() const { return meta_; }
  // In the order of the section table.
  std::span<const SectionInfo> sections() const { return sections_; }

  bool has(std::string_view name) const;
  // Throws AssetError ("section is missing") if there is no such section.
  const SectionInfo& section(std::string_view name) const;
  // The section, after checking its dtype and shape; kAnyExtent matches any extent, e.g.
  // expect("render.positions", DType::f32, {kAnyExtent, 3}). Throws AssetError otherwise.
  const SectionInfo& expect(std::string_view name, DType dtype,
                            std::initializer_list<std::int64_t> shape) const;

  // The raw (little-endian) data of a section, valid as long as this Asset.
  std::span<const std::uint8_t> bytes(std::string_view name) const;
  // The elements of a section in row-major order; throws AssetError unless the section's
  // dtype is T's (float f32, double f64, int32_t i32, uint32_t u32, uint8_t u8).
  template <Element T>
  std::vector<T> array(std::string_view name) const;
  // The text of a utf8 section; throws AssetError for other dtypes.
  std::string text(std::string_view name) const;

 private:
  Asset() = default;
  std::span<const std::uint8_t> typed_bytes(std::string_view name, DType dtype) const;

  std::string source_;
  std::vector<std::uint8_t> bytes_;
  std::vector<SectionInfo> sections_;
  nlohmann::json meta_;
  std::uint16_t minor_ = 0;
};

template <Element T>
std::vector<T> Asset::array(std::string_view name) const {
  const std::span<const std::uint8_t> data = typed_bytes(name, DTypeOf<T>::value);
  std::vector<T> values(data.size() / sizeof(T));
  // memcpy, not a cast: the bytes are not T objects, and may not be aligned for T.
  if (!data.empty()) std::memcpy(values.data(), data.data(), data.size());
  return values;
}

}  // namespace smfem::asset
