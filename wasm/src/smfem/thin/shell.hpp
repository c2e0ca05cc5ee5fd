#pragma once
// A shell: a triangle mesh with thickness, as a thin body (thin_body.hpp) with bending
// (bending.hpp: a plate's on a flat mesh, dihedral hinges on a curved one).
#include <vector>

#include "smfem/thin/bending.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

struct ShellMaterial {
  double thickness = 1e-3;  // m
  double youngs = 1e6;      // Pa
  double poisson = 0.3;
  double density = 300.0;  // kg / m^3 of the sheet
  bool bending = true;     // a plate's where the rest shape is flat, hinges' where it is curved
};

struct ShellMesh {
  Positions positions;  // n x 3, m
  Triangles triangles;  // T x 3 vertex ids, 0-based
};

// A width x height rectangle of nx x ny vertices (>= 2 each) in the plane y = 0, centred at the
// origin: vertex i + nx j at x = width (i / (nx - 1) - 1/2), z = height (j / (ny - 1) - 1/2).
// Each cell is cut along its diagonal from (i, j) to (i + 1, j + 1); normals point to +y.
ShellMesh shell_grid(int nx, int ny, double width, double height);

// The thin body of the mesh: one element per triangle with its director, lumped masses, bending
// stiffness E t^3 / (12 (1 - nu^2)) where material.bending. Throws std::invalid_argument naming
// the problem: no triangle, non-finite positions, ids out of range, a degenerate triangle, an
// edge shared by more than two triangles, a material value out of range, a pin that is not a
// vertex.
ThinBody make_shell(const ShellMesh& mesh, const ShellMaterial& material, std::vector<int> pinned);

}  // namespace smfem::thin
