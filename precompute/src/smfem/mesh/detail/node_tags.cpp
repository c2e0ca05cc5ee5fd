#include "smfem/mesh/detail/node_tags.hpp"

#include <algorithm>

namespace smfem::mesh::detail {
namespace {

// Tags are looked up in a table indexed by tag when the largest tag is at most this many times
// the node count (plus some slack): fast, and the table's size is bounded by what was read, not
// by a declared number.
constexpr long long dense_factor = 4;
constexpr long long dense_slack = 1024;

}  // namespace

std::optional<long long> NodeTagMap::build() {
  row_of_tag_.clear();
  sorted_.clear();
  const long long node_count = static_cast<long long>(tags_.size());
  const long long max_tag = tags_.empty() ? 0 : *std::max_element(tags_.begin(), tags_.end());
  if (max_tag <= dense_factor * node_count + dense_slack) {
    row_of_tag_.assign(static_cast<std::size_t>(max_tag) + 1, -1);
    for (std::size_t row = 0; row < tags_.size(); ++row) {
      int& slot = row_of_tag_[static_cast<std::size_t>(tags_[row])];
      if (slot >= 0) return tags_[row];
      slot = static_cast<int>(row);
    }
    return std::nullopt;
  }
  sorted_.reserve(tags_.size());
  for (std::size_t row = 0; row < tags_.size(); ++row) {
    sorted_.emplace_back(tags_[row], static_cast<int>(row));
  }
  std::sort(sorted_.begin(), sorted_.end());
  for (std::size_t i = 1; i < sorted_.size(); ++i) {
    if (sorted_[i].first == sorted_[i - 1].first) return sorted_[i].first;
  }
  return std::nullopt;
}

int NodeTagMap::row(long long tag) const {
  if (!row_of_tag_.empty() || sorted_.empty()) {
    const bool inside = tag >= 0 && static_cast<std::size_t>(tag) < row_of_tag_.size();
    return inside ? row_of_tag_[static_cast<std::size_t>(tag)] : -1;
  }
  const auto found = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(tag, -1));
  return (found != sorted_.end() && found->first == tag) ? found->second : -1;
}

}  // namespace smfem::mesh::detail
