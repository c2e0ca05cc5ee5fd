#include "smfem/asset/asset_writer.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "asset/asset_test_bytes.hpp"
#include "support/test_paths.hpp"

namespace smfem::asset::test {
namespace {

namespace fs = std::filesystem;

// Expects `action` to throw an AssetError from the writer with this exact message.
template <class Action>
void expect_writer_error(Action action, const std::string& message) {
  try {
    action();
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const AssetError& error) {
    EXPECT_EQ(error.source(), "asset writer");
    EXPECT_STREQ(error.what(), message.c_str());
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t files_in(const fs::path& dir) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AssetWriter, LaysOutMetaFirstThenInOrderAdded) {
  const Asset asset = Asset::from_bytes(small_asset(), "x");
  ASSERT_EQ(asset.sections().size(), 4u);
  EXPECT_EQ(asset.sections()[0].name, "meta");
  EXPECT_EQ(asset.sections()[1].name, "a.f32");
  EXPECT_EQ(asset.sections()[2].name, "b.u32");
  EXPECT_EQ(asset.sections()[3].name, "c.text");
  EXPECT_EQ(asset.sections()[0].offset, entry_at(4));  // the table ends on a 16-byte boundary
  for (std::size_t i = 1; i < 4; ++i) {
    const SectionInfo& before = asset.sections()[i - 1];
    EXPECT_EQ(asset.sections()[i].offset, (before.offset + before.length + 15) / 16 * 16);
  }
  EXPECT_EQ(asset.file_size(), asset.sections()[3].offset + asset.sections()[3].length);
}

TEST(AssetWriter, IsDeterministic) { EXPECT_EQ(small_asset(), small_asset()); }

TEST(AssetWriter, RefusesBadNames) {
  AssetWriter writer;
  const std::vector<float> one = {1};
  expect_writer_error([&] { writer.add("", one, {1}); }, "asset writer: section '': name is empty");
  expect_writer_error([&] { writer.add("Render", one, {1}); },
                      "asset writer: section 'Render': name has byte 0x52 at position 0 "
                      "(allowed: a-z 0-9 . _ -)");
  expect_writer_error(
      [&] { writer.add(std::string(32, 'a'), one, {1}); },
      "asset writer: section '" + std::string(32, 'a') + "': name is longer than 31 characters");
  expect_writer_error([&] { writer.add("meta", one, {1}); },
                      "asset writer: section 'meta': name is reserved (use set_meta)");
  writer.add(std::string(31, 'a'), one, {1});
  expect_writer_error([&] { writer.add_text(std::string(31, 'a'), "again"); },
                      "asset writer: section '" + std::string(31, 'a') + "': section added twice");
}

TEST(AssetWriter, RefusesShapesThatDoNotFitTheData) {
  AssetWriter writer;
  const std::vector<float> six(6, 1.0f);
  expect_writer_error(
      [&] {
        writer.add("x", six, {2, 2});
      },
      "asset writer: section 'x': shape [2, 2] does not hold the 6 values given");
  expect_writer_error([&] { writer.add("x", six, {}); },
                      "asset writer: section 'x': rank 0 is outside 1..4");
  expect_writer_error(
      [&] {
        writer.add("x", six, {1, 1, 1, 2, 3});
      },
      "asset writer: section 'x': rank 5 is outside 1..4");
  expect_writer_error(
      [&] {
        writer.add("x", six, {std::uint64_t{1} << 32, 0});
      },
      "asset writer: section 'x': extent 4294967296 does not fit in 32 bits");
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint32_t>::max();
  expect_writer_error(
      [&] {
        writer.add("x", six, {kMax, kMax, kMax});
      },
      "asset writer: section 'x': shape [4294967295, 4294967295, 4294967295] "
      "does not hold the 6 values given");
  writer.add("x", six, {3, 2});
}

TEST(AssetWriter, RefusesNonFiniteValuesAndBadText) {
  AssetWriter writer;
  expect_writer_error(
      [&] {
        writer.add("f", std::vector<float>{0, std::nanf("")}, {2});
      },
      "asset writer: section 'f': element 1 is NaN");
  expect_writer_error([&] { writer.add("d", std::vector<double>{-HUGE_VAL}, {1}); },
                      "asset writer: section 'd': element 0 is infinite");
  expect_writer_error([&] { writer.add_text("t", "ok \xFF"); },
                      "asset writer: section 't': invalid UTF-8 at byte 3");
}

TEST(AssetWriter, RefusesBadMetadata) {
  AssetWriter writer;
  expect_writer_error([&] { writer.to_bytes(); },
                      "asset writer: section 'meta': metadata not set (call set_meta)");
  expect_writer_error(
      [&] {
        writer.set_meta(nlohmann::json::array({1, 2}));
      },
      "asset writer: section 'meta': JSON must be an object, found array");
  expect_writer_error(
      [&] {
        writer.set_meta({{"format", "smfem-asset"}, {"kind", "k"}});
      },
      "asset writer: section 'meta': \"generator\" must be a non-empty string");
  nlohmann::json bad_text = minimal_meta();
  bad_text["note"] = "\xFF";
  EXPECT_THROW(writer.set_meta(bad_text), AssetError);
  nlohmann::json deep = minimal_meta();
  nlohmann::json* inner = &deep;
  for (int i = 0; i < 64; ++i) inner = &((*inner)["x"] = nlohmann::json::object());
  expect_writer_error([&] { writer.set_meta(deep); },
                      "asset writer: section 'meta': JSON nests deeper than 64 levels");
}

TEST(AssetWriter, WriteFileReplacesAnExistingFile) {
  const fs::path dir = smfem::test::scratch_dir("replace");
  const fs::path path = dir / "out.smfem";
  std::ofstream(path) << "old contents";
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  writer.write_file(path);
  EXPECT_EQ(Asset::from_file(path).sections().size(), 1u);
  EXPECT_EQ(files_in(dir), 1u);  // no temporary file left behind
}

TEST(AssetWriter, InvalidDataLeavesAnExistingFileIntact) {
  const fs::path dir = smfem::test::scratch_dir("intact");
  const fs::path path = dir / "out.smfem";
  std::ofstream(path) << "old contents";
  const AssetWriter without_meta;
  try {
    without_meta.write_file(path);
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_EQ(error.section(), "meta");
  }
  EXPECT_EQ(read_file(path), "old contents");
  EXPECT_EQ(files_in(dir), 1u);
}

TEST(AssetWriter, MissingFolderIsAnErrorAndLeavesNothing) {
  const fs::path dir = smfem::test::scratch_dir("missing");
  const fs::path path = dir / "absent" / "out.smfem";
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  try {
    writer.write_file(path);
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_EQ(error.source(), path.string());
    EXPECT_EQ(error.location(), "file");
    EXPECT_EQ(error.problem().rfind("cannot create ", 0), 0u) << error.what();
  }
  EXPECT_EQ(files_in(dir), 0u);
}

TEST(AssetWriter, FailedRenameLeavesTheTargetAndNoTemporaryFile) {
  // The target is a non-empty folder: the rename fails after the temporary file was written.
  const fs::path dir = smfem::test::scratch_dir("rename");
  const fs::path path = dir / "out.smfem";
  fs::create_directory(path);
  std::ofstream(path / "keep") << "kept";
  AssetWriter writer;
  writer.set_meta(minimal_meta());
  try {
    writer.write_file(path);
    FAIL();
  } catch (const AssetError& error) {
    EXPECT_EQ(error.problem().rfind("cannot rename ", 0), 0u) << error.what();
  }
  EXPECT_EQ(read_file(path / "keep"), "kept");
  EXPECT_EQ(files_in(dir), 1u);
}

}  // namespace
}  // namespace smfem::asset::test
