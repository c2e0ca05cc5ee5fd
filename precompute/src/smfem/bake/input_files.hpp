#pragma once
// The small text files the bake takes beside its input. Blank lines and lines starting with
// '#' are skipped; every other line holds exactly the values said below, separated by spaces.
// Problems throw BakeInputError naming the file, the line and what is wrong.
#include <filesystem>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace smfem::bake {

// --youngs-per-tet: one Young's modulus (Pa, positive, finite) per line, one line per tet in
// the mesh's tet order; `tets` is the expected count.
Eigen::VectorXd read_youngs_per_tet(const std::filesystem::path& file, Eigen::Index tets);

// --pin-file: one 0-based vertex index per line, each below `vertices`. Repeats are allowed.
std::vector<int> read_pin_file(const std::filesystem::path& file, Eigen::Index vertices);

// --region-materials: `<region> <youngs Pa> <poisson> <density kg/m^3> [name]` per line;
// region a non-negative integer, listed once.
struct RegionMaterial {
  int region = 0;
  double youngs = 0.0;
  double poisson = 0.0;
  double density = 0.0;
  std::string name;  // "region <r>" when the line gives none
};
std::vector<RegionMaterial> read_region_materials(const std::filesystem::path& file);

// Checks of one material value, shared with the command-line options; `what` names the source
// in the message (e.g. "--youngs" or "materials.txt:3").
void check_youngs(double youngs, const std::string& what);
void check_poisson(double poisson, const std::string& what);
void check_density(double density, const std::string& what);

}  // namespace smfem::bake
