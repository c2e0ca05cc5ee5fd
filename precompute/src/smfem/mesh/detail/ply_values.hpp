#pragma once
// Where the PLY reader takes its numbers from: ASCII tokens or binary values of either byte
// order. Both classes have the same members, so one templated element reader serves all three
// PLY formats. Locations are lines (ASCII) or byte offsets (binary).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "smfem/mesh/detail/binary_cursor.hpp"
#include "smfem/mesh/detail/ply_header.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"

namespace smfem::mesh::detail {

class AsciiPlyValues {
 public:
  static constexpr bool binary = false;

  explicit AsciiPlyValues(TextCursor& cursor) : cursor_(cursor) {}

  // Checks that entry `index` of the `count` declared is there; returns its location.
  std::size_t start_entry(std::size_t index, std::size_t count, std::string_view element) {
    cursor_.start_entry(index, count, std::string(element) + " entries");
    return cursor_.line();
  }
  double real(PlyType, std::string_view what) { return cursor_.to_real(cursor_.token(what), what); }
  long long integer(PlyType, std::string_view what) {
    return cursor_.to_integer(cursor_.token(what), what);
  }
  void skip(PlyType, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) cursor_.token("a property value");
  }
  std::size_t remaining_bytes() const { return cursor_.remaining_bytes(); }
  // The fewest bytes an entry can take: one digit and a separator per scalar.
  std::size_t min_entry_bytes(const PlyElement& element) const {
    return 2 * element.properties.size();
  }
  std::size_t end_location() const { return cursor_.last_line(); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& problem) const {
    cursor_.fail_at(line, problem);
  }

 private:
  TextCursor& cursor_;
};

class BinaryPlyValues {
 public:
  static constexpr bool binary = true;

  BinaryPlyValues(std::string_view content, std::size_t start, std::string file_name,
                  std::endian byte_order)
      : cursor_(content, start, std::move(file_name), byte_order), size_(content.size()) {}

  std::size_t start_entry(std::size_t index, std::size_t count, std::string_view element) {
    if (cursor_.remaining_bytes() == 0) {
      cursor_.fail("file ended after " + std::to_string(index) + " of the " +
                   std::to_string(count) + " declared " + std::string(element) + " entries");
    }
    return cursor_.offset();
  }
  double real(PlyType type, std::string_view what) {
    switch (type) {
      case PlyType::float32:
        return cursor_.read<float>(what);
      case PlyType::float64:
        return cursor_.read<double>(what);
      default:
        return static_cast<double>(integer(type, what));
    }
  }
  long long integer(PlyType type, std::string_view what) {
    switch (type) {
      case PlyType::int8:
        return cursor_.read<std::int8_t>(what);
      case PlyType::uint8:
        return cursor_.read<std::uint8_t>(what);
      case PlyType::int16:
        return cursor_.read<std::int16_t>(what);
      case PlyType::uint16:
        return cursor_.read<std::uint16_t>(what);
      case PlyType::int32:
        return cursor_.read<std::int32_t>(what);
      case PlyType::uint32:
        return cursor_.read<std::uint32_t>(what);
      default:
        // The header allows only integer types where integers are read.
        cursor_.fail("a " + std::string(what) + " of a floating-point type");
    }
  }
  void skip(PlyType type, std::size_t count) {
    const std::size_t bytes = ply_type_bytes(type);
    if (count > cursor_.remaining_bytes() / bytes) {
      cursor_.fail_at(size_, "file ended in a list of " + std::to_string(count) + " values");
    }
    cursor_.skip(count * bytes, "a property value");
  }
  std::size_t remaining_bytes() const { return cursor_.remaining_bytes(); }
  std::size_t min_entry_bytes(const PlyElement& element) const {
    std::size_t bytes = 0;
    for (const PlyProperty& property : element.properties) {
      bytes += ply_type_bytes(property.is_list ? property.count_type : property.value_type);
    }
    return bytes;
  }
  std::size_t end_location() const { return size_; }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& problem) const {
    cursor_.fail_at(offset, problem);
  }

 private:
  BinaryCursor cursor_;
  std::size_t size_;
};

}  // namespace smfem::mesh::detail
