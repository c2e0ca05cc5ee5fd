// One test per way a file can be bad: each names the file, the part and the problem exactly.
// Most patches are "resealed" (checksums recomputed) so that the rule under test is reached.
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "asset/asset_test_bytes.hpp"

namespace smfem::asset::test {
namespace {

std::string size_text(const Bytes& bytes) { return std::to_string(bytes.size()); }

std::size_t entry_of(const Bytes& bytes, std::string_view name) {
  return entry_at(entry_index(bytes, name));
}

void set_name(Bytes& bytes, std::size_t entry, std::string_view name) {
  std::fill_n(&bytes[entry + entry::kNameAt], entry::kNameCapacity, 0);
  std::copy(name.begin(), name.end(), &bytes[entry + entry::kNameAt]);
}

// --- header -------------------------------------------------------------------------------

TEST(AssetRefusal, FileShorterThanTheHeader) {
  const Bytes bytes = small_asset();
  expect_refused({}, "header", "file is 0 bytes, shorter than the 64-byte header");
  expect_refused(Bytes(bytes.begin(), bytes.begin() + 10), "header",
                 "file is 10 bytes, shorter than the 64-byte header");
  expect_refused(Bytes(bytes.begin(), bytes.begin() + 63), "header",
                 "file is 63 bytes, shorter than the 64-byte header");
}

TEST(AssetRefusal, BadMagic) {
  Bytes bytes = small_asset();
  bytes[0] = 'X';
  expect_refused(bytes, "header",
                 "bad magic bytes 58 53 4d 46 45 4d 0d 0a (expected 89 53 4d 46 45 4d 0d 0a): "
                 "not an smfem asset, or mangled by a text-mode transfer");
}

TEST(AssetRefusal, MagicMangledByATextModeTransfer) {
  Bytes bytes = small_asset();
  bytes.erase(bytes.begin() + 6);  // CR LF -> LF
  expect_refused(bytes, "header",
                 "bad magic bytes 89 53 4d 46 45 4d 0a 01 (expected 89 53 4d 46 45 4d 0d 0a): "
                 "not an smfem asset, or mangled by a text-mode transfer");
}

TEST(AssetRefusal, BigEndianByteOrderMark) {
  Bytes bytes = small_asset();
  for (std::size_t i = 0; i < 4; ++i) bytes[header::kByteOrderAt + i] = std::uint8_t(i + 1);
  expect_refused(bytes, "header",
                 "byte-order mark reads 0x04030201: the file was written big-endian");
}

TEST(AssetRefusal, ByteOrderMarkGarbled) {
  Bytes bytes = small_asset();
  put_u32(bytes, header::kByteOrderAt, 0x01020305);
  expect_refused(bytes, "header", "byte-order mark is 0x01020305, expected 0x01020304");
}

TEST(AssetRefusal, OtherMajorVersion) {
  for (const int major : {0, 2, 0xFFFF}) {
    Bytes bytes = small_asset();
    put_u16(bytes, header::kMajorAt, std::uint16_t(major));
    reseal(bytes);
    expect_refused(
        bytes, "header",
        "unsupported major version " + std::to_string(major) + " (this reader reads version 1)");
  }
}

TEST(AssetRefusal, HeaderChecksumWrong) {
  Bytes bytes = small_asset();
  const std::uint32_t stored = detail::load_u32(&bytes[header::kHeaderCrcAt]);
  bytes[header::kMinorAt] ^= 1;
  const std::uint32_t computed = crc32({bytes.data(), header::kHeaderCrcAt});
  expect_refused(bytes, "header",
                 "checksum mismatch (stored " + detail::hex32(stored) + ", computed " +
                     detail::hex32(computed) + ")");
}

TEST(AssetRefusal, HeaderReservedByteNonZero) {
  for (const std::size_t at : {header::kReservedAt, std::size_t{45}, header::kReservedEnd - 1}) {
    Bytes bytes = small_asset();
    bytes[at] = 7;
    reseal(bytes);
    expect_refused(bytes, "header",
                   "reserved byte at offset " + std::to_string(at) + " is 0x07, must be zero");
  }
}

TEST(AssetRefusal, TableOffsetOrEntrySizeUnexpected) {
  Bytes bytes = small_asset();
  put_u32(bytes, header::kTableOffsetAt, 128);
  reseal(bytes);
  expect_refused(bytes, "header", "section table offset is 128, must be 64");
  bytes = small_asset();
  put_u32(bytes, header::kEntrySizeAt, 96);
  reseal(bytes);
  expect_refused(bytes, "header", "section table entry size is 96, must be 80");
}

TEST(AssetRefusal, TruncatedInsideTheTableOrTheData) {
  const Bytes whole = small_asset();
  for (const std::size_t length :
       {std::size_t{64}, std::size_t{100}, entry_at(4),
        std::size_t(data_offset(whole, "a.f32") + 5), whole.size() - 1}) {
    expect_refused(Bytes(whole.begin(), whole.begin() + length), "header",
                   "file is " + std::to_string(length) + " bytes but the header says " +
                       size_text(whole) + " (truncated?)");
  }
}

TEST(AssetRefusal, BytesAppended) {
  Bytes bytes = small_asset();
  const std::string declared = size_text(bytes);
  bytes.push_back(0);
  expect_refused(bytes, "header",
                 "file is " + size_text(bytes) + " bytes but the header says " + declared +
                     " (bytes appended?)");
}

// --- section table ------------------------------------------------------------------------

TEST(AssetRefusal, TableRunsPastTheEnd) {
  for (const std::uint32_t count : {1000u, std::numeric_limits<std::uint32_t>::max()}) {
    Bytes bytes = small_asset();
    put_u32(bytes, header::kSectionCountAt, count);
    reseal(bytes);
    expect_refused(bytes, "section table",
                   std::to_string(count) +
                       " entries of 80 bytes from offset 64 run past the end "
                       "of the " +
                       size_text(bytes) + "-byte file");
  }
}

TEST(AssetRefusal, TableChecksumWrong) {
  Bytes bytes = small_asset();
  const std::uint32_t stored = detail::load_u32(&bytes[header::kTableCrcAt]);
  bytes[entry_at(1) + entry::kNameAt] = 'z';  // the header itself is unchanged
  const std::uint32_t computed = crc32({bytes.data() + header::kSize, entry_at(4) - header::kSize});
  expect_refused(bytes, "section table",
                 "checksum mismatch (stored " + detail::hex32(stored) + ", computed " +
                     detail::hex32(computed) + ")");
}

TEST(AssetRefusal, BadNames) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "name is empty"},
      {"A.f32", "name has byte 0x41 at position 0 (allowed: a-z 0-9 . _ -)"},
      {"a f32", "name has byte 0x20 at position 1 (allowed: a-z 0-9 . _ -)"},
      {"a\xC3\xA9", "name has byte 0xc3 at position 1 (allowed: a-z 0-9 . _ -)"},
      {".hidden", "name must start with a-z or 0-9"},
      {std::string(32, 'a'), "name is not NUL-terminated within 32 bytes"},
  };
  for (const auto& [name, problem] : cases) {
    Bytes bytes = small_asset();
    set_name(bytes, entry_at(1), name);
    reseal(bytes);
    expect_refused(bytes, "section table entry 1", problem);
  }
}

TEST(AssetRefusal, JunkAfterTheNameTerminator) {
  Bytes bytes = small_asset();
  bytes[entry_at(2) + 20] = 'x';
  reseal(bytes);
  expect_refused(bytes, "section table entry 2", "name has byte 0x78 after its terminating NUL");
}

TEST(AssetRefusal, DuplicateNames) {
  Bytes bytes = small_asset();
  set_name(bytes, entry_of(bytes, "b.u32"), "a.f32");
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'", "name used by entries 1 and 2");
}

TEST(AssetRefusal, UnknownDType) {
  for (const int code : {0, 7, 0xFFFF}) {
    Bytes bytes = small_asset();
    put_u16(bytes, entry_of(bytes, "b.u32") + entry::kDTypeAt, std::uint16_t(code));
    reseal(bytes);
    expect_refused(bytes, "section 'b.u32'", "unknown dtype " + std::to_string(code));
  }
}

TEST(AssetRefusal, RankOutsideOneToFour) {
  for (const int rank : {0, 5, 0xFFFF}) {
    Bytes bytes = small_asset();
    put_u16(bytes, entry_of(bytes, "b.u32") + entry::kRankAt, std::uint16_t(rank));
    reseal(bytes);
    expect_refused(bytes, "section 'b.u32'", "rank " + std::to_string(rank) + " is outside 1..4");
  }
}

TEST(AssetRefusal, UnusedExtentNonZero) {
  Bytes bytes = small_asset();
  put_u32(bytes, entry_of(bytes, "b.u32") + entry::kShapeAt + 8, 4);
  reseal(bytes);
  expect_refused(bytes, "section 'b.u32'",
                 "shape[2] is 4 but the rank is 1; unused extents must be zero");
}

TEST(AssetRefusal, TextOfRankTwo) {
  Bytes bytes = small_asset();
  const std::size_t entry = entry_of(bytes, "c.text");
  put_u16(bytes, entry + entry::kRankAt, 2);
  put_u32(bytes, entry + entry::kShapeAt + 4, 1);
  reseal(bytes);
  expect_refused(bytes, "section 'c.text'", "utf8 text must have rank 1, not 2");
}

TEST(AssetRefusal, EntryReservedByteNonZero) {
  Bytes bytes = small_asset();
  bytes[entry_of(bytes, "b.u32") + 75] = 1;
  reseal(bytes);
  expect_refused(bytes, "section 'b.u32'",
                 "reserved byte at entry offset 75 is 0x01, must be zero");
}

TEST(AssetRefusal, LengthDoesNotMatchTheShape) {
  Bytes bytes = small_asset();
  const std::size_t entry = entry_of(bytes, "a.f32");
  put_u64(bytes, entry + entry::kLengthAt, 20);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "byte length 20 does not match shape [2, 3] of f32 (24 bytes)");
  bytes = small_asset();
  put_u32(bytes, entry + entry::kShapeAt + 4, 4);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "byte length 24 does not match shape [2, 4] of f32 (32 bytes)");
}

TEST(AssetRefusal, ShapeProductOverflows) {
  constexpr std::uint32_t kMax = std::numeric_limits<std::uint32_t>::max();
  Bytes bytes = small_asset();
  const std::size_t entry = entry_of(bytes, "a.f32");
  put_u32(bytes, entry + entry::kShapeAt, kMax);
  put_u32(bytes, entry + entry::kShapeAt + 4, kMax);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "shape [4294967295, 4294967295] of f32 needs more than 2^64 bytes");
  bytes = small_asset();
  const std::size_t text_entry = entry_of(bytes, "b.u32");
  put_u16(bytes, text_entry + entry::kDTypeAt, static_cast<std::uint16_t>(DType::u8));
  put_u16(bytes, text_entry + entry::kRankAt, 4);
  for (std::size_t d = 0; d < 4; ++d) put_u32(bytes, text_entry + entry::kShapeAt + 4 * d, kMax);
  reseal(bytes);
  expect_refused(bytes, "section 'b.u32'",
                 "shape [4294967295, 4294967295, 4294967295, 4294967295] of u8 needs more than "
                 "2^64 bytes");
}

// --- data placement -----------------------------------------------------------------------

TEST(AssetRefusal, MisalignedOffset) {
  Bytes bytes = small_asset();
  const std::size_t entry = entry_of(bytes, "a.f32");
  const std::uint64_t offset = data_offset(bytes, "a.f32") + 4;
  put_u64(bytes, entry + entry::kOffsetAt, offset);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "data offset " + std::to_string(offset) + " is not a multiple of 16");
}

TEST(AssetRefusal, OffsetInsideTheTable) {
  Bytes bytes = small_asset();
  put_u64(bytes, entry_of(bytes, "a.f32") + entry::kOffsetAt, 64);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "data offset 64 lies inside the header or section table (which end at 384)");
}

TEST(AssetRefusal, OffsetPastTheEnd) {
  Bytes bytes = small_asset();
  const std::size_t entry = entry_of(bytes, "a.f32");
  put_u64(bytes, entry + entry::kOffsetAt, std::uint64_t{1} << 40);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "data at offset 1099511627776, 24 bytes long, runs past the end of the " +
                     size_text(bytes) + "-byte file");
  // Starts inside the file, ends outside.
  bytes = small_asset();
  const std::size_t last_aligned = bytes.size() / 16 * 16;
  put_u64(bytes, entry + entry::kOffsetAt, last_aligned);
  reseal(bytes);
  expect_refused(bytes, "section 'a.f32'",
                 "data at offset " + std::to_string(last_aligned) +
                     ", 24 bytes long, runs past the end of the " + size_text(bytes) +
                     "-byte file");
}

TEST(AssetRefusal, LengthOfTwoToThe64MinusOne) {
  // 6700417 * 42009217 * 65535 = 2^64 - 1: a valid shape product, and offset + length would
  // wrap around 2^64, which the bounds check must not be fooled by.
  Bytes bytes = small_asset();
  const std::size_t entry = entry_of(bytes, "b.u32");
  put_u16(bytes, entry + entry::kDTypeAt, static_cast<std::uint16_t>(DType::u8));
  put_u16(bytes, entry + entry::kRankAt, 3);
  put_u32(bytes, entry + entry::kShapeAt, 6700417);
  put_u32(bytes, entry + entry::kShapeAt + 4, 42009217);
  put_u32(bytes, entry + entry::kShapeAt + 8, 65535);
  put_u64(bytes, entry + entry::kLengthAt, std::numeric_limits<std::uint64_t>::max());
  reseal(bytes);
  expect_refused(bytes, "section 'b.u32'",
                 "data at offset " + std::to_string(data_offset(bytes, "b.u32")) +
                     ", 18446744073709551615 bytes long, runs past the end of the " +
                     size_text(bytes) + "-byte file");
}

TEST(AssetRefusal, OverlappingSections) {
  Bytes bytes = small_asset();
  const std::size_t a = data_offset(bytes, "a.f32");
  put_u64(bytes, entry_of(bytes, "b.u32") + entry::kOffsetAt, a);
  reseal(bytes);
  const std::string at = std::to_string(a);
  expect_refused(bytes, "section 'a.f32'",
                 "data [" + at + ", " + std::to_string(a + 24) + ") overlaps section 'b.u32' [" +
                     at + ", " + std::to_string(a + 12) + ")");
}

TEST(AssetRefusal, NonZeroPadding) {
  Bytes bytes = small_asset();
  const std::size_t gap = data_offset(bytes, "a.f32") + 24;  // a.f32 is 24 bytes, then 8 free
  ASSERT_EQ(data_offset(bytes, "b.u32"), gap + 8);
  bytes[gap + 3] = 1;
  expect_refused(bytes, "padding",
                 "byte at offset " + std::to_string(gap + 3) +
                     " is 0x01; bytes between sections must be zero");
}

TEST(AssetRefusal, NonZeroBytesAfterTheLastSection) {
  Bytes bytes = small_asset();
  bytes.push_back(0);
  bytes.push_back(9);
  reseal(bytes);
  expect_refused(bytes, "padding",
                 "byte at offset " + std::to_string(bytes.size() - 1) +
                     " is 0x09; bytes between sections must be zero");
}

TEST(AssetRefusal, ZeroPaddingAfterTheLastSectionIsAllowed) {
  Bytes bytes = small_asset();
  bytes.resize(bytes.size() + 16, 0);
  reseal(bytes);
  EXPECT_NO_THROW(Asset::from_bytes(bytes, "demo.smfem"));
}

// --- data ---------------------------------------------------------------------------------

TEST(AssetRefusal, SectionChecksumWrong) {
  Bytes bytes = small_asset();
  const std::size_t a = data_offset(bytes, "a.f32");
  const std::uint32_t stored =
      detail::load_u32(&bytes[entry_of(bytes, "a.f32") + entry::kDataCrcAt]);
  bytes[a + 5] ^= 0x10;
  const std::uint32_t computed = crc32({bytes.data() + a, 24});
  expect_refused(bytes, "section 'a.f32'",
                 "checksum mismatch (stored " + detail::hex32(stored) + ", computed " +
                     detail::hex32(computed) + ")");
}

TEST(AssetRefusal, NonFiniteFloats) {
  const std::vector<std::pair<std::uint32_t, std::string>> cases = {
      {0x7FC00000u, "element 4 is NaN"},  // quiet NaN
      {0xFF800001u, "element 4 is NaN"},  // signalling NaN, sign set
      {0x7F800000u, "element 4 is infinite"},
      {0xFF800000u, "element 4 is infinite"}};
  for (const auto& [bits, problem] : cases) {
    Bytes bytes = small_asset();
    put_u32(bytes, data_offset(bytes, "a.f32") + 16, bits);
    reseal(bytes);
    expect_refused(bytes, "section 'a.f32'", problem);
  }
}

TEST(AssetRefusal, NonFiniteDoubles) {
  const std::vector<std::pair<std::uint64_t, std::string>> cases = {
      {0x7FF8000000000000u, "element 1 is NaN"},
      {0xFFF0000000000001u, "element 1 is NaN"},
      {0x7FF0000000000000u, "element 1 is infinite"},
      {0xFFF0000000000000u, "element 1 is infinite"}};
  for (const auto& [bits, problem] : cases) {
    AssetWriter writer;
    writer.set_meta(minimal_meta());
    writer.add("d.f64", std::vector<double>{1, 2, 3}, {3});
    Bytes bytes = writer.to_bytes();
    put_u64(bytes, data_offset(bytes, "d.f64") + 8, bits);
    reseal(bytes);
    expect_refused(bytes, "section 'd.f64'", problem);
  }
}

TEST(AssetRefusal, InvalidUtf8Text) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"he\xFFlo", "invalid UTF-8 at byte 2"},            // never valid
      {"h\xC0\x80lo", "invalid UTF-8 at byte 1"},         // overlong NUL
      {"\xED\xA0\x80lo", "invalid UTF-8 at byte 0"},      // surrogate
      {"hell\xC3", "invalid UTF-8 at byte 4"},            // cut short
      {"h\xF4\x90\x80\x80", "invalid UTF-8 at byte 1"}};  // above U+10FFFF
  for (const auto& [text, problem] : cases) {
    Bytes bytes = small_asset();
    const std::size_t entry = entry_of(bytes, "c.text");
    const std::size_t at = data_offset(bytes, "c.text");
    bytes.resize(at);
    bytes.insert(bytes.end(), text.begin(), text.end());
    put_u32(bytes, entry + entry::kShapeAt, std::uint32_t(text.size()));
    put_u64(bytes, entry + entry::kLengthAt, text.size());
    reseal(bytes);
    expect_refused(bytes, "section 'c.text'", problem);
  }
}

// --- metadata -----------------------------------------------------------------------------

// small_asset() with a longer meta section whose text is replaced by `text` (padded with
// spaces to the same length, which JSON ignores).
Bytes with_meta_text(const std::string& text) {
  AssetWriter writer;
  nlohmann::json meta = minimal_meta();
  meta["notes"] = std::string(400, 'x');
  writer.set_meta(meta);
  writer.add("a.f32", std::vector<float>{1, 2}, {2});
  Bytes bytes = writer.to_bytes();
  const std::size_t entry = entry_of(bytes, "meta");
  const auto length = static_cast<std::size_t>(detail::load_u64(&bytes[entry + entry::kLengthAt]));
  EXPECT_LE(text.size(), length);
  std::string padded = text;
  padded.resize(length, ' ');
  std::copy(padded.begin(), padded.end(), bytes.begin() + data_offset(bytes, "meta"));
  reseal(bytes);
  return bytes;
}

TEST(AssetRefusal, MetaMissing) {
  Bytes bytes = small_asset();
  set_name(bytes, entry_of(bytes, "meta"), "metb");
  reseal(bytes);
  expect_refused(bytes, "section 'meta'", "section is missing");
}

TEST(AssetRefusal, MetaNotText) {
  Bytes bytes = small_asset();
  put_u16(bytes, entry_of(bytes, "meta") + entry::kDTypeAt, static_cast<std::uint16_t>(DType::u8));
  reseal(bytes);
  expect_refused(bytes, "section 'meta'", "must be utf8 text, not u8");
}

TEST(AssetRefusal, MetaNotJson) {
  try {
    Asset::from_bytes(with_meta_text("{\"format\": smfem}"), "demo.smfem");
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_EQ(error.location(), "section 'meta'");
    EXPECT_EQ(error.problem().rfind("not valid JSON: ", 0), 0u) << error.what();
  }
}

TEST(AssetRefusal, MetaNotAnObject) {
  expect_refused(with_meta_text("[1, 2]"), "section 'meta'", "JSON must be an object, found array");
  expect_refused(with_meta_text("\"text\""), "section 'meta'",
                 "JSON must be an object, found string");
  expect_refused(with_meta_text("null"), "section 'meta'", "JSON must be an object, found null");
}

TEST(AssetRefusal, MetaWithoutTheRequiredKeys) {
  expect_refused(with_meta_text(R"({"format": "other", "kind": "k", "generator": "g"})"),
                 "section 'meta'", "\"format\" must be \"smfem-asset\"");
  expect_refused(with_meta_text(R"({"format": "smfem-asset", "generator": "g"})"), "section 'meta'",
                 "\"kind\" must be a non-empty string");
  expect_refused(with_meta_text(R"({"format": "smfem-asset", "kind": "k", "generator": 3})"),
                 "section 'meta'", "\"generator\" must be a non-empty string");
}

TEST(AssetRefusal, MetaWithAByteOrderMark) {
  expect_refused(with_meta_text("\xEF\xBB\xBF{}"), "section 'meta'",
                 "starts with a UTF-8 byte-order mark");
}

TEST(AssetRefusal, MetaNestedTooDeeply) {
  const std::string deep = "{\"a\":" + std::string(64, '[') + std::string(64, ']') + "}";
  expect_refused(with_meta_text(deep), "section 'meta'", "JSON nests deeper than 64 levels");
  // Brackets inside strings do not count.
  const std::string quoted = R"({"format": "smfem-asset", "kind": "[[[[", "generator": "g\"[[["})";
  EXPECT_NO_THROW(Asset::from_bytes(with_meta_text(quoted), "demo.smfem"));
}

// --- order --------------------------------------------------------------------------------

TEST(AssetRefusal, ReportsTheFirstProblemInTheDocumentedOrder) {
  Bytes bytes = small_asset();
  put_u32(bytes, data_offset(bytes, "a.f32"), 0x7FC00000u);  // NaN, and a.f32's checksum breaks
  bytes[data_offset(bytes, "a.f32") + 24] = 1;               // padding
  reseal(bytes);
  expect_refused(bytes, "padding",
                 "byte at offset " + std::to_string(data_offset(bytes, "a.f32") + 24) +
                     " is 0x01; bytes between sections must be zero");
  bytes[data_offset(bytes, "a.f32") + 24] = 0;
  expect_refused(bytes, "section 'a.f32'", "element 0 is NaN");
  bytes[header::kByteOrderAt] = 0;  // before everything but the size and the magic
  bytes.resize(70);
  expect_refused(bytes, "header", "byte-order mark is 0x01020300, expected 0x01020304");
}

}  // namespace
}  // namespace smfem::asset::test
