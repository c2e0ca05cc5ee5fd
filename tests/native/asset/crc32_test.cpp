#include "smfem/asset/crc32.hpp"

#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace smfem::asset {
namespace {

std::span<const std::uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

TEST(AssetCrc32, MatchesTheZlibCheckValue) { EXPECT_EQ(crc32(bytes_of("123456789")), 0xCBF43926u); }

TEST(AssetCrc32, MatchesOtherKnownValues) {
  EXPECT_EQ(crc32(bytes_of("")), 0x00000000u);
  EXPECT_EQ(crc32(bytes_of("a")), 0xE8B7BE43u);
  EXPECT_EQ(crc32(bytes_of("The quick brown fox jumps over the lazy dog")), 0x414FA339u);
  const std::vector<std::uint8_t> zeros(32, 0);
  EXPECT_EQ(crc32(zeros), 0x190A55ADu);
}

TEST(AssetCrc32, ContinuesAcrossPieces) {
  const std::string_view text = "The quick brown fox jumps over the lazy dog";
  for (std::size_t split = 0; split <= text.size(); ++split) {
    EXPECT_EQ(crc32(bytes_of(text.substr(split)), crc32(bytes_of(text.substr(0, split)))),
              crc32(bytes_of(text)));
  }
}

}  // namespace
}  // namespace smfem::asset
