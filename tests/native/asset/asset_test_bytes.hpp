#pragma once
// Building and doctoring asset bytes for the asset tests: a small valid asset, byte patches,
// and "resealing" (recomputing the checksums) so that a test can reach the check behind them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_writer.hpp"
#include "smfem/asset/crc32.hpp"
#include "smfem/asset/detail/le_bytes.hpp"
#include "smfem/asset/detail/rules.hpp"
#include "smfem/asset/format.hpp"

namespace smfem::asset::test {

using Bytes = std::vector<std::uint8_t>;

inline nlohmann::json minimal_meta() {
  return {{"format", "smfem-asset"}, {"kind", "test"}, {"generator", "asset tests"}};
}

// meta, then "a.f32" f32 [2, 3], "b.u32" u32 [3], "c.text" utf8, in that table order.
inline Bytes small_asset() {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add("a.f32", std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  writer.add("b.u32", std::vector<std::uint32_t>{7, 8, 9}, {3});
  writer.add_text("c.text", "hello");
  return writer.to_bytes();
}

inline std::size_t entry_at(std::size_t index) { return header::kSize + index * entry::kSize; }

inline std::size_t section_count(const Bytes& bytes) {
  return detail::load_u32(bytes.data() + header::kSectionCountAt);
}

// Table index of the entry called `name` (which must exist and be intact).
inline std::size_t entry_index(const Bytes& bytes, std::string_view name) {
  for (std::size_t i = 0; i < section_count(bytes); ++i) {
    if (name == reinterpret_cast<const char*>(bytes.data() + entry_at(i))) return i;
  }
  ADD_FAILURE() << "no entry " << name;
  return 0;
}

// Where the data of entry `name` starts (which must lie in the file, so it fits a size_t).
inline std::size_t data_offset(const Bytes& bytes, std::string_view name) {
  const std::uint8_t* raw = bytes.data() + entry_at(entry_index(bytes, name));
  return static_cast<std::size_t>(detail::load_u64(raw + entry::kOffsetAt));
}

inline void put_u16(Bytes& bytes, std::size_t at, std::uint16_t v) {
  detail::store_u16(&bytes[at], v);
}
inline void put_u32(Bytes& bytes, std::size_t at, std::uint32_t v) {
  detail::store_u32(&bytes[at], v);
}
inline void put_u64(Bytes& bytes, std::size_t at, std::uint64_t v) {
  detail::store_u64(&bytes[at], v);
}

// Recomputes the data checksums (of entries whose data lies in the file), the table checksum
// (if the table fits), the file size and the header checksum: after a patch, only the
// patched rule is broken.
inline void reseal(Bytes& bytes) {
  const std::size_t count = section_count(bytes);
  // Compared by division: count * 80 may not fit a 32-bit size_t (wasm32).
  if (count <= (bytes.size() - header::kSize) / entry::kSize) {
    const std::size_t table_end = entry_at(count);
    for (std::size_t i = 0; i < count; ++i) {
      std::uint8_t* raw = &bytes[entry_at(i)];
      const std::uint64_t offset = detail::load_u64(raw + entry::kOffsetAt);
      const std::uint64_t length = detail::load_u64(raw + entry::kLengthAt);
      if (offset <= bytes.size() && length <= bytes.size() - offset) {
        const std::span<const std::uint8_t> data(bytes.data() + offset,
                                                 static_cast<std::size_t>(length));
        detail::store_u32(raw + entry::kDataCrcAt, crc32(data));
      }
    }
    put_u32(bytes, header::kTableCrcAt,
            crc32({bytes.data() + header::kSize, table_end - header::kSize}));
  }
  put_u64(bytes, header::kFileSizeAt, bytes.size());
  put_u32(bytes, header::kHeaderCrcAt, crc32({bytes.data(), header::kHeaderCrcAt}));
}

// Expects Asset::from_bytes(bytes, "demo.smfem") to throw an AssetError with exactly this
// location and problem (and so the message "demo.smfem: <location>: <problem>").
inline void expect_refused(const Bytes& bytes, const std::string& location,
                           const std::string& problem) {
  try {
    Asset::from_bytes(bytes, "demo.smfem");
    ADD_FAILURE() << "accepted, expected: " << location << ": " << problem;
  } catch (const AssetError& error) {
    EXPECT_EQ(error.source(), "demo.smfem");
    EXPECT_EQ(error.location(), location);
    EXPECT_EQ(error.problem(), problem);
    EXPECT_EQ(std::string(error.what()), "demo.smfem: " + location + ": " + problem);
  }
}

}  // namespace smfem::asset::test
