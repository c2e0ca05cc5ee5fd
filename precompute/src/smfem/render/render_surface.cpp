#include "smfem/render/render_surface.hpp"

#include <stdexcept>

#include "smfem/render/boundary_surface.hpp"
#include "smfem/render/primitive_surface.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

namespace smfem::render {

RenderSurface boundary_render_surface(const mesh::TetMesh& mesh) {
  BoundarySurface boundary = boundary_surface(mesh);
  RenderSurface surface;
  surface.vertices = std::move(boundary.vertices);
  surface.triangles = std::move(boundary.triangles);
  surface.tet_vertices = boundary.tet_vertex.replicate(1, 4);
  surface.barycentric = Barycentric::Zero(surface.vertices.rows(), 4);
  surface.barycentric.col(0).setOnes();
  surface.normals.resize(0, 3);
  return surface;
}

RenderSurface embedded_render_surface(const mesh::TetMesh& mesh, const mesh::SurfaceMesh& surface) {
  const TetEmbedding embedding = embed_points(mesh, surface.vertices);
  RenderSurface render;
  render.vertices = surface.vertices;
  render.triangles = surface.triangles;
  render.tet_vertices.resize(surface.vertices.rows(), 4);
  for (Eigen::Index v = 0; v < surface.vertices.rows(); ++v) {
    render.tet_vertices.row(v) = mesh.tets.row(embedding.tet[v]);
  }
  render.barycentric = embedding.barycentric;
  render.normals.resize(0, 3);
  return render;
}

RenderSurface smooth_render_surface(const geometry::Sdf& sdf, double edge_length,
                                    const mesh::TetMesh& mesh) {
  tetrahedralize::StuffingOptions options;
  options.edge_length = edge_length;
  const BoundarySurface fine = boundary_surface(tetrahedralize::stuff_isosurface(sdf, options));
  mesh::SurfaceMesh surface;
  surface.vertices = fine.vertices;
  surface.triangles = fine.triangles;
  return embedded_render_surface(mesh, surface);
}

RenderSurface primitive_render_surface(const std::vector<geometry::Primitive>& primitives,
                                       double spacing, const mesh::TetMesh& mesh) {
  PrimitiveSurface exact = union_surface(primitives, spacing);
  mesh::SurfaceMesh surface;
  surface.vertices = std::move(exact.vertices);
  surface.triangles = std::move(exact.triangles);
  RenderSurface render = embedded_render_surface(mesh, surface);
  render.normals = std::move(exact.normals);
  return render;
}

double boundary_edge_length(const mesh::TetMesh& mesh) {
  const BoundarySurface boundary = boundary_surface(mesh);
  double sum = 0.0;
  for (Eigen::Index t = 0; t < boundary.triangles.rows(); ++t) {
    for (int k = 0; k < 3; ++k) {
      sum += (boundary.vertices.row(boundary.triangles(t, k)) -
              boundary.vertices.row(boundary.triangles(t, (k + 1) % 3)))
                 .norm();
    }
  }
  if (boundary.triangles.rows() == 0)
    throw std::invalid_argument("boundary_edge_length: no boundary");
  return sum / (3.0 * static_cast<double>(boundary.triangles.rows()));
}

Eigen::MatrixXd render_weights(const RenderSurface& surface,
                               Eigen::Ref<const Eigen::MatrixXd> tet_weights) {
  if (surface.tet_vertices.size() > 0 && surface.tet_vertices.maxCoeff() >= tet_weights.rows()) {
    throw std::invalid_argument("render_weights: fewer weight rows than tet-mesh vertices");
  }
  Eigen::MatrixXd weights = Eigen::MatrixXd::Zero(surface.vertices.rows(), tet_weights.cols());
  for (Eigen::Index v = 0; v < surface.vertices.rows(); ++v) {
    for (int k = 0; k < 4; ++k) {
      const double b = surface.barycentric(v, k);
      if (b != 0.0) weights.row(v) += b * tet_weights.row(surface.tet_vertices(v, k));
    }
  }
  return weights;
}

}  // namespace smfem::render
