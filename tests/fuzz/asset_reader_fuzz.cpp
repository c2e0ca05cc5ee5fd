// libFuzzer target: Asset::from_bytes on arbitrary bytes must either accept them or throw
// AssetError; anything else (a crash, a sanitizer report, another exception, a hang) is a bug.
// Random bytes rarely get past the checksums, so each input is also tried "resealed" (its
// checksums and file size recomputed), which lets the fuzzer reach the checks behind them.
// Seed corpus: tests/fuzz/corpus/asset_reader/ (smfem-asset example, a minimal asset, and
// damaged variants of both).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/crc32.hpp"
#include "smfem/asset/detail/le_bytes.hpp"
#include "smfem/asset/format.hpp"
#include "smfem/asset/render_surface.hpp"

namespace {

using namespace smfem::asset;

// Recomputes what the checksums and the size field cover, as far as the bytes allow.
void reseal(std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < header::kSize) return;
  const std::size_t count = detail::load_u32(&bytes[header::kSectionCountAt]);
  // Compared by division: count * 80 may not fit a 32-bit size_t.
  if (count <= (bytes.size() - header::kSize) / entry::kSize) {
    const std::size_t table_end = header::kSize + count * entry::kSize;
    for (std::size_t i = 0; i < count; ++i) {
      std::uint8_t* raw = &bytes[header::kSize + i * entry::kSize];
      const std::uint64_t offset = detail::load_u64(raw + entry::kOffsetAt);
      const std::uint64_t length = detail::load_u64(raw + entry::kLengthAt);
      if (offset <= bytes.size() && length <= bytes.size() - offset) {
        const std::span<const std::uint8_t> data(bytes.data() + offset,
                                                 static_cast<std::size_t>(length));
        detail::store_u32(raw + entry::kDataCrcAt, crc32(data));
      }
    }
    const std::span<const std::uint8_t> table(bytes.data() + header::kSize,
                                              table_end - header::kSize);
    detail::store_u32(&bytes[header::kTableCrcAt], crc32(table));
  }
  detail::store_u64(&bytes[header::kFileSizeAt], bytes.size());
  detail::store_u32(&bytes[header::kHeaderCrcAt], crc32({bytes.data(), header::kHeaderCrcAt}));
}

// Reads every section of an accepted asset through the typed accessors.
void read_everything(const Asset& asset) {
  for (const SectionInfo& section : asset.sections()) {
    switch (section.dtype) {
      case DType::u8:
        asset.array<std::uint8_t>(section.name);
        break;
      case DType::i32:
        asset.array<std::int32_t>(section.name);
        break;
      case DType::u32:
        asset.array<std::uint32_t>(section.name);
        break;
      case DType::f32:
        asset.array<float>(section.name);
        break;
      case DType::f64:
        asset.array<double>(section.name);
        break;
      case DType::utf8:
        asset.text(section.name);
        break;
    }
  }
  if (asset.has(kRenderPositions)) read_render_surface(asset);
}

void try_read(std::vector<std::uint8_t> bytes) {
  try {
    read_everything(Asset::from_bytes(std::move(bytes), "fuzz"));
  } catch (const AssetError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  try_read(bytes);
  reseal(bytes);
  try_read(std::move(bytes));
  return 0;
}
