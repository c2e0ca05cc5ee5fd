#include "smfem/sim/contact/contact_hessian.hpp"

#include <array>

namespace smfem::contact {
namespace {

// A group's rows, first's then second's: (first row of U, count, offset within the group).
struct Segment {
  int first_row, count, offset;
};

std::array<Segment, 2> segments(const ContactHessian::Group& group) {
  return {{{group.first.first, group.first.count, 0},
           {group.second.first, group.second.count, group.first.count}}};
}

}  // namespace

ContactHessian::Group& ContactHessian::add_group(Rows first, Rows second) {
  if (count_ == groups_.size()) groups_.emplace_back();
  Group& group = groups_[count_++];
  group.first = first;
  group.second = second;
  group.block.resize(3 * group.width(), 3 * group.width());
  return group;
}

double ContactHessian::form(const sim::ReducedMatrix& A, const sim::ReducedMatrix& B,
                            parallel::ThreadPool* pool) const {
  // Group by group (on the pool), then summed in group order: the same for any thread count.
  form_terms_.resize(count_);
  const auto group_form = [&](int g) {
    const Group& group = groups_[static_cast<std::size_t>(g)];
    const int w = group.width();
    Eigen::VectorXd a(3 * w), b(3 * w);
    for (const Segment& s : segments(group)) {
      for (int c = 0; c < 3; ++c) {
        a.segment(c * w + s.offset, s.count) = A.col(c).segment(s.first_row, s.count);
        b.segment(c * w + s.offset, s.count) = B.col(c).segment(s.first_row, s.count);
      }
    }
    form_terms_[static_cast<std::size_t>(g)] = a.dot(group.block * b);
  };
  parallel::parallel_for_or_inline(pool, static_cast<int>(count_), group_form);
  double total = 0.0;
  for (const double term : form_terms_) total += term;
  return total;
}

namespace {

// lower.block(row, col, rows, cols) += each of H's blocks in the layout's ordering, lower
// triangle only; with a column range, only the blocks whose columns lie in it.
template <class Lower>
void add_groups_to_lower(std::span<const ContactHessian::Group> groups,
                         const sim::SystemLayout& layout, Lower& lower,
                         const sim::SystemLayout::Range* column = nullptr) {
  for (const ContactHessian::Group& group : groups) {
    const int w = group.width();
    // Each segment lies in one range of the layout, so each (segment, coordinate) pair is a
    // contiguous run of unknowns: the blocks between two runs are whole, on the diagonal (the
    // same run) or off it.
    const auto present = [&](const Segment& s) {
      return s.count > 0 && !layout.range_of(s.first_row).held;
    };
    for (const Segment& s : segments(group)) {
      for (const Segment& t : segments(group)) {
        if (!present(s) || !present(t)) continue;
        if (column != nullptr && &layout.range_of(t.first_row) != column) continue;
        for (int d = 0; d < 3; ++d) {
          for (int e = 0; e < 3; ++e) {
            const int row = layout.unknown(s.first_row, d);
            const int col = layout.unknown(t.first_row, e);
            const auto source =
                group.block.block(d * w + s.offset, e * w + t.offset, s.count, t.count);
            if (row > col) {
              lower.block(row, col, s.count, t.count) += source;
            } else if (row == col) {
              lower.block(row, col, s.count, t.count).template triangularView<Eigen::Lower>() +=
                  source;
            }
          }
        }
      }
    }
  }
}

}  // namespace

void ContactHessian::add_to_lower(const sim::SystemLayout& layout,
                                  Eigen::Ref<Eigen::MatrixXd> lower) const {
  add_groups_to_lower(groups(), layout, lower);
}

void ContactHessian::add_to_lower(const sim::SystemLayout& layout, sim::BlockCholesky& lower,
                                  const sim::SystemLayout::Range& column) const {
  add_groups_to_lower(groups(), layout, lower, &column);
}

}  // namespace smfem::contact
