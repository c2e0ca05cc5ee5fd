#include "smfem/mesh/detail/numbers.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <fast_float/fast_float.h>

namespace smfem::mesh::detail {
namespace {

std::string_view without_plus(std::string_view token) {
  // Only a single '+' followed by a digit or '.', so that "+-1" and "+" stay invalid.
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') {
    token.remove_prefix(1);
  }
  return token;
}

NumberParse whole_token(std::string_view token, const char* stop, std::errc error) {
  if (error == std::errc::result_out_of_range) return NumberParse::out_of_range;
  if (error != std::errc{} || stop != token.data() + token.size()) return NumberParse::not_a_number;
  return NumberParse::ok;
}

// Whether the mantissa (before any exponent) has a digit other than 0.
bool nonzero_mantissa(std::string_view token) {
  for (const char c : token) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return true;
  }
  return false;
}

}  // namespace

NumberParse parse_integer(std::string_view token, long long& value) {
  token = without_plus(token);
  const auto [stop, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  return whole_token(token, stop, error);
}

NumberParse parse_real(std::string_view token, double& value) {
  token = without_plus(token);
  const auto [stop, error] =
      fast_float::from_chars(token.data(), token.data() + token.size(), value);
  const NumberParse parse = whole_token(token, stop, error);
  if (parse != NumberParse::ok) return parse;
  // fast_float rounds overflow to infinity and underflow to zero where from_chars refuses.
  const std::string_view digits = token.substr(token.front() == '-' ? 1 : 0);
  const bool infinity_written = !digits.empty() && (digits.front() == 'i' || digits.front() == 'I');
  if (std::isinf(value) && !infinity_written) return NumberParse::out_of_range;
  if (value == 0.0 && nonzero_mantissa(digits)) return NumberParse::out_of_range;
  return NumberParse::ok;
}

std::string format_real(double value) {
  char buffer[32];
  for (int digits = 1;; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (digits == 17 || std::strtod(buffer, nullptr) == value) return buffer;
  }
}

std::string quote_token(std::string_view token) {
  constexpr std::size_t max_shown = 40;
  std::string text = "'";
  for (std::size_t i = 0; i < token.size() && i < max_shown; ++i) {
    const auto byte = static_cast<unsigned char>(token[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      text += static_cast<char>(byte);
    } else {
      constexpr const char* hex = "0123456789abcdef";
      text += "\\x";
      text += hex[byte >> 4];
      text += hex[byte & 0xf];
    }
  }
  if (token.size() > max_shown) text += "...";
  return text + "'";
}

}  // namespace smfem::mesh::detail
