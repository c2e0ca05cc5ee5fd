#include "smfem/geometry/boundary_faces.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace smfem::geometry {
namespace {

struct Face {
  std::array<int, 3> key;  // sorted corners
  int tet;
  int local;
};

}  // namespace

BoundaryFaces boundary_faces(const TetIndices& tets, Eigen::Index vertex_count) {
  std::vector<Face> faces;
  faces.reserve(static_cast<std::size_t>(4 * tets.rows()));
  for (int t = 0; t < static_cast<int>(tets.rows()); ++t) {
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> key = {tets(t, kTetFaces[f][0]), tets(t, kTetFaces[f][1]),
                                tets(t, kTetFaces[f][2])};
      std::sort(key.begin(), key.end());
      faces.push_back({key, t, f});
    }
  }
  std::sort(faces.begin(), faces.end(), [](const Face& a, const Face& b) { return a.key < b.key; });

  std::vector<const Face*> boundary;
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    if (j - i > 2) {
      throw std::invalid_argument("boundary_faces: a face is shared by " + std::to_string(j - i) +
                                  " tets");
    }
    if (j - i == 1) boundary.push_back(&faces[i]);
    i = j;
  }
  // Faces in tet order, so the surface reads in the mesh's own order.
  std::sort(boundary.begin(), boundary.end(), [](const Face* a, const Face* b) {
    return a->tet != b->tet ? a->tet < b->tet : a->local < b->local;
  });

  std::vector<bool> used(static_cast<std::size_t>(vertex_count), false);
  for (const Face* face : boundary) {
    for (int v : face->key) used[static_cast<std::size_t>(v)] = true;
  }
  std::vector<int> compact(used.size(), -1);
  int count = 0;
  for (std::size_t v = 0; v < used.size(); ++v) {
    if (used[v]) compact[v] = count++;
  }

  BoundaryFaces surface;
  surface.vertex.resize(count);
  for (int v = 0; v < static_cast<int>(compact.size()); ++v) {
    const int id = compact[static_cast<std::size_t>(v)];
    if (id >= 0) surface.vertex[id] = v;
  }
  surface.triangles.resize(static_cast<Eigen::Index>(boundary.size()), 3);
  surface.face_tet.resize(static_cast<Eigen::Index>(boundary.size()));
  for (std::size_t i = 0; i < boundary.size(); ++i) {
    const Face& face = *boundary[i];
    for (int k = 0; k < 3; ++k) {
      const int v = tets(face.tet, kTetFaces[face.local][k]);
      surface.triangles(static_cast<Eigen::Index>(i), k) = compact[static_cast<std::size_t>(v)];
    }
    surface.face_tet[static_cast<Eigen::Index>(i)] = face.tet;
  }
  return surface;
}

}  // namespace smfem::geometry
