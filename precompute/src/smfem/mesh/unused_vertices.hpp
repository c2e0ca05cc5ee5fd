#pragma once
// Tet mesh files may carry surface-only or stray points that no tet uses: they would have no
// mass, and the eigenmodes refuse a free vertex of mass 0. The bake drops them from every tet
// mesh it reads, a file baked directly or one a recipe names.
#include <vector>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Drops the vertices no tet uses, keeping the others' order. Returns old index -> new index, -1
// for a dropped vertex.
std::vector<int> drop_unused_vertices(TetMesh& mesh);

}  // namespace smfem::mesh
