#pragma once
// A forward cursor over the text of a mesh file: tokens, lines and numbers, and errors that
// name the file and the line. The readers' hot loops run on it, so it never copies the text.
#include <cstddef>
#include <string>
#include <string_view>

namespace smfem::mesh::detail {

class TextCursor {
 public:
  // comment_char starts a comment that runs to the end of its line when it begins a token;
  // '\0' for formats without comments.
  TextCursor(std::string_view text, std::string file_name, char comment_char);

  const std::string& file_name() const { return file_name_; }
  std::size_t line() const { return line_; }
  std::size_t offset() const { return position_; }
  std::size_t remaining_bytes() const { return text_.size() - position_; }
  // The number of the file's last line, where "the file ended" (a final line break does not
  // start another line).
  std::size_t last_line() const;

  // Messages from here on start with "<section>: "; empty for none.
  void set_section(std::string section) { section_ = std::move(section); }

  // Moves past blanks, line breaks and comments; false when nothing but those remain.
  bool skip_blank();
  // Moves to entry `index` of the `count` declared `entries` (skip_blank); fails with "file ended
  // after <index> of the <count> declared <entries>" when nothing is left.
  void start_entry(std::size_t index, std::size_t count, std::string_view entries);
  // The next token, crossing line breaks; at the end of the text, fails with
  // "file ended where <what> was expected".
  std::string_view token(std::string_view what);
  // The next token without crossing a line break; fails with "line ended where <what> was
  // expected" when the line has no more tokens.
  std::string_view token_on_line(std::string_view what);
  // True when the current line has no more tokens (a comment counts as the line's end).
  bool at_line_end();
  // Moves to the start of the next line.
  void skip_line();
  // The rest of the current line without its line break or trailing blanks, and moves past it.
  std::string_view rest_of_line();

  // Numbers from a token; each fails with a message naming <what> and the token.
  long long to_integer(std::string_view token, std::string_view what) const;
  double to_real(std::string_view token, std::string_view what) const;
  // A real that must be finite (coordinates): nan and inf fail as "not finite".
  double to_finite(std::string_view token, std::string_view what) const;
  // An integer in [0, limit]; anything else fails as "not a valid <what>".
  std::size_t to_count(std::string_view token, std::string_view what,
                       std::size_t limit = 2'000'000'000) const;

  // A vertex index written with the given base (0 or 1), returned 0-based; fails only when it
  // does not fit an int (assemble_*_mesh checks the range once all vertices are known).
  int to_index(std::string_view token, int base) const;
  // An integer that fits an int (region labels).
  int to_int(std::string_view token, std::string_view what) const;

  long long integer(std::string_view what) { return to_integer(token(what), what); }
  double finite(std::string_view what) { return to_finite(token(what), what); }
  std::size_t count(std::string_view what) { return to_count(token(what), what); }

  [[noreturn]] void fail(const std::string& problem) const { fail_at(line_, problem); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& problem) const;
  [[noreturn]] void fail_at_end(const std::string& problem) const { fail_at(last_line(), problem); }

 private:
  void skip_spaces();  // blanks within the line
  std::string_view take_token();

  std::string_view text_;
  std::string file_name_;
  char comment_char_;
  std::string section_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

}  // namespace smfem::mesh::detail
