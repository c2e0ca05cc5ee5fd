#include "smfem/asset/asset_writer.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <random>

#include "smfem/asset/asset_error.hpp"
#include "smfem/asset/crc32.hpp"
#include "smfem/asset/detail/le_bytes.hpp"
#include "smfem/asset/detail/rules.hpp"

namespace smfem::asset {
namespace {

constexpr const char* kSource = "asset writer";

AssetError writer_error(std::string_view section, std::string problem) {
  return AssetError::in_section(kSource, std::string(section), std::move(problem));
}

std::size_t align_up(std::size_t offset) {
  return (offset + kDataAlignment - 1) / kDataAlignment * kDataAlignment;
}

std::string random_suffix() {
  std::random_device device;
  const std::uint32_t high = device(), low = device();
  return detail::hex32(high).substr(2) + detail::hex32(low).substr(2);
}

}  // namespace

void AssetWriter::set_meta(const nlohmann::json& meta) {
  std::string text;
  try {
    text = meta.dump(2);
  } catch (const nlohmann::json::exception& error) {  // e.g. a string that is not UTF-8
    throw writer_error(kMetaSection, std::string("cannot serialise: ") + error.what());
  }
  detail::parse_meta(text, kSource);  // the reader's rules, on exactly what will be stored
  meta_text_ = std::move(text);
}

nlohmann::json AssetWriter::meta() const {
  return meta_text_.empty() ? nlohmann::json() : nlohmann::json::parse(meta_text_);
}

template <Element T>
void AssetWriter::add_elements(std::string_view name, std::span<const T> values,
                               const Shape& shape) {
  // The object representation, which is the little-endian encoding on our hosts.
  const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(values.data()),
                                           values.size_bytes());
  add_section(name, DTypeOf<T>::value, shape, data, values.size());
}

void AssetWriter::add(std::string_view name, std::span<const float> values, const Shape& shape) {
  add_elements(name, values, shape);
}
void AssetWriter::add(std::string_view name, std::span<const double> values, const Shape& shape) {
  add_elements(name, values, shape);
}
void AssetWriter::add(std::string_view name, std::span<const std::int32_t> values,
                      const Shape& shape) {
  add_elements(name, values, shape);
}
void AssetWriter::add(std::string_view name, std::span<const std::uint32_t> values,
                      const Shape& shape) {
  add_elements(name, values, shape);
}
void AssetWriter::add(std::string_view name, std::span<const std::uint8_t> values,
                      const Shape& shape) {
  add_elements(name, values, shape);
}

void AssetWriter::add_text(std::string_view name, std::string_view text) {
  const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(text.data()),
                                           text.size());
  add_section(name, DType::utf8, {text.size()}, data, text.size());
}

void AssetWriter::add_section(std::string_view name, DType dtype, const Shape& shape,
                              std::span<const std::uint8_t> data, std::uint64_t value_count) {
  if (const auto problem = detail::name_problem(name)) throw writer_error(name, *problem);
  if (name == kMetaSection) throw writer_error(name, "name is reserved (use set_meta)");
  if (std::any_of(sections_.begin(), sections_.end(),
                  [&](const Section& section) { return section.name == name; })) {
    throw writer_error(name, "section added twice");
  }
  if (shape.empty() || shape.size() > kMaxRank) {
    throw writer_error(name, "rank " + std::to_string(shape.size()) + " is outside 1.." +
                                 std::to_string(kMaxRank));
  }
  for (const std::uint64_t extent : shape) {
    if (extent > std::numeric_limits<std::uint32_t>::max()) {
      throw writer_error(name, "extent " + std::to_string(extent) + " does not fit in 32 bits");
    }
  }
  const auto byte_size = detail::shape_byte_size(shape, dtype);
  if (!byte_size || *byte_size / dtype_size(dtype) != value_count) {
    throw writer_error(name, "shape " + detail::format_shape(shape) + " does not hold the " +
                                 std::to_string(value_count) + " values given");
  }
  if (const auto problem = detail::content_problem(dtype, data)) throw writer_error(name, *problem);
  sections_.push_back({std::string(name), dtype, shape, {data.begin(), data.end()}});
}

std::vector<std::uint8_t> AssetWriter::to_bytes() const {
  if (meta_text_.empty()) throw writer_error(kMetaSection, "metadata not set (call set_meta)");
  std::vector<const Section*> order;  // meta first, then in the order added
  const Section meta{std::string(kMetaSection),
                     DType::utf8,
                     {meta_text_.size()},
                     {meta_text_.begin(), meta_text_.end()}};
  order.push_back(&meta);
  for (const Section& section : sections_) order.push_back(&section);

  // In memory, so everything is a size_t (also on wasm32).
  const std::size_t table_end = header::kSize + order.size() * entry::kSize;
  std::vector<std::size_t> offsets;
  std::size_t file_size = table_end;
  for (const Section* section : order) {
    offsets.push_back(align_up(file_size));
    file_size = offsets.back() + section->data.size();
  }

  std::vector<std::uint8_t> bytes(file_size, 0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Section& section = *order[i];
    std::copy(section.data.begin(), section.data.end(), bytes.begin() + offsets[i]);
    std::uint8_t* raw = bytes.data() + header::kSize + i * entry::kSize;
    std::copy(section.name.begin(), section.name.end(), raw + entry::kNameAt);
    detail::store_u16(raw + entry::kDTypeAt, static_cast<std::uint16_t>(section.dtype));
    detail::store_u16(raw + entry::kRankAt, static_cast<std::uint16_t>(section.shape.size()));
    for (std::size_t d = 0; d < section.shape.size(); ++d) {
      detail::store_u32(raw + entry::kShapeAt + 4 * d,
                        static_cast<std::uint32_t>(section.shape[d]));
    }
    detail::store_u32(raw + entry::kDataCrcAt, crc32(section.data));
    detail::store_u64(raw + entry::kOffsetAt, offsets[i]);
    detail::store_u64(raw + entry::kLengthAt, section.data.size());
  }

  std::uint8_t* head = bytes.data();
  std::copy(kMagic.begin(), kMagic.end(), head + header::kMagicAt);
  detail::store_u16(head + header::kMajorAt, kMajorVersion);
  detail::store_u16(head + header::kMinorAt, kMinorVersion);
  detail::store_u32(head + header::kByteOrderAt, kByteOrderMark);
  detail::store_u32(head + header::kSectionCountAt, static_cast<std::uint32_t>(order.size()));
  detail::store_u32(head + header::kTableOffsetAt, header::kSize);
  detail::store_u32(head + header::kEntrySizeAt, entry::kSize);
  const std::span<const std::uint8_t> table(bytes.data() + header::kSize,
                                            table_end - header::kSize);
  detail::store_u32(head + header::kTableCrcAt, crc32(table));
  detail::store_u64(head + header::kFileSizeAt, file_size);
  detail::store_u32(head + header::kHeaderCrcAt,
                    crc32(std::span<const std::uint8_t>(head, header::kHeaderCrcAt)));
  return bytes;
}

void AssetWriter::write_file(const std::filesystem::path& path) const {
  const std::vector<std::uint8_t> bytes = to_bytes();  // invalid data throws before any I/O
  write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + random_suffix();
  const auto fail = [&](const std::string& problem) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return AssetError(path.string(), "file", problem);
  };
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw fail("cannot create " + temporary.string());
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw fail("cannot write " + temporary.string() + " (disk full?)");
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw fail("cannot rename " + temporary.string() + " to it: " + error.message());
}

}  // namespace smfem::asset
