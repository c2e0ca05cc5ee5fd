// Exhaustive damage to a small asset: every truncation and every single-bit flip must be
// refused with an AssetError; none may crash (the debug preset runs this under ASan/UBSan)
// or be accepted. Every byte is protected: header and table by their checksums, data by its
// own, and gaps by the rule that padding is zero.
#include <gtest/gtest.h>

#include "asset/asset_test_bytes.hpp"

namespace smfem::asset::test {
namespace {

TEST(AssetSweep, EveryTruncationIsRefused) {
  const Bytes whole = small_asset();
  for (std::size_t length = 0; length < whole.size(); ++length) {
    const Bytes cut(whole.begin(), whole.begin() + length);
    try {
      Asset::from_bytes(cut, "demo.smfem");
      ADD_FAILURE() << "accepted a file cut to " << length << " bytes";
    } catch (const AssetError& error) {
      EXPECT_EQ(error.source(), "demo.smfem");
      EXPECT_EQ(error.location(), "header");
      const std::string expected =
          length < header::kSize
              ? "file is " + std::to_string(length) + " bytes, shorter than the 64-byte header"
              : "file is " + std::to_string(length) + " bytes but the header says " +
                    std::to_string(whole.size()) + " (truncated?)";
      EXPECT_EQ(error.problem(), expected);
    }
  }
}

TEST(AssetSweep, EverySingleBitFlipIsRefused) {
  const Bytes whole = small_asset();
  ASSERT_NO_THROW(Asset::from_bytes(whole, "demo.smfem"));
  std::size_t refused = 0;
  for (std::size_t at = 0; at < whole.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes flipped = whole;
      flipped[at] ^= std::uint8_t(1u << bit);
      try {
        Asset::from_bytes(flipped, "demo.smfem");
        ADD_FAILURE() << "accepted a flip of bit " << bit << " of byte " << at;
      } catch (const AssetError& error) {
        EXPECT_EQ(error.source(), "demo.smfem");
        EXPECT_FALSE(error.problem().empty());
        ++refused;
      }
    }
  }
  EXPECT_EQ(refused, 8 * whole.size());
}

// Whether some other value of byte `at` of the header or table can give a valid asset, once
// resealed: the minor version, a name, a dtype of the same size (f32 <-> u32 <-> i32, utf8 <->
// u8), and the fields that resealing rewrites anyway.
bool may_stay_valid(std::size_t at) {
  const auto within = [&](std::size_t field, std::size_t size) {
    return at >= field && at < field + size;
  };
  if (at < header::kSize) {
    return within(header::kMinorAt, 2) || within(header::kTableCrcAt, 4) ||
           within(header::kFileSizeAt, 8) || within(header::kHeaderCrcAt, 4);
  }
  at = (at - header::kSize) % entry::kSize;
  return within(entry::kNameAt, entry::kNameCapacity) || within(entry::kDTypeAt, 2) ||
         within(entry::kDataCrcAt, 4);
}

TEST(AssetSweep, EveryValueOfEveryHeaderAndTableByteIsHandled) {
  // Resealed, so that the checks behind the checksums see every value of every field byte:
  // each must be refused with an AssetError unless it may give another valid asset, and
  // nothing may crash or throw anything else.
  const Bytes whole = small_asset();
  for (std::size_t at = 0; at < entry_at(section_count(whole)); ++at) {
    for (int value = 0; value < 256; ++value) {
      Bytes changed = whole;
      changed[at] = std::uint8_t(value);
      reseal(changed);
      try {
        Asset::from_bytes(changed, "demo.smfem");
        EXPECT_TRUE(changed == whole || may_stay_valid(at)) << "byte " << at << " = " << value;
      } catch (const AssetError& error) {
        EXPECT_EQ(error.source(), "demo.smfem");
      }
    }
  }
}

}  // namespace
}  // namespace smfem::asset::test
