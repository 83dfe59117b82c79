// Top-k by radix selection (algorithms/topk/, kernels/topk_select.cl) against the host reference
// (tests/support/topk_reference.hpp: a stable sort of each row, its first k): row lengths around the
// group and tile sizes, k from 0 to the row length, both orders, sorted and unsorted, ties (all-equal
// rows take the lowest positions), NaN-heavy rows and signed zeros, one group per row and rows split
// among several groups (the multi-group kernels), and every key type once.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "algorithms/topk/topk_policy.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/topk.hpp"
#include "support/key_types.hpp"
#include "support/topk_reference.hpp"
#include "support/plan_refusal.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Sets the split override for a scope.
struct SplitRows {
  explicit SplitRows(std::uint32_t groups, std::optional<std::uint32_t> candidate_divisor = std::nullopt) {
    algo::set_topk_policy_override({.groups_per_row = groups, .candidate_divisor = candidate_divisor});
  }
  ~SplitRows() { algo::set_topk_policy_override({}); }
};

// One top-k of `keys` (rows of keys.size() / rows) checked against the reference; I = void: keys alone.
template <class T, class I>
void check_topk(const std::vector<T>& keys, std::uint64_t rows, std::uint64_t k, bool largest, bool sorted,
                const std::string& what) {
  std::vector<T> values(rows * k);
  std::vector<I> indices(rows * k);
  const TopkOptions o{.rows = rows, .largest = largest, .sorted = sorted};
  topk(test_context(), std::span<const T>(keys), k, std::span<T>(values), std::span<I>(indices), o);
  EXPECT_TRUE(topk_like_reference(keys, rows, k, largest, sorted, values, &indices))
      << what << (largest ? ", largest" : ", smallest") << (sorted ? ", sorted" : ", unsorted") << ", k " << k;
}
template <class T>
void check_topk_keys(const std::vector<T>& keys, std::uint64_t rows, std::uint64_t k, bool largest, bool sorted,
                     const std::string& what) {
  std::vector<T> values(rows * k);
  topk_keys(test_context(), std::span<const T>(keys), k, std::span<T>(values),
            {.rows = rows, .largest = largest, .sorted = sorted});
  EXPECT_TRUE((topk_like_reference<T, std::int64_t>(keys, rows, k, largest, sorted, values, nullptr)))
      << what << ", keys alone" << (largest ? ", largest" : ", smallest") << (sorted ? ", sorted" : ", unsorted")
      << ", k " << k;
}

std::vector<std::uint64_t> ks_for(std::uint64_t length) {
  std::vector<std::uint64_t> ks;
  for (std::uint64_t k : {0ull, 1ull, 2ull, 31ull, 32ull, 33ull, 256ull, 4096ull, 4097ull})
    if (k <= length) ks.push_back(k);
  if (ks.back() != length) ks.push_back(length);
  return ks;
}

constexpr std::uint64_t kLengths[] = {1, 31, 32, 33, 1000, 4097, 65537};

// Every k of every length, both orders; all four order x sorted combinations where `all`.
template <class T>
void check_lengths(bool all) {
  int turn = 0;
  for (std::uint64_t length : kLengths) {
    const std::uint64_t rows = length <= 4097 ? 3 : 1;
    const dist d = turn % 2 ? dist::few_unique : dist::uniform;
    const auto keys = make_keys<T>(rows * length, d, fresh_seed());
    const std::string what = std::to_string(rows) + " x " + std::to_string(length) + " " + dist_name(d);
    for (std::uint64_t k : ks_for(length)) {
      ++turn;
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          if (!all && sorted == ((turn + largest) % 2 == 0)) continue;
          if (turn % 3 == 0)
            check_topk<T, std::int32_t>(keys, rows, k, largest, sorted, what);
          else
            check_topk<T, std::int64_t>(keys, rows, k, largest, sorted, what);
        }
    }
    check_topk_keys<T>(keys, rows, std::min<std::uint64_t>(length, 7), true, true, what);
    check_topk_keys<T>(keys, rows, std::min<std::uint64_t>(length, 7), false, false, what);
  }
}

TEST(TopkSelect, U32EveryLengthAndK) { check_lengths<std::uint32_t>(true); }
// Rows in one group that read the row in every pass and collect from it (no local candidates), as
// rows whose tied keys never fit run.
TEST(TopkSelect, RowsWithoutLocalCandidates) {
  algo::set_topk_policy_override({.local_candidates = false});
  check_lengths<float>(false);
  check_lengths<std::uint64_t>(false);
  algo::set_topk_policy_override({});
}
TEST(TopkSelect, F32EveryLengthAndK) { check_lengths<float>(true); }
TEST(TopkSelect, I64EveryLengthAndK) { check_lengths<std::int64_t>(false); }
TEST(TopkSelect, F64EveryLengthAndK) { check_lengths<double>(false); }
TEST(TopkSelect, F16EveryLengthAndK) { check_lengths<half_bits>(false); }

TEST(TopkSelect, AllEqualRowsTakeTheLowestPositions) {
  for (std::uint64_t length : {33ull, 4097ull}) {
    const std::vector<float> keys(2 * length, 1.5f);
    for (std::uint64_t k : std::vector<std::uint64_t>{1, 32, length - 1, length}) {
      std::vector<float> values(2 * k);
      std::vector<std::int64_t> indices(2 * k);
      topk(test_context(), std::span<const float>(keys), k, std::span<float>(values),
           std::span<std::int64_t>(indices), {.rows = 2, .sorted = false});
      for (std::uint64_t j = 0; j < 2 * k; ++j) ASSERT_EQ(indices[j], std::int64_t(j % k)) << "k " << k;
      check_topk<float, std::int64_t>(keys, 2, k, false, true, "all equal");
    }
  }
}

// Half NaNs (both signs, several payloads), the rest signed zeros, infinities and a few numbers.
template <class T>
std::vector<T> nan_heavy(std::size_t n, std::uint64_t seed) {
  const auto specials = make_keys<T>(n, dist::specials, seed);
  std::vector<T> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, half_bits>) {
      const std::uint16_t pick[] = {0x7E00, 0xFE01, 0x7C01, 0x0000, 0x8000, 0x7C00, 0xFC00};
      keys[i] = i % 3 == 2 ? specials[i] : half_bits{pick[(i * 7 + seed) % 7]};
    } else {
      const T pick[] = {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(), T(0), T(-0.0),
                        std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(), T(1)};
      keys[i] = i % 3 == 2 ? specials[i] : pick[(i * 7 + seed) % 7];
    }
  }
  return keys;
}

TEST(TopkSelect, NanHeavyRowsAndSignedZeros) {
  const std::uint64_t seed = fresh_seed();
  for (std::uint64_t length : {33ull, 1000ull, 4097ull}) {
    const std::string what = "NaN-heavy " + std::to_string(length) + ", seed " + std::to_string(seed);
    const auto f32 = nan_heavy<float>(2 * length, seed);
    const auto f64 = nan_heavy<double>(2 * length, seed);
    const auto f16 = nan_heavy<half_bits>(2 * length, seed);
    for (std::uint64_t k : std::vector<std::uint64_t>{1, 5, length / 2, length})
      for (bool largest : {true, false}) {
        check_topk<float, std::int64_t>(f32, 2, k, largest, true, what);
        check_topk<float, std::int64_t>(f32, 2, k, largest, false, what);
        check_topk<double, std::int64_t>(f64, 2, k, largest, k % 2 == 0, what);
        check_topk<half_bits, std::int32_t>(f16, 2, k, largest, k % 2 == 1, what);
      }
  }
}

// Rows cut among several groups (the rounds: topk_round_histogram / topk_round_pick /
// topk_round_filter), as long 1-D rows run on a GPU, forced onto short rows here.
TEST(TopkSelect, RowsSplitAmongGroups) {
  for (std::uint32_t groups : {2u, 5u}) {
    SplitRows split(groups);
    for (std::uint64_t length : {1000ull, 4097ull, 65537ull}) {
      const std::uint64_t rows = length == 65537 ? 1 : 3;
      const std::string what = std::to_string(groups) + " groups a row, " + std::to_string(rows) + " x " +
                               std::to_string(length);
      const auto u64 = make_keys<std::uint64_t>(rows * length, dist::entropy, fresh_seed());
      const auto f32 = nan_heavy<float>(rows * length, fresh_seed());
      const std::vector<std::uint32_t> equal(rows * length, 7);
      for (std::uint64_t k : std::vector<std::uint64_t>{1, 33, 256, length - 1, length}) {
        check_topk<std::uint64_t, std::int64_t>(u64, rows, k, true, k % 2 == 0, what);
        check_topk<float, std::int64_t>(f32, rows, k, k % 2 == 0, true, what);
        check_topk<float, std::int32_t>(f32, rows, k, true, false, what);
        check_topk<std::uint32_t, std::int64_t>(equal, rows, k, false, false, what + ", all equal");
      }
    }
  }
}

// Floats clustered in a few exponents (uniform in [-1, 1), normal), whose top digit ties a large
// share of the row, as the split rounds meet them.
std::vector<float> clustered_floats(std::size_t n, bool normal, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::vector<float> keys(n);
  for (float& x : keys) x = normal ? gauss(gen) : uniform(gen);
  return keys;
}

// The split rounds with their candidates moved out from the first round (divisor 1), once the tied
// bucket is at most a sixteenth of the row (the tuning's), and never (0: every round reads the row,
// each group's keys before the threshold added up over the rounds): clustered floats (the first
// round's bucket ties a quarter of the row, so the default counts on the row first), random bits,
// few unique keys, all equal; every selected set against the reference.
TEST(TopkSelect, SplitRowsThroughCandidates) {
  const std::uint64_t seed = fresh_seed();
  for (std::uint32_t divisor : {1u, 16u, 0u}) {
    SplitRows split(3, divisor);
    for (std::uint64_t rows : {1ull, 3ull}) {
      const std::uint64_t length = rows == 1 ? 65537 : 20000;
      const std::string what = "candidates from 1/" + std::to_string(divisor) + " of the row, " +
                               std::to_string(rows) + " x " + std::to_string(length) + ", seed " +
                               std::to_string(seed);
      const auto uniform = clustered_floats(rows * length, false, seed);
      const auto normal = clustered_floats(rows * length, true, seed + 1);
      const auto u64 = make_keys<std::uint64_t>(rows * length, dist::uniform, seed + 2);
      const auto few = make_keys<std::uint32_t>(rows * length, dist::few_unique, seed + 3);
      for (std::uint64_t k : std::vector<std::uint64_t>{1, 50, 1000, length - 1, length}) {
        check_topk<float, std::int64_t>(uniform, rows, k, true, true, what + ", uniform [-1, 1)");
        check_topk<float, std::int32_t>(uniform, rows, k, false, false, what + ", uniform [-1, 1)");
        check_topk<float, std::int64_t>(normal, rows, k, k % 2 == 1, true, what + ", normal");
        check_topk<std::uint64_t, std::int64_t>(u64, rows, k, true, false, what + ", random bits");
        check_topk<std::uint32_t, std::int32_t>(few, rows, k, false, true, what + ", few unique");
        check_topk_keys<float>(normal, rows, k, true, true, what + ", normal, keys alone");
      }
    }
    const std::vector<float> equal(2 * 5000, 2.5f);  // all tied: the lowest positions, in position order
    for (std::uint64_t k : {1ull, 700ull, 5000ull}) {
      std::vector<float> values(2 * k);
      std::vector<std::int64_t> indices(2 * k);
      topk(test_context(), std::span<const float>(equal), k, std::span<float>(values),
           std::span<std::int64_t>(indices), {.rows = 2, .sorted = false});
      for (std::uint64_t j = 0; j < 2 * k; ++j) ASSERT_EQ(indices[j], std::int64_t(j % k)) << "k " << k;
    }
  }
}

// Rows cut among groups through a sample's threshold (kernels/topk_sample.cl, then the rounds on the
// candidates it kept), forced onto short rows with a sample of 256 keys: the rank the planner picks
// (the sample passes), rank 1 (the candidates mostly fall short of k: the rounds read the row) and
// rank 256 (every key kept: the stage overflows, the rounds read the row); candidate buffers of the
// whole row and of a sixteenth. Random bits, normal floats, NaN-heavy rows, few unique keys (ties
// across tiles), ascending keys (the candidates at one end), all equal; both orders, sorted and not,
// both index widths and keys alone; every selected set against the reference.
TEST(TopkSelect, SplitRowsThroughASample) {
  const std::uint64_t seed = fresh_seed();
  for (std::uint64_t rank : {0ull, 1ull, 256ull}) {
    for (std::uint32_t divisor : {1u, 16u}) {
      algo::TopkPolicyOverride o{.groups_per_row = 3, .candidate_divisor = divisor, .sample_keys = 256};
      if (rank != 0) o.sample_rank = rank;
      algo::set_topk_policy_override(o);
      for (std::uint64_t rows : {1ull, 3ull}) {
        const std::uint64_t length = rows == 1 ? 65537 : 20000;
        const std::string what = "sample rank " + (rank ? std::to_string(rank) : std::string("planned")) +
                                 ", candidates 1/" + std::to_string(divisor) + ", " + std::to_string(rows) + " x " +
                                 std::to_string(length) + ", seed " + std::to_string(seed);
        const auto u64 = make_keys<std::uint64_t>(rows * length, dist::uniform, seed);
        const auto normal = clustered_floats(rows * length, true, seed + 1);
        const auto nan = nan_heavy<float>(rows * length, seed + 2);
        const auto few = make_keys<std::uint32_t>(rows * length, dist::few_unique, seed + 3);
        const auto ascending = make_keys<std::int32_t>(rows * length, dist::sorted, seed + 4);
        for (std::uint64_t k : std::vector<std::uint64_t>{1, 2, 50, 1000}) {
          check_topk<std::uint64_t, std::int64_t>(u64, rows, k, true, k % 2 == 0, what + ", random bits");
          check_topk<float, std::int32_t>(normal, rows, k, k % 2 == 1, true, what + ", normal");
          check_topk<float, std::int64_t>(nan, rows, k, true, false, what + ", NaN-heavy");
          check_topk<std::uint32_t, std::int64_t>(few, rows, k, k % 2 == 0, true, what + ", few unique");
          check_topk<std::int32_t, std::int32_t>(ascending, rows, k, true, true, what + ", ascending");
          check_topk_keys<float>(normal, rows, k, false, false, what + ", normal, keys alone");
        }
      }
      const std::vector<float> equal(65537, 2.5f);  // all tied: the lowest positions, in position order
      for (std::uint64_t k : {1ull, 700ull}) {
        std::vector<float> values(k);
        std::vector<std::int64_t> indices(k);
        topk(test_context(), std::span<const float>(equal), k, std::span<float>(values),
             std::span<std::int64_t>(indices), {.sorted = false});
        for (std::uint64_t j = 0; j < k; ++j) ASSERT_EQ(indices[j], std::int64_t(j)) << "k " << k;
      }
    }
  }
  algo::set_topk_policy_override({});
  EXPECT_EQ(algo::parse_topk_policy_override("sample_keys=0,sample_rank=5").sample_keys, 0u);
  EXPECT_THROW(algo::parse_topk_policy_override("sample_rank=0"), Error);
}

// Rows cut into parts (topk_rows over each part, then a top-k of the parts' candidates and the
// places mapped back to positions), as long rows with a small k run on a GPU, forced onto short rows
// here: the last part longer than the others, ties across parts (few unique, all equal: the lowest
// positions), NaN-heavy rows, both orders, sorted and not, int32 / int64 indices and keys alone.
TEST(TopkSelect, RowsCutIntoParts) {
  const std::uint64_t seed = fresh_seed();
  for (std::uint64_t parts : {2ull, 3ull, 7ull}) {
    algo::set_topk_policy_override({.row_parts = parts});
    for (std::uint64_t rows : {1ull, 3ull}) {
      const std::uint64_t length = rows == 1 ? 20011 : 4103;
      const std::string what = std::to_string(parts) + " parts a row, " + std::to_string(rows) + " x " +
                               std::to_string(length) + ", seed " + std::to_string(seed);
      const auto normal = clustered_floats(rows * length, true, seed);
      const auto few = make_keys<std::uint32_t>(rows * length, dist::few_unique, seed + 1);
      const auto nan = nan_heavy<float>(rows * length, seed + 2);
      const auto u64 = make_keys<std::uint64_t>(rows * length, dist::uniform, seed + 3);
      for (std::uint64_t k : std::vector<std::uint64_t>{1, 2, 33, 256, length / (2 * parts)}) {
        check_topk<float, std::int64_t>(normal, rows, k, true, true, what + ", normal");
        check_topk<float, std::int32_t>(normal, rows, k, false, false, what + ", normal");
        check_topk<std::uint32_t, std::int64_t>(few, rows, k, k % 2 == 0, true, what + ", few unique");
        check_topk<float, std::int64_t>(nan, rows, k, k % 2 == 1, k % 3 != 0, what + ", NaN-heavy");
        check_topk<std::uint64_t, std::int32_t>(u64, rows, k, true, true, what + ", random bits");
        check_topk_keys<float>(nan, rows, k, false, true, what + ", NaN-heavy, keys alone");
      }
    }
    const std::vector<float> equal(2 * 3000, 2.5f);  // all tied: the lowest positions, in position order
    for (std::uint64_t k : {1ull, 100ull}) {
      std::vector<float> values(2 * k);
      std::vector<std::int64_t> indices(2 * k);
      topk(test_context(), std::span<const float>(equal), k, std::span<float>(values),
           std::span<std::int64_t>(indices), {.rows = 2, .sorted = false});
      for (std::uint64_t j = 0; j < 2 * k; ++j) ASSERT_EQ(indices[j], std::int64_t(j % k)) << "k " << k;
    }
  }
  algo::set_topk_policy_override({});
}

// (the warp rows off, so that every device prints the same steps; TopkPlan.WarpRowsOnNvidiaGpusOnly)
TEST(TopkPlan, PrintsTheParts) {
  algo::set_topk_policy_override({.row_parts = 4, .warp_max_length = 0});
  const SortRequest r{.type = key_type::f32, .n = 2 * 40000, .value_bytes = 8, .rows = 2, .row_length = 40000,
                      .topk = true, .k = 50};
  const SortPlan p = plan(test_context(), r);
  // host data with host-only options: the candidates' own top-k, on the device, takes none of them
  SortRequest host = r;
  host.options.device_memory_limit = std::uint64_t(1) << 30;
  host.options.host_threads = 2;
  const SortPlan h = plan(test_context(), host);
  algo::set_topk_policy_override({});
  EXPECT_NE(h.text().find("each row cut into 4 parts"), std::string::npos) << h.text();
  EXPECT_NE(p.text().find("each row cut into 4 parts of 10000 keys"), std::string::npos) << p.text();
  EXPECT_NE(p.text().find("topk_select.cl topk_rows: 8 groups"), std::string::npos) << p.text();
  EXPECT_NE(p.text().find("the row's k among its candidates"), std::string::npos) << p.text();
  EXPECT_NE(p.text().find("topk_map_positions"), std::string::npos) << p.text();
  EXPECT_NE(p.text().find("sort 2 rows of 50"), std::string::npos) << p.text();
  EXPECT_THROW(algo::parse_topk_policy_override("row_parts=x"), Error);
  EXPECT_THROW(algo::parse_topk_policy_override("parts=2"), Error);
  EXPECT_EQ(algo::parse_topk_policy_override("row_parts=0,groups_per_row=8").row_parts, 0u);
}

// CUDA's choice (no device needed): a sample's threshold for 1-D rows from 2^24 keys where k is small
// against them, else parts where the candidates' own top-k stays cheap (one group's row, or at most
// 1/256 of the row), the rounds elsewhere (measured in topk_policy.cpp), one histogram.
TEST(TopkPlan, CudaPartsWhereTheCandidatesAreFew) {
  DeviceDescription h100;
  h100.backend = "cuda", h100.name = "NVIDIA H100 80GB HBM3", h100.vendor = "NVIDIA Corporation";
  h100.architecture = "sm_90", h100.is_gpu = true;
  h100.local_memory_bytes = 232448, h100.max_work_group_size = 1024, h100.compute_units = 132;
  EXPECT_STREQ(algo::topk_tuning_for(h100).name, "cuda");
  const auto choice = [&](std::uint64_t rows, std::uint64_t length, std::uint64_t k) {
    return algo::choose_topk(h100, SortRequest{.type = key_type::f32, .n = rows * length, .rows = rows,
                                               .row_length = length, .topk = true, .k = k});
  };
  for (std::uint64_t k : {50ull, 1024ull}) {  // LLM rows: 7 parts of 18322 keys, 7k candidates a row
    const algo::TopkChoice c = choice(64, 128256, k);
    EXPECT_EQ(c.row_parts, 7u) << k;
    EXPECT_EQ(c.hist_copies, 1u);
  }
  EXPECT_EQ(choice(1, std::uint64_t(1) << 21, 10).sample_keys, 0u);  // below the sample's length: rounds
  EXPECT_EQ(choice(1, std::uint64_t(1) << 21, 10).row_parts, 1u);    // (128 parts would not fill the device)
  EXPECT_EQ(choice(1, std::uint64_t(1) << 23, 10).sample_keys, 0u);   // below the sample's length:
  EXPECT_EQ(choice(1, std::uint64_t(1) << 23, 10).row_parts, 512u);   // 5120 candidates, one group's row
  for (unsigned e : {24u, 28u})  // 1-D from 2^24 keys: a sample's threshold, then the rounds
    for (std::uint64_t k : {10ull, 1000ull, 100000ull}) {
      const algo::TopkChoice c = choice(1, std::uint64_t(1) << e, k);
      EXPECT_EQ(c.row_parts, 1u) << e << " " << k;  // not cut
      EXPECT_GT(c.groups_per_row, 1u) << e << " " << k;
      EXPECT_EQ(c.sample_keys, 4096u) << e << " " << k;
      EXPECT_LE(4 * c.sample_rank * (std::uint64_t(1) << e) / 4096, c.candidate_cap) << e << " " << k;
    }
  EXPECT_EQ(choice(1, std::uint64_t(1) << 24, 500000).sample_keys, 0u);  // too many candidates: rounds alone
  EXPECT_EQ(choice(4096, 32768, 50).row_parts, 1u);  // rows fill the device: one group a row
  EXPECT_EQ(choice(4096, 32768, 50).groups_per_row, 1u);
}

// NVIDIA GPUs (no device needed): rows of up to 1024 keys a warp each, never for a partition, a row cut
// among groups or into parts, and not where the override turns it off; other devices never.
TEST(TopkPlan, WarpRowsOnNvidiaGpusOnly) {
  DeviceDescription h100;
  h100.backend = "cuda", h100.name = "NVIDIA H100 80GB HBM3", h100.vendor = "NVIDIA Corporation";
  h100.architecture = "sm_90", h100.is_gpu = true;
  h100.local_memory_bytes = 232448, h100.max_work_group_size = 1024, h100.compute_units = 132;
  const auto choice = [](const DeviceDescription& d, std::uint64_t rows, std::uint64_t length, std::uint64_t k,
                         bool partition = false) {
    return algo::choose_topk(d, SortRequest{.type = key_type::f32, .n = rows * length, .rows = rows,
                                            .row_length = length, .topk = !partition, .k = k,
                                            .partition = partition});
  };
  const algo::TopkChoice c = choice(h100, 16384, 1024, 50);
  EXPECT_EQ(c.warp_items, 32u);
  EXPECT_EQ(c.rows_per_group, c.group / 32);
  EXPECT_TRUE(c.warp_sorts);  // k = 50 sorted in the warp, no sort launch
  EXPECT_TRUE(choice(h100, 4096, 32768, 50).warp_scan);
  EXPECT_FALSE(choice(h100, 16384, 1024, 129).warp_sorts);
  EXPECT_EQ(choice(h100, 64, 350, 50).warp_items, 16u);  // the LLM rows' candidates (7 parts of 50)
  EXPECT_EQ(choice(h100, 1000, 33, 5).warp_items, 4u);
  EXPECT_EQ(choice(h100, 1000, 1025, 5).warp_items, 0u);
  EXPECT_EQ(choice(h100, 4096, 32768, 50).warp_items, 0u);
  EXPECT_EQ(choice(h100, 16384, 1024, 50, true).warp_items, 0u);
  algo::set_topk_policy_override({.warp_max_length = 0});
  EXPECT_EQ(choice(h100, 16384, 1024, 50).warp_items, 0u);
  algo::set_topk_policy_override({});
  DeviceDescription cpu;
  cpu.backend = "opencl", cpu.name = "cpu-pocl", cpu.vendor = "The pocl project", cpu.is_gpu = false;
  cpu.max_work_group_size = 4096, cpu.compute_units = 2;
  algo::set_topk_policy_override({.warp_max_length = 1024});
  EXPECT_EQ(choice(cpu, 16384, 1024, 50).warp_items, 0u);
  EXPECT_FALSE(choice(cpu, 16384, 1024, 50).warp_scan);
  algo::set_topk_policy_override({});
  EXPECT_THROW(algo::parse_topk_policy_override("warp_max_length=2048"), Error);
  EXPECT_EQ(algo::parse_topk_policy_override("warp_max_length=512").warp_max_length, 512u);
}

// The GPU rows' group of 256: sub-groups of 32 to 256 work-items a row, one bin a lane in the pick.
TEST(TopkSelect, GroupsOf256) {
  algo::set_topk_policy_override({.group = 256});
  for (std::uint64_t length : {33ull, 100ull, 1000ull, 4097ull}) {
    const auto keys = make_keys<float>(9 * length, dist::few_unique, fresh_seed());
    const auto tied = nan_heavy<float>(9 * length, fresh_seed());
    const std::string what = "groups of 256, 9 x " + std::to_string(length);
    for (std::uint64_t k : std::vector<std::uint64_t>{1, 32, length / 3, length}) {
      check_topk<float, std::int64_t>(keys, 9, k, true, true, what);
      check_topk<float, std::int32_t>(tied, 9, k, false, false, what);
    }
  }
  algo::set_topk_policy_override({.groups_per_row = 3, .group = 256});
  const auto keys = make_keys<float>(65537, dist::uniform, fresh_seed());
  check_topk<float, std::int64_t>(keys, 1, 1000, true, true, "groups of 256, 3 a row");
  algo::set_topk_policy_override({});
}

// 1-byte keys (one digit pass) in groups that short rows share, the last group partly filled.
TEST(TopkSelect, OneByteKeysInPartlyFilledGroups) {
  for (std::uint64_t rows : {1ull, 3ull, 5ull})
    for (std::uint64_t length : {7ull, 100ull}) {
      const std::string what = "1-byte keys, " + std::to_string(rows) + " x " + std::to_string(length);
      const auto u8 = make_keys<std::uint8_t>(rows * length, dist::uniform, fresh_seed());
      const auto i8 = make_keys<std::int8_t>(rows * length, dist::uniform, fresh_seed());
      const auto b = make_keys<bool_byte>(rows * length, dist::uniform, fresh_seed());
      for (std::uint64_t k : {1ull, 3ull}) {
        check_topk<std::uint8_t, std::int64_t>(u8, rows, k, true, true, what);
        check_topk<std::int8_t, std::int64_t>(i8, rows, k, false, false, what);
        check_topk<bool_byte, std::int64_t>(b, rows, k, true, false, what);
      }
    }
}

// One test per key type: each builds its own programs, which takes PoCL a minute or more.
template <class T>
class TopkKeys : public ::testing::Test {};
TYPED_TEST_SUITE(TopkKeys, AllKeyTypes);
TYPED_TEST(TopkKeys, EveryKeyType) {
  using T = TypeParam;
  const auto keys = make_keys<T>(2 * 1000, dist::specials, fresh_seed());
  check_topk<T, std::int64_t>(keys, 2, 37, true, true, std::string(key_type_name(key_type_of<T>::value)));
  check_topk<T, std::int64_t>(keys, 2, 37, false, false, std::string(key_type_name(key_type_of<T>::value)));
}

// The request is checked once, before anything runs.
TEST(TopkPlan, RefusesWhatItCannotSelect) {
  const SortRequest base{.type = key_type::f32, .n = 100, .rows = 1, .row_length = 100, .topk = true, .k = 5};
  SortRequest r = base;
  r.k = 101;
  expect_plan_refused(r, errc::invalid_argument, "more than the row length");
  r = base;
  r.value_bytes = 2;
  expect_plan_refused(r, errc::invalid_argument, "4 or 8 bytes");
  r = base;
  r.rows = 3;
  expect_plan_refused(r, errc::invalid_argument, "rows x row length");
  r = base;
  r.options.comparator = "return a < b;";
  expect_plan_refused(r, errc::unsupported, "natural order");
  r = base;
  r.record_bytes = 16;
  expect_plan_refused(r, errc::unsupported, "no records");
  r = base;  // segments by offsets: 4- or 8-byte offsets (api: tests/api/topk_segments_test.cpp)
  r.row_length = 0;
  r.offset_bytes = 2;
  expect_plan_refused(r, errc::invalid_argument, "4 or 8 bytes wide");
  expect_plan_refused({.type = key_type::u32, .n = 100, .k = 5}, errc::invalid_argument, "SortRequest::topk");
  std::vector<float> keys(10), values(11);
  EXPECT_THROW(topk_keys(test_context(), std::span<const float>(keys), 11, std::span<float>(values)), Error);
}

TEST(TopkPlan, PrintsTheSelectionAndTheSort) {
  SortRequest r{.type = key_type::f32, .n = 64 * 1000, .value_bytes = 8, .rows = 64, .row_length = 1000,
                .topk = true, .k = 50};
  r.options.order = order::descending;
  algo::set_topk_policy_override({.warp_max_length = 0});  // every device prints the same steps
  const SortPlan p = plan(test_context(), r);
  algo::set_topk_policy_override({});
  EXPECT_NE(p.path.find("the 50 largest of 64 rows of 1000, sorted"), std::string::npos) << p.text();
  ASSERT_GE(p.steps.size(), 3u) << p.text();
  EXPECT_NE(p.steps[1].find("topk_rows"), std::string::npos) << p.text();
  EXPECT_NE(p.steps.back().find("sort 64 rows of 50"), std::string::npos) << p.text();
  r.topk_sorted = false;
  algo::set_topk_policy_override({.warp_max_length = 0});
  const SortPlan unsorted = plan(test_context(), r);
  algo::set_topk_policy_override({});
  EXPECT_NE(unsorted.steps.back().find("unsorted: the k of each row as the selection settles them"), std::string::npos)
      << unsorted.text();
  r.k = 0;
  EXPECT_TRUE(plan(test_context(), r).steps.empty());
}

}  // namespace
}  // namespace gpusort::test
