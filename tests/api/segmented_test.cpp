// Segmented and batched sorts (gpusort/segmented.hpp): every segment against std::stable_sort of
// that segment alone under the same order rules (key_less: NaN and -0 as the one-array sort orders
// them), for uniform rows and offsets of both widths, every bin the planner can choose here, host
// data, DeviceArray and the caller's OpenCL memory. Sorts ask for stability, so every output is
// compared exactly: keys as bits, values (each element's global index) and local indices.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "algorithms/segmented/segmented_policy.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/segmented.hpp"
#include "support/caller_opencl.hpp"
#include "support/key_types.hpp"
#include "support/segmented_reference.hpp"
#include "support/plan_refusal.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

SortOptions stable(order o) { return {.order = o, .stable = true}; }

// Keys (and, with V, values = global index) of one shape through sort_segments on the host,
// between guard zones, both orders.
// bin: where given, what the report's algorithm starts with (the bin that sorted).
template <class T, class V = void>
void check_host(const Offsets& offsets, const Segments& segments, dist d, const std::string& what,
                const std::string& bin = "") {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    const auto input = make_keys<T>(offsets.back(), d, seed);
    const auto ref = reference_order(input, offsets, o);
    GuardedHostArray<T> keys(input);
    const auto where = [&](::testing::AssertionResult r) {
      return r << " (" << what << ", " << (o == order::ascending ? "asc" : "desc") << ", n=" << input.size()
               << ", seed=" << seed << ")";
    };
    SortReport report;
    if constexpr (std::is_void_v<V>) {
      report = sort_segments(test_context(), keys.span(), segments, stable(o));
    } else {
      GuardedHostArray<V> values(index_values<V>(input.size()));
      report = sort_segments_pairs(test_context(), keys.span(), values.span(), segments, stable(o));
      ASSERT_TRUE(where(values_like_reference(ref, values.contents())));
      ASSERT_TRUE(where(values.guards_intact()));
    }
    ASSERT_TRUE(where(keys_like_reference(input, ref, keys.contents())));
    ASSERT_TRUE(where(keys.guards_intact()));
    EXPECT_EQ(report.algorithm.rfind(bin, 0), 0u) << report.algorithm << " (" << what << ")";
  }
}

// argsort_segments on the host: local indices of width I, with and without the sorted keys.
template <class T, class I>
void check_argsort_host(const Offsets& offsets, const Segments& segments, const std::string& what,
                        const std::string& bin = "") {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    const auto input = make_keys<T>(offsets.back(), dist::few_unique, seed);
    const auto ref = reference_order(input, offsets, o);
    const auto where = [&](::testing::AssertionResult r) {
      return r << " (" << what << ", " << sizeof(I) << "-byte indices, "
               << (o == order::ascending ? "asc" : "desc") << ", seed=" << seed << ")";
    };
    std::vector<I> indices(input.size(), I(0xEE));
    const SortReport alone =
        argsort_segments(test_context(), std::span<const T>(input), std::span<I>(indices), segments, stable(o));
    ASSERT_TRUE(where(values_like_reference(ref, indices, &offsets)));
    std::vector<T> sorted(input.size());
    std::vector<I> with_keys(input.size(), I(0xEE));
    const SortReport both = argsort_segments_host(test_context(), key_type_of<T>::value, input.data(), input.size(),
                                                  sorted.data(), with_keys.data(), sizeof(I), segments, stable(o));
    ASSERT_TRUE(where(values_like_reference(ref, with_keys, &offsets)));
    ASSERT_TRUE(where(keys_like_reference(input, ref, sorted)));
    EXPECT_EQ(alone.algorithm.rfind(bin, 0), 0u) << alone.algorithm << " (" << what << ")";
    EXPECT_EQ(both.algorithm.rfind(bin, 0), 0u) << both.algorithm << " (" << what << ")";
  }
}

// A shape's Segments as uniform rows.
struct Rows {
  Offsets offsets;
  Segments segments;
  Rows(std::uint64_t rows, std::uint64_t length)
      : offsets(row_offsets(rows, length)), segments(Segments::rows(rows, length)) {}
};

// Rows of the lengths around warps, tiles and work-groups, a few of each (fewer of the long ones).
const std::uint64_t kLengths[] = {0, 1, 31, 32, 33, 1023, 4097, 65537};
std::uint64_t rows_for(std::uint64_t length) { return std::clamp<std::uint64_t>(150000 / (length + 1), 1, 40); }

TEST(Segmented, RowsOfEveryLengthKeysAlone) {
  for (std::uint64_t length : kLengths) {
    Rows shape(rows_for(length), length);
    check_host<std::uint32_t>(shape.offsets, shape.segments, dist::entropy, "rows of " + std::to_string(length));
  }
}

TEST(Segmented, RowsOfEveryLengthPairsAreStable) {
  for (std::uint64_t length : kLengths) {
    Rows shape(rows_for(length), length);
    check_host<float, std::uint32_t>(shape.offsets, shape.segments, dist::few_unique,
                                     "rows of " + std::to_string(length));
  }
}

TEST(Segmented, PowerLawOffsetsOfBothWidthsWithEmptySegments) {
  const Offsets offsets = power_law_offsets(600, 8192, fresh_seed());
  ASSERT_GT(offsets.back(), 10000u);
  HostOffsets<std::uint32_t> narrow(offsets);
  HostOffsets<std::uint64_t> wide(offsets);
  check_host<float>(offsets, narrow.segments(), dist::specials, "power law, u32 offsets");
  check_host<float, std::uint64_t>(offsets, wide.segments(), dist::specials, "power law, u64 offsets");
  // empty segments first and last, and a run of them
  const Offsets edges{0, 0, 0, 5, 5, 5, 900, 901, 901, 2000, 2000};
  HostOffsets<std::uint64_t> e(edges);
  check_host<std::int32_t, std::uint32_t>(edges, e.segments(), dist::few_unique, "empty segments at the ends");
}

TEST(Segmented, AllEqualSortedAndReversedRows) {
  Rows shape(37, 1000);
  for (dist d : {dist::all_equal, dist::sorted, dist::reverse, dist::organ_pipe})
    check_host<std::uint32_t, std::uint32_t>(shape.offsets, shape.segments, d, "rows of 1000, " + dist_name(d));
}

TEST(Segmented, NothingToSortOneRowAndTheDefaultSegments) {
  std::vector<std::uint32_t> none;
  sort_segments(test_context(), std::span(none), Segments::rows(0, 0));
  sort_segments(test_context(), std::span(none), Segments::rows(5, 0));
  std::vector<std::uint64_t> zero{0}, zeros{0, 0, 0};
  sort_segments(test_context(), std::span(none), Segments::offsets(std::span(zero)));
  sort_segments(test_context(), std::span(none), Segments::offsets(std::span(zeros)));
  std::vector<std::uint32_t> lone_index{7};
  const std::vector<float> lone{2.5f};
  argsort_segments(test_context(), std::span(lone), std::span(lone_index), Segments::rows(1, 1));
  EXPECT_EQ(lone_index[0], 0u);

  Rows one(1, 5000);
  check_host<double, std::uint32_t>(one.offsets, one.segments, dist::few_unique, "one row");
  check_host<double>(one.offsets, Segments{}, dist::uniform, "the default Segments");
  HostOffsets<std::uint32_t> whole(one.offsets);
  check_host<double>(one.offsets, whole.segments(), dist::uniform, "one segment by offsets");
}

TEST(Segmented, EveryKeyType) {
  const Offsets offsets{0, 3, 300, 300, 2100, 2101, 4000};
  HostOffsets<std::uint32_t> given(offsets);
  AllKeyTypeList::for_each([&](auto key) {
    using T = decltype(key);
    check_host<T>(offsets, given.segments(), dist::specials, "key type " + std::string(key_type_name(key_type_of<T>::value)));
  });
}

TEST(Segmented, ArgsortIndicesAreLocalToTheirSegment) {
  Rows rows(50, 333);
  check_argsort_host<float, std::uint32_t>(rows.offsets, rows.segments, "rows of 333");
  check_argsort_host<float, std::uint64_t>(rows.offsets, rows.segments, "rows of 333");
  const Offsets offsets = power_law_offsets(500, 5000, fresh_seed());
  HostOffsets<std::uint64_t> given(offsets);
  check_argsort_host<std::int16_t, std::uint32_t>(offsets, given.segments(), "power law");
  check_argsort_host<std::int16_t, std::uint64_t>(offsets, given.segments(), "power law");
}

TEST(Segmented, DeviceArraySortsInPlace) {
  const Offsets offsets = power_law_offsets(200, 3000, fresh_seed());
  HostOffsets<std::uint32_t> given(offsets);
  const auto input = make_keys<std::uint64_t>(offsets.back(), dist::few_unique, fresh_seed());
  const auto ref = reference_order(input, offsets, order::descending);
  DeviceArray<std::uint64_t> keys(test_context(), std::span<const std::uint64_t>(input));
  const auto index = index_values<std::uint32_t>(input.size());
  DeviceArray<std::uint32_t> values(test_context(), std::span<const std::uint32_t>(index));
  sort_segments_pairs(test_context(), keys, values, given.segments(), stable(order::descending));
  std::vector<std::uint64_t> got_keys(input.size());
  std::vector<std::uint32_t> got_values(input.size());
  keys.download(got_keys);
  values.download(got_values);
  EXPECT_TRUE(keys_like_reference(input, ref, got_keys));
  EXPECT_TRUE(values_like_reference(ref, got_values));
}

// Bins forced through the policy's override: per-row (rows of whole 4096-byte blocks) and the
// portable bin with 8-byte positions and segment numbers (what 2^32 elements or segments take).
struct PolicyOverride {
  explicit PolicyOverride(const algo::SegmentedPolicyOverride& o) { algo::set_segmented_policy_override(o); }
  ~PolicyOverride() { algo::set_segmented_policy_override({}); }
};

// The binned bin for requests by offsets: the device's own choice where its tuning row takes it (CUDA,
// a CPU), forced elsewhere (the generic row keeps tiles-or-portable: segmented_policy.cpp). The device is
// the one that sorts: a test through the OpenCL caller names the caller's.
struct BinnedOffsets {
  std::optional<PolicyOverride> forced;
  explicit BinnedOffsets(const DeviceDescription& sorting = test_context().device()) {
    if (!algo::segmented_tuning_for(sorting).offsets_binned)
      forced.emplace(algo::SegmentedPolicyOverride{.bin = algo::SegmentedBin::binned});
  }
};

// Segments by offsets: the tile bin's window W on this device for a request's keys and values.
std::uint64_t tile_window(key_type type, std::size_t value_bytes, bool positions) {
  return algo::segmented_tiles_offsets_shape(test_context().device(), type, value_bytes, positions, 1).window;
}
// count segments of 0..64 keys (about a fifth empty), with one of `extra` keys in the middle where given.
Offsets short_offsets(std::size_t count, std::uint64_t seed, std::uint64_t extra = 0) {
  std::mt19937_64 rng(seed);
  Offsets o{0};
  for (std::size_t s = 0; s < count; ++s) {
    if (extra != 0 && s == count / 2) o.push_back(o.back() + extra);
    const bool empty = rng() % 5 == 0;
    o.push_back(o.back() + (empty ? 0 : rng() % 65));
  }
  return o;
}
// The requests below: keys alone, pairs, argsort with 4- and 8-byte indices.
struct TileRequest {
  key_type type;
  std::size_t value_bytes;
  bool positions;
};
const TileRequest kTileRequests[] = {
    {key_type::u32, 0, false}, {key_type::f32, 4, false}, {key_type::f32, 4, true}, {key_type::f32, 8, true}};

// Every segment within the window (the longest exactly W keys): the binned bin, whose tiles sort
// them all (its long-segment kernel finds nothing listed).
TEST(Segmented, ShortOffsetsAreBinnedIntoTiles) {
  const BinnedOffsets binned_bin;
  std::uint64_t w = ~std::uint64_t(0);
  for (const TileRequest& r : kTileRequests) w = std::min(w, tile_window(r.type, r.value_bytes, r.positions));
  ASSERT_GT(w, 64u) << "the tile bin has no window on this device";
  const Offsets offsets = short_offsets(3000, fresh_seed(), w);
  HostOffsets<std::uint32_t> narrow(offsets);
  HostOffsets<std::uint64_t> wide(offsets);
  const std::string binned = "segmented binned";
  check_host<std::uint32_t>(offsets, narrow.segments(), dist::entropy, "short, u32 offsets", binned);
  check_host<std::uint32_t>(offsets, wide.segments(), dist::entropy, "short, u64 offsets", binned);
  check_host<float, std::uint32_t>(offsets, narrow.segments(), dist::few_unique, "short pairs, u32 offsets", binned);
  check_host<float, std::uint32_t>(offsets, wide.segments(), dist::few_unique, "short pairs, u64 offsets", binned);
  check_argsort_host<float, std::uint32_t>(offsets, narrow.segments(), "short, u32 offsets", binned);
  check_argsort_host<float, std::uint64_t>(offsets, wide.segments(), "short, u64 offsets", binned);
  const Offsets edges{0, 0, 0, 5, 5, 64, 64, 64};
  HostOffsets<std::uint32_t> e(edges);
  check_host<std::int32_t, std::uint32_t>(edges, e.segments(), dist::few_unique, "empty segments at the ends", binned);

  // on the device too
  const auto input = make_keys<std::uint32_t>(offsets.back(), dist::uniform, fresh_seed());
  const auto ref = reference_order(input, offsets, order::ascending);
  DeviceArray<std::uint32_t> keys(test_context(), std::span<const std::uint32_t>(input));
  EXPECT_EQ(sort_segments(test_context(), keys, wide.segments(), stable(order::ascending)).algorithm, binned);
  std::vector<std::uint32_t> got(input.size());
  keys.download(got);
  EXPECT_TRUE(keys_like_reference(input, ref, got));
}

// Issue 52's lengths (0, 1, 31, 32, 33, 1023, 4097, 65537), several of each in random order among
// short ones, longer than any window in all: binned on the device, long segments by the fixed grid.
Offsets issue_lengths_offsets(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> lengths;
  for (std::uint64_t l : kLengths)
    for (int i = 0; i < (l > 5000 ? 2 : 6); ++i) lengths.push_back(l);
  while (lengths.size() < 400) lengths.push_back(rng() % 65);
  std::shuffle(lengths.begin(), lengths.end(), rng);
  Offsets o{0};
  for (std::uint64_t l : lengths) o.push_back(o.back() + l);
  return o;
}

TEST(Segmented, OffsetsWithLongSegmentsAreBinnedOnTheDevice) {
  const BinnedOffsets binned_bin;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  const Offsets offsets = issue_lengths_offsets(seed);
  HostOffsets<std::uint32_t> narrow(offsets);
  HostOffsets<std::uint64_t> wide(offsets);
  const std::string binned = "segmented binned";
  check_host<std::uint32_t>(offsets, narrow.segments(), dist::entropy, "long ones, u32 offsets", binned);
  check_host<std::uint32_t>(offsets, wide.segments(), dist::all_equal, "long ones, u64 offsets", binned);
  check_host<float, std::uint32_t>(offsets, narrow.segments(), dist::few_unique, "long ones pairs, u32", binned);
  check_host<float, std::uint32_t>(offsets, wide.segments(), dist::sorted, "long ones pairs, u64", binned);
  check_host<double, std::uint64_t>(offsets, wide.segments(), dist::specials, "long ones f64 pairs, u64", binned);
  check_argsort_host<float, std::uint32_t>(offsets, narrow.segments(), "long ones, u32 offsets", binned);
  check_argsort_host<float, std::uint64_t>(offsets, wide.segments(), "long ones, u64 offsets", binned);
}

// The portable bin stays reachable for offsets through the override.
TEST(Segmented, OffsetsThroughThePortableBinWhenForced) {
  const Offsets offsets = issue_lengths_offsets(fresh_seed());
  HostOffsets<std::uint64_t> wide(offsets);
  PolicyOverride forced({.bin = algo::SegmentedBin::portable});
  const std::string portable = "segmented portable/";
  check_host<float, std::uint32_t>(offsets, wide.segments(), dist::few_unique, "forced portable pairs", portable);
  check_argsort_host<float, std::uint32_t>(offsets, wide.segments(), "forced portable", portable);
}

// The request's algorithm and run-time order sort the keys (the portable bin's first sort).
TEST(Segmented, ANamedAlgorithmAndAComparator) {
  const Offsets offsets = power_law_offsets(300, 3000, fresh_seed());
  HostOffsets<std::uint32_t> given(offsets);
  const auto input = make_keys<std::uint32_t>(offsets.back(), dist::uniform, fresh_seed());
  {
    const auto ref = reference_order(input, offsets, order::descending);
    std::vector<std::uint32_t> keys = input, values = index_values<std::uint32_t>(input.size());
    const SortReport report = sort_segments_pairs(test_context(), std::span(keys), std::span(values), given.segments(),
                                                  {.order = order::descending, .stable = true, .algorithm = "merge"});
    EXPECT_EQ(report.algorithm, "segmented portable/merge");
    EXPECT_TRUE(keys_like_reference(input, ref, keys));
    EXPECT_TRUE(values_like_reference(ref, values));
  }
  const auto low_byte = [](std::uint32_t a, std::uint32_t b) { return (a & 0xFFu) < (b & 0xFFu); };
  const auto ref = reference_order(input, offsets, order::ascending, low_byte);
  std::vector<std::uint32_t> keys = input, values = index_values<std::uint32_t>(input.size());
  sort_segments_pairs(test_context(), std::span(keys), std::span(values), given.segments(),
                      {.stable = true, .comparator = "return (a & 0xFFu) < (b & 0xFFu);"});
  EXPECT_TRUE(keys_like_reference(input, ref, keys));
  EXPECT_TRUE(values_like_reference(ref, values));
}


TEST(Segmented, PerRowBinSortsEachRowWhereItLies) {
  PolicyOverride forced({.bin = algo::SegmentedBin::per_row});
  const SortPlan p = plan(test_context(), {.type = key_type::u32, .n = 6 * 1024, .value_bytes = 4, .rows = 6,
                                           .row_length = 1024});
  ASSERT_NE(p.text().find("per-row"), std::string::npos) << p.text();
  Rows rows(6, 1024);
  check_host<std::uint32_t, std::uint32_t>(rows.offsets, rows.segments, dist::few_unique, "per row");
  check_argsort_host<std::uint32_t, std::uint32_t>(rows.offsets, rows.segments, "per row");
  Rows wide(3, 512);
  check_host<double>(wide.offsets, wide.segments, dist::specials, "per row, 8-byte keys");
  std::vector<double> keys8(wide.offsets.back());
  EXPECT_EQ(sort_segments(test_context(), std::span(keys8), wide.segments).algorithm, "segmented per-row/radix");
  // offsets of several segments cannot be cut into rows
  HostOffsets<std::uint32_t> given(rows.offsets);
  std::vector<std::uint32_t> keys(rows.offsets.back());
  EXPECT_THROW(sort_segments(test_context(), std::span(keys), given.segments()), Error);
}

TEST(Segmented, WidePositionsAndSegmentNumbers) {
  PolicyOverride forced({.position_bytes = 8, .segment_bytes = 8});
  const Offsets offsets = power_law_offsets(300, 4000, fresh_seed());
  HostOffsets<std::uint64_t> given(offsets);
  check_host<std::uint32_t, std::uint64_t>(offsets, given.segments(), dist::few_unique, "8-byte positions");
  check_argsort_host<std::uint32_t, std::uint64_t>(offsets, given.segments(), "8-byte positions");
  Rows rows(20, 777);
  check_argsort_host<std::uint32_t, std::uint32_t>(rows.offsets, rows.segments, "8-byte positions, rows");
}

// Bad offsets: Error(invalid_argument) naming the fault, the caller's arrays untouched.
TEST(Segmented, BadOffsetsAreRefusedBeforeAnythingIsWritten) {
  const auto input = make_keys<std::uint32_t>(100, dist::uniform, fresh_seed());
  auto refused = [&](std::vector<std::uint64_t> offsets, const std::string& text) {
    std::vector<std::uint32_t> keys = input, values(100, 0xCAFE);
    try {
      sort_segments_pairs(test_context(), std::span(keys), std::span(values), Segments::offsets(std::span(offsets)));
      ADD_FAILURE() << "accepted offsets that " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
    EXPECT_EQ(keys, input);
    EXPECT_EQ(values, std::vector<std::uint32_t>(100, 0xCAFE));
  };
  refused({1, 50, 100}, "start at 0");
  refused({0, 60, 50, 100}, "not decrease");
  refused({0, 50, 99}, "end at n");
  refused({0, 50, 100, 101}, "end at n");
  refused({0}, "0 segments");  // no segment for 100 keys: the count is wrong
  std::vector<std::uint64_t> none;
  EXPECT_THROW(Segments::offsets(std::span(none)), Error);
  // rows that do not hold n
  std::vector<std::uint32_t> keys = input;
  try {
    sort_segments(test_context(), std::span(keys), Segments::rows(3, 33));
    ADD_FAILURE() << "accepted 3 rows of 33 for 100 keys";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
  EXPECT_EQ(keys, input);
}

TEST(Segmented, PlanOfASegmentedRequest) {
  // rows longer than a tile: the portable bin (CUDA chooses the segmented onesweep: forced here)
  std::optional<PolicyOverride> forced(std::in_place, algo::SegmentedPolicyOverride{.bin = algo::SegmentedBin::portable});
  const SortPlan rows = plan(test_context(), {.type = key_type::f32, .n = 40000, .value_bytes = 4, .positions = true,
                                              .rows = 4, .row_length = 10000});
  forced.reset();
  EXPECT_EQ(rows.path.rfind("segments: 4 rows of 10000", 0), 0u) << rows.text();
  const std::string text = rows.text();
  for (const char* part : {"bin: portable", "by key", "by segment", "gather", "segment's start", "temporary bytes: "})
    EXPECT_NE(text.find(part), std::string::npos) << part << " missing from:\n" << text;
  // short rows: several to a work-group, in local memory
  const SortPlan short_rows = plan(test_context(), {.type = key_type::f32, .n = 4000, .value_bytes = 4,
                                                    .positions = true, .rows = 4, .row_length = 1000});
  EXPECT_NE(short_rows.text().find("bin: tiles"), std::string::npos) << short_rows.text();
  // (on CUDA a block per row, the 1-D one-block sort)
  EXPECT_TRUE(short_rows.text().find("segmented_tiles_rows") != std::string::npos ||
              short_rows.text().find("segmented_rows_block.cl") != std::string::npos)
      << short_rows.text();
  EXPECT_EQ(short_rows.temporary_bytes, 0u) << short_rows.text();
  std::optional<BinnedOffsets> binned_bin(std::in_place);
  const SortPlan by_offsets = plan(test_context(), {.type = key_type::u64, .n = 5000, .where = data_location::device,
                                                    .rows = 7, .offset_bytes = 8});
  binned_bin.reset();
  EXPECT_EQ(by_offsets.path.rfind("segments: 7 by offsets", 0), 0u) << by_offsets.text();
  // by offsets: binned on the device, nothing read back
  for (const char* part : {"bin: binned", "segmented_bin_long", "nothing read back", "segmented_long_sort", "fixed grid"})
    EXPECT_NE(by_offsets.text().find(part), std::string::npos) << part << " missing from:\n" << by_offsets.text();
  // the shorter segments: CUDA's warps and block classes, elsewhere the tiles
  const bool cuda = test_context().device().backend == "cuda";
  for (const char* part : cuda ? std::vector<const char*>{"segmented_warp_segments", "segmented_rows_block.cl segmented_listed_"}
                               : std::vector<const char*>{"tiles: ", "segmented_tiles_offsets"})
    EXPECT_NE(by_offsets.text().find(part), std::string::npos) << part << " missing from:\n" << by_offsets.text();
  EXPECT_EQ(by_offsets.text().find("read back (one word)"), std::string::npos) << by_offsets.text();
  EXPECT_GE(by_offsets.temporary_bytes, 5000u * 8) << by_offsets.text();  // the long segments' temporaries
  {  // the portable bin, forced: each position's segment by a binary search in the offsets
    PolicyOverride portable({.bin = algo::SegmentedBin::portable});
    const SortPlan p = plan(test_context(), {.type = key_type::u64, .n = 5000, .where = data_location::device,
                                             .rows = 7, .offset_bytes = 8});
    EXPECT_NE(p.text().find("binary search"), std::string::npos) << p.text();
  }
  const SortPlan one = plan(test_context(), {.type = key_type::u32, .n = 5000, .rows = 1, .row_length = 5000});
  EXPECT_NE(one.text().find("one segment"), std::string::npos) << one.text();

  expect_plan_refused({.type = key_type::u32, .n = 100, .rows = 4, .row_length = 30}, errc::invalid_argument,
                      "rows x row length");
  expect_plan_refused({.type = key_type::u32, .n = 100, .rows = 4}, errc::invalid_argument, "rows x row length");
  expect_plan_refused({.type = key_type::u32, .n = 100, .rows = 4, .offset_bytes = 2}, errc::invalid_argument,
                      "4 or 8 bytes");
  expect_plan_refused({.type = key_type::u32, .n = 100, .rows = 0, .offset_bytes = 4}, errc::invalid_argument,
                      "0 segments");
  expect_plan_refused({.type = key_type::u8, .n = std::uint64_t(1) << 33, .where = data_location::device, .rows = 2,
                       .offset_bytes = 4},
                      errc::invalid_argument, "8-byte segment offsets");
  expect_plan_refused({.type = key_type::u8, .n = std::uint64_t(1) << 34, .value_bytes = 4, .positions = true,
                       .where = data_location::device, .rows = 2, .row_length = std::uint64_t(1) << 33},
                      errc::invalid_argument, "64-bit indices");
  expect_plan_refused({.type = key_type::u32, .n = 100, .rows = 4, .row_length = 25, .ranks = 2}, errc::unsupported,
                      "distributed");
  // host data beyond the device budget: no chunked path for segments yet
  expect_plan_refused({.type = key_type::u32, .n = std::uint64_t(1) << 22, .rows = 4,
                       .row_length = std::uint64_t(1) << 20,
                       .options = {.device_memory_limit = std::uint64_t(1) << 22}},
                      errc::unsupported, "one piece");
}

// ---- the caller's OpenCL memory and queue ----

using namespace caller_opencl;

// Out of place (inputs left unchanged, outputs poisoned before the sort), offsets on the device.
template <class T, class V>
void check_native_pairs(const Offsets& offsets, const Segments& segments, const std::string& what) {
  auto& c = caller();
  const std::size_t n = offsets.back();
  const auto input = make_keys<T>(n, dist::few_unique, fresh_seed());
  const auto index = index_values<V>(n);
  const auto ref = reference_order(input, offsets, order::descending);
  Mem kin{c.buffer_of(input)}, vin{c.buffer_of(index)};
  Mem kout{c.buffer_of(std::vector<T>(n, T(0x5A)))}, vout{c.buffer_of(std::vector<V>(n, V(0x5A)))};
  sort_segments_native(*c.gpusort, key_type_of<T>::value, OpenCLView{kin.m}, OpenCLView{kout.m}, n,
                       OpenCLView{vin.m}, OpenCLView{vout.m}, sizeof(V), segments, OpenCLQueue{c.queue},
                       stable(order::descending));
  EXPECT_TRUE(keys_like_reference(input, ref, c.read<T>(kout.m, n))) << what;
  EXPECT_TRUE(values_like_reference(ref, c.read<V>(vout.m, n))) << what;
  EXPECT_EQ(0, std::memcmp(c.read<T>(kin.m, n).data(), input.data(), n * sizeof(T))) << what << ": keys_in changed";
  EXPECT_EQ(0, std::memcmp(c.read<V>(vin.m, n).data(), index.data(), n * sizeof(V))) << what << ": values_in changed";
}

TEST(SegmentedNative, OutOfPlacePairsWithDeviceOffsets) {
  SKIP_WITHOUT_OPENCL();
  const Offsets offsets = power_law_offsets(400, 4000, fresh_seed());
  const std::vector<std::uint64_t> wide(offsets.begin(), offsets.end());
  Mem on_device{caller().buffer_of(wide)};
  check_native_pairs<float, std::uint32_t>(offsets, Segments::device_offsets(OpenCLView{on_device.m}, offsets.size() - 1, 8),
                                           "device offsets");
  Rows rows(16, 700);
  check_native_pairs<float, std::uint32_t>(rows.offsets, rows.segments, "rows");
  PolicyOverride forced({.bin = algo::SegmentedBin::per_row});
  Rows blocks(4, 1024);
  check_native_pairs<float, std::uint32_t>(blocks.offsets, blocks.segments, "per row");
}

TEST(SegmentedNative, ArgsortInPlaceAndOutOfPlace) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const BinnedOffsets binned_bin(c.gpusort->device());
  // power-law lengths (the longest past the tile bin's window, most likely), and all short ones
  for (const Offsets& offsets : {power_law_offsets(300, 3000, fresh_seed()), short_offsets(2000, fresh_seed())}) {
    HostOffsets<std::uint32_t> given(offsets);
    const std::size_t n = offsets.back();
    const auto input = make_keys<std::int32_t>(n, dist::few_unique, fresh_seed());
    const auto ref = reference_order(input, offsets, order::ascending);
    for (bool in_place : {false, true}) {
      Mem kin{c.buffer_of(input)};
      Mem kout{in_place ? nullptr : c.buffer_of(std::vector<std::int32_t>(n, 0x5A5A5A5A))};
      Mem idx{c.buffer_of(std::vector<std::uint64_t>(n, 0x5A5A5A5A))};
      cl_mem out = in_place ? kin.m : kout.m;
      Completion done = argsort_segments_native_async(*c.gpusort, key_type::i32, OpenCLView{kin.m}, OpenCLView{out}, n,
                                                      OpenCLView{idx.m}, 8, given.segments(), OpenCLQueue{c.queue},
                                                      stable(order::ascending));
      EXPECT_TRUE(values_like_reference(ref, c.read<std::uint64_t>(idx.m, n), &offsets)) << "in place " << in_place;
      EXPECT_TRUE(keys_like_reference(input, ref, c.read<std::int32_t>(out, n))) << "in place " << in_place;
      if (!in_place) EXPECT_EQ(c.read<std::int32_t>(kin.m, n), input) << "keys_in changed";
      EXPECT_EQ(done.algorithm(), "segmented binned");  // short and long segments alike
      done.wait();
    }
  }
}

TEST(SegmentedNative, BadOffsetsEnqueueNothing) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::vector<std::uint32_t> input(64, 9), poison(64, 0x5A5A5A5A);
  Mem kin{c.buffer_of(input)}, kout{c.buffer_of(poison)};
  std::vector<std::uint32_t> offsets{0, 40, 30, 64};
  EXPECT_THROW(sort_segments_native(*c.gpusort, key_type::u32, OpenCLView{kin.m}, OpenCLView{kout.m}, 64, std::nullopt,
                                    std::nullopt, 0, Segments::offsets(std::span(offsets)), OpenCLQueue{c.queue}),
               Error);
  EXPECT_EQ(c.read<std::uint32_t>(kout.m, 64), poison);
}

}  // namespace
}  // namespace gpusort::test
