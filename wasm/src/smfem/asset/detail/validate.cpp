#include "smfem/asset/detail/validate.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "smfem/asset/crc32.hpp"
#include "smfem/asset/detail/le_bytes.hpp"
#include "smfem/asset/detail/rules.hpp"

namespace smfem::asset::detail {
namespace {

std::string checksum_mismatch(std::uint32_t stored, std::uint32_t computed) {
  return "checksum mismatch (stored " + hex32(stored) + ", computed " + hex32(computed) + ")";
}

std::string byte_range(std::uint64_t begin, std::uint64_t length) {
  return "[" + std::to_string(begin) + ", " + std::to_string(begin + length) + ")";
}

class LayoutValidator {
 public:
  LayoutValidator(std::span<const std::uint8_t> bytes, const std::string& source)
      : bytes_(bytes), source_(source) {}

  ValidatedLayout run() {
    check_header();
    check_table();
    for (std::uint32_t i = 0; i < section_count_; ++i) check_entry(i);
    check_no_overlap();
    check_padding();
    for (const SectionInfo& section : layout_.sections) check_checksum(section);
    for (const SectionInfo& section : layout_.sections) check_content(section);
    return std::move(layout_);
  }

 private:
  AssetError fail(const char* location, std::string problem) const {
    return AssetError(source_, location, std::move(problem));
  }
  AssetError fail(const SectionInfo& section, std::string problem) const {
    return AssetError::in_section(source_, section.name, std::move(problem));
  }
  // Offsets and lengths within the file, once checked against its size, fit in a size_t.
  static std::size_t in_file(std::uint64_t offset) { return static_cast<std::size_t>(offset); }
  const std::uint8_t* at(std::uint64_t offset) const { return bytes_.data() + in_file(offset); }
  std::span<const std::uint8_t> data_of(const SectionInfo& section) const {
    return bytes_.subspan(in_file(section.offset), in_file(section.length));
  }

  void check_header() {
    const std::uint64_t size = bytes_.size();
    if (size < header::kSize) {
      throw fail("header", "file is " + std::to_string(size) + " bytes, shorter than the " +
                               std::to_string(header::kSize) + "-byte header");
    }
    if (!std::equal(kMagic.begin(), kMagic.end(), at(header::kMagicAt))) {
      std::string found;
      for (std::size_t i = 0; i < kMagic.size(); ++i) {
        if (i > 0) found += ' ';
        found += hex8(bytes_[i]).substr(2);
      }
      throw fail("header", "bad magic bytes " + found +
                               " (expected 89 53 4d 46 45 4d 0d 0a): not an smfem asset, or "
                               "mangled by a text-mode transfer");
    }
    const std::uint32_t byte_order = load_u32(at(header::kByteOrderAt));
    if (byte_order == 0x04030201u) {
      throw fail("header", "byte-order mark reads 0x04030201: the file was written big-endian");
    }
    if (byte_order != kByteOrderMark) {
      throw fail("header",
                 "byte-order mark is " + hex32(byte_order) + ", expected " + hex32(kByteOrderMark));
    }
    const std::uint16_t major = load_u16(at(header::kMajorAt));
    if (major != kMajorVersion) {
      throw fail("header", "unsupported major version " + std::to_string(major) +
                               " (this reader reads version " + std::to_string(kMajorVersion) +
                               ")");
    }
    const std::uint32_t stored_crc = load_u32(at(header::kHeaderCrcAt));
    const std::uint32_t computed_crc = crc32(bytes_.first(header::kHeaderCrcAt));
    if (stored_crc != computed_crc)
      throw fail("header", checksum_mismatch(stored_crc, computed_crc));
    for (std::size_t i = header::kReservedAt; i < header::kReservedEnd; ++i) {
      if (bytes_[i] != 0) {
        throw fail("header", "reserved byte at offset " + std::to_string(i) + " is " +
                                 hex8(bytes_[i]) + ", must be zero");
      }
    }
    const std::uint32_t table_offset = load_u32(at(header::kTableOffsetAt));
    if (table_offset != header::kSize) {
      throw fail("header", "section table offset is " + std::to_string(table_offset) +
                               ", must be " + std::to_string(header::kSize));
    }
    const std::uint32_t entry_size = load_u32(at(header::kEntrySizeAt));
    if (entry_size != entry::kSize) {
      throw fail("header", "section table entry size is " + std::to_string(entry_size) +
                               ", must be " + std::to_string(entry::kSize));
    }
    const std::uint64_t declared_size = load_u64(at(header::kFileSizeAt));
    if (declared_size != size) {
      throw fail("header", "file is " + std::to_string(size) + " bytes but the header says " +
                               std::to_string(declared_size) +
                               (size < declared_size ? " (truncated?)" : " (bytes appended?)"));
    }
    layout_.minor_version = load_u16(at(header::kMinorAt));
    section_count_ = load_u32(at(header::kSectionCountAt));
  }

  void check_table() {
    // In 64 bits: a u32 count times 80 cannot overflow.
    const std::uint64_t table_bytes = std::uint64_t{section_count_} * entry::kSize;
    if (table_bytes > bytes_.size() - header::kSize) {
      throw fail("section table", std::to_string(section_count_) + " entries of " +
                                      std::to_string(entry::kSize) + " bytes from offset " +
                                      std::to_string(header::kSize) + " run past the end of the " +
                                      std::to_string(bytes_.size()) + "-byte file");
    }
    table_end_ = header::kSize + table_bytes;
    const std::uint32_t stored_crc = load_u32(at(header::kTableCrcAt));
    const std::uint32_t computed_crc = crc32(bytes_.subspan(header::kSize, in_file(table_bytes)));
    if (stored_crc != computed_crc) {
      throw fail("section table", checksum_mismatch(stored_crc, computed_crc));
    }
    layout_.sections.reserve(section_count_);  // bounded by the file size, checked above
  }

  std::string read_name(std::uint32_t index, const std::uint8_t* raw) const {
    const std::string location = "section table entry " + std::to_string(index);
    const auto* end = raw + entry::kNameCapacity;
    const auto* nul = std::find(raw, end, std::uint8_t{0});
    if (nul == end) {
      throw AssetError(
          source_, location,
          "name is not NUL-terminated within " + std::to_string(entry::kNameCapacity) + " bytes");
    }
    std::string name(reinterpret_cast<const char*>(raw), static_cast<std::size_t>(nul - raw));
    if (const auto problem = name_problem(name)) throw AssetError(source_, location, *problem);
    for (const auto* p = nul; p != end; ++p) {
      if (*p != 0) {
        throw AssetError(source_, location,
                         "name has byte " + hex8(*p) + " after its terminating NUL");
      }
    }
    return name;
  }

  void check_entry(std::uint32_t index) {
    const std::uint8_t* raw = at(header::kSize + std::uint64_t{index} * entry::kSize);
    SectionInfo section;
    section.name = read_name(index, raw);
    if (const auto [it, inserted] = index_by_name_.emplace(section.name, index); !inserted) {
      throw fail(section, "name used by entries " + std::to_string(it->second) + " and " +
                              std::to_string(index));
    }
    const std::uint16_t code = load_u16(raw + entry::kDTypeAt);
    const std::optional<DType> dtype = dtype_from_code(code);
    if (!dtype) throw fail(section, "unknown dtype " + std::to_string(code));
    section.dtype = *dtype;
    const std::uint16_t rank = load_u16(raw + entry::kRankAt);
    if (rank < 1 || rank > kMaxRank) {
      throw fail(section,
                 "rank " + std::to_string(rank) + " is outside 1.." + std::to_string(kMaxRank));
    }
    for (std::size_t d = 0; d < kMaxRank; ++d) {
      const std::uint32_t extent = load_u32(raw + entry::kShapeAt + 4 * d);
      if (d < rank) {
        section.shape.push_back(extent);
      } else if (extent != 0) {
        throw fail(section, "shape[" + std::to_string(d) + "] is " + std::to_string(extent) +
                                " but the rank is " + std::to_string(rank) +
                                "; unused extents must be zero");
      }
    }
    if (section.dtype == DType::utf8 && rank != 1) {
      throw fail(section, "utf8 text must have rank 1, not " + std::to_string(rank));
    }
    for (std::size_t i = entry::kReservedAt; i < entry::kSize; ++i) {
      if (raw[i] != 0) {
        throw fail(section, "reserved byte at entry offset " + std::to_string(i) + " is " +
                                hex8(raw[i]) + ", must be zero");
      }
    }
    section.crc32 = load_u32(raw + entry::kDataCrcAt);
    section.offset = load_u64(raw + entry::kOffsetAt);
    section.length = load_u64(raw + entry::kLengthAt);
    check_placement(section);
    layout_.sections.push_back(std::move(section));
  }

  void check_placement(const SectionInfo& section) const {
    const std::string shape_text =
        format_shape(section.shape) + " of " + std::string(dtype_name(section.dtype));
    const std::optional<std::uint64_t> expected = shape_byte_size(section.shape, section.dtype);
    if (!expected) throw fail(section, "shape " + shape_text + " needs more than 2^64 bytes");
    if (section.length != *expected) {
      throw fail(section, "byte length " + std::to_string(section.length) +
                              " does not match shape " + shape_text + " (" +
                              std::to_string(*expected) + " bytes)");
    }
    if (section.offset % kDataAlignment != 0) {
      throw fail(section, "data offset " + std::to_string(section.offset) +
                              " is not a multiple of " + std::to_string(kDataAlignment));
    }
    if (section.offset < table_end_) {
      throw fail(section, "data offset " + std::to_string(section.offset) +
                              " lies inside the header or section table (which end at " +
                              std::to_string(table_end_) + ")");
    }
    if (section.offset > bytes_.size() || section.length > bytes_.size() - section.offset) {
      throw fail(section, "data at offset " + std::to_string(section.offset) + ", " +
                              std::to_string(section.length) + " bytes long, runs past the end " +
                              "of the " + std::to_string(bytes_.size()) + "-byte file");
    }
  }

  std::vector<const SectionInfo*> by_offset() const {
    std::vector<const SectionInfo*> sorted;
    for (const SectionInfo& section : layout_.sections) sorted.push_back(&section);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
      return a->offset != b->offset ? a->offset < b->offset : a->length < b->length;
    });
    return sorted;
  }

  void check_no_overlap() const {
    const auto sorted = by_offset();
    for (std::size_t i = 1; i < sorted.size(); ++i) {
      const SectionInfo& before = *sorted[i - 1];
      const SectionInfo& after = *sorted[i];
      if (after.offset < before.offset + before.length) {
        throw fail(after, "data " + byte_range(after.offset, after.length) + " overlaps section '" +
                              before.name + "' " + byte_range(before.offset, before.length));
      }
    }
  }

  // Bytes that belong to no section (alignment gaps) must be zero, so that every byte of a
  // valid file is covered by a checksum or by this rule and no bit flip goes unnoticed.
  void check_padding() const {
    std::uint64_t covered_to = table_end_;
    const auto check_gap = [&](std::uint64_t gap_end) {
      for (std::size_t i = in_file(covered_to); i < gap_end; ++i) {
        if (bytes_[i] != 0) {
          throw fail("padding", "byte at offset " + std::to_string(i) + " is " + hex8(bytes_[i]) +
                                    "; bytes between sections must be zero");
        }
      }
    };
    for (const SectionInfo* section : by_offset()) {
      check_gap(section->offset);
      covered_to = std::max(covered_to, section->offset + section->length);
    }
    check_gap(bytes_.size());
  }

  void check_checksum(const SectionInfo& section) const {
    const std::uint32_t computed = crc32(data_of(section));
    if (computed != section.crc32) throw fail(section, checksum_mismatch(section.crc32, computed));
  }

  void check_content(const SectionInfo& section) const {
    if (const auto problem = content_problem(section.dtype, data_of(section))) {
      throw fail(section, *problem);
    }
  }

  std::span<const std::uint8_t> bytes_;
  const std::string& source_;
  std::uint32_t section_count_ = 0;
  std::uint64_t table_end_ = 0;
  std::unordered_map<std::string, std::uint32_t> index_by_name_;
  ValidatedLayout layout_;
};

}  // namespace

ValidatedLayout validate_layout(std::span<const std::uint8_t> bytes, const std::string& source) {
  return LayoutValidator(bytes, source).run();
}

}  // namespace smfem::asset::detail
