#include "smfem/mesh/detail/text_cursor.hpp"

#include <gtest/gtest.h>

#include "smfem/mesh/error.hpp"

namespace smfem::mesh::detail {
namespace {

TEST(TextCursor, TokensCrossLinesAndSkipComments) {
  TextCursor cursor("a b # comment c\n\n  # only a comment\r\n d\te", "f.txt", '#');
  EXPECT_EQ(cursor.token("x"), "a");
  EXPECT_EQ(cursor.token("x"), "b");
  EXPECT_EQ(cursor.line(), 1u);
  EXPECT_EQ(cursor.token("x"), "d");
  EXPECT_EQ(cursor.line(), 4u);
  EXPECT_EQ(cursor.token("x"), "e");
  EXPECT_FALSE(cursor.skip_blank());
}

TEST(TextCursor, TokensOnALineStopAtItsEnd) {
  TextCursor cursor("v 1 2\nnext", "f.txt", '#');
  EXPECT_EQ(cursor.token_on_line("x"), "v");
  EXPECT_EQ(cursor.token_on_line("x"), "1");
  EXPECT_EQ(cursor.token_on_line("x"), "2");
  EXPECT_TRUE(cursor.at_line_end());
  try {
    cursor.token_on_line("the z coordinate");
    FAIL() << "expected a MeshError";
  } catch (const MeshError& error) {
    EXPECT_STREQ(error.what(), "f.txt:1: line ended where the z coordinate was expected");
  }
  cursor.skip_line();
  EXPECT_EQ(cursor.rest_of_line(), "next");
}

TEST(TextCursor, LastLineIgnoresAFinalLineBreak) {
  EXPECT_EQ(TextCursor("", "f", '\0').last_line(), 1u);
  EXPECT_EQ(TextCursor("a", "f", '\0').last_line(), 1u);
  EXPECT_EQ(TextCursor("a\n", "f", '\0').last_line(), 1u);
  EXPECT_EQ(TextCursor("a\nb", "f", '\0').last_line(), 2u);
  EXPECT_EQ(TextCursor("a\n\n", "f", '\0').last_line(), 2u);
}

TEST(TextCursor, NumbersNameWhatWasExpected) {
  TextCursor cursor("12 x 3000000000 nan", "n.txt", '\0');
  cursor.set_section("Vertices");
  EXPECT_EQ(cursor.integer("a count"), 12);
  try {
    cursor.finite("x coordinate");
    FAIL() << "expected a MeshError";
  } catch (const MeshError& error) {
    EXPECT_STREQ(error.what(), "n.txt:1: Vertices: expected x coordinate (a number), found 'x'");
    EXPECT_EQ(error.problem(), "Vertices: expected x coordinate (a number), found 'x'");
  }
  EXPECT_THROW(cursor.to_int(cursor.token("a label"), "a label"), MeshError);
  EXPECT_THROW(cursor.finite("y"), MeshError);  // nan
}

}  // namespace
}  // namespace smfem::mesh::detail
