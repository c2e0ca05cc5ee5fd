#include "smfem/tetrahedralize/detail/stencils.hpp"

#include <limits>
#include <stdexcept>

#include "smfem/tetrahedralize/isosurface_stuffing.hpp"
#include "smfem/tetrahedralize/tet_quality.hpp"

// The stencils, derived from the corner signs of a lattice tet (I inside, Z on the surface,
// O outside). The part of the lattice tet inside the surface is the polyhedron spanned by its
// I and Z corners and the cut points on its I-O edges:
//
//   no O                 the whole lattice tet
//   only Z               the whole tet when its centroid is inside and its angles are within
//                        the bound (four warped corners can be nearly coplanar), else nothing
//   no I otherwise       nothing
//   1 I                  one tet: the I corner, the Z corners, the cut points of its edges
//   2 I, 1 Z, 1 O        a pyramid over the quadrilateral on face I I O: 2 tets
//   2 I, 2 O             a triangular prism between the two I corners' ends: 3 tets
//   3 I, 1 O             a triangular prism between face I I I and its three cut points: 3 tets
//
// A lattice face with two I corners x, y and one O corner w contributes a quadrilateral
// (x, y, cut(y, w), cut(x, w)) that both lattice tets sharing the face must split along the
// same diagonal, so the choice depends on the face alone (dominates()):
//   - x-y the face's long edge: the shorter diagonal (ties by vertex id);
//   - x-y a short edge: the diagonal from the apex (the corner opposite the face's long edge)
//     to the cut point on the long edge. (The other fixed choice measures 3 degrees worse.)
// A prism can be split into three tets without a new vertex only if its three quadrilateral
// diagonals do not form a cycle. In the 3 I prism, the corner sharing the long edge with O
// lies on both short-edge faces and loses both (the apex rule), so no cycle can form.
// The prism's own surface quadrilateral (2 I, 2 O) is not shared; its diagonal is the one
// giving the better worst dihedral angle when the shared ones leave a choice.
//
// Every output tet is oriented by its reference geometry (lattice positions before warping,
// where it is a proper piece of its lattice tet); warping moves vertices by less than alpha
// edge lengths, which the angle bounds show cannot invert any of them.

namespace smfem::tetrahedralize::detail {
namespace {

using Tet = std::array<Corner, 4>;

const Cut& cut_of(const StuffingState& s, int inside, int outside) {
  const auto it = s.cuts.find(s.edge_key(inside, outside));
  if (it == s.cuts.end()) throw std::logic_error("isosurface stuffing: missing cut point");
  return it->second;
}

Eigen::Vector3d reference_position(const StuffingState& s, const Corner& c) {
  return c.other < 0 ? s.lattice.position(c.vertex) : cut_of(s, c.vertex, c.other).point;
}

Eigen::Vector3d final_position(const StuffingState& s, const Corner& c) {
  return c.other < 0 ? Eigen::Vector3d(s.position.row(c.vertex).transpose())
                     : cut_of(s, c.vertex, c.other).point;
}

int output_id(StuffingState& s, const Corner& c) {
  if (c.other < 0) {
    int& id = s.output_of_vertex[static_cast<std::size_t>(c.vertex)];
    if (id < 0) {
      id = static_cast<int>(s.output_positions.size());
      s.output_positions.push_back(s.position.row(c.vertex).transpose());
    }
    return id;
  }
  Cut& cut = s.cuts.find(s.edge_key(c.vertex, c.other))->second;
  if (cut.output < 0) {
    cut.output = static_cast<int>(s.output_positions.size());
    s.output_positions.push_back(cut.point);
  }
  return cut.output;
}

// Whether the tet's reference geometry is negatively oriented.
bool reference_negative(const StuffingState& s, const Tet& t) {
  return signed_volume(reference_position(s, t[0]), reference_position(s, t[1]),
                       reference_position(s, t[2]), reference_position(s, t[3])) < 0.0;
}

void emit(StuffingState& s, Tet t) {
  if (reference_negative(s, t)) std::swap(t[2], t[3]);
  s.output_tets.push_back(
      {output_id(s, t[0]), output_id(s, t[1]), output_id(s, t[2]), output_id(s, t[3])});
}

// The worst dihedral sine of a candidate set of tets after warping; -1 if one is inverted.
template <std::size_t N>
double worst_sine(const StuffingState& s, const std::array<Tet, N>& tets) {
  double worst = std::numeric_limits<double>::infinity();
  for (Tet t : tets) {
    if (reference_negative(s, t)) std::swap(t[2], t[3]);
    const Eigen::Vector3d a = final_position(s, t[0]), b = final_position(s, t[1]),
                          c = final_position(s, t[2]), d = final_position(s, t[3]);
    if (signed_volume(a, b, c, d) <= 0.0) return -1.0;
    worst = std::min(worst, min_dihedral_sine(a, b, c, d));
  }
  return worst;
}

// The diagonal splitting the quadrilateral of lattice face (x, y, w), x and y inside, w
// outside: true when it joins x to cut(y, w).
bool dominates(const StuffingState& s, int x, int y, int w) {
  const BccLattice& lattice = s.lattice;
  if (lattice.is_black(x) == lattice.is_black(y)) {
    const double via_x = (s.position.row(x).transpose() - cut_of(s, y, w).point).squaredNorm();
    const double via_y = (s.position.row(y).transpose() - cut_of(s, x, w).point).squaredNorm();
    return via_x != via_y ? via_x < via_y : x < y;
  }
  // w shares the long edge with the one of x, y of its colour; the other is the apex.
  return lattice.is_black(x) != lattice.is_black(w);
}

// The three tets of a prism with rails top[i]-bottom[i], whose quadrilateral between rails i
// and j is split by top[i]-bottom[j] when i comes before j in `order`.
std::array<Tet, 3> prism_tets(const std::array<Corner, 3>& top, const std::array<Corner, 3>& bottom,
                              const std::array<int, 3>& order) {
  const Corner &p0 = top[order[0]], &p1 = top[order[1]], &p2 = top[order[2]];
  const Corner &q0 = bottom[order[0]], &q1 = bottom[order[1]], &q2 = bottom[order[2]];
  return {Tet{p0, p1, p2, q2}, Tet{p0, p1, q1, q2}, Tet{p0, q0, q1, q2}};
}

template <std::size_t N>
void emit_all(StuffingState& s, const std::array<Tet, N>& tets) {
  for (const Tet& t : tets) emit(s, t);
}

void fill_one_inside(StuffingState& s, const std::array<int, 4>& v, const std::array<Sign, 4>& sg,
                     int a) {
  Tet t;
  for (int k = 0; k < 4; ++k) {
    t[k] = sg[k] == Sign::outside ? Corner{v[a], v[k]} : Corner{v[k]};
  }
  emit(s, t);
}

void fill_pyramid(StuffingState& s, int a, int b, int z, int o) {
  if (!dominates(s, a, b, o)) std::swap(a, b);
  const Corner ca{a, o}, cb{b, o};
  emit_all(s, std::array<Tet, 2>{Tet{Corner{z}, Corner{a}, Corner{b}, cb},
                                 Tet{Corner{z}, Corner{a}, cb, ca}});
}

void fill_two_inside_two_outside(StuffingState& s, int a, int b, int c, int d) {
  // Rails: 0 = a-b, 1 = cut(a, c)-cut(b, c), 2 = cut(a, d)-cut(b, d).
  const std::array<Corner, 3> top = {Corner{a}, Corner{a, c}, Corner{a, d}};
  const std::array<Corner, 3> bottom = {Corner{b}, Corner{b, c}, Corner{b, d}};
  const bool first_over_c = dominates(s, a, b, c), first_over_d = dominates(s, a, b, d);
  if (first_over_c != first_over_d) {
    emit_all(s,
             prism_tets(top, bottom,
                        first_over_c ? std::array<int, 3>{2, 0, 1} : std::array<int, 3>{1, 0, 2}));
    return;
  }
  const auto one = prism_tets(
      top, bottom, first_over_c ? std::array<int, 3>{0, 1, 2} : std::array<int, 3>{1, 2, 0});
  const auto other = prism_tets(
      top, bottom, first_over_c ? std::array<int, 3>{0, 2, 1} : std::array<int, 3>{2, 1, 0});
  emit_all(s, worst_sine(s, one) >= worst_sine(s, other) ? one : other);
}

void fill_three_inside(StuffingState& s, const std::array<int, 3>& x, int o) {
  const std::array<Corner, 3> top = {Corner{x[0]}, Corner{x[1]}, Corner{x[2]}};
  const std::array<Corner, 3> bottom = {Corner{x[0], o}, Corner{x[1], o}, Corner{x[2], o}};
  // wins[i]: how many of the other rails rail i precedes.
  std::array<int, 3> wins = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) ++wins[dominates(s, x[i], x[j], o) ? i : j];
  }
  std::array<int, 3> order = {-1, -1, -1};
  for (int i = 0; i < 3; ++i) order[2 - wins[i]] = i;
  if (order[0] < 0 || order[1] < 0 || order[2] < 0) {
    throw std::logic_error("isosurface stuffing: cyclic prism diagonals");
  }
  emit_all(s, prism_tets(top, bottom, order));
}

// Whether to keep a lattice tet whose corners are all on the surface (see the table above).
bool keep_all_zero(const StuffingState& s, const std::array<int, 4>& v) {
  std::array<Eigen::Vector3d, 4> p;
  for (int k = 0; k < 4; ++k) p[k] = s.position.row(v[k]).transpose();
  for (double angle : dihedral_angles_deg(p[0], p[1], p[2], p[3])) {
    if (angle < kMinDihedralBoundDeg || angle > kMaxDihedralBoundDeg) return false;
  }
  if (!(signed_volume(p[0], p[1], p[2], p[3]) > 0.0)) return false;
  return (*s.sdf)(0.25 * (p[0] + p[1] + p[2] + p[3])) < 0.0;
}

}  // namespace

void fill_lattice_tet(StuffingState& s, const std::array<int, 4>& v) {
  std::array<Sign, 4> sg;
  int inside = 0, outside = 0;
  for (int k = 0; k < 4; ++k) {
    sg[k] = s.sign[static_cast<std::size_t>(v[k])];
    inside += sg[k] == Sign::inside;
    outside += sg[k] == Sign::outside;
  }
  if (outside == 4) return;
  const int zero = 4 - inside - outside;
  if (outside == 0 && (inside > 0 || zero == 4)) {
    if (inside == 0 && !keep_all_zero(s, v)) return;
    // Lattice tets come positively oriented.
    s.output_tets.push_back({output_id(s, Corner{v[0]}), output_id(s, Corner{v[1]}),
                             output_id(s, Corner{v[2]}), output_id(s, Corner{v[3]})});
    return;
  }
  if (inside == 0) return;

  std::array<int, 4> in{}, on{}, out{};
  int ni = 0, nz = 0, no = 0;
  for (int k = 0; k < 4; ++k) {
    if (sg[k] == Sign::inside) in[ni++] = k;
    if (sg[k] == Sign::zero) on[nz++] = k;
    if (sg[k] == Sign::outside) out[no++] = k;
  }
  if (inside == 1) {
    fill_one_inside(s, v, sg, in[0]);
  } else if (inside == 2 && zero == 1) {
    fill_pyramid(s, v[in[0]], v[in[1]], v[on[0]], v[out[0]]);
  } else if (inside == 2) {
    fill_two_inside_two_outside(s, v[in[0]], v[in[1]], v[out[0]], v[out[1]]);
  } else {
    fill_three_inside(s, {v[in[0]], v[in[1]], v[in[2]]}, v[out[0]]);
  }
}

}  // namespace smfem::tetrahedralize::detail
