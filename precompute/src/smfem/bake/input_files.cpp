#include "smfem/bake/input_files.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "smfem/bake/bake_error.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::bake {
namespace {

// The non-comment lines of a file with their 1-based line numbers, split into words.
struct Line {
  int number;
  std::vector<std::string> words;
};

std::vector<Line> read_lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw BakeInputError(file.string() + ": cannot open the file");
  std::vector<Line> lines;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    std::istringstream words_in(text);
    Line line{number, {}};
    for (std::string word; words_in >> word;) line.words.push_back(word);
    if (line.words.empty() || line.words.front().front() == '#') continue;
    lines.push_back(std::move(line));
  }
  if (in.bad()) throw BakeInputError(file.string() + ": read error");
  return lines;
}

std::string place(const std::filesystem::path& file, const Line& line) {
  return file.string() + ":" + std::to_string(line.number);
}

double parse_number(const std::string& word, const std::string& where) {
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (word.empty() || end != word.c_str() + word.size() || !std::isfinite(value)) {
    throw BakeInputError(where + ": \"" + word + "\" is not a finite number");
  }
  return value;
}

long long parse_index(const std::string& word, const std::string& where) {
  char* end = nullptr;
  const long long value = std::strtoll(word.c_str(), &end, 10);
  if (word.empty() || end != word.c_str() + word.size() || value < 0 || value > (1LL << 31) - 2) {
    throw BakeInputError(where + ": \"" + word + "\" is not a non-negative integer");
  }
  return value;
}

void expect_words(const Line& line, std::size_t low, std::size_t high, const std::string& where,
                  const char* layout) {
  if (line.words.size() < low || line.words.size() > high) {
    throw BakeInputError(where + ": expected " + layout + ", got " +
                         std::to_string(line.words.size()) + " values");
  }
}

}  // namespace

// The ranges a recipe's materials keep to (solver_limits.json), where the stepper would clamp.
void check_youngs(double youngs, const std::string& what) {
  if (const std::string problem =
          sim::outside_limits(youngs, sim::kMinYoungs, sim::kMaxYoungs, "Pa");
      !problem.empty()) {
    throw BakeInputError(what + ": Young's modulus " + problem);
  }
}

void check_poisson(double poisson, const std::string& what) {
  if (const std::string problem = sim::outside_limits(poisson, sim::kMinPoisson, sim::kMaxPoisson);
      !problem.empty()) {
    throw BakeInputError(what + ": Poisson's ratio " + problem);
  }
}

void check_density(double density, const std::string& what) {
  if (!(density > 0.0) || !std::isfinite(density)) {
    throw BakeInputError(what + ": density must be positive and finite, not " +
                         json::format_number(density));
  }
}

Eigen::VectorXd read_youngs_per_tet(const std::filesystem::path& file, Eigen::Index tets) {
  const std::vector<Line> lines = read_lines(file);
  if (static_cast<Eigen::Index>(lines.size()) != tets) {
    throw BakeInputError(file.string() + ": holds " + std::to_string(lines.size()) +
                         " values, the mesh has " + std::to_string(tets) + " tets");
  }
  Eigen::VectorXd youngs(tets);
  for (Eigen::Index t = 0; t < tets; ++t) {
    const Line& line = lines[static_cast<std::size_t>(t)];
    const std::string where = place(file, line);
    expect_words(line, 1, 1, where, "one Young's modulus");
    youngs(t) = parse_number(line.words[0], where);
    check_youngs(youngs(t), where);
  }
  return youngs;
}

std::vector<int> read_pin_file(const std::filesystem::path& file, Eigen::Index vertices) {
  std::vector<int> pins;
  for (const Line& line : read_lines(file)) {
    const std::string where = place(file, line);
    expect_words(line, 1, 1, where, "one vertex index");
    const long long v = parse_index(line.words[0], where);
    if (v >= vertices) {
      throw BakeInputError(where + ": vertex " + std::to_string(v) + " is not in 0.." +
                           std::to_string(vertices - 1));
    }
    pins.push_back(static_cast<int>(v));
  }
  return pins;
}

std::vector<RegionMaterial> read_region_materials(const std::filesystem::path& file) {
  std::vector<RegionMaterial> materials;
  std::set<int> seen;
  for (const Line& line : read_lines(file)) {
    const std::string where = place(file, line);
    expect_words(line, 4, 5, where, "<region> <youngs> <poisson> <density> [name]");
    RegionMaterial material;
    material.region = static_cast<int>(parse_index(line.words[0], where));
    material.youngs = parse_number(line.words[1], where);
    material.poisson = parse_number(line.words[2], where);
    material.density = parse_number(line.words[3], where);
    material.name =
        line.words.size() == 5 ? line.words[4] : "region " + std::to_string(material.region);
    check_youngs(material.youngs, where);
    check_poisson(material.poisson, where);
    check_density(material.density, where);
    if (!seen.insert(material.region).second) {
      throw BakeInputError(where + ": region " + std::to_string(material.region) +
                           " is listed twice");
    }
    materials.push_back(std::move(material));
  }
  if (materials.empty()) throw BakeInputError(file.string() + ": lists no region");
  return materials;
}

}  // namespace smfem::bake
