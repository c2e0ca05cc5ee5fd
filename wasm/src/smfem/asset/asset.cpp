#include "smfem/asset/asset.hpp"

#include <algorithm>
#include <fstream>
#include <limits>

#include "smfem/asset/detail/rules.hpp"
#include "smfem/asset/detail/validate.hpp"

namespace smfem::asset {
namespace {

std::string describe_shape(DType dtype, std::initializer_list<std::int64_t> shape) {
  std::string text = std::string(dtype_name(dtype)) + " [";
  for (auto it = shape.begin(); it != shape.end(); ++it) {
    if (it != shape.begin()) text += ", ";
    text += *it == kAnyExtent ? "any" : std::to_string(*it);
  }
  return text + "]";
}

bool shape_matches(const Shape& actual, std::initializer_list<std::int64_t> expected) {
  return std::equal(actual.begin(), actual.end(), expected.begin(), expected.end(),
                    [](std::uint64_t extent, std::int64_t want) {
                      return want == kAnyExtent ||
                             (want >= 0 && extent == static_cast<std::uint64_t>(want));
                    });
}

}  // namespace

Asset Asset::from_bytes(std::vector<std::uint8_t> bytes, std::string source_name) {
  detail::ValidatedLayout layout = detail::validate_layout(bytes, source_name);
  Asset asset;
  asset.source_ = std::move(source_name);
  asset.bytes_ = std::move(bytes);
  asset.sections_ = std::move(layout.sections);
  asset.minor_ = layout.minor_version;
  if (!asset.has(kMetaSection)) {
    throw AssetError::in_section(asset.source_, std::string(kMetaSection), "section is missing");
  }
  const SectionInfo& meta = asset.section(kMetaSection);
  if (meta.dtype != DType::utf8) {
    throw AssetError::in_section(asset.source_, meta.name,
                                 "must be utf8 text, not " + std::string(dtype_name(meta.dtype)));
  }
  asset.meta_ = detail::parse_meta(asset.text(kMetaSection), asset.source_);
  return asset;
}

Asset Asset::from_file(const std::filesystem::path& path) {
  const auto fail = [&](std::string problem) { return AssetError(path.string(), "file", problem); };
  // Only regular files: a device such as /dev/zero would never end.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error) throw fail("cannot open: " + error.message());
  if (!std::filesystem::is_regular_file(status)) throw fail("not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw fail("cannot read its size: " + error.message());
  if (size > std::numeric_limits<std::size_t>::max()) throw fail("too large for this platform");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fail("cannot open for reading");
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) throw fail("read error (file changed?)");
  return from_bytes(std::move(bytes), path.string());
}

bool Asset::has(std::string_view name) const {
  return std::any_of(sections_.begin(), sections_.end(),
                     [&](const SectionInfo& section) { return section.name == name; });
}

const SectionInfo& Asset::section(std::string_view name) const {
  const auto it = std::find_if(sections_.begin(), sections_.end(),
                               [&](const SectionInfo& section) { return section.name == name; });
  if (it == sections_.end()) {
    throw AssetError::in_section(source_, std::string(name), "section is missing");
  }
  return *it;
}

const SectionInfo& Asset::expect(std::string_view name, DType dtype,
                                 std::initializer_list<std::int64_t> shape) const {
  const SectionInfo& info = section(name);
  if (info.dtype != dtype || !shape_matches(info.shape, shape)) {
    throw AssetError::in_section(source_, info.name,
                                 "expected " + describe_shape(dtype, shape) + ", found " +
                                     std::string(dtype_name(info.dtype)) + " " +
                                     detail::format_shape(info.shape));
  }
  return info;
}

std::span<const std::uint8_t> Asset::bytes(std::string_view name) const {
  const SectionInfo& info = section(name);
  // Validated to lie within bytes_, so both fit in a size_t.
  return std::span<const std::uint8_t>(bytes_).subspan(static_cast<std::size_t>(info.offset),
                                                       static_cast<std::size_t>(info.length));
}

std::span<const std::uint8_t> Asset::typed_bytes(std::string_view name, DType dtype) const {
  const SectionInfo& info = section(name);
  if (info.dtype != dtype) {
    throw AssetError::in_section(source_, info.name,
                                 "holds " + std::string(dtype_name(info.dtype)) +
                                     ", requested as " + std::string(dtype_name(dtype)));
  }
  return bytes(name);
}

std::string Asset::text(std::string_view name) const {
  const std::span<const std::uint8_t> data = typed_bytes(name, DType::utf8);
  return std::string(data.begin(), data.end());
}

}  // namespace smfem::asset
