#pragma once
// A forward cursor over binary data: fixed-size little- or big-endian values, and errors that
// name the file and the byte offset.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "smfem/mesh/error.hpp"

namespace smfem::mesh::detail {

class BinaryCursor {
 public:
  BinaryCursor(std::string_view data, std::size_t start, std::string file_name,
               std::endian byte_order)
      : data_(data), file_name_(std::move(file_name)), byte_order_(byte_order), position_(start) {}

  const std::string& file_name() const { return file_name_; }
  std::size_t offset() const { return position_; }
  std::size_t remaining_bytes() const { return data_.size() - position_; }

  // The next value of type T (an arithmetic type) in the file's byte order; fails with
  // "file ended in <what>" when fewer than sizeof(T) bytes remain.
  template <class T>
  T read(std::string_view what) {
    if (remaining_bytes() < sizeof(T)) {
      fail_at(data_.size(), "file ended in " + std::string(what));
    }
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, data_.data() + position_, sizeof(T));
    if (byte_order_ != std::endian::native) {
      for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(bytes[i], bytes[sizeof(T) - 1 - i]);
    }
    T value;
    std::memcpy(&value, bytes, sizeof(T));
    position_ += sizeof(T);
    return value;
  }

  void skip(std::size_t bytes, std::string_view what) {
    if (remaining_bytes() < bytes) fail_at(data_.size(), "file ended in " + std::string(what));
    position_ += bytes;
  }

  [[noreturn]] void fail(const std::string& problem) const { fail_at(position_, problem); }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& problem) const {
    throw MeshError::at_byte(file_name_, offset, problem);
  }

 private:
  std::string_view data_;
  std::string file_name_;
  std::endian byte_order_;
  std::size_t position_;
};

}  // namespace smfem::mesh::detail
