// numpy's partition (gpusort/partition.hpp; algorithms/topk/topk_partition.cpp, kernels/topk_select.cl)
// against the host reference (tests/support/partition_reference.hpp: numpy's contract, then the
// exact three-way split of each row in position order): rows of 100000, 1000, 33 and 1 keys, kth at
// both ends, in the middle and negative, for f32 (NaN, signed zeros, ties), u32, i64 and f16;
// all-equal rows; one group per row, several short rows per group, rows split among groups; select_kth;
// the plan's refusals and its lines.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/topk/topk_policy.hpp"
#include "gpusort/partition.hpp"
#include "gpusort/plan.hpp"
#include "support/key_types.hpp"
#include "support/partition_reference.hpp"
#include "support/plan_refusal.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Sets the top-k policy override (the partition's choice) for a scope.
struct Policy {
  explicit Policy(const algo::TopkPolicyOverride& o) { algo::set_topk_policy_override(o); }
  ~Policy() { algo::set_topk_policy_override({}); }
};

// The type's edge values, every third key one of a few values repeated: NaNs of both signs and
// several payloads, -0 and +0, infinities and 1 for floats; ties for every type.
template <class T>
std::vector<T> tied_specials(std::size_t n, std::uint64_t seed) {
  std::vector<T> keys = make_keys<T>(n, dist::specials, seed);
  for (std::size_t i = 2; i < n; i += 3) {
    const std::size_t pick = (i * 7 + seed) % 7;
    if constexpr (std::is_same_v<T, half_bits>) {
      const std::uint16_t bits[] = {0x7E00, 0xFE01, 0x7C01, 0x0000, 0x8000, 0x7C00, 0x3C00};
      keys[i] = half_bits{bits[pick]};
    } else if constexpr (std::is_floating_point_v<T>) {
      const T values[] = {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(), T(0), T(-0.0),
                          std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(), T(1)};
      keys[i] = values[pick];
    } else {
      keys[i] = T(pick * 3);
    }
  }
  return keys;
}

// One partition of `keys` around kth (negative: counted from the row's end), in the output form
// `form` (0: keys and I positions, 1: positions alone, 2: keys alone), checked against the reference.
template <class T, class I>
void check_partition(const std::vector<T>& keys, std::uint64_t rows, std::int64_t kth, int form,
                     const std::string& what) {
  const std::uint64_t length = keys.size() / rows;
  const std::uint64_t rank = kth < 0 ? length + kth : std::uint64_t(kth);
  const std::span<const T> in(keys);
  std::vector<T> out(keys.size());
  std::vector<I> positions(keys.size());
  const PartitionOptions o{.rows = rows};
  const std::string where = what + ", kth " + std::to_string(kth) + ", form " + std::to_string(form);
  if (form == 0) {
    partition(test_context(), in, kth, std::span<T>(out), std::span<I>(positions), o);
    EXPECT_TRUE(partition_like_reference(keys, rows, rank, &out, &positions)) << where;
  } else if (form == 1) {
    argpartition(test_context(), in, kth, std::span<I>(positions), o);
    EXPECT_TRUE((partition_like_reference<T, I>(keys, rows, rank, nullptr, &positions))) << where;
  } else {
    partition(test_context(), in, kth, std::span<T>(out), o);
    EXPECT_TRUE((partition_like_reference<T, I>(keys, rows, rank, &out, nullptr))) << where;
  }
}

struct Shape {
  std::uint64_t rows, length;
};
constexpr Shape kShapes[] = {{1, 100000}, {64, 1000}, {40, 33}, {50, 1}};

std::vector<std::int64_t> kths_for(std::uint64_t length) {
  const auto n = std::int64_t(length);
  std::vector<std::int64_t> kths{0, n / 2, n - 1, -1};
  if (n > 2) kths.push_back(1);
  if (n > 33) kths.push_back(-33);
  return kths;
}

// Every shape and kth, the three output forms in turn.
template <class T>
void check_shapes(bool tied) {
  int turn = 0;
  for (const Shape& s : kShapes) {
    const std::uint64_t seed = fresh_seed();
    const auto keys = tied ? tied_specials<T>(s.rows * s.length, seed)
                           : make_keys<T>(s.rows * s.length, dist::uniform, seed);
    const std::string what = std::to_string(s.rows) + " x " + std::to_string(s.length) + ", seed " +
                             std::to_string(seed);
    for (std::int64_t kth : kths_for(s.length)) {
      const int form = turn++ % 3;
      if (turn % 2)
        check_partition<T, std::int64_t>(keys, s.rows, kth, form, what);
      else
        check_partition<T, std::int32_t>(keys, s.rows, kth, form, what);
    }
  }
}

TEST(Partition, F32NanSignedZerosAndTies) { check_shapes<float>(true); }
TEST(Partition, F32Uniform) { check_shapes<float>(false); }
TEST(Partition, U32) { check_shapes<std::uint32_t>(true); }
TEST(Partition, I64) { check_shapes<std::int64_t>(true); }
TEST(Partition, F16) { check_shapes<half_bits>(true); }

// Equal keys keep their positions: the layout of an all-equal row is the row itself, whatever kth,
// and signed zeros are equal keys.
TEST(Partition, AllEqualRowsKeepTheirOrder) {
  for (std::uint64_t length : {33ull, 1000ull, 4097ull}) {
    const std::vector<float> equal(3 * length, 1.5f);
    std::vector<float> zeros(3 * length, 0.0f);
    for (std::size_t i = 0; i < zeros.size(); i += 2) zeros[i] = -0.0f;
    for (std::int64_t kth : {std::int64_t(0), std::int64_t(length / 2), std::int64_t(length - 1)}) {
      const auto p = argpartition<float>(test_context(), std::span<const float>(equal), kth, {.rows = 3});
      for (std::uint64_t j = 0; j < p.size(); ++j) ASSERT_EQ(p[j], std::int64_t(j % length)) << "kth " << kth;
      check_partition<float, std::int64_t>(zeros, 3, kth, 0, "signed zeros");
      check_partition<std::uint32_t, std::int32_t>(std::vector<std::uint32_t>(3 * length, 9), 3, kth, 0, "equal");
    }
  }
}

// Rows cut among several groups (the rounds, then topk_count / topk_partition_scatter), and one
// long row in one group; the rounds' candidates from the first round (3 groups), as the tuning has
// them (7), or never (11: every round reads the row).
TEST(Partition, RowsSplitAmongGroups) {
  for (std::uint32_t groups : {1u, 3u, 7u, 11u}) {
    Policy split({.groups_per_row = groups,
                  .candidate_divisor = groups == 3 ? std::optional<std::uint32_t>(1)
                                       : groups == 11 ? std::optional<std::uint32_t>(0)
                                                      : std::nullopt});
    for (const Shape& s : {Shape{1, 100000}, Shape{3, 4097}}) {
      const std::string what = std::to_string(groups) + " groups a row, " + std::to_string(s.rows) + " x " +
                               std::to_string(s.length);
      const auto f32 = tied_specials<float>(s.rows * s.length, fresh_seed());
      const auto u64 = make_keys<std::uint64_t>(s.rows * s.length, dist::few_unique, fresh_seed());
      const std::vector<std::uint32_t> equal(s.rows * s.length, 7);
      for (std::int64_t kth : {std::int64_t(0), std::int64_t(s.length / 3), std::int64_t(-1)}) {
        check_partition<float, std::int64_t>(f32, s.rows, kth, 0, what);
        check_partition<std::uint64_t, std::int32_t>(u64, s.rows, kth, 1, what);
        check_partition<std::uint32_t, std::int64_t>(equal, s.rows, kth, 0, what + ", all equal");
      }
    }
  }
}

// The GPU rows' group of 256: 8 rows of 33 a group (sub-groups of 32), rows of 1000 with 128 each.
TEST(Partition, GroupsOf256) {
  Policy wide({.group = 256});
  for (std::uint64_t length : {33ull, 1000ull}) {
    const auto keys = tied_specials<float>(9 * length, fresh_seed());
    for (std::int64_t kth : {std::int64_t(0), std::int64_t(length / 2), std::int64_t(-1)})
      check_partition<float, std::int64_t>(keys, 9, kth, 0, "groups of 256, 9 x " + std::to_string(length));
  }
}

TEST(SelectKth, TheKeyOfRankKthAndItsPosition) {
  const auto check = [](const auto& keys, std::uint64_t rows, std::int64_t kth, const std::string& what) {
    using T = typename std::decay_t<decltype(keys)>::value_type;
    const std::uint64_t length = keys.size() / rows;
    const std::uint64_t rank = kth < 0 ? length + kth : std::uint64_t(kth);
    std::vector<T> values(rows);
    std::vector<std::int64_t> positions(rows);
    select_kth(test_context(), std::span<const T>(keys), kth, std::span<T>(values), std::span<std::int64_t>(positions),
               {.rows = rows});
    EXPECT_TRUE(select_kth_like_reference(keys, rows, rank, values, &positions)) << what << ", kth " << kth;
    const std::vector<T> alone = select_kth(test_context(), std::span<const T>(keys), kth, {.rows = rows});
    EXPECT_TRUE((select_kth_like_reference<T, std::int64_t>(keys, rows, rank, alone, nullptr))) << what;
  };
  for (const Shape& s : kShapes) {
    const auto keys = tied_specials<float>(s.rows * s.length, fresh_seed());
    for (std::int64_t kth : kths_for(s.length)) check(keys, s.rows, kth, "f32 " + std::to_string(s.length));
  }
  Policy split({.groups_per_row = 5});
  const auto keys = tied_specials<std::int64_t>(2 * 50000, fresh_seed());
  for (std::int64_t kth : {0, 1, 25000, 49999}) check(keys, 2, kth, "i64 split");
}

// 1-byte keys (one digit pass) in groups that short rows share, the last group partly filled.
TEST(Partition, OneByteKeysInPartlyFilledGroups) {
  for (std::uint64_t rows : {1ull, 3ull, 5ull})
    for (std::uint64_t length : {7ull, 100ull}) {
      const std::string what = "1-byte keys, " + std::to_string(rows) + " x " + std::to_string(length);
      const auto u8 = make_keys<std::uint8_t>(rows * length, dist::uniform, fresh_seed());
      const auto i8 = make_keys<std::int8_t>(rows * length, dist::uniform, fresh_seed());
      for (std::int64_t kth : {std::int64_t(0), std::int64_t(length / 2), std::int64_t(-1)}) {
        check_partition<std::uint8_t, std::int64_t>(u8, rows, kth, 0, what);
        check_partition<std::int8_t, std::int32_t>(i8, rows, kth, 1, what);
      }
    }
}

// One test per key type: each builds its own program, which takes PoCL a minute or more.
template <class T>
class PartitionKeys : public ::testing::Test {};
TYPED_TEST_SUITE(PartitionKeys, AllKeyTypes);
TYPED_TEST(PartitionKeys, EveryKeyType) {
  using T = TypeParam;
  const auto keys = make_keys<T>(2 * 500, dist::specials, fresh_seed());
  check_partition<T, std::int64_t>(keys, 2, 123, 0, std::string(key_type_name(key_type_of<T>::value)));
}

// kth at the ends of the range and past them; rows of no keys, no rows at all.
TEST(Partition, TheRangeOfKth) {
  const std::vector<std::uint32_t> keys{5, 3, 9, 3, 1, 7};
  std::vector<std::uint32_t> out(6, 0xAB);
  EXPECT_THROW(partition(test_context(), std::span<const std::uint32_t>(keys), 6, std::span<std::uint32_t>(out)),
               Error);
  EXPECT_THROW(partition(test_context(), std::span<const std::uint32_t>(keys), -7, std::span<std::uint32_t>(out)),
               Error);
  EXPECT_THROW(partition(test_context(), std::span<const std::uint32_t>(keys), 3, std::span<std::uint32_t>(out),
                         {.rows = 4}),
               Error);  // 4 rows do not cut 6 keys
  for (std::uint32_t v : out) EXPECT_EQ(v, 0xABu);  // refused: nothing written
  partition(test_context(), std::span<const std::uint32_t>(keys), -6, std::span<std::uint32_t>(out));
  EXPECT_EQ(out, (std::vector<std::uint32_t>{1, 5, 3, 9, 3, 7}));
  partition(test_context(), std::span<const std::uint32_t>(keys), 1, std::span<std::uint32_t>(out), {.rows = 2});
  EXPECT_EQ(out, (std::vector<std::uint32_t>{3, 5, 9, 1, 3, 7}));
  // no keys (rows of none, or no rows) take any kth, as numpy's
  const std::vector<std::uint32_t> none;
  std::vector<std::uint32_t> none_out;
  partition(test_context(), std::span<const std::uint32_t>(none), 0, std::span<std::uint32_t>(none_out), {.rows = 3});
  partition(test_context(), std::span<const std::uint32_t>(none), -5, std::span<std::uint32_t>(none_out), {.rows = 0});
}

// The request is checked once, before anything runs.
TEST(PartitionPlan, RefusesWhatItCannotPartition) {
  SortRequest base{.type = key_type::f32, .n = 100, .rows = 1, .row_length = 100};
  base.partition = true;
  base.kth = 5;
  SortRequest r = base;
  r.kth = 100;
  expect_plan_refused(r, errc::invalid_argument, "outside rows of 100 keys");
  r = base;
  r.value_bytes = 2;
  expect_plan_refused(r, errc::invalid_argument, "4 or 8 bytes");
  r = base;
  r.options.order = order::descending;
  expect_plan_refused(r, errc::unsupported, "ascending");
  r = base;
  r.topk = true;
  expect_plan_refused(r, errc::invalid_argument, "not both");
  r = base;
  r.rows = 3;
  expect_plan_refused(r, errc::invalid_argument, "rows x row length");
  r = base;
  r.type = key_type::c128;
  expect_plan_refused(r, errc::unsupported, "complex128");
  SortRequest stray{.type = key_type::u32, .n = 100};
  stray.kth = 5;
  expect_plan_refused(stray, errc::invalid_argument, "SortRequest::partition");
}

TEST(PartitionPlan, PrintsTheSelectionAndTheScatter) {
  SortRequest r{.type = key_type::f32, .n = 64 * 1000, .value_bytes = 8, .rows = 64, .row_length = 1000};
  r.partition = true;
  r.kth = 10;
  const SortPlan p = plan(test_context(), r);
  EXPECT_EQ(p.algorithm, "partition radix-select");
  EXPECT_NE(p.path.find("partition: 64 rows of 1000 around the key of rank kth = 10"), std::string::npos) << p.text();
  ASSERT_EQ(p.steps.size(), 2u) << p.text();
  EXPECT_NE(p.steps[1].find("topk_partition_rows"), std::string::npos) << p.text();
  EXPECT_EQ(p.device_bytes, 64u * 1000 * (4 + 4 + 8)) << p.text();
  r.select_kth = true;
  EXPECT_EQ(plan(test_context(), r).algorithm, "select_kth radix-select");
  Policy split({.groups_per_row = 4});
  const SortPlan s = plan(test_context(), r);
  ASSERT_EQ(s.steps.size(), 4u) << s.text();
  EXPECT_NE(s.steps[2].find("topk_round_filter"), std::string::npos) << s.text();
  EXPECT_NE(s.steps[3].find("topk_partition_scatter"), std::string::npos) << s.text();
}

}  // namespace
}  // namespace gpusort::test
