// The merge of sorted runs of any lengths (algorithms/merge_uneven_runs.hpp), the distributed
// sort's last step: runs sorted on the host, laid out with gaps between them (as the exchange
// leaves them), merged on the device, compared with the host's stable sort of the runs end to end
// (equal keys keep run order). Empty runs, runs around the merge tile's edges, odd run counts (a
// run out in a pass is copied), 1 to 3 passes, both orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "algorithms/merge_sort.hpp"
#include "algorithms/merge_uneven_runs.hpp"
#include "runtime/device.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Outputs of one blocked merge tile for these keys and values (the kernel's TILE).
std::size_t merge_tile(key_type type, std::size_t value_bytes) {
  auto& device = test_context().runtime_device();
  return 256 * std::size_t(algo::merge::default_merge_items(device, "blocked", type, value_bytes, 256));
}

template <class K, class V>
void check_merge(const std::vector<std::size_t>& lengths, dist d, order o, bool pairs) {
  const key_type type = key_type_of<K>::value;
  const std::size_t vb = pairs ? sizeof(V) : 0;
  const std::uint64_t seed = fresh_seed();
  std::vector<std::uint64_t> starts{0};  // the runs packed, for the reference
  for (std::size_t len : lengths) starts.push_back(starts.back() + len);
  const std::size_t n = starts.back();
  std::vector<algo::SourceRun> runs;  // where they lie on the device: 0 to 15 elements apart
  std::uint64_t at = seed % 16;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    runs.push_back({at, lengths[r]});
    at += lengths[r] + (seed >> (4 * (r % 15))) % 16;
  }
  const std::size_t extent = std::max<std::size_t>(1, at);
  SCOPED_TRACE("n=" + std::to_string(n) + " runs=" + std::to_string(lengths.size()) + " dist=" + dist_name(d) +
               (o == order::descending ? " descending" : " ascending") + " seed=" + std::to_string(seed));
  std::vector<K> keys = make_keys<K>(n, d, seed);
  for (std::size_t r = 0; r + 1 < starts.size(); ++r)
    std::stable_sort(keys.begin() + starts[r], keys.begin() + starts[r + 1], key_less<K>{o});
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = V(i);

  Context& ctx = test_context();
  const std::size_t bytes = std::max<std::size_t>(1, n);
  DeviceBuffer src_keys(ctx, extent * sizeof(K)), src_values(ctx, extent * sizeof(V));
  DeviceBuffer dst_keys(ctx, bytes * sizeof(K)), dst_values(ctx, bytes * sizeof(V));
  if (n) {
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (!runs[r].length) continue;
      src_keys.upload(keys.data() + starts[r], runs[r].length * sizeof(K), runs[r].start * sizeof(K));
      src_values.upload(values.data() + starts[r], runs[r].length * sizeof(V), runs[r].start * sizeof(V));
    }
    const std::vector<K> poison_k(n, K(0x5a));
    const std::vector<V> poison_v(n, V(0x5a));
    dst_keys.upload(poison_k.data(), n * sizeof(K));
    dst_values.upload(poison_v.data(), n * sizeof(V));
  }
  const SortOptions opt{.order = o};
  algo::SortJob job{ctx.runtime_device(), type, n, vb, src_keys.runtime_buffer(),
                    pairs ? &src_values.runtime_buffer() : nullptr, opt};
  algo::merge_uneven_runs(job, runs, dst_keys.runtime_buffer(), dst_values.runtime_buffer());
  ctx.runtime_device().finish();
  std::vector<K> got_keys(n);
  std::vector<V> got_values(n);
  if (n) {
    dst_keys.download(got_keys.data(), n * sizeof(K));
    dst_values.download(got_values.data(), n * sizeof(V));
  }
  // The runs end to end, sorted stably: exactly what a stable merge in run order gives.
  std::vector<std::size_t> ref(n);
  std::iota(ref.begin(), ref.end(), std::size_t(0));
  std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return key_less<K>{o}(keys[a], keys[b]); });
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(same_bits(got_keys[i], keys[ref[i]])) << "key at " << i;
    if (pairs) ASSERT_EQ(value_index(got_values[i]), ref[i]) << "value at " << i;
  }
}

TEST(MergeUnevenRuns, KeysOfManyRunsInThreePasses) {
  const std::size_t t = merge_tile(key_type::u32, 0);
  check_merge<std::uint32_t, std::uint32_t>({0, 5000, 1, 0, t + 1, t, 3 * t - 1}, dist::uniform, order::ascending,
                                            false);
}

TEST(MergeUnevenRuns, FloatPairsDescendingWithSpecials) {
  const std::size_t t = merge_tile(key_type::f32, 4);
  check_merge<float, std::uint32_t>({t - 1, 2 * t + 3, 17}, dist::specials, order::descending, true);
  check_merge<float, std::uint32_t>({t - 1, 2 * t + 3, 17}, dist::specials, order::ascending, true);
}

TEST(MergeUnevenRuns, WideKeysAndValuesWithDuplicates) {
  const std::size_t t = merge_tile(key_type::u64, 8);
  check_merge<std::uint64_t, std::uint64_t>({t, t, t, t}, dist::few_unique, order::ascending, true);
  check_merge<std::int64_t, std::uint64_t>({3, 0, 2 * t + 1, 1, 5}, dist::all_equal, order::descending, true);
}

TEST(MergeUnevenRuns, OneRunOrNone) {
  check_merge<std::uint32_t, std::uint32_t>({0, 1234, 0}, dist::uniform, order::ascending, false);
  check_merge<std::uint32_t, std::uint32_t>({0, 0}, dist::uniform, order::ascending, false);
  check_merge<std::uint32_t, std::uint32_t>({1, 1}, dist::reverse, order::ascending, false);
}

TEST(MergeUnevenRuns, RunsMustBeInOrderAndHoldN) {
  Context& ctx = test_context();
  DeviceBuffer a(ctx, 64), b(ctx, 64);
  const SortOptions opt{};
  algo::SortJob job{ctx.runtime_device(), key_type::u32, 10, 0, a.runtime_buffer(), nullptr, opt};
  using R = algo::SourceRun;
  for (const std::vector<R>& bad : {std::vector<R>{{0, 5}}, {{0, 6}, {4, 4}}, {{2, 4}, {0, 6}}, {{0, 11}}}) {
    try {
      algo::merge_uneven_runs(job, bad, b.runtime_buffer(), b.runtime_buffer());
      ADD_FAILURE() << "accepted bad runs";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
    }
  }
}

}  // namespace
}  // namespace gpusort::test
