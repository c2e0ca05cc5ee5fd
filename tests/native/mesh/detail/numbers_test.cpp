#include "smfem/mesh/detail/numbers.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace smfem::mesh::detail {
namespace {

TEST(Numbers, IntegersMustBeTheWholeToken) {
  long long value = 0;
  EXPECT_EQ(parse_integer("42", value), NumberParse::ok);
  EXPECT_EQ(value, 42);
  EXPECT_EQ(parse_integer("+7", value), NumberParse::ok);
  EXPECT_EQ(value, 7);
  EXPECT_EQ(parse_integer("-3", value), NumberParse::ok);
  EXPECT_EQ(value, -3);
  for (const char* bad : {"", "+", "+-1", "4x", "1.0", "x", "1e3"}) {
    EXPECT_EQ(parse_integer(bad, value), NumberParse::not_a_number) << bad;
  }
  EXPECT_EQ(parse_integer("99999999999999999999", value), NumberParse::out_of_range);
}

TEST(Numbers, RealsInEveryCommonSpelling) {
  double value = 0;
  const std::pair<const char*, double> cases[] = {
      {"1", 1.0},  {"-2.5", -2.5}, {"+0.125", 0.125}, {"1e3", 1000.0},         {"1.5E-2", 0.015},
      {".5", 0.5}, {"5.", 5.0},    {"-0", -0.0},      {"115.49807", 115.49807}};
  for (const auto& [text, expected] : cases) {
    ASSERT_EQ(parse_real(text, value), NumberParse::ok) << text;
    EXPECT_EQ(value, expected) << text;
  }
  EXPECT_EQ(parse_real("nan", value), NumberParse::ok);
  EXPECT_TRUE(std::isnan(value));
  EXPECT_EQ(parse_real("-inf", value), NumberParse::ok);
  EXPECT_EQ(value, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_real("Infinity", value), NumberParse::ok);
  EXPECT_EQ(value, std::numeric_limits<double>::infinity());
  // Beyond a double, as from_chars refuses them: too large, or nonzero and too small.
  for (const char* far : {"1e400", "-1e400", "1e-400", "-2.5e-999"}) {
    EXPECT_EQ(parse_real(far, value), NumberParse::out_of_range) << far;
  }
  EXPECT_EQ(parse_real("0e500", value), NumberParse::ok);
  EXPECT_EQ(value, 0.0);
  EXPECT_EQ(parse_real("4.9e-324", value), NumberParse::ok);
  EXPECT_EQ(value, std::numeric_limits<double>::denorm_min());
  for (const char* bad : {"", "1,5", "1.5.2", "e5", "--1", "0x10"}) {
    EXPECT_EQ(parse_real(bad, value), NumberParse::not_a_number) << bad;
  }
}

TEST(Numbers, RealsReadBackExactly) {
  for (double value : {0.1, 1.0 / 3.0, -96.77864099999999, 6.02214076e23, 5e-324}) {
    double read = 0;
    ASSERT_EQ(parse_real(format_real(value), read), NumberParse::ok);
    EXPECT_EQ(read, value);
  }
  // In the fewest digits that do.
  EXPECT_EQ(format_real(0.1), "0.1");
  EXPECT_EQ(format_real(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(format_real(1e20), "1e+20");
}

TEST(Numbers, QuotedTokensAreShortAndPrintable) {
  EXPECT_EQ(quote_token("abc"), "'abc'");
  EXPECT_EQ(quote_token(std::string_view("a\0\x7f\xff", 4)), "'a\\x00\\x7f\\xff'");
  EXPECT_EQ(quote_token(std::string(50, 'x')), "'" + std::string(40, 'x') + "...'");
}

}  // namespace
}  // namespace smfem::mesh::detail
