#pragma once
// The reader's checks of everything but the metadata's content, in the order that
// assets/FORMAT.md ("Validation order") specifies. JS has no reader of its own: it reads assets
// through this one (the module's inspectAsset and pageAsset, wasm/bindings/bindings.cpp).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "smfem/asset/asset.hpp"

namespace smfem::asset::detail {

struct ValidatedLayout {
  std::uint16_t minor_version = 0;
  std::vector<SectionInfo> sections;  // in table order
};

// Checks header, section table, data placement, padding, checksums and values, and throws
// AssetError at the first problem. Reads nothing outside `bytes`, and allocates nothing
// before the section count has been checked against bytes.size().
ValidatedLayout validate_layout(std::span<const std::uint8_t> bytes, const std::string& source);

}  // namespace smfem::asset::detail
