#pragma once
// Writing recipes and the mesh files they name into a test's scratch folder.
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "smfem/mesh/types.hpp"
#include "support/text_file.hpp"

namespace smfem::test {

// A small, valid recipe: a rounded box with a stiff capsule inside, pinned at one end.
inline nlohmann::json base_recipe() {
  return nlohmann::json::parse(R"({
    "name": "bar",
    "description": "A soft bar with a stiff core sags under gravity from its pinned end.",
    "geometry": {"box": {"center": [0, 0, 0], "half_extents": [1, 0.25, 0.25], "rounding": 0.05}},
    "resolution": {"edge_length": 0.1},
    "materials": [
      {"name": "core", "youngs": 1e8, "poisson": 0.3, "density": 1200,
       "where": {"capsule": {"from": [-0.5, 0, 0], "to": [0.5, 0, 0], "radius": 0.12}}},
      {"name": "rubber", "youngs": 1e5, "poisson": 0.45, "density": 1000}
    ],
    "pins": [{"where": {"box": {"center": [-1, 0, 0], "half_extents": [0.05, 1, 1]}}}],
    "forces": [{"periodic": {"where": {"sphere": {"center": [1, 0, 0], "radius": 0.3}},
                             "amplitude": 5, "frequency": 2, "direction": [0, 2, 0]}}],
    "subspace": {"modes": 8, "cubature": 100},
    "solver": {"method": "mfem", "iterations": 2, "timestep": 0.016, "gravity": [0, -9.8, 0],
               "material_model": "fcr"},
    "camera": {"position": [0, 1, 4], "target": [0, 0, 0]}
  })");
}

// OBJ text of a surface (1-based faces).
inline std::string obj_text(const mesh::SurfaceMesh& surface) {
  std::string text;
  for (Eigen::Index v = 0; v < surface.vertices.rows(); ++v) {
    text += "v " + std::to_string(surface.vertices(v, 0)) + " " +
            std::to_string(surface.vertices(v, 1)) + " " + std::to_string(surface.vertices(v, 2)) +
            "\n";
  }
  for (Eigen::Index f = 0; f < surface.triangles.rows(); ++f) {
    text += "f " + std::to_string(surface.triangles(f, 0) + 1) + " " +
            std::to_string(surface.triangles(f, 1) + 1) + " " +
            std::to_string(surface.triangles(f, 2) + 1) + "\n";
  }
  return text;
}

// MEDIT .mesh text of a tet mesh (1-based, region references).
inline std::string medit_text(const mesh::TetMesh& m) {
  std::string text =
      "MeshVersionFormatted 1\nDimension 3\nVertices\n" + std::to_string(m.vertices.rows()) + "\n";
  for (Eigen::Index v = 0; v < m.vertices.rows(); ++v) {
    text += std::to_string(m.vertices(v, 0)) + " " + std::to_string(m.vertices(v, 1)) + " " +
            std::to_string(m.vertices(v, 2)) + " 0\n";
  }
  text += "Tetrahedra\n" + std::to_string(m.tets.rows()) + "\n";
  for (Eigen::Index t = 0; t < m.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) text += std::to_string(m.tets(t, k) + 1) + " ";
    text += "1\n";
  }
  return text + "End\n";
}

}  // namespace smfem::test
