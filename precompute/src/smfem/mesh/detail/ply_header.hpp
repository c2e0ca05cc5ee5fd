#pragma once
// The header of a PLY file: its data format and the declared elements with their properties.
#include <cstddef>
#include <string>
#include <vector>

#include "smfem/mesh/detail/text_cursor.hpp"

namespace smfem::mesh::detail {

enum class PlyFormat { ascii, binary_little_endian, binary_big_endian };

// The scalar types of PLY, under either of their names (char / int8, float / float32, ...).
enum class PlyType { int8, uint8, int16, uint16, int32, uint32, float32, float64 };

std::size_t ply_type_bytes(PlyType type);
bool ply_type_is_integer(PlyType type);

struct PlyProperty {
  std::string name;
  bool is_list = false;
  PlyType count_type = PlyType::uint8;  // lists only; always an integer type
  PlyType value_type = PlyType::float32;
};

struct PlyElement {
  std::string name;
  std::size_t count = 0;
  std::vector<PlyProperty> properties;
  std::size_t header_line = 0;  // where it is declared, for messages about its properties

  // The index of a property by name, or -1.
  int find(std::string_view property_name) const;
};

struct PlyHeader {
  PlyFormat format = PlyFormat::ascii;
  std::vector<PlyElement> elements;
};

// Reads the header from the start of the file up to and including the "end_header" line,
// leaving the cursor at the first byte of the data. Fails on a missing "ply" magic line, an
// unknown format or type, a property outside an element, a list counted by a non-integer type,
// a missing end_header, a vertex element without x, y and z or a face element without an
// integer vertex_indices (or vertex_index) list.
PlyHeader read_ply_header(TextCursor& cursor);

}  // namespace smfem::mesh::detail
