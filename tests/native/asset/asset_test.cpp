// Reading what the writer wrote: every dtype and rank, metadata, text, typed access, files.
#include "smfem/asset/asset.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "asset/asset_test_bytes.hpp"
#include "smfem/asset/asset_writer.hpp"
#include "support/test_paths.hpp"

namespace smfem::asset::test {
namespace {

// Integers wrap modulo their range (from 64-bit integers: a double out of a type's range would
// be undefined behaviour, which clang's UBSan reports).
template <class T>
std::vector<T> iota_values(std::size_t count, double start) {
  std::vector<T> values;
  for (std::size_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<T>) {
      values.push_back(static_cast<T>(static_cast<std::int64_t>(start) + std::int64_t(i)));
    } else {
      values.push_back(static_cast<T>(start + double(i)));
    }
  }
  return values;
}

// Shapes of rank 1..4, including empty ones.
const std::vector<Shape> kShapes = {{5}, {0}, {2, 3}, {0, 3}, {2, 1, 3}, {2, 2, 1, 3}};

std::size_t product(const Shape& shape) {
  std::size_t n = 1;
  for (const auto extent : shape) n *= static_cast<std::size_t>(extent);
  return n;
}

template <class T>
void add_for_every_shape(AssetWriter& writer, const std::string& prefix, double start) {
  for (std::size_t s = 0; s < kShapes.size(); ++s) {
    writer.add(prefix + std::to_string(s), iota_values<T>(product(kShapes[s]), start), kShapes[s]);
  }
}

template <class T>
void expect_every_shape(const Asset& asset, const std::string& prefix, double start, DType dtype) {
  for (std::size_t s = 0; s < kShapes.size(); ++s) {
    const std::string name = prefix + std::to_string(s);
    const SectionInfo& info = asset.section(name);
    EXPECT_EQ(info.dtype, dtype) << name;
    EXPECT_EQ(info.shape, kShapes[s]) << name;
    EXPECT_EQ(info.length, product(kShapes[s]) * sizeof(T)) << name;
    EXPECT_EQ(info.element_count(), product(kShapes[s])) << name;
    EXPECT_EQ(info.offset % kDataAlignment, 0u) << name;
    EXPECT_EQ(asset.array<T>(name), iota_values<T>(product(kShapes[s]), start)) << name;
  }
}

TEST(AssetRoundTrip, EveryDTypeAndRank) {
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  add_for_every_shape<std::uint8_t>(writer, "u8.", 250);  // wraps: 250..255, 0, ...
  add_for_every_shape<std::int32_t>(writer, "i32.", -3);
  add_for_every_shape<std::uint32_t>(writer, "u32.", 4294967290.0);
  add_for_every_shape<float>(writer, "f32.", -2.5);
  add_for_every_shape<double>(writer, "f64.", 1e300);
  writer.add_text("text", "caf\xC3\xA9 \xE2\x9C\x93");
  writer.add_text("empty-text", "");

  const Asset asset = Asset::from_bytes(writer.to_bytes(), "round-trip");
  expect_every_shape<std::uint8_t>(asset, "u8.", 250, DType::u8);
  expect_every_shape<std::int32_t>(asset, "i32.", -3, DType::i32);
  expect_every_shape<std::uint32_t>(asset, "u32.", 4294967290.0, DType::u32);
  expect_every_shape<float>(asset, "f32.", -2.5, DType::f32);
  expect_every_shape<double>(asset, "f64.", 1e300, DType::f64);
  EXPECT_EQ(asset.text("text"), "caf\xC3\xA9 \xE2\x9C\x93");
  EXPECT_EQ(asset.section("text").shape, Shape{9});
  EXPECT_EQ(asset.text("empty-text"), "");
  EXPECT_EQ(asset.sections().size(), 1 + 5 * kShapes.size() + 2);
  EXPECT_EQ(asset.sections().front().name, "meta");
}

TEST(AssetRoundTrip, KeepsExtremeFiniteValuesBitForBit) {
  const std::vector<float> floats = {std::numeric_limits<float>::max(),
                                     std::numeric_limits<float>::lowest(),
                                     std::numeric_limits<float>::denorm_min(), -0.0f};
  const std::vector<double> doubles = {std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::denorm_min(), -0.0};
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add("floats", floats, {4});
  writer.add("doubles", doubles, {3});
  const Asset asset = Asset::from_bytes(writer.to_bytes(), "extremes");
  const auto read_floats = asset.array<float>("floats");
  EXPECT_EQ(std::memcmp(read_floats.data(), floats.data(), sizeof(float) * floats.size()), 0);
  const auto read_doubles = asset.array<double>("doubles");
  EXPECT_EQ(std::memcmp(read_doubles.data(), doubles.data(), sizeof(double) * doubles.size()), 0);
}

TEST(AssetRoundTrip, KeepsMetadata) {
  nlohmann::json meta = minimal_meta();
  meta["scene"] = "armadillo";
  meta["materials"] = {{{"name", "rubber"}, {"E", 1e5}, {"nu", 0.45}}};
  meta["m"] = 12;
  AssetWriter writer;
  writer.set_meta(meta);
  const Asset asset = Asset::from_bytes(writer.to_bytes(), "meta");
  EXPECT_EQ(asset.meta(), meta);
  EXPECT_EQ(asset.minor_version(), kMinorVersion);
}

TEST(AssetRoundTrip, ThroughAFile) {
  const auto path = smfem::test::scratch_dir("file") / "small.smfem";
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.add("values", std::vector<double>{1, 2}, {2});
  writer.write_file(path);
  const Asset asset = Asset::from_file(path);
  EXPECT_EQ(asset.source_name(), path.string());
  EXPECT_EQ(asset.array<double>("values"), (std::vector<double>{1, 2}));
  EXPECT_EQ(asset.file_size(), std::filesystem::file_size(path));
}

TEST(AssetRoundTrip, AcceptsANewerMinorVersion) {
  Bytes bytes = small_asset();
  put_u16(bytes, header::kMinorAt, 7);
  reseal(bytes);
  EXPECT_EQ(Asset::from_bytes(bytes, "newer").minor_version(), 7);
}

TEST(AssetAccess, NamesAMissingSection) {
  const Asset asset = Asset::from_bytes(small_asset(), "demo.smfem");
  EXPECT_TRUE(asset.has("a.f32"));
  EXPECT_FALSE(asset.has("render.positions"));
  try {
    asset.section("render.positions");
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_STREQ(error.what(), "demo.smfem: section 'render.positions': section is missing");
    EXPECT_EQ(error.section(), "render.positions");
  }
}

TEST(AssetAccess, RefusesTheWrongElementType) {
  const Asset asset = Asset::from_bytes(small_asset(), "demo.smfem");
  EXPECT_THROW(asset.array<double>("a.f32"), AssetError);
  EXPECT_THROW(asset.array<std::int32_t>("b.u32"), AssetError);
  EXPECT_THROW(asset.text("a.f32"), AssetError);
  try {
    asset.array<std::uint32_t>("a.f32");
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_STREQ(error.what(), "demo.smfem: section 'a.f32': holds f32, requested as u32");
  }
}

TEST(AssetAccess, ExpectChecksDTypeAndShape) {
  const Asset asset = Asset::from_bytes(small_asset(), "demo.smfem");
  EXPECT_EQ(asset.expect("a.f32", DType::f32, {2, 3}).name, "a.f32");
  EXPECT_EQ(asset.expect("a.f32", DType::f32, {kAnyExtent, 3}).name, "a.f32");
  EXPECT_THROW(asset.expect("a.f32", DType::f32, {2}), AssetError);
  EXPECT_THROW(asset.expect("a.f32", DType::f32, {2, 3, 1}), AssetError);
  EXPECT_THROW(asset.expect("a.f32", DType::f64, {2, 3}), AssetError);
  try {
    asset.expect("a.f32", DType::f32, {kAnyExtent, 4});
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_STREQ(error.what(),
                 "demo.smfem: section 'a.f32': expected f32 [any, 4], found f32 [2, 3]");
  }
}

TEST(AssetAccess, BytesViewTheRawData) {
  const Asset asset = Asset::from_bytes(small_asset(), "demo.smfem");
  const auto raw = asset.bytes("b.u32");
  ASSERT_EQ(raw.size(), 12u);
  EXPECT_EQ(detail::load_u32(raw.data() + 8), 9u);
}

TEST(AssetFile, NamesAMissingFile) {
  const auto path = smfem::test::scratch_dir("missing") / "absent.smfem";
  try {
    Asset::from_file(path);
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_EQ(error.source(), path.string());
    EXPECT_EQ(error.location(), "file");
    EXPECT_NE(error.problem().find("cannot open"), std::string::npos) << error.what();
  }
}

TEST(AssetFile, RefusesAFolder) {
  const auto dir = smfem::test::scratch_dir("folder");
  try {
    Asset::from_file(dir);
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_EQ(error.problem(), "not a regular file");
  }
}

}  // namespace
}  // namespace smfem::asset::test
