#include "smfem/thin/combined_body.hpp"

#include <stdexcept>
#include <vector>

namespace smfem::thin {

ThinBody combine_bodies(const std::vector<ThinBody>& bodies) {
  if (bodies.empty()) throw std::invalid_argument("no body to combine");
  int vertices = 0, directors = 0, elements = 0, hinges = 0;
  for (const ThinBody& body : bodies) {
    vertices += body.vertex_count;
    directors += body.model.node_count - body.vertex_count;
    elements += body.model.element_count();
    hinges += static_cast<int>(body.model.hinges.hinges.size());
  }
  const int nodes = vertices + directors;
  ThinBody out;
  full::ElementModel& model = out.model;
  model.source = "bodies";
  model.defaults = bodies.front().model.defaults;
  model.node_count = nodes;
  model.elements.resize(elements, 4);
  model.weights.resize(elements);
  model.youngs.resize(elements);
  model.poisson.resize(elements);
  model.node_mass.resize(nodes);
  model.translational_mass.resize(nodes);
  out.vertex_count = vertices;
  out.rest.resize(vertices, 3);
  out.directions.resize(directors, 3);
  out.contact_areas.resize(vertices);
  out.contact_skins.resize(vertices);
  std::vector<Eigen::Triplet<double>> bending;
  if (hinges > 0) model.hinges.rest = Positions::Zero(nodes, 3);
  int first_vertex = 0, first_director = vertices, first_element = 0;
  for (const ThinBody& body : bodies) {
    const full::ElementModel& own = body.model;
    const int n = body.vertex_count;
    const int d = own.node_count - n;
    // A node of this body, renumbered.
    const auto node = [&](int k) { return k < n ? first_vertex + k : first_director + (k - n); };
    for (int e = 0; e < own.element_count(); ++e) {
      for (int j = 0; j < 4; ++j) model.elements(first_element + e, j) = node(own.elements(e, j));
    }
    model.shape_gradients.insert(model.shape_gradients.end(), own.shape_gradients.begin(),
                                 own.shape_gradients.end());
    const Eigen::Index E = own.element_count();
    model.weights.segment(first_element, E) = own.weights;
    model.youngs.segment(first_element, E) = own.youngs;
    model.poisson.segment(first_element, E) = own.poisson;
    for (int k = 0; k < own.node_count; ++k) {
      model.node_mass(node(k)) = own.node_mass(k);
      model.translational_mass(node(k)) = own.translational_mass(k);
    }
    for (const int p : own.pinned) model.pinned.push_back(node(p));
    for (int col = 0; col < own.bending.outerSize(); ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(own.bending, col); it; ++it) {
        bending.emplace_back(node(static_cast<int>(it.row())), node(static_cast<int>(it.col())),
                             it.value());
      }
    }
    for (const full::Hinge& hinge : own.hinges.hinges) {
      full::Hinge moved = hinge;
      for (int& k : moved.nodes) k = node(k);
      model.hinges.hinges.push_back(moved);
    }
    if (!own.hinges.empty()) {
      for (int k = 0; k < own.node_count; ++k)
        model.hinges.rest.row(node(k)) = own.hinges.rest.row(k);
    }
    model.relax_local_nodes = model.relax_local_nodes || own.relax_local_nodes;
    out.rest.middleRows(first_vertex, n) = body.rest;
    out.directions.middleRows(first_director - vertices, d) = body.directions;
    out.contact_areas.segment(first_vertex, n) = body.contact_areas;
    out.contact_skins.segment(first_vertex, n) = body.contact_skins;
    const auto append = [&](auto& into, const auto& rows) {
      const Eigen::Index at = into.rows();
      into.conservativeResize(at + rows.rows(), Eigen::NoChange);
      into.bottomRows(rows.rows()) = rows.array() + first_vertex;
    };
    append(out.edges, body.edges);
    append(out.triangles, body.triangles);
    append(out.lines, body.lines);
    out.line_radii.conservativeResize(out.lines.rows());
    out.line_radii.tail(body.lines.rows()) = body.line_radii;
    first_vertex += n;
    first_director += d;
    first_element += static_cast<int>(E);
  }
  if (!bending.empty()) {
    model.bending.resize(nodes, nodes);
    model.bending.setFromTriplets(bending.begin(), bending.end());
  }
  return out;
}

}  // namespace smfem::thin
