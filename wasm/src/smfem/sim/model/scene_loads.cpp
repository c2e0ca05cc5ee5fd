#include "smfem/sim/model/scene_loads.hpp"

#include <cmath>
#include <string>

#include "smfem/sim/model/detail/asset_arrays.hpp"

namespace smfem::sim {
namespace {

using asset::AssetError;
using Json = nlohmann::json;

// The bounds of assets/scenes/README.md (the recipe reader enforces them too): a hand-made
// asset outside them is refused rather than clamped, since nothing at run time sets them.
constexpr double kMaxAmplitude = 1e4;
constexpr double kMaxFrequency = 1e3;
constexpr double kMaxStiffness = 1e12;

class LoadReader {
 public:
  LoadReader(const asset::Asset& asset, std::size_t index, Eigen::Index n)
      : asset_(asset), n_(n), index_(index), prefix_("force." + std::to_string(index) + ".") {}

  SceneLoad read(const Json& entry) const {
    if (!entry.is_object()) throw fail("not an object");
    const auto kind = entry.find("kind");
    if (kind == entry.end() || !kind->is_string()) throw fail("kind must be a string");
    // The parameters first, then the sections they go with.
    SceneLoad load;
    const std::string name = kind->get<std::string>();
    if (name == "periodic") {
      load.kind = SceneLoad::Kind::periodic;
      load.amplitude = number(entry, "amplitude", 0.0, kMaxAmplitude);
      load.frequency = number(entry, "frequency", 0.0, kMaxFrequency);
      load.direction = direction(entry);
    } else if (name == "twist" || name == "pull") {
      load.kind = SceneLoad::Kind::springs;
      load.stiffness = number(entry, "stiffness", 0.0, kMaxStiffness);
      if (entry.contains("release")) load.release = number(entry, "release", 0.0, 1e300);
    } else {
      throw fail("kind \"" + name + "\" is not periodic, twist or pull");
    }
    load.mass_vector = detail::read_f64_vector(asset_, prefix_ + "mass_vector", n_);
    if (load.kind == SceneLoad::Kind::springs) {
      load.mass_block = detail::read_f64_matrix(asset_, prefix_ + "mass_block", n_, n_);
      load.rest_offset = detail::read_f64_matrix(asset_, prefix_ + "rest_offset", n_, 3);
    }
    return load;
  }

 private:
  AssetError fail(const std::string& problem) const {
    return AssetError::in_section(asset_.source_name(), "meta",
                                  "forces[" + std::to_string(index_) + "]: " + problem);
  }

  double number(const Json& entry, const char* key, double low, double high) const {
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_number()) throw fail(std::string(key) + " must be a number");
    const double value = it->get<double>();
    if (!(value >= low && value <= high)) {
      throw fail(std::string(key) + " " + std::to_string(value) + " is outside [" +
                 std::to_string(low) + ", " + std::to_string(high) + "]");
    }
    return value;
  }

  Eigen::Vector3d direction(const Json& entry) const {
    const auto it = entry.find("direction");
    Eigen::Vector3d d;
    if (it == entry.end() || !it->is_array() || it->size() != 3) {
      throw fail("direction must be an array of 3 numbers");
    }
    for (int k = 0; k < 3; ++k) {
      if (!(*it)[k].is_number()) throw fail("direction must be an array of 3 numbers");
      d(k) = (*it)[k].get<double>();
    }
    if (!d.allFinite() || !(d.norm() > 0.0)) throw fail("direction must be a nonzero vector");
    return d.normalized();
  }

  const asset::Asset& asset_;
  Eigen::Index n_;
  std::size_t index_;
  std::string prefix_;
};

}  // namespace

std::vector<SceneLoad> read_scene_loads(const asset::Asset& asset, Eigen::Index n) {
  std::vector<SceneLoad> loads;
  const auto found = asset.meta().find("forces");
  if (found == asset.meta().end()) return loads;
  if (!found->is_array()) {
    throw AssetError::in_section(asset.source_name(), "meta", "forces is not an array");
  }
  for (std::size_t i = 0; i < found->size(); ++i) {
    loads.push_back(LoadReader(asset, i, n).read((*found)[i]));
  }
  return loads;
}

void add_periodic_loads(const std::vector<SceneLoad>& loads, double time, ReducedMatrix& force) {
  for (const SceneLoad& load : loads) {
    if (load.kind != SceneLoad::Kind::periodic) continue;
    const double acceleration =
        load.amplitude * std::sin(2.0 * 3.14159265358979323846 * load.frequency * time);
    force.noalias() += load.mass_vector * (acceleration * load.direction).transpose();
  }
}

bool active_anchors(const std::vector<SceneLoad>& loads, double time, Eigen::MatrixXd& block,
                    ReducedMatrix& pull) {
  bool any = false;
  for (const SceneLoad& load : loads) {
    if (!load.pulling(time)) continue;
    if (!any) {
      block.setZero(load.mass_block.rows(), load.mass_block.cols());
      pull.setZero(load.rest_offset.rows(), 3);
      any = true;
    }
    block += load.stiffness * load.mass_block;
    pull += load.stiffness * load.rest_offset;
  }
  return any;
}

}  // namespace smfem::sim
