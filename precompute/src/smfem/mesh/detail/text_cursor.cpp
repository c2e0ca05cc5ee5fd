#include "smfem/mesh/detail/text_cursor.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/error.hpp"

namespace smfem::mesh::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_space(char c) { return is_blank(c) || c == '\n'; }

}  // namespace

TextCursor::TextCursor(std::string_view text, std::string file_name, char comment_char)
    : text_(text), file_name_(std::move(file_name)), comment_char_(comment_char) {}

std::size_t TextCursor::last_line() const {
  std::size_t line = line_;
  std::size_t position = position_;
  for (; position < text_.size(); ++position) {
    if (text_[position] == '\n') ++line;
  }
  const bool ends_with_break = !text_.empty() && text_.back() == '\n';
  return ends_with_break && line > 1 ? line - 1 : line;
}

void TextCursor::skip_spaces() {
  while (position_ < text_.size() && is_blank(text_[position_])) ++position_;
}

bool TextCursor::skip_blank() {
  while (position_ < text_.size()) {
    const char c = text_[position_];
    if (c == '\n') {
      ++line_;
      ++position_;
    } else if (is_blank(c)) {
      ++position_;
    } else if (comment_char_ != '\0' && c == comment_char_) {
      while (position_ < text_.size() && text_[position_] != '\n') ++position_;
    } else {
      return true;
    }
  }
  return false;
}

void TextCursor::start_entry(std::size_t index, std::size_t count, std::string_view entries) {
  if (!skip_blank()) {
    fail_at_end("file ended after " + std::to_string(index) + " of the " + std::to_string(count) +
                " declared " + std::string(entries));
  }
}

bool TextCursor::at_line_end() {
  skip_spaces();
  return position_ == text_.size() || text_[position_] == '\n' ||
         (comment_char_ != '\0' && text_[position_] == comment_char_);
}

std::string_view TextCursor::take_token() {
  const std::size_t start = position_;
  while (position_ < text_.size() && !is_space(text_[position_])) ++position_;
  return text_.substr(start, position_ - start);
}

std::string_view TextCursor::token(std::string_view what) {
  if (!skip_blank()) fail_at_end("file ended where " + std::string(what) + " was expected");
  return take_token();
}

std::string_view TextCursor::token_on_line(std::string_view what) {
  if (at_line_end()) fail("line ended where " + std::string(what) + " was expected");
  return take_token();
}

void TextCursor::skip_line() {
  while (position_ < text_.size() && text_[position_] != '\n') ++position_;
  if (position_ < text_.size()) {
    ++position_;
    ++line_;
  }
}

std::string_view TextCursor::rest_of_line() {
  skip_spaces();
  const std::size_t start = position_;
  while (position_ < text_.size() && text_[position_] != '\n') ++position_;
  std::size_t end = position_;
  while (end > start && is_blank(text_[end - 1])) --end;
  skip_line();
  return text_.substr(start, end - start);
}

long long TextCursor::to_integer(std::string_view token, std::string_view what) const {
  long long value = 0;
  switch (parse_integer(token, value)) {
    case NumberParse::ok:
      return value;
    case NumberParse::out_of_range:
      fail(std::string(what) + " " + quote_token(token) + " is too large");
    case NumberParse::not_a_number:
      break;
  }
  fail("expected " + std::string(what) + " (an integer), found " + quote_token(token));
}

double TextCursor::to_real(std::string_view token, std::string_view what) const {
  double value = 0;
  switch (parse_real(token, value)) {
    case NumberParse::ok:
      return value;
    case NumberParse::out_of_range:
      fail(std::string(what) + " " + quote_token(token) + " is out of the range of a double");
    case NumberParse::not_a_number:
      break;
  }
  fail("expected " + std::string(what) + " (a number), found " + quote_token(token));
}

double TextCursor::to_finite(std::string_view token, std::string_view what) const {
  const double value = to_real(token, what);
  if (!std::isfinite(value)) fail(std::string(what) + " " + quote_token(token) + " is not finite");
  return value;
}

std::size_t TextCursor::to_count(std::string_view token, std::string_view what,
                                 std::size_t limit) const {
  long long value = 0;
  if (parse_integer(token, value) != NumberParse::ok || value < 0 ||
      static_cast<unsigned long long>(value) > limit) {
    fail("not a valid " + std::string(what) + ": " + quote_token(token));
  }
  return static_cast<std::size_t>(value);
}

int TextCursor::to_index(std::string_view token, int base) const {
  const long long index = to_integer(token, "a vertex index") - base;
  if (index < std::numeric_limits<int>::min() || index > std::numeric_limits<int>::max()) {
    fail("vertex index " + quote_token(token) + " is out of range");
  }
  return static_cast<int>(index);
}

int TextCursor::to_int(std::string_view token, std::string_view what) const {
  const long long value = to_integer(token, what);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    fail(std::string(what) + " " + quote_token(token) + " is too large");
  }
  return static_cast<int>(value);
}

void TextCursor::fail_at(std::size_t line, const std::string& problem) const {
  throw MeshError::at_line(file_name_, line,
                           section_.empty() ? problem : section_ + ": " + problem);
}

}  // namespace smfem::mesh::detail
