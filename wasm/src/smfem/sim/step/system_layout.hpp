#pragma once
// Where each unknown of the r x r system of a solver iteration sits. The unknowns are the
// entries of the 4m x 3 matrix U; a layout cuts U's rows into ranges (one per body of a model of
// several, one for a single body) and stores range by range, each range's columns stacked:
// entry (row, c) of a range [first_row, first_row + rows) is unknown
// first_unknown + c * rows + (row - first_row). One range over all rows is u = vec(U).
//
// Why by body: only contact couples bodies, so with each body's unknowns together, the system is
// block-sparse, and its Cholesky (block_cholesky.hpp) stores and factors only the blocks
// contact couples and their fill.
#include <vector>

namespace smfem::sim {

struct SystemLayout {
  struct Range {
    int first_row = 0;
    int rows = 0;
    int first_unknown = 0;
    // Not in the system: its rows of U are held where they are (du = 0 there), and terms that
    // touch them keep only their other rows' part.
    bool held = false;
  };
  std::vector<Range> ranges;  // in the order of first_row

  // u = vec(U) for a U of `rows` rows.
  static SystemLayout stacked(int rows) { return {{{0, rows, 0}}}; }

  const Range& range_of(int row) const {
    std::size_t k = 0;
    while (k + 1 < ranges.size() && ranges[k + 1].first_row <= row) ++k;
    return ranges[k];
  }
  int unknown(int row, int coordinate) const {
    const Range& range = range_of(row);
    return range.first_unknown + coordinate * range.rows + (row - range.first_row);
  }
};

}  // namespace smfem::sim
