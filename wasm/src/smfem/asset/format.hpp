#pragma once
// The on-disk layout of a baked asset (.smfem), format version 1.0. assets/FORMAT.md is the
// full specification; this header holds its constants so that the reader, the writer and the
// tools cannot disagree. All multi-byte fields are little-endian.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace smfem::asset {

// "\x89SMFEM\r\n": the high byte catches 7-bit transfers, CR LF catches text-mode mangling.
inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'S', 'M', 'F', 'E', 'M', '\r', '\n'};
inline constexpr std::uint16_t kMajorVersion = 1;  // a reader refuses any other major version
inline constexpr std::uint16_t kMinorVersion = 0;  // a newer minor only adds sections or keys
// Written as a u32; a big-endian writer would put 01 02 03 04 on disk instead of 04 03 02 01.
inline constexpr std::uint32_t kByteOrderMark = 0x01020304;
inline constexpr std::size_t kDataAlignment = 16;  // section data offsets are multiples of this

// Header: 64 bytes at offset 0. Offsets of its fields:
namespace header {
inline constexpr std::size_t kSize = 64;
inline constexpr std::size_t kMagicAt = 0;          // u8[8]
inline constexpr std::size_t kMajorAt = 8;          // u16
inline constexpr std::size_t kMinorAt = 10;         // u16
inline constexpr std::size_t kByteOrderAt = 12;     // u32, kByteOrderMark
inline constexpr std::size_t kSectionCountAt = 16;  // u32
inline constexpr std::size_t kTableOffsetAt = 20;   // u32, always 64 (the table follows)
inline constexpr std::size_t kEntrySizeAt = 24;     // u32, always 80
inline constexpr std::size_t kTableCrcAt = 28;      // u32, CRC-32 of the whole table
inline constexpr std::size_t kFileSizeAt = 32;      // u64, total bytes in the file
inline constexpr std::size_t kReservedAt = 40;      // u8[20], zero
inline constexpr std::size_t kReservedEnd = 60;
inline constexpr std::size_t kHeaderCrcAt = 60;  // u32, CRC-32 of bytes [0, 60)
}  // namespace header

// Section table: one 80-byte entry per section, starting right after the header.
namespace entry {
inline constexpr std::size_t kSize = 80;
inline constexpr std::size_t kNameAt = 0;  // char[32]: 1..31 chars, NUL-padded
inline constexpr std::size_t kNameCapacity = 32;
inline constexpr std::size_t kDTypeAt = 32;     // u16, a DType
inline constexpr std::size_t kRankAt = 34;      // u16, 1..4
inline constexpr std::size_t kShapeAt = 36;     // u32[4], unused dimensions 0
inline constexpr std::size_t kDataCrcAt = 52;   // u32, CRC-32 of the section's data
inline constexpr std::size_t kOffsetAt = 56;    // u64, from the start of the file
inline constexpr std::size_t kLengthAt = 64;    // u64, bytes
inline constexpr std::size_t kReservedAt = 72;  // u8[8], zero
}  // namespace entry

inline constexpr std::size_t kMaxRank = 4;

// Element type of a section. utf8 sections hold text (rank 1, shape[0] = byte length).
enum class DType : std::uint16_t { u8 = 1, i32 = 2, u32 = 3, f32 = 4, f64 = 5, utf8 = 6 };

// The DType with this code, or nothing if the code is unknown.
constexpr std::optional<DType> dtype_from_code(std::uint16_t code) {
  if (code < 1 || code > 6) return std::nullopt;
  return static_cast<DType>(code);
}

constexpr std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::u8:
      return 1;
    case DType::i32:
      return 4;
    case DType::u32:
      return 4;
    case DType::f32:
      return 4;
    case DType::f64:
      return 8;
    case DType::utf8:
      return 1;
  }
  return 0;
}

// The C++ element type of each DType (utf8 text is read as std::string instead).
template <class T>
struct DTypeOf;
template <>
struct DTypeOf<std::uint8_t> {
  static constexpr DType value = DType::u8;
};
template <>
struct DTypeOf<std::int32_t> {
  static constexpr DType value = DType::i32;
};
template <>
struct DTypeOf<std::uint32_t> {
  static constexpr DType value = DType::u32;
};
template <>
struct DTypeOf<float> {
  static constexpr DType value = DType::f32;
};
template <>
struct DTypeOf<double> {
  static constexpr DType value = DType::f64;
};

template <class T>
concept Element = requires {
  DTypeOf<T>::value;
};

// Extents of a section, one per dimension (rank 1..4), row-major: the last index runs fastest.
using Shape = std::vector<std::uint64_t>;

// Short names used in messages, in `smfem-asset info` and by the JS reader.
constexpr std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::u8:
      return "u8";
    case DType::i32:
      return "i32";
    case DType::u32:
      return "u32";
    case DType::f32:
      return "f32";
    case DType::f64:
      return "f64";
    case DType::utf8:
      return "utf8";
  }
  return "?";
}

// The section every asset has: UTF-8 JSON object with at least these keys.
inline constexpr std::string_view kMetaSection = "meta";
inline constexpr std::string_view kFormatName = "smfem-asset";  // value of meta["format"]
inline constexpr std::size_t kMaxMetaDepth = 64;                // nesting of arrays/objects

}  // namespace smfem::asset
