#include "smfem/sim/simulator_state.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace smfem::sim {
namespace {

constexpr std::uint32_t kFormat = 3;
constexpr std::uint32_t kOldPatchesFormat = 2;  // the same layout; see the header
constexpr char kMagic[4] = {'S', 'M', 'F', 'S'};
constexpr std::uint64_t kHeaderBytes = 32;       // magic, format, m, C, time, step count
constexpr std::uint64_t kPatchHeaderBytes = 12;  // P, L, S

// Bytes of the body after the header: U, Udot (4m x 3), z, lambda (6 x C).
std::uint64_t body_bytes(std::uint64_t m, std::uint64_t C) { return 8 * (24 * m + 12 * C); }

// Bytes of the patches' part after its header.
std::uint64_t patch_bytes(std::uint64_t P, std::uint64_t L, std::uint64_t S) {
  return 4 * L + 8 * L + 8 * (9 * P + 6 * P + 12 * S);
}

class Writer {
 public:
  explicit Writer(std::uint64_t size) : bytes_(static_cast<std::size_t>(size)) {}
  void put(const void* data, std::size_t size) {
    if (size == 0) return;  // an empty vector's data() may be null, which memcpy may not take
    std::memcpy(bytes_.data() + at_, data, size);
    at_ += size;
  }
  template <class Matrix>
  void put_matrix(const Matrix& matrix) {
    put(matrix.data(), 8 * static_cast<std::size_t>(matrix.size()));
  }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  void get(void* data, std::size_t size) {
    if (size == 0) return;  // as put()
    std::memcpy(data, bytes_.data() + at_, size);
    at_ += size;
  }
  std::uint32_t get_u32() {
    std::uint32_t value = 0;
    get(&value, 4);
    return value;
  }
  template <class Matrix>
  void get_matrix(Matrix& matrix, Eigen::Index rows, Eigen::Index cols) {
    matrix.resize(rows, cols);
    get(matrix.data(), 8 * static_cast<std::size_t>(matrix.size()));
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

void expect_bytes(std::uint64_t actual, std::uint64_t expected, const std::string& what) {
  if (actual != expected) {
    throw std::invalid_argument("state blob has " + std::to_string(actual) + " bytes, expected " +
                                std::to_string(expected) + " " + what);
  }
}

}  // namespace

std::vector<std::uint8_t> encode_state(const SimulatorState& state) {
  const local::PatchState& patches = state.patches;
  const auto m = static_cast<std::uint32_t>(state.U.rows() / 4);
  const auto C = static_cast<std::uint32_t>(state.z.cols());
  const auto P = static_cast<std::uint32_t>(patches.C.rows());
  const auto L = static_cast<std::uint32_t>(patches.loaded.size());
  const auto S = static_cast<std::uint32_t>(patches.z.cols());
  Writer out(kHeaderBytes + body_bytes(m, C) + kPatchHeaderBytes + patch_bytes(P, L, S));
  out.put(kMagic, 4);
  out.put(&kFormat, 4);
  out.put(&m, 4);
  out.put(&C, 4);
  out.put(&state.time, 8);
  out.put(&state.step_count, 8);
  out.put_matrix(state.U);
  out.put_matrix(state.Udot);
  out.put_matrix(state.z);
  out.put_matrix(state.lambda);
  out.put(&P, 4);
  out.put(&L, 4);
  out.put(&S, 4);
  for (const int v : patches.loaded) out.put(&v, 4);
  out.put(patches.unloaded_for.data(), 8 * patches.unloaded_for.size());
  for (const Eigen::Matrix3d& R : patches.rotations) out.put_matrix(R);
  out.put_matrix(patches.C);
  out.put_matrix(patches.Cdot);
  out.put_matrix(patches.z);
  out.put_matrix(patches.lambda);
  return out.take();
}

SimulatorState decode_state(std::span<const std::uint8_t> bytes, int m, int C) {
  if (bytes.size() < kHeaderBytes) {
    expect_bytes(bytes.size(), kHeaderBytes, "for its header at least");
  }
  Reader in(bytes);
  char magic[4];
  in.get(magic, 4);
  const std::uint32_t format = in.get_u32();
  if (std::memcmp(magic, kMagic, 4) != 0 ||
      (format != 1 && format != kOldPatchesFormat && format != kFormat)) {
    throw std::invalid_argument("not a simulator state blob (format 1, 2 or 3)");
  }
  const std::uint32_t blob_m = in.get_u32(), blob_C = in.get_u32();
  if (blob_m != static_cast<std::uint32_t>(m) || blob_C != static_cast<std::uint32_t>(C)) {
    throw std::invalid_argument("state blob is for " + std::to_string(blob_m) + " modes and " +
                                std::to_string(blob_C) + " cubature tets, the model has " +
                                std::to_string(m) + " and " + std::to_string(C));
  }
  const std::uint64_t fixed = kHeaderBytes + body_bytes(blob_m, blob_C);
  if (format == 1) expect_bytes(bytes.size(), fixed, "(format 1)");
  const bool patched_format = format == kOldPatchesFormat || format == kFormat;
  if (patched_format && bytes.size() < fixed + kPatchHeaderBytes) {
    expect_bytes(bytes.size(), fixed + kPatchHeaderBytes, "before its patches at least");
  }
  SimulatorState state;
  in.get(&state.time, 8);
  in.get(&state.step_count, 8);
  in.get_matrix(state.U, 4 * m, 3);
  in.get_matrix(state.Udot, 4 * m, 3);
  in.get_matrix(state.z, 6, C);
  in.get_matrix(state.lambda, 6, C);
  local::PatchState& patches = state.patches;
  std::uint32_t P = 0, L = 0, S = 0;
  if (patched_format) {
    P = in.get_u32();
    L = in.get_u32();
    S = in.get_u32();
    if (format == kOldPatchesFormat && P > 0) {
      throw std::invalid_argument(
          "state blob of format 2 with " + std::to_string(P) +
          " local patches: saved before the patches' energy changed (2026-12-03), its patches' "
          "stretches are not this build's; save it again without patches, or start anew");
    }
    expect_bytes(bytes.size(), fixed + kPatchHeaderBytes + patch_bytes(P, L, S),
                 "for " + std::to_string(P) + " patches, " + std::to_string(L) +
                     " loaded vertices and " + std::to_string(S) + " patch tets");
  }
  patches.loaded.resize(L);
  for (int& v : patches.loaded) in.get(&v, 4);
  patches.unloaded_for.resize(L);
  in.get(patches.unloaded_for.data(), 8 * static_cast<std::size_t>(L));
  patches.rotations.resize(P);
  for (Eigen::Matrix3d& R : patches.rotations) in.get(R.data(), 72);
  in.get_matrix(patches.C, P, 3);
  in.get_matrix(patches.Cdot, P, 3);
  in.get_matrix(patches.z, 6, S);
  in.get_matrix(patches.lambda, 6, S);
  return state;
}

}  // namespace smfem::sim
