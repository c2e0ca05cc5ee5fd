#include "smfem/mesh/detail/node_tags.hpp"

#include <gtest/gtest.h>

namespace smfem::mesh::detail {
namespace {

NodeTagMap map_of(std::initializer_list<long long> tags) {
  NodeTagMap map;
  for (long long tag : tags) map.add(tag);
  return map;
}

TEST(NodeTagMap, MapsCompactTagsInAnyOrder) {
  NodeTagMap map = map_of({5, 3, 9, 1});
  EXPECT_FALSE(map.build().has_value());
  EXPECT_EQ(map.row(5), 0);
  EXPECT_EQ(map.row(3), 1);
  EXPECT_EQ(map.row(9), 2);
  EXPECT_EQ(map.row(1), 3);
  EXPECT_EQ(map.row(2), -1);
  EXPECT_EQ(map.row(10), -1);
  EXPECT_EQ(map.row(-4), -1);
}

TEST(NodeTagMap, MapsSparseTagsWithoutATableAsLargeAsTheLargestTag) {
  NodeTagMap map = map_of({4'000'000'000'000, 7, 123'456'789});
  EXPECT_FALSE(map.build().has_value());
  EXPECT_EQ(map.row(4'000'000'000'000), 0);
  EXPECT_EQ(map.row(7), 1);
  EXPECT_EQ(map.row(123'456'789), 2);
  EXPECT_EQ(map.row(8), -1);
}

TEST(NodeTagMap, ReportsATagGivenTwice) {
  NodeTagMap compact = map_of({1, 2, 1});
  EXPECT_EQ(compact.build(), std::optional<long long>(1));
  NodeTagMap sparse = map_of({90'000'000, 3, 90'000'000});
  EXPECT_EQ(sparse.build(), std::optional<long long>(90'000'000));
}

}  // namespace
}  // namespace smfem::mesh::detail
