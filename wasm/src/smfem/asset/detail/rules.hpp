#pragma once
// Rules that the reader and the writer share, so that the writer can only produce files the
// reader accepts. Each check returns the problem in plain words, or nothing when all is well.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "smfem/asset/format.hpp"

namespace smfem::asset::detail {

// "0x0000abcd" (8 hex digits) and "0x07" (2 hex digits), as used in every message.
std::string hex32(std::uint32_t value);
std::string hex8(std::uint8_t value);

// "[8, 3]".
std::string format_shape(std::span<const std::uint64_t> shape);

// A section name: 1..31 characters from a-z 0-9 . _ -, starting with a-z or 0-9.
std::optional<std::string> name_problem(std::string_view name);

// Bytes needed by a section of this shape and dtype, or nothing if that overflows 64 bits.
std::optional<std::uint64_t> shape_byte_size(std::span<const std::uint64_t> shape, DType dtype);

// What is wrong with the data of a section of this dtype: a NaN or infinity in f32/f64 data,
// or invalid UTF-8 in utf8 text. Data of the other dtypes is always fine.
std::optional<std::string> content_problem(DType dtype, std::span<const std::uint8_t> data);

// The metadata held by the section `meta`: the text must be a JSON object (no byte-order
// mark, at most kMaxMetaDepth levels of nesting) with "format": "smfem-asset" and non-empty
// strings "kind" and "generator". Throws AssetError about section 'meta' from `source`.
nlohmann::json parse_meta(std::string_view text, const std::string& source);

}  // namespace smfem::asset::detail
