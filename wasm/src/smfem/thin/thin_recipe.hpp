#pragma once
// A thin body's scene recipe (assets/scenes/README.md, "Shells and rods"): a JSON object with
// a "shell", a "rod" or "parts" (below) and, like the volumes' recipes, optional "name",
// "description", "solver" (sim/model/reduced_model.hpp: read_solver_defaults, over
// thin_body_defaults) and "camera" (the page's), and optional "obstacles" (a scene file's:
// multibody/scene_file.hpp, read_obstacle; fixed or along a "path") with "contact":
// {"activation_distance": dhat, "stiffness": kappa} (thin_contact.hpp gives the defaults) and
// "friction": mu against them (default 0; an obstacle's own "friction" overrides it there):
//
//   "shell": {"grid": [nx, ny], "size": [w, h], "center": [x, y, z], "thickness": t,
//             "youngs": E, "poisson": nu, "density": rho, "bending": true | false,
//             "pins": "corners" | [vertex ids]}
//   "rod":   {"points": n, "length": L, "start": [x, y, z], "radius": r, "youngs": E,
//             "poisson": nu, "density": rho, "bending": true | false,
//             "pins": "first" | "ends" | [vertex ids]}
//
// The grid is shell_grid's (the plane y = 0, vertex i + nx j) moved to `center`; the rod is
// rod_line's (along +x) from `start`. Either takes instead "mesh": a surface file (.obj, .stl,
// .off, .ply; the bake's readers, precompute/src/smfem/mesh) with optional "scale" (default 1)
// and "center" (where its bounding box's centre goes; else the file's coordinates): a shell is
// its triangles, a rod its edges (paper 002's rod bunny; "bending" is then off by default and
// refused: a curved shell bends by its hinges, bending.hpp). Pins are then vertex ids of the file
// (0-based, in its order). "grid" and "size", or "points" and "length", or "mesh" are required;
// the material keys default to ShellMaterial's and RodMaterial's; no pins by default.
//
// Instead of one "shell" or "rod", "parts" lists several, each {"shell" | "rod" | "volume":
// {...}}, solved as one body (combined_body.hpp; they do not collide with one another), where
//
//   "volume": {"mesh": "file.mesh" | "file.msh", "scale", "center", "youngs": E,
//              "poisson": nu, "density": rho, "pins": [vertex ids]}
//
// is a tet mesh (volume.hpp; material defaults VolumeMaterial's).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

struct ThinRecipe {
  std::string name;         // the recipe's "name", or source
  std::string description;  // the recipe's, or empty
  nlohmann::json camera;    // the recipe's (the page's), or null
  ThinBody body;            // with the recipe's solver defaults
  // The bodies it lists (one without "parts"), in order: their kind ("shell", "rod",
  // "volume"), where their elements are in `body`, and how many vertices they have.
  struct Part {
    std::string kind;
    int first_element = 0, elements = 0;
    int vertices = 0;
  };
  std::vector<Part> parts;
  std::vector<contact::Obstacle> obstacles;
  contact::ContactParameters contact;  // for the obstacles
};

// The files a recipe's "mesh" keys name, by name, with their bytes (the caller reads them: from
// disk beside the recipe, or fetched by the page).
using RecipeFiles = std::map<std::string, std::string>;

// The file names the recipe's "mesh" keys give, for the caller to read; throws
// std::invalid_argument when the text is not JSON.
std::vector<std::string> thin_recipe_files(const std::string& text, const std::string& source);

// Throws std::invalid_argument naming source and the key at fault: not JSON, neither or both
// of "shell" and "rod", a key the recipe does not have (listing those it has), a value of the
// wrong type or out of range, a mesh file not in `files` or that its reader refuses, and
// whatever make_shell and make_rods refuse.
ThinRecipe read_thin_recipe(const std::string& text, const std::string& source,
                            const RecipeFiles& files = {});

}  // namespace smfem::thin
