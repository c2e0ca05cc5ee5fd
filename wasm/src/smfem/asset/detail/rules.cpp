#include "smfem/asset/detail/rules.hpp"

#include <limits>

#include "smfem/asset/asset_error.hpp"
#include "smfem/asset/detail/le_bytes.hpp"

namespace smfem::asset::detail {
namespace {

std::string hex_digits(std::uint64_t value, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text = "0x";
  for (int i = digits - 1; i >= 0; --i) text += kDigits[(value >> (4 * i)) & 0xFu];
  return text;
}

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Index of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or nothing if all is well-formed.
std::optional<std::size_t> first_invalid_utf8(std::span<const std::uint8_t> text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::uint8_t lead = text[i];
    std::size_t continuation = 0;
    std::uint8_t second_min = 0x80, second_max = 0xBF;
    if (lead < 0x80) {
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      continuation = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      continuation = 2;
      if (lead == 0xE0) second_min = 0xA0;  // overlong
      if (lead == 0xED) second_max = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      continuation = 3;
      if (lead == 0xF0) second_min = 0x90;  // overlong
      if (lead == 0xF4) second_max = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (text.size() - i <= continuation) return i;
    if (text[i + 1] < second_min || text[i + 1] > second_max) return i;
    for (std::size_t k = 2; k <= continuation; ++k) {
      if (text[i + k] < 0x80 || text[i + k] > 0xBF) return i;
    }
    i += continuation + 1;
  }
  return std::nullopt;
}

// Nesting depth of arrays and objects, counting brackets outside strings. Checked before
// parsing so that hostile metadata cannot make any parser recurse deeply.
std::size_t json_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

bool is_nonempty_string(const nlohmann::json& meta, const char* key) {
  const auto it = meta.find(key);
  return it != meta.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
}

}  // namespace

std::string hex32(std::uint32_t value) { return hex_digits(value, 8); }
std::string hex8(std::uint8_t value) { return hex_digits(value, 2); }

std::string format_shape(std::span<const std::uint64_t> shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "name is empty";
  if (name.size() >= entry::kNameCapacity) {
    return "name is longer than " + std::to_string(entry::kNameCapacity - 1) + " characters";
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!is_lower_alnum(c) && c != '.' && c != '_' && c != '-') {
      return "name has byte " + hex8(static_cast<std::uint8_t>(c)) + " at position " +
             std::to_string(i) + " (allowed: a-z 0-9 . _ -)";
    }
  }
  if (!is_lower_alnum(name.front())) return "name must start with a-z or 0-9";
  return std::nullopt;
}

std::optional<std::uint64_t> shape_byte_size(std::span<const std::uint64_t> shape, DType dtype) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t bytes = dtype_size(dtype);
  for (const std::uint64_t extent : shape) {
    if (extent != 0 && bytes > kMax / extent) return std::nullopt;
    bytes *= extent;
  }
  return bytes;
}

std::optional<std::string> content_problem(DType dtype, std::span<const std::uint8_t> data) {
  // Checked on the bit patterns, so that no compiler flag can optimise the test away.
  if (dtype == DType::f32) {
    for (std::size_t i = 0; i + 4 <= data.size(); i += 4) {
      const std::uint32_t bits = load_u32(data.data() + i);
      if ((bits & 0x7F800000u) == 0x7F800000u) {
        return "element " + std::to_string(i / 4) +
               ((bits & 0x007FFFFFu) ? " is NaN" : " is infinite");
      }
    }
  } else if (dtype == DType::f64) {
    constexpr std::uint64_t kExponent = 0x7FF0000000000000u;
    for (std::size_t i = 0; i + 8 <= data.size(); i += 8) {
      const std::uint64_t bits = load_u64(data.data() + i);
      if ((bits & kExponent) == kExponent) {
        return "element " + std::to_string(i / 8) +
               ((bits & ~(kExponent | (std::uint64_t{1} << 63))) ? " is NaN" : " is infinite");
      }
    }
  } else if (dtype == DType::utf8) {
    if (const auto at = first_invalid_utf8(data)) {
      return "invalid UTF-8 at byte " + std::to_string(*at);
    }
  }
  return std::nullopt;
}

nlohmann::json parse_meta(std::string_view text, const std::string& source) {
  const auto fail = [&](std::string problem) {
    return AssetError::in_section(source, std::string(kMetaSection), std::move(problem));
  };
  if (text.starts_with("\xEF\xBB\xBF")) throw fail("starts with a UTF-8 byte-order mark");
  if (json_depth(text) > kMaxMetaDepth) {
    throw fail("JSON nests deeper than " + std::to_string(kMaxMetaDepth) + " levels");
  }
  nlohmann::json meta;
  try {
    meta = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {  // a syntax error or a number overflow
    // what() starts with e.g. "[json.exception.parse_error.101] "; keep the description.
    const std::string_view what = error.what();
    const auto start = what.find("] ");
    throw fail("not valid JSON: " +
               std::string(start == std::string_view::npos ? what : what.substr(start + 2)));
  }
  if (!meta.is_object())
    throw fail(std::string("JSON must be an object, found ") + meta.type_name());
  const auto format = meta.find("format");
  if (format == meta.end() || !format->is_string() ||
      format->get_ref<const std::string&>() != kFormatName) {
    throw fail("\"format\" must be \"" + std::string(kFormatName) + "\"");
  }
  for (const char* key : {"kind", "generator"}) {
    if (!is_nonempty_string(meta, key)) {
      throw fail("\"" + std::string(key) + "\" must be a non-empty string");
    }
  }
  return meta;
}

}  // namespace smfem::asset::detail
