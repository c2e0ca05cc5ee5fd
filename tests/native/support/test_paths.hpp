#pragma once
// The one place tests find data: never paths relative to the working directory.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "smfem/config.hpp"

namespace smfem::test {

// The third-party meshes in ../shared/data (beside the repository). Not part of the product.
inline std::filesystem::path shared_data_dir() {
  return std::filesystem::path(config::source_dir).parent_path() / "shared" / "data";
}

// A fresh, empty folder for one test's files, under the system's temporary directory.
inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() / "smfem-tests" /
             (std::string(info->test_suite_name()) + "." + info->name() + "." + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace smfem::test

// Skips (never passes) a test whose third-party file is absent.
#define SMFEM_REQUIRE_SHARED_FILE(path)                                       \
  do {                                                                        \
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "missing " << (path); \
  } while (0)
