// The JS boundary of the WebAssembly module (embind). Kept narrow: plain values and copies in
// and out, never views into the wasm heap. wasm/js/loader.js wraps it in the public API.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/config.hpp"

namespace {

using emscripten::val;

// Rethrows any C++ exception as a JS Error carrying the same message.
template <class Fn>
auto js_errors(Fn&& fn) {
  try {
    return fn();
  } catch (const std::exception& e) {
    val::global("Error").new_(std::string(e.what())).throw_();
  }
}

std::string build_flavour() { return SMFEM_WASM_THREADS ? "threads" : "single"; }

// Validates asset bytes with the reader the stepper uses; returns the table of contents and
// the metadata as JSON text.
std::string inspect_asset(const val& bytes, const std::string& source_name) {
  return js_errors([&] {
    auto asset = smfem::asset::Asset::from_bytes(
        emscripten::convertJSArrayToNumberVector<std::uint8_t>(bytes), source_name);
    nlohmann::json sections = nlohmann::json::array();
    for (const auto& s : asset.sections()) {
      sections.push_back({{"name", s.name},
                          {"dtype", smfem::asset::dtype_name(s.dtype)},
                          {"shape", s.shape},
                          {"offset", s.offset},
                          {"length", s.length}});
    }
    return nlohmann::json{{"meta", asset.meta()}, {"sections", sections}}.dump();
  });
}

// Runs `count` threads and returns how many distinct threads did the work: proves that the
// threaded flavour really runs in parallel workers (1 in the single-threaded flavour).
int distinct_worker_threads(int count) {
  if (!SMFEM_WASM_THREADS || count < 1) return 1;
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::vector<std::thread> threads;
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&] {
      std::lock_guard lock(mutex);
      seen.insert(std::this_thread::get_id());
    });
  }
  for (auto& t : threads) t.join();
  return static_cast<int>(seen.size());
}

}  // namespace

EMSCRIPTEN_BINDINGS(smfem) {
  emscripten::function("version", +[] { return std::string(smfem::config::version); });
  emscripten::function("build", &build_flavour);
  emscripten::function("inspectAsset", &inspect_asset);
  emscripten::function("distinctWorkerThreads", &distinct_worker_threads);
}
