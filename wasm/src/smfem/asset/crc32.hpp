#pragma once
// CRC-32 as in zlib, PNG and gzip: reflected polynomial 0xEDB88320, initial value 0xFFFFFFFF,
// final XOR 0xFFFFFFFF; crc32("123456789") == 0xCBF43926. Hand-written because Emscripten
// cannot fetch its zlib port offline. The only one: the writer (asset_writer.cpp) and the reader
// (detail/validate.cpp, which JS also uses, through the module's inspectAsset and pageAsset).
#include <cstdint>
#include <span>

namespace smfem::asset {

// CRC-32 of `bytes`. To checksum data in pieces, pass the previous result as `crc`.
std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0);

}  // namespace smfem::asset
