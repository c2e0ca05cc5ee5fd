#include "smfem/mesh/ply.hpp"

#include <cmath>
#include <limits>

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/detail/ply_header.hpp"
#include "smfem/mesh/detail/ply_values.hpp"

namespace smfem::mesh {
namespace {

using detail::PlyElement;
using detail::PlyProperty;

// Skips one property of the entry at `location`.
template <class Values>
void skip_property(Values& values, const PlyProperty& property, std::size_t location) {
  if (!property.is_list) return values.skip(property.value_type, 1);
  const long long length = values.integer(property.count_type, "a list length");
  if (length < 0) {
    values.fail_at(location,
                   "list " + property.name + " has a negative length " + std::to_string(length));
  }
  values.skip(property.value_type, static_cast<std::size_t>(length));
}

// Reserves room for an element's entries, as many as the rest of the data can hold at most.
template <class Values, class T>
void reserve_entries(const Values& values, const PlyElement& element, std::size_t per_entry,
                     std::vector<T>& storage) {
  storage.reserve(storage.size() +
                  per_entry * detail::plausible_count(element.count, values.remaining_bytes(),
                                                      values.min_entry_bytes(element)));
}

template <class Values>
void read_vertices(Values& values, const PlyElement& element, std::vector<double>& coordinates) {
  const int axes[3] = {element.find("x"), element.find("y"), element.find("z")};
  reserve_entries(values, element, 3, coordinates);
  for (std::size_t i = 0; i < element.count; ++i) {
    const std::size_t location = values.start_entry(i, element.count, "vertex");
    double position[3] = {0, 0, 0};
    for (std::size_t p = 0; p < element.properties.size(); ++p) {
      const PlyProperty& property = element.properties[p];
      if (property.is_list) {
        skip_property(values, property, location);
        continue;
      }
      const double value = values.real(property.value_type, property.name);
      for (int axis = 0; axis < 3; ++axis) {
        if (axes[axis] == static_cast<int>(p)) position[axis] = value;
      }
    }
    for (double coordinate : position) {
      if (!std::isfinite(coordinate)) {
        values.fail_at(location, "vertex " + std::to_string(i) +
                                     " has a coordinate that is not finite (" +
                                     detail::format_real(coordinate) + ")");
      }
    }
    coordinates.insert(coordinates.end(), position, position + 3);
  }
}

template <class Values>
void read_faces(Values& values, const PlyElement& element, detail::ParsedTriangles& parsed) {
  int indices = element.find("vertex_indices");
  if (indices < 0) indices = element.find("vertex_index");
  reserve_entries(values, element, 3, parsed.corners);
  std::vector<int> polygon;
  for (std::size_t i = 0; i < element.count; ++i) {
    const std::size_t location = values.start_entry(i, element.count, "face");
    polygon.clear();
    for (std::size_t p = 0; p < element.properties.size(); ++p) {
      const PlyProperty& property = element.properties[p];
      if (static_cast<int>(p) != indices) {
        skip_property(values, property, location);
        continue;
      }
      const long long corners = values.integer(property.count_type, "a corner count");
      if (corners < 3) {
        values.fail_at(location, "face " + std::to_string(i) + " has " + std::to_string(corners) +
                                     " corners; a face needs 3 or more");
      }
      for (long long c = 0; c < corners; ++c) {
        const long long index = values.integer(property.value_type, "a vertex index");
        if (index < std::numeric_limits<int>::min() || index > std::numeric_limits<int>::max()) {
          values.fail_at(location, "vertex index " + std::to_string(index) + " is out of range");
        }
        polygon.push_back(static_cast<int>(index));
      }
    }
    detail::append_fan(polygon, 0, location, parsed);
  }
}

template <class Values>
void skip_element(Values& values, const PlyElement& element) {
  // Entries without properties take no bytes: nothing to skip, and looping over a declared
  // count of billions would only spin.
  if (element.properties.empty()) return;
  for (std::size_t i = 0; i < element.count; ++i) {
    const std::size_t location = values.start_entry(i, element.count, element.name);
    for (const PlyProperty& property : element.properties) {
      skip_property(values, property, location);
    }
  }
}

template <class Values>
SurfaceMesh read_data(Values& values, const detail::PlyHeader& header, const std::string& name,
                      ReadReport& report) {
  detail::ParsedTriangles parsed;
  for (const PlyElement& element : header.elements) {
    if (element.name == "vertex") {
      read_vertices(values, element, parsed.coordinates);
    } else if (element.name == "face") {
      read_faces(values, element, parsed);
    } else {
      skip_element(values, element);
      if (element.count > 0) {
        report.notes.push_back("skipped " + std::to_string(element.count) + " entries of element " +
                               element.name);
      }
    }
  }
  const detail::ElementOrigin origin{name, Values::binary, "face", 0, values.end_location()};
  return detail::assemble_surface_mesh(std::move(parsed), origin, report);
}

}  // namespace

SurfaceMesh parse_ply_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};

  detail::TextCursor cursor(content, display_name, '\0');
  const detail::PlyHeader header = detail::read_ply_header(cursor);
  if (header.format == detail::PlyFormat::ascii) {
    detail::AsciiPlyValues values(cursor);
    return read_data(values, header, display_name, used);
  }
  const std::endian byte_order = header.format == detail::PlyFormat::binary_little_endian
                                     ? std::endian::little
                                     : std::endian::big;
  detail::BinaryPlyValues values(content, cursor.offset(), display_name, byte_order);
  return read_data(values, header, display_name, used);
}

SurfaceMesh read_ply_mesh(const std::filesystem::path& path, ReadReport* report) {
  return parse_ply_mesh(detail::read_file_bytes(path), path.string(), report);
}

}  // namespace smfem::mesh
