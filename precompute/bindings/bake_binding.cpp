// The bake's WebAssembly module (smfem-bake.*): smfem-bake's own command
// (smfem/command/bake_command.hpp), run on files the caller hands over, in Emscripten's
// in-memory file system, so that the browser bakes with the native tool's options, messages and
// results. JS API (precompute/js/bake.js wraps it):
//
//   bake(files, args, onLine) -> {status, asset, summary, log}
//     files   [{name, bytes: Uint8Array}]: the mesh or recipe and whatever it names (meshes,
//             per-tet moduli, pins), each name a relative path without ".."
//     args    smfem-bake's command line without "-o" (names as in files): ["bunny.obj",
//             "--modes", "8"]
//     onLine  called with each line smfem-bake prints on stderr as it prints it (its progress:
//             "[smfem-bake] eigensolve: ..."), or undefined
//     status  smfem-bake's exit status (0 done, 2 bad input, 1 internal error)
//     asset   the baked asset's bytes (Uint8Array), or null
//     summary smfem-bake --json's summary (JSON text), or ""
//     log     what smfem-bake printed on stderr: progress lines and the error, if any
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "smfem/command/bake_command.hpp"

namespace {

using emscripten::val;
namespace fs = std::filesystem;

// A caller's file name as a path inside the bake's folder: relative, without "..".
fs::path inside(const fs::path& folder, const std::string& name) {
  const fs::path relative = fs::path(name).lexically_normal();
  if (name.empty() || relative.is_absolute() || relative.empty() || *relative.begin() == "..") {
    throw std::invalid_argument("bake: file name \"" + name +
                                "\" must be a relative path inside the bake's folder");
  }
  return folder / relative;
}

void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream stream(path, std::ios::binary);
  stream.write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  if (!stream) throw std::runtime_error("bake: cannot write " + path.string());
}

// smfem-bake's stderr: kept whole for the result, and each line handed to onLine when the
// command flushes it (its progress lines end in std::endl).
class LineBuffer : public std::stringbuf {
 public:
  explicit LineBuffer(val on_line) : on_line_(std::move(on_line)) {}
  // Everything written so far.
  std::string text() const { return done_ + pending_ + str(); }

 protected:
  int sync() override {
    pending_ += str();
    str("");
    for (std::size_t end; (end = pending_.find('\n')) != std::string::npos;) {
      const std::string line = pending_.substr(0, end);
      done_ += pending_.substr(0, end + 1);
      pending_.erase(0, end + 1);
      if (!on_line_.isUndefined()) on_line_(line);
    }
    return 0;
  }

 private:
  val on_line_;
  std::string done_, pending_;  // whole lines handed on; the start of the next
};

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

val run_bake(const fs::path& folder, const val& files, const val& args, const val& on_line) {
  const auto count = files["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) {
    const val file = files[i];
    write_file(inside(folder, file["name"].as<std::string>()),
               emscripten::convertJSArrayToNumberVector<std::uint8_t>(file["bytes"]));
  }
  std::vector<std::string> command = emscripten::vecFromJSArray<std::string>(args);
  const fs::path output = folder / "baked.smfem";
  command.insert(command.end(), {"-o", output.string(), "--json"});

  // The command's relative names are the caller's file names.
  const fs::path caller_folder = fs::current_path();
  fs::current_path(folder);
  std::ostringstream out;
  LineBuffer err_lines(on_line);
  std::ostream err(&err_lines);
  const int status = smfem::command::bake_command(command, out, err);
  err.flush();
  fs::current_path(caller_folder);

  val result = val::object();
  result.set("status", status);
  result.set("log", err_lines.text());
  result.set("summary", status == 0 ? out.str() : std::string());
  if (status == 0) {
    const std::vector<std::uint8_t> asset = read_file(output);
    result.set("asset", val::global("Uint8Array")
                            .new_(emscripten::typed_memory_view(asset.size(), asset.data()))
                            .call<val>("slice"));
  } else {
    result.set("asset", val::null());
  }
  return result;
}

val bake(const val& files, const val& args, const val& on_line) {
  static int runs = 0;
  const fs::path folder = "/bake/" + std::to_string(runs++);
  fs::create_directories(folder);
  try {
    val result = run_bake(folder, files, args, on_line);
    fs::remove_all(folder);
    return result;
  } catch (const std::exception& error) {
    fs::remove_all(folder);
    val::global("Error").new_(std::string(error.what())).throw_();
  }
  return val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(smfem_bake) { emscripten::function("bake", &bake); }
