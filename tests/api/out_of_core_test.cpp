// Host sorts larger than the device budget: the run splits, and the two-pass partition sort.
// SortOptions::device_memory_limit forces chunking on any device (PoCL included).
#include <thread>

#include "api/run_splits.hpp"
#include "api/out_of_core.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// A device budget that makes the pipeline use about `chunks` chunks for n elements.
std::uint64_t limit_for_chunks(std::size_t n, std::size_t chunks, std::size_t kb, std::size_t vb) {
  const std::uint64_t m = std::max<std::uint64_t>((n + chunks - 1) / chunks, detail::kMinChunk);
  return detail::pipeline_bytes(m, kb, vb);
}

// ---- the run splits on their own (no device) ---------------------------------------------------

// Runs of random lengths (some empty), each sorted stably. For ranks around every edge, the split
// must take from run j exactly as many elements as the first r of the stable merged order do.
template <class K>
void check_splits(std::size_t n, std::size_t runs, dist d, order o, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto keys = make_keys<K>(n, d, seed);
  std::vector<std::size_t> offsets = {0};
  for (std::size_t j = 1; j < runs; ++j) offsets.push_back(n ? rng() % (n + 1) : 0);
  offsets.push_back(n);
  std::sort(offsets.begin(), offsets.end());
  key_less<K> less{o};
  for (std::size_t j = 0; j + 1 < offsets.size(); ++j)
    std::stable_sort(keys.begin() + offsets[j], keys.begin() + offsets[j + 1], less);
  // The stable merged order of the runs' concatenation, as (run of each element).
  std::vector<std::size_t> order_idx(n), run_of(n);
  for (std::size_t j = 0; j + 1 < offsets.size(); ++j)
    for (std::size_t i = offsets[j]; i < offsets[j + 1]; ++i) run_of[i] = j;
  std::iota(order_idx.begin(), order_idx.end(), std::size_t(0));
  std::stable_sort(order_idx.begin(), order_idx.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
  const detail::SortedRuns sr{key_type_of<K>::value, keys.data(), offsets};
  std::vector<std::size_t> ranks = {0, 1, n / 3, n / 2, n > 0 ? n - 1 : 0, n, n + 5};
  for (int k = 0; k < 8; ++k) ranks.push_back(n ? rng() % n : 0);
  for (std::size_t r : ranks) {
    const std::vector<std::size_t> starts = detail::split_at_rank(sr, o, r);
    ASSERT_EQ(starts.size(), runs);
    std::vector<std::size_t> taken(runs, 0);
    for (std::size_t i = 0; i < std::min(r, n); ++i) ++taken[run_of[order_idx[i]]];
    for (std::size_t j = 0; j < runs; ++j)
      ASSERT_EQ(starts[j] - offsets[j], taken[j])
          << "run " << j << " of " << runs << ", rank " << r << " of " << n << " dist=" << dist_name(d) << " seed=" << seed;
  }
}

TEST(RunSplits, MatchTheStableMergedOrder) {
  for (order o : {order::ascending, order::descending}) {
    for (std::size_t runs : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(40)}) {
      check_splits<std::uint32_t>(5000, runs, dist::uniform, o, fresh_seed());
      check_splits<std::uint8_t>(3001, runs, dist::uniform, o, fresh_seed());
      check_splits<float>(4099, runs, dist::specials, o, fresh_seed());
      check_splits<double>(999, runs, dist::few_unique, o, fresh_seed());
      check_splits<std::int16_t>(2048, runs, dist::all_equal, o, fresh_seed());
      check_splits<std::int64_t>(777, runs, dist::organ_pipe, o, fresh_seed());
    }
  }
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(5)})
    check_splits<std::uint32_t>(n, 3, dist::uniform, order::ascending, fresh_seed());
}

// ---- whole sorts through the partition sort ---------------------------------------------------

template <class K>
void check_keys_chunked(const std::string& algorithm, bool stable, std::size_t n, dist d, std::size_t chunks) {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    auto input = make_keys<K>(n, d, seed);
    auto out = input;
    SortOptions opt{.order = o, .stable = stable, .algorithm = algorithm};
    opt.device_memory_limit = limit_for_chunks(n, chunks, sizeof(K), 0);
    SortReport rep = sort(test_context(), std::span<K>(out), opt);
    EXPECT_GE(rep.chunks, std::max<std::size_t>(2, chunks / 2)) << "n=" << n;
    EXPECT_LE(rep.chunks, chunks * 2 + 1) << "n=" << n;
    ASSERT_TRUE(keys_sorted_like_reference(input, out, o, stable))
        << algorithm << " n=" << n << " chunks=" << rep.chunks << " dist=" << dist_name(d)
        << " order=" << (o == order::ascending ? "asc" : "desc") << " seed=" << seed;
  }
}

template <class K, class V>
void check_pairs_chunked(const std::string& algorithm, bool stable, std::size_t n, dist d, std::size_t chunks) {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    auto input = make_keys<K>(n, d, seed);
    auto keys = input;
    std::vector<V> values = index_values<V>(n);
    SortOptions opt{.order = o, .stable = stable, .algorithm = algorithm};
    opt.device_memory_limit = limit_for_chunks(n, chunks, sizeof(K), sizeof(V));
    SortReport rep = sort_pairs(test_context(), std::span<K>(keys), std::span<V>(values), opt);
    EXPECT_GE(rep.chunks, 2u) << "n=" << n;
    ASSERT_TRUE(pairs_sorted_like_reference(input, keys, values, o, stable))
        << algorithm << " n=" << n << " chunks=" << rep.chunks << " dist=" << dist_name(d) << " value bytes=" << sizeof(V)
        << " order=" << (o == order::ascending ? "asc" : "desc") << " seed=" << seed;
  }
}

TEST(OutOfCore, KeysStableRadix) {
  check_keys_chunked<std::uint32_t>("radix", true, (1u << 20) - 37, dist::uniform, 16);
  check_keys_chunked<float>("radix", true, 300001, dist::specials, 12);
  check_keys_chunked<std::uint8_t>("radix", true, 200003, dist::uniform, 9);
  check_keys_chunked<std::int64_t>("radix", true, 100000, dist::few_unique, 20);
  check_keys_chunked<double>("radix", true, 65537, dist::reverse, 8);
}

TEST(OutOfCore, KeysUnstableBitonic) {
  check_keys_chunked<float>("bitonic", false, 250000, dist::specials, 10);
  check_keys_chunked<std::int16_t>("bitonic", false, 100003, dist::organ_pipe, 8);
}

TEST(OutOfCore, KeysStableMerge) {
  check_keys_chunked<std::uint64_t>("merge", true, 120001, dist::entropy, 10);
}

TEST(OutOfCore, PairsStable) {
  check_pairs_chunked<std::uint32_t, std::uint32_t>("radix", true, (1u << 19) + 3, dist::few_unique, 24);
  check_pairs_chunked<float, std::uint32_t>("radix", true, 200000, dist::specials, 10);
  check_pairs_chunked<std::uint8_t, std::uint32_t>("merge", true, 100001, dist::uniform, 8);
  check_pairs_chunked<std::int32_t, Bytes16>("radix", true, 60001, dist::all_equal, 12);
}

TEST(OutOfCore, PairsUnstable) {
  check_pairs_chunked<std::uint32_t, std::uint64_t>("bitonic", false, 150001, dist::uniform, 10);
  check_pairs_chunked<double, std::uint32_t>("auto", false, 90000, dist::specials, 9);
}

TEST(OutOfCore, FitsInOnePieceWhenTheBudgetAllows) {
  auto input = make_keys<std::uint32_t>(5000, dist::uniform, fresh_seed());
  auto out = input;
  SortOptions opt;
  opt.device_memory_limit = detail::one_shot_bytes(5000, 4, 0);
  SortReport rep = sort(test_context(), std::span<std::uint32_t>(out), opt);
  EXPECT_EQ(rep.chunks, 1u);
  EXPECT_TRUE(keys_sorted_like_reference(input, out, order::ascending, false));
  // Default budget (70% of the device) for a small sort: one piece.
  out = input;
  EXPECT_EQ(sort(test_context(), std::span<std::uint32_t>(out)).chunks, 1u);
}

TEST(OutOfCore, BudgetTooSmallForOneChunkIsAnError) {
  auto keys = make_keys<std::uint32_t>(50000, dist::uniform, fresh_seed());
  std::vector<std::uint32_t> values(keys.size(), 7);
  const auto keys_before = keys;
  const auto values_before = values;
  SortOptions opt;
  opt.device_memory_limit = detail::pipeline_bytes(detail::kMinChunk, 4, 4) - 1;
  try {
    sort_pairs(test_context(), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), opt);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
    EXPECT_NE(std::string(e.what()).find("SortOptions::device_memory_limit"), std::string::npos) << e.what();
  }
  EXPECT_EQ(keys, keys_before);
  EXPECT_EQ(values, values_before);
  // Exactly enough for the smallest chunk: works.
  opt.device_memory_limit += 1;
  auto input = keys;
  SortReport rep = sort_pairs(test_context(), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), opt);
  EXPECT_GE(rep.chunks, 40u);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
}

TEST(OutOfCore, DeviceErrorMidPipelineLeavesDataUnchanged) {
  // Options within their ranges whose merge tile (256 x 64 keys) exceeds the device's local memory:
  // only the driver can tell, so the first chunk's sort throws after the pipeline has allocated its
  // buffers and started the next upload.
  auto keys = make_keys<std::uint32_t>(100000, dist::uniform, fresh_seed());
  std::vector<std::uint32_t> values(keys.size());
  std::iota(values.begin(), values.end(), 0u);
  const auto keys_before = keys;
  const auto values_before = values;
  SortOptions opt{.algorithm = "merge", .work_group_size = 256, .items_per_thread = 64};
  opt.device_memory_limit = limit_for_chunks(keys.size(), 8, 4, 4);
  try {
    sort_pairs(test_context(), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), opt);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
    EXPECT_NE(std::string(e.what()).find("local memory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(keys, keys_before);
  EXPECT_EQ(values, values_before);
}

TEST(OutOfCore, VerbosePrintsOneLinePerChunkAndBucket) {
  auto input = make_keys<std::int32_t>(40000, dist::uniform, fresh_seed());
  auto out = input;
  SortOptions opt{.verbose = true};
  opt.device_memory_limit = limit_for_chunks(input.size(), 5, 4, 0);
  ::testing::internal::CaptureStderr();
  SortReport rep = sort(test_context(), std::span<std::int32_t>(out), opt);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_GE(rep.chunks, 2u);
  const std::string of = "/" + std::to_string(rep.chunks) + " sorted";
  for (const char* what : {"chunk ", "bucket "}) {
    EXPECT_NE(err.find(what + std::string("1") + of), std::string::npos) << err;
    EXPECT_NE(err.find(what + std::to_string(rep.chunks) + of), std::string::npos) << err;
  }
  EXPECT_NE(err.find(std::to_string(rep.chunks) + " chunks and " + std::to_string(rep.chunks) + " buckets"),
            std::string::npos)
      << err;
  EXPECT_GE(rep.split_ms, 0.0);
  EXPECT_TRUE(keys_sorted_like_reference(input, out, order::ascending, false));
}

TEST(OutOfCore, TooManyChunksIsAClearErrorAndChangesNothing) {
  auto keys = make_keys<std::uint8_t>((std::size_t(1) << 21) + 3, dist::uniform, fresh_seed());
  const auto before = keys;
  SortOptions opt;
  opt.device_memory_limit = detail::pipeline_bytes(detail::kMinChunk, 1, 0);  // chunks of 1024: 2049 of them
  try {
    sort(test_context(), std::span<std::uint8_t>(keys), opt);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
    EXPECT_NE(std::string(e.what()).find("device_memory_limit"), std::string::npos) << e.what();
  }
  EXPECT_EQ(keys, before);
}

TEST(OutOfCore, ChunkPlanIsEqualButTheLast) {
  for (std::uint64_t n : {std::uint64_t(5000), std::uint64_t(1) << 20, (std::uint64_t(1) << 20) + 1}) {
    const std::uint64_t budget = limit_for_chunks(n, 10, 8, 8);
    auto plan = detail::plan_chunks(n, 8, 8, budget);
    EXPECT_LE(detail::pipeline_bytes(plan.chunk, 8, 8), budget);
    EXPECT_EQ(plan.count, (n + plan.chunk - 1) / plan.chunk);
    EXPECT_GE(plan.chunk * plan.count, n);
    EXPECT_LT(plan.chunk * (plan.count - 1), n);
  }
}

}  // namespace
}  // namespace gpusort::test
