// smfem-asset: inspect, verify and make baked assets (assets/FORMAT.md).
//   smfem-asset info [--json] <file>   header, section table and metadata
//   smfem-asset verify <file>          exit 0 if valid, 2 with the error on stderr otherwise: the
//                                      layout, then what the stepper's and page's readers check
//   smfem-asset example <out.smfem>    a small valid asset (a unit cube), for tests and demos
// Exit codes: 0 success, 1 usage error, 2 invalid asset or failed write.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_writer.hpp"
#include "smfem/asset/cubature_markers.hpp"
#include "smfem/asset/render_surface.hpp"
#include "smfem/config.hpp"
#include "smfem/displacement/displacement_model.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace {

using namespace smfem::asset;

constexpr int kUsageError = 1;
constexpr int kInvalid = 2;

int usage() {
  std::cerr << "usage: smfem-asset info [--json] <file>\n"
               "       smfem-asset verify <file>\n"
               "       smfem-asset example <out.smfem>\n";
  return kUsageError;
}

nlohmann::json describe(const Asset& asset) {
  nlohmann::json sections = nlohmann::json::array();
  for (const SectionInfo& section : asset.sections()) {
    sections.push_back({{"name", section.name},
                        {"dtype", dtype_name(section.dtype)},
                        {"shape", section.shape},
                        {"offset", section.offset},
                        {"length", section.length},
                        {"crc32", section.crc32}});
  }
  return {{"source", asset.source_name()},
          {"version", {{"major", kMajorVersion}, {"minor", asset.minor_version()}}},
          {"file_size", asset.file_size()},
          {"sections", sections},
          {"meta", asset.meta()}};
}

void print_info(const Asset& asset) {
  std::printf("file       %s\nversion    %u.%u\nsize       %llu bytes\nsections   %zu\n\n",
              asset.source_name().c_str(), unsigned{kMajorVersion}, unsigned{asset.minor_version()},
              static_cast<unsigned long long>(asset.file_size()), asset.sections().size());
  std::printf("%-31s %-5s %-22s %10s %10s  %s\n", "name", "dtype", "shape", "offset", "length",
              "crc32");
  for (const SectionInfo& section : asset.sections()) {
    std::printf("%-31s %-5s %-22s %10llu %10llu  0x%08x\n", section.name.c_str(),
                std::string(dtype_name(section.dtype)).c_str(),
                nlohmann::json(section.shape).dump().c_str(),
                static_cast<unsigned long long>(section.offset),
                static_cast<unsigned long long>(section.length), section.crc32);
  }
  std::printf("\nmeta\n%s\n", asset.meta().dump(2).c_str());
}

// A unit cube [0, 1]^3: vertex x + 2y + 4z sits at (x, y, z). Mode 0 weighs z, mode 1 x*z.
// The example.* sections cover every dtype and rank, so readers can be checked on them.
void write_example(const std::string& path) {
  RenderSurface cube;
  cube.vertex_count = 8;
  cube.triangle_count = 12;
  cube.mode_count = 2;
  const float corner_normal = 1.0f / std::sqrt(3.0f);
  for (int v = 0; v < 8; ++v) {
    const float x = float(v & 1), y = float((v >> 1) & 1), z = float((v >> 2) & 1);
    cube.positions.insert(cube.positions.end(), {x, y, z});
    cube.weights.insert(cube.weights.end(), {z, x * z});
    for (const float c : {x, y, z}) cube.normals.push_back((2 * c - 1) * corner_normal);
  }
  cube.triangles = {0, 6, 2, 0, 4, 6, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                    2, 7, 3, 2, 6, 7, 0, 3, 1, 0, 2, 3, 4, 5, 7, 4, 7, 6};

  AssetWriter writer;
  writer.set_meta({{"format", "smfem-asset"},
                   {"kind", "render-surface"},
                   {"generator", std::string("smfem-asset example ") + smfem::config::version},
                   {"scene", "unit-cube-example"},
                   {"units", "m"},
                   {"m", cube.mode_count},
                   {"purpose", "tests and demos of the asset readers"}});
  add_render_surface(writer, cube);
  writer.add("example.eigenvalues", std::vector<double>{12.5, 40.25}, {2});
  writer.add("example.offsets", std::vector<std::int32_t>{-3, -1, 1, 3}, {2, 2});
  writer.add("example.corner_flags", std::vector<std::uint8_t>{1, 1, 1, 1, 0, 0, 0, 0}, {2, 2, 2});
  writer.add("example.tensor", std::vector<float>{0.5f, -0.25f, 1e-3f, 3.0f}, {1, 2, 1, 2});
  writer.add_text("example.readme",
                  "Unit cube (8 vertices, 12 triangles, 2 modes) written by smfem-asset example "
                  "to exercise the asset readers. Non-ASCII text: \xC3\xBC \xE2\x9C\x93");
  writer.write_file(path);
}

// Reads every part the asset has with the reader that uses it (each throws an AssetError naming
// the section where its sections disagree: a triangle's vertex id past the render surface, a
// cubature tet past the mesh) and returns the parts' names.
std::string verify_contents(const Asset& asset) {
  std::string parts;
  const auto read = [&](const char* part) {
    parts += (parts.empty() ? "" : ", ") + std::string(part);
  };
  if (asset.has(kRenderTriangles)) {  // a procedural model's vertices, for drag springs, have none
    read_render_surface(asset);
    read("render surface");
  }
  if (read_cubature_markers(asset).count > 0) read("cubature markers");
  if (asset.has("subspace.eigenvalues")) {
    smfem::sim::load_reduced_model(asset);
    read("reduced model");
  }
  if (asset.has("mesh.positions")) {
    smfem::full::load_full_model(asset);
    read("tet mesh");
  }
  if (smfem::displacement::has_displacement_basis(asset)) {
    smfem::displacement::load_displacement_model(asset);
    read("displacement subspace");
  }
  return parts;
}

int run(const std::vector<std::string_view>& args) {
  if (args.size() == 2 && args[0] == "info") {
    print_info(Asset::from_file(args[1]));
  } else if (args.size() == 3 && args[0] == "info" && args[1] == "--json") {
    std::cout << describe(Asset::from_file(args[2])).dump(2) << "\n";
  } else if (args.size() == 2 && args[0] == "verify") {
    const Asset asset = Asset::from_file(args[1]);
    const std::string parts = verify_contents(asset);
    std::printf("%s: valid (%zu sections, %llu bytes%s%s)\n", asset.source_name().c_str(),
                asset.sections().size(), static_cast<unsigned long long>(asset.file_size()),
                parts.empty() ? "" : "; read: ", parts.c_str());
  } else if (args.size() == 2 && args[0] == "example") {
    write_example(std::string(args[1]));
  } else {
    return usage();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string_view>(argv + 1, argv + argc));
  } catch (const AssetError& error) {
    std::cerr << error.what() << "\n";
    return kInvalid;
  } catch (const std::exception& error) {  // a reader's other refusals (std::invalid_argument)
    std::cerr << error.what() << "\n";
    return kInvalid;
  }
}
