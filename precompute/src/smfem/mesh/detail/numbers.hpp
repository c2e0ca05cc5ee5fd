#pragma once
// Whole-token number parsing without locale, allocation or iostreams: std::from_chars for
// integers, fast_float (the algorithm behind GCC's floating-point from_chars, which the
// WebAssembly build's libc++ lacks) for reals, so that the bake reads the same numbers natively
// and in the browser.
#include <string>
#include <string_view>

namespace smfem::mesh::detail {

enum class NumberParse { ok, not_a_number, out_of_range };

// The token must be exactly one number; a leading '+' is accepted (from_chars alone does not).
NumberParse parse_integer(std::string_view token, long long& value);
// Accepts what from_chars does in general format, so "nan" and "inf" parse: callers that need
// finite values check for them and say so, instead of calling them "not a number". A number too
// large for a double, or nonzero and too small for one, is out_of_range (as from_chars says).
NumberParse parse_real(std::string_view token, double& value);

// The shortest "%g" text that reads back as the same double, for messages.
std::string format_real(double value);

// A token as it should appear in a message: quoted, at most 40 characters, bytes that are not
// printable ASCII shown as \xNN (fuzzed and binary files put anything there).
std::string quote_token(std::string_view token);

}  // namespace smfem::mesh::detail
