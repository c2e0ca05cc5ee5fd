#include "smfem/mesh/detail/numbers.hpp"

#include <charconv>

namespace smfem::mesh::detail {
namespace {

std::string_view without_plus(std::string_view token) {
  // Only a single '+' followed by a digit or '.', so that "+-1" and "+" stay invalid.
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') {
    token.remove_prefix(1);
  }
  return token;
}

template <class T>
NumberParse parse_whole(std::string_view token, T& value) {
  token = without_plus(token);
  const char* end = token.data() + token.size();
  auto [stop, error] = std::from_chars(token.data(), end, value);
  if (error == std::errc::result_out_of_range) return NumberParse::out_of_range;
  if (error != std::errc{} || stop != end) return NumberParse::not_a_number;
  return NumberParse::ok;
}

}  // namespace

NumberParse parse_integer(std::string_view token, long long& value) {
  return parse_whole(token, value);
}

NumberParse parse_real(std::string_view token, double& value) { return parse_whole(token, value); }

std::string format_real(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
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
