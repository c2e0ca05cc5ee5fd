#include "smfem/mesh/detail/ply_header.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "smfem/mesh/detail/numbers.hpp"

namespace smfem::mesh::detail {
namespace {

constexpr std::array<std::pair<std::string_view, PlyType>, 16> type_names{{
    {"char", PlyType::int8},
    {"int8", PlyType::int8},
    {"uchar", PlyType::uint8},
    {"uint8", PlyType::uint8},
    {"short", PlyType::int16},
    {"int16", PlyType::int16},
    {"ushort", PlyType::uint16},
    {"uint16", PlyType::uint16},
    {"int", PlyType::int32},
    {"int32", PlyType::int32},
    {"uint", PlyType::uint32},
    {"uint32", PlyType::uint32},
    {"float", PlyType::float32},
    {"float32", PlyType::float32},
    {"double", PlyType::float64},
    {"float64", PlyType::float64},
}};

std::optional<PlyType> type_named(std::string_view name) {
  for (const auto& [type_name, type] : type_names) {
    if (type_name == name) return type;
  }
  return std::nullopt;
}

PlyType to_type(const TextCursor& cursor, std::string_view name) {
  const std::optional<PlyType> type = type_named(name);
  if (!type) cursor.fail("unknown property type " + quote_token(name));
  return *type;
}

PlyFormat read_format(TextCursor& cursor) {
  const std::string_view name = cursor.token_on_line("the data format");
  PlyFormat format;
  if (name == "ascii") {
    format = PlyFormat::ascii;
  } else if (name == "binary_little_endian") {
    format = PlyFormat::binary_little_endian;
  } else if (name == "binary_big_endian") {
    format = PlyFormat::binary_big_endian;
  } else {
    cursor.fail("unknown data format " + quote_token(name));
  }
  const std::string_view version = cursor.token_on_line("the format version");
  if (version != "1.0") cursor.fail("unsupported PLY version " + quote_token(version) + " (1.0)");
  return format;
}

PlyProperty read_property(TextCursor& cursor) {
  PlyProperty property;
  const std::string_view type = cursor.token_on_line("a property type");
  if (type == "list") {
    property.is_list = true;
    property.count_type = to_type(cursor, cursor.token_on_line("the list's count type"));
    if (!ply_type_is_integer(property.count_type)) {
      cursor.fail("a list must be counted by an integer type");
    }
    property.value_type = to_type(cursor, cursor.token_on_line("the list's value type"));
  } else {
    property.value_type = to_type(cursor, type);
  }
  property.name = std::string(cursor.token_on_line("a property name"));
  return property;
}

// The checks on the two elements the reader uses, before any data is read.
void check_used_elements(const TextCursor& cursor, const PlyHeader& header) {
  for (const PlyElement& element : header.elements) {
    if (element.name == "vertex") {
      for (std::string_view axis : {"x", "y", "z"}) {
        const int found = element.find(axis);
        if (found < 0 || element.properties[static_cast<std::size_t>(found)].is_list) {
          cursor.fail_at(element.header_line,
                         "element vertex has no scalar property " + std::string(axis));
        }
      }
    } else if (element.name == "face") {
      int found = element.find("vertex_indices");
      if (found < 0) found = element.find("vertex_index");
      if (found < 0 || !element.properties[static_cast<std::size_t>(found)].is_list ||
          !ply_type_is_integer(element.properties[static_cast<std::size_t>(found)].value_type)) {
        cursor.fail_at(element.header_line,
                       "element face has no integer list property vertex_indices");
      }
    }
  }
}

}  // namespace

std::size_t ply_type_bytes(PlyType type) {
  switch (type) {
    case PlyType::int8:
    case PlyType::uint8:
      return 1;
    case PlyType::int16:
    case PlyType::uint16:
      return 2;
    case PlyType::int32:
    case PlyType::uint32:
    case PlyType::float32:
      return 4;
    case PlyType::float64:
      return 8;
  }
  return 0;
}

bool ply_type_is_integer(PlyType type) {
  return type != PlyType::float32 && type != PlyType::float64;
}

int PlyElement::find(std::string_view property_name) const {
  for (std::size_t i = 0; i < properties.size(); ++i) {
    if (properties[i].name == property_name) return static_cast<int>(i);
  }
  return -1;
}

PlyHeader read_ply_header(TextCursor& cursor) {
  if (!cursor.skip_blank()) cursor.fail("the file is empty");
  if (cursor.rest_of_line() != "ply") {
    cursor.fail_at(1, "not a PLY file: the first line is not 'ply'");
  }
  PlyHeader header;
  bool format_read = false;
  while (true) {
    if (!cursor.skip_blank()) cursor.fail_at_end("the header has no end_header line");
    const std::string_view keyword = cursor.token("a header keyword");
    if (keyword == "end_header") break;
    if (keyword == "format") {
      header.format = read_format(cursor);
      format_read = true;
    } else if (keyword == "element") {
      PlyElement element;
      element.header_line = cursor.line();
      element.name = std::string(cursor.token_on_line("an element name"));
      element.count = cursor.to_count(cursor.token_on_line("an element count"), "element count",
                                      std::numeric_limits<std::uint32_t>::max());
      header.elements.push_back(std::move(element));
    } else if (keyword == "property") {
      if (header.elements.empty()) cursor.fail("a property before any element");
      header.elements.back().properties.push_back(read_property(cursor));
    } else if (keyword != "comment" && keyword != "obj_info") {
      cursor.fail("unknown header keyword " + quote_token(keyword));
    }
    cursor.skip_line();
  }
  if (!format_read) cursor.fail("the header has no format line");
  check_used_elements(cursor, header);
  cursor.skip_line();  // the data starts after end_header's line break
  return header;
}

}  // namespace smfem::mesh::detail
