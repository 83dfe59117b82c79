// The binned bin of segmented sorts (algorithms/segmented/segmented_binned.hpp, kernels/segmented_long.cl)
// called directly: segments by offsets of every length the bins meet (empty, 1, 31-33, 1023, the
// tile window and one past it, 4097, 65537), power-law mixes, many long segments (more than the fixed
// grid has groups), all-equal, sorted and reversed data; keys alone, pairs and argsort (4- and
// 8-byte local indices; values of 1, 2, 4, 8 and 16 bytes); both orders; u32 and u64 offsets; in
// place and out of place; keys of 1 to 8 bytes, floats with their specials. Each segment
// is checked against std::stable_sort of it alone (exact bits), with the outputs poisoned first and
// the inputs of out-of-place sorts checked untouched.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

#include "algorithms/segmented/segmented_binned.hpp"
#include "algorithms/segmented/segmented_listed.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "algorithms/segmented/segmented_warp_segments.hpp"
#include "support/segmented_offsets_case.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Sorts one case (offsets placed 3 entries into their buffer) and checks every segment.
template <class K, class V = std::uint32_t>
void check(const OffsetsCase& c) {
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const std::uint64_t seed = fresh_seed();
  const std::vector<std::uint64_t> offsets = offsets_of(c.lengths);
  const std::size_t n = offsets.back();
  const std::string where = describe_offsets(
      c, n, std::to_string(sizeof(K)) + "-byte keys, " + std::to_string(sizeof(V)) + "-byte values, ", seed);
  SCOPED_TRACE(where);
  const std::vector<K> keys = make_keys<K>(n, c.d, seed);
  const std::vector<V> values = index_values<V>(n);
  const std::size_t vb = c.m == mode::keys ? 0 : sizeof(V);

  const std::size_t ob = c.wide ? 8 : 4, lead = 3;
  const std::vector<unsigned char> offset_bytes = placed_offsets(offsets, ob, lead);
  DeviceBuffer offsets_buffer(ctx, offset_bytes.size());
  offsets_buffer.upload(offset_bytes.data(), offset_bytes.size());

  const std::size_t key_bytes = std::max<std::size_t>(1, n * sizeof(K));
  const std::size_t value_bytes = std::max<std::size_t>(1, n * sizeof(V));
  DeviceBuffer keys_out(ctx, key_bytes), values_out(ctx, value_bytes), keys_in(ctx, key_bytes), values_in(ctx, value_bytes);
  const SortOptions options{.order = c.o, .stable = true};
  algo::SortJob job{dev, key_type_of<K>::value, n, vb, keys_out.runtime_buffer(),
                    vb ? &values_out.runtime_buffer() : nullptr, options};
  dev.fill_bytes(values_out.runtime_buffer(), 0xA5, 0, values_out.bytes());  // every output is written
  dev.fill_bytes(keys_out.runtime_buffer(), 0xA5, 0, keys_out.bytes());
  if (c.out_of_place) {
    keys_in.upload(keys.data(), n * sizeof(K));
    values_in.upload(values.data(), n * sizeof(V));
    job.keys_in = &keys_in.runtime_buffer();
    if (c.m == mode::pairs) job.values_in = &values_in.runtime_buffer();
  } else {
    keys_out.upload(keys.data(), n * sizeof(K));
    if (c.m == mode::pairs) values_out.upload(values.data(), n * sizeof(V));
  }
  job.values_are_positions = c.m == mode::argsort;
  algo::SegmentedJob seg{job,
                         {.count = c.lengths.size(), .row_length = 0, .offsets = &offsets_buffer.runtime_buffer(),
                          .offsets_byte_offset = lead * ob, .offset_bytes = ob}};
  algo::segmented_binned_sort(seg);
  EXPECT_FALSE(job.values_are_positions) << "the bin makes the positions and says so";

  std::vector<K> got_keys(n);
  std::vector<V> got_values(n);
  keys_out.download(got_keys.data(), n * sizeof(K));
  values_out.download(got_values.data(), n * sizeof(V));
  const key_less<K> less{c.o};
  for (std::size_t s = 0; s < c.lengths.size(); ++s) {
    const std::size_t base = offsets[s], len = c.lengths[s];
    std::vector<std::size_t> ref(len);
    std::iota(ref.begin(), ref.end(), base);
    std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    for (std::size_t i = 0; i < len; ++i) {
      const std::size_t at = base + i, from = ref[i];
      ASSERT_TRUE(same_bits(got_keys[at], keys[from]))
          << "key at segment " << s << " (" << len << " keys) position " << i << ": "
          << ::testing::PrintToString(got_keys[at]) << " for " << ::testing::PrintToString(keys[from]);
      if (c.m == mode::pairs)
        ASSERT_TRUE(same_bits(got_values[at], values[from]))
            << "value at segment " << s << " (" << len << " keys) position " << i;
      if (c.m == mode::argsort)
        ASSERT_EQ(value_index(got_values[at]), from - base)
            << "index at segment " << s << " (" << len << " keys) position " << i;
    }
  }
  if (c.out_of_place) {
    std::vector<K> in_keys(n);
    std::vector<V> in_values(n);
    keys_in.download(in_keys.data(), n * sizeof(K));
    values_in.download(in_values.data(), n * sizeof(V));
    EXPECT_EQ(bytes_of(in_keys), bytes_of(keys)) << "keys_in written";
    EXPECT_EQ(bytes_of(in_values), bytes_of(values)) << "values_in written";
  }
}

std::uint64_t window(key_type type, std::size_t value_bytes, bool positions = false) {
  return algo::segmented_tiles_window(test_context().runtime_device(), type, value_bytes, positions);
}

// The lengths issue 52 names, the window's edges, and a random tail, in random order.
std::vector<std::uint64_t> edge_lengths(std::uint64_t w, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> l = {0, 1, 31, 32, 33, 1023, 4097, 65537, w - 1, w, w + 1, 2 * w + 3};
  while (l.size() < count) l.push_back(rng() % 100 < 90 ? rng() % 64 : rng() % (3 * w));
  std::shuffle(l.begin(), l.end(), rng);
  return l;
}

// Power-law lengths: P(length > x) ~ x^-1.2, capped, many empty and tiny segments.
std::vector<std::uint64_t> power_law_lengths(std::size_t count, std::uint64_t cap, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(1e-6, 1.0);
  std::vector<std::uint64_t> l(count);
  for (auto& x : l) x = std::min<std::uint64_t>(cap, static_cast<std::uint64_t>(std::pow(u(rng), -1.0 / 1.2)) - 1);
  return l;
}

TEST(SegmentedBinned, EdgeLengthsKeysPairsArgsort) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  for (order o : {order::ascending, order::descending}) {
    check<std::uint32_t>({edge_lengths(window(key_type::u32, 0), 60, seed), mode::keys, o, false, false,
                          dist::uniform});
    check<std::uint32_t>({edge_lengths(window(key_type::u32, 0), 60, seed + 1), mode::keys, o, true, true,
                          dist::few_unique});
    check<std::uint32_t, std::uint32_t>({edge_lengths(window(key_type::u32, 4), 60, seed + 2), mode::pairs, o, true,
                                         false, dist::few_unique});
    check<std::uint32_t, std::uint32_t>({edge_lengths(window(key_type::u32, 4), 60, seed + 3), mode::pairs, o, false,
                                         true, dist::entropy});
    check<std::uint32_t, std::uint32_t>({edge_lengths(window(key_type::u32, 4, true), 60, seed + 4), mode::argsort, o,
                                         true, true, dist::few_unique});
    check<std::uint32_t, std::uint64_t>({edge_lengths(window(key_type::u32, 8, true), 60, seed + 5), mode::argsort, o,
                                         false, false, dist::few_unique});
  }
}

TEST(SegmentedBinned, AllEqualSortedAndReversedData) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  const std::uint64_t w = window(key_type::u32, 4);
  for (dist d : {dist::all_equal, dist::sorted, dist::reverse})
    for (order o : {order::ascending, order::descending}) {
      check<std::uint32_t, std::uint32_t>({edge_lengths(w, 30, seed), mode::pairs, o, true, false, d});
      check<std::uint32_t, std::uint32_t>({edge_lengths(w, 30, seed + 1), mode::argsort, o, false, true, d});
    }
}

TEST(SegmentedBinned, PowerLawAndManyLongSegments) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  const std::uint64_t w = window(key_type::f32, 4);
  for (order o : {order::ascending, order::descending}) {
    check<float, std::uint32_t>({power_law_lengths(3000, 70000, seed), mode::pairs, o, false, false, dist::specials});
    check<float, std::uint32_t>({power_law_lengths(3000, 70000, seed + 1), mode::argsort, o, true, true,
                                 dist::few_unique});
  }
  // more long segments than the fixed grid has groups: each group sorts several, one after another
  std::vector<std::uint64_t> many(200, w + 1);
  for (std::size_t i = 0; i < many.size(); i += 3) many[i] = i % 7;
  check<float, std::uint32_t>({many, mode::pairs, order::ascending, true, true, dist::few_unique});
}

TEST(SegmentedBinned, OtherKeyTypesAndValueWidths) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  check<std::uint64_t>({edge_lengths(window(key_type::u64, 0), 40, seed), mode::keys, order::descending, true, true,
                        dist::entropy});
  check<double, std::uint64_t>({edge_lengths(window(key_type::f64, 8), 40, seed + 1), mode::pairs, order::ascending,
                                false, false, dist::specials});
  check<std::int16_t, std::uint8_t>({edge_lengths(window(key_type::i16, 1), 40, seed + 2), mode::pairs,
                                     order::descending, true, false, dist::few_unique});
  check<std::int8_t, std::uint16_t>({edge_lengths(window(key_type::i8, 2), 40, seed + 3), mode::pairs,
                                     order::ascending, false, true, dist::uniform});
  check<std::int64_t, Bytes16>({edge_lengths(window(key_type::i64, 16), 40, seed + 4), mode::pairs,
                                order::descending, true, true, dist::few_unique});
  check<half_bits, std::uint64_t>({edge_lengths(window(key_type::f16, 8, true), 40, seed + 5), mode::argsort,
                                   order::ascending, false, false, dist::specials});
}

// On CUDA the segments longer than the tuning row's binned_onesweep_min_length are sorted by several
// blocks each (segmented_listed.hpp); here every segment past the tile window is, and some are long
// enough to span many tiles (and a histogram chunk or more). Elsewhere the listed sort never runs.
TEST(SegmentedBinned, ListedSegmentsSortedBySeveralBlocksOnCuda) {
  const DeviceDescription& desc = test_context().runtime_device().description();
  if (desc.backend != "cuda") {
    EXPECT_EQ(algo::choose_segmented_listed_policy(desc, key_type::f32, 4, 1 << 20, 100, {}).min_length, 0u);
    GTEST_SKIP() << "the listed sort runs on CUDA only";
  }
  algo::set_segmented_policy_override({.binned_onesweep_min = 1});
  struct Reset {
    ~Reset() { algo::set_segmented_policy_override({}); }
  } reset;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  for (order o : {order::ascending, order::descending}) {
    check<float, std::uint32_t>({power_law_lengths(3000, 300000, seed), mode::pairs, o, false, false, dist::specials});
    check<float, std::uint64_t>({power_law_lengths(3000, 300000, seed + 1), mode::argsort, o, true, true,
                                 dist::few_unique});
    check<std::uint32_t>({edge_lengths(window(key_type::u32, 0), 60, seed + 2), mode::keys, o, false, true,
                          dist::uniform});
  }
  std::vector<std::uint64_t> huge = edge_lengths(window(key_type::f32, 4, true), 40, seed + 3);
  huge.push_back((std::uint64_t(1) << 20) + 3);  // many tiles and several histogram chunks
  check<float, std::uint32_t>({huge, mode::argsort, order::descending, false, false, dist::entropy});
  check<std::uint8_t>({edge_lengths(window(key_type::u8, 0), 40, seed + 4), mode::keys, order::ascending, false, false,
                       dist::uniform});  // one pass in place: reads a copy
  check<std::uint8_t, std::uint16_t>({edge_lengths(window(key_type::u8, 2), 40, seed + 5), mode::pairs,
                                      order::descending, false, true, dist::few_unique});
  check<std::int64_t, Bytes16>({edge_lengths(window(key_type::i64, 16), 40, seed + 6), mode::pairs, order::ascending,
                                true, false, dist::few_unique});
  check<half_bits, std::uint32_t>({edge_lengths(window(key_type::f16, 4, true), 40, seed + 7), mode::argsort,
                                   order::descending, true, true, dist::specials});
  for (dist d : {dist::all_equal, dist::sorted, dist::reverse})
    check<std::uint32_t, std::uint32_t>({power_law_lengths(500, 100000, seed + 8), mode::pairs, order::ascending, true,
                                         false, d});
}

// On CUDA the segments of up to the tuning row's binned_warp_max_length keys are sorted in warps
// (segmented_warp_segments.cl), in every network size (1 to 128 keys, 1 to 4 per lane), and the
// longer ones up to binned_block_max_length by one block each, listed by size class
// (segmented_rows_block.cl's listed kernels); the tiles sort what is left of their windows (some of
// which also hold segments of the other kernels, never written twice), the long-segment kernels the
// rest. Tried with the tuning row's lengths and with the overrides' (warps of up to 33 keys, 5 segments
// per warp; no block classes; classes up to 512 keys, the tiles above them; warps of up to 2 keys,
// which leave the classes off). Elsewhere neither runs.
TEST(SegmentedBinned, ShortSegmentsInWarpsAndBlocksOnCuda) {
  const DeviceDescription& desc = test_context().runtime_device().description();
  if (desc.backend != "cuda") {
    EXPECT_EQ(algo::segmented_warp_segments_max(desc), 0u);
    GTEST_SKIP() << "the warp segments and block classes run on CUDA only";
  }
  ASSERT_GT(algo::segmented_warp_segments_max(desc), 0u) << "CUDA's row sorts short segments in warps";
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  // every length from 0 to 130 twice, both sides of every class's edges, and longer ones
  const auto lengths = [&](std::uint64_t w, std::uint64_t s) {
    std::vector<std::uint64_t> l;
    for (std::uint64_t x = 0; x <= 130; ++x) l.insert(l.end(), {x, x});
    for (std::uint64_t edge = 256; edge <= 8192; edge *= 2) l.insert(l.end(), {edge - 1, edge, edge + 1});
    for (std::uint64_t x : {std::uint64_t(200), std::uint64_t(1000), w, w + 1, 3 * w, std::uint64_t(20000)})
      l.push_back(x);
    std::shuffle(l.begin(), l.end(), std::mt19937_64(s));
    return l;
  };
  const std::vector<algo::SegmentedPolicyOverride> configs = {
      {}, {.warp_segments_max = 33, .segments_per_warp = 5}, {.block_max = 0},
      {.warp_segments_max = 128, .segments_per_warp = 8, .block_max = 512}, {.warp_segments_max = 2}};
  for (const algo::SegmentedPolicyOverride& config : configs) {
    SCOPED_TRACE("warps up to " + std::to_string(config.warp_segments_max.value_or(0)) + ", block classes up to " +
                 std::to_string(config.block_max.value_or(~std::uint64_t(0))) + " (0 / ~0: the tuning row's)");
    algo::set_segmented_policy_override(config);
    struct Reset {
      ~Reset() { algo::set_segmented_policy_override({}); }
    } reset;
    for (order o : {order::ascending, order::descending}) {
      check<std::uint32_t>({lengths(window(key_type::u32, 0), seed), mode::keys, o, false, false, dist::uniform});
      check<float, std::uint32_t>({lengths(window(key_type::f32, 4), seed + 1), mode::pairs, o, true, true,
                                   dist::specials});
      check<float, std::uint64_t>({lengths(window(key_type::f32, 8, true), seed + 2), mode::argsort, o, false, true,
                                   dist::few_unique});
    }
    check<std::uint64_t>({lengths(window(key_type::u64, 0), seed + 3), mode::keys, order::descending, true, false,
                          dist::entropy});
    check<double, std::uint32_t>({lengths(window(key_type::f64, 4, true), seed + 4), mode::argsort, order::ascending,
                                  true, true, dist::specials});
    check<std::int64_t, Bytes16>({lengths(window(key_type::i64, 16), seed + 5), mode::pairs, order::descending, false,
                                  false, dist::few_unique});
    check<std::int8_t, std::uint16_t>({lengths(window(key_type::i8, 2), seed + 6), mode::pairs, order::ascending,
                                       true, false, dist::uniform});
    check<half_bits, std::uint32_t>({lengths(window(key_type::f16, 4, true), seed + 7), mode::argsort,
                                     order::descending, false, false, dist::specials});
    for (dist d : {dist::all_equal, dist::sorted, dist::reverse})
      check<std::uint32_t, std::uint32_t>({lengths(window(key_type::u32, 4), seed + 8), mode::pairs,
                                           order::ascending, true, false, d});
  }
}

// The warp segments' choice on an H100's description (no device needed): the CUDA row's length,
// the override's, never past the tile window, never on other devices; the plan names the kernel.
TEST(SegmentedBinned, WarpSegmentsOnCudaOnly) {
  DeviceDescription h100;
  h100.backend = "cuda", h100.name = "NVIDIA H100 80GB HBM3", h100.vendor = "NVIDIA Corporation";
  h100.architecture = "sm_90", h100.is_gpu = true;
  h100.local_memory_bytes = 232448, h100.max_work_group_size = 1024, h100.compute_units = 132;
  EXPECT_EQ(algo::segmented_warp_segments_max(h100), algo::segmented_tuning_for(h100).binned_warp_max_length);
  EXPECT_GT(algo::segmented_warp_segments_max(h100), 0u);
  const auto steps = algo::segmented_binned_plan_steps(h100, key_type::f32, 4, true, 1 << 22, 1 << 17, {});
  const auto line = std::find_if(steps.begin(), steps.end(), [](const std::string& l) {
    return l.find("segmented_warp_segments") != std::string::npos;
  });
  ASSERT_NE(line, steps.end());
  EXPECT_NE(line->find("1 to " + std::to_string(algo::segmented_warp_segments_max(h100)) + " keys"), std::string::npos)
      << *line;
  const std::uint32_t each = algo::segmented_tuning_for(h100).binned_warp_segments_per_warp;
  EXPECT_NE(line->find(std::to_string((1 << 17) / (8 * each)) + " blocks"), std::string::npos) << *line;
  {
    algo::set_segmented_policy_override({.warp_segments_max = 0});
    EXPECT_EQ(algo::segmented_warp_segments_max(h100), 0u);
    const auto none = algo::segmented_binned_plan_steps(h100, key_type::f32, 4, true, 1 << 22, 1 << 17, {});
    for (const std::string& l : none) {
      EXPECT_EQ(l.find("segmented_warp_segments"), std::string::npos) << l;
      EXPECT_EQ(l.find("left to the kernels above"), std::string::npos) << l;
    }
    algo::set_segmented_policy_override({.warp_segments_max = 64});
    EXPECT_EQ(algo::segmented_warp_segments_max(h100), 64u);
    algo::set_segmented_policy_override({.warp_segments_max = 16});  // too short to lead to the classes
    const auto few = algo::segmented_binned_plan_steps(h100, key_type::f32, 4, true, 1 << 22, 1 << 17, {});
    EXPECT_FALSE(std::any_of(few.begin(), few.end(), [](const std::string& l) {
      return l.find("segmented_rows_block.cl segmented_listed_") != std::string::npos;
    }));
    EXPECT_TRUE(std::any_of(few.begin(), few.end(), [](const std::string& l) {
      return l.find("segmented_tiles_offsets") != std::string::npos && l.find("up to 16 keys left") != std::string::npos;
    }));
    algo::set_segmented_policy_override({});
  }
  // the block classes after the warps: 129-256, ..., 2049-4096 keys, each its own listed kernel
  for (const char* kernel : {"segmented_rows_block.cl segmented_listed_", "129 to 256 keys", "2049 to 4096 keys"})
    EXPECT_TRUE(std::any_of(steps.begin(), steps.end(),
                            [&](const std::string& l) { return l.find(kernel) != std::string::npos; }))
        << kernel;
  EXPECT_FALSE(std::any_of(steps.begin(), steps.end(),
                           [](const std::string& l) { return l.find("segmented_tiles_offsets") != std::string::npos; }))
      << "the classes reach past the window: no tiles";
  {
    algo::set_segmented_policy_override({.block_max = 512});
    const auto some = algo::segmented_binned_plan_steps(h100, key_type::f32, 4, true, 1 << 22, 1 << 17, {});
    EXPECT_TRUE(std::any_of(some.begin(), some.end(), [](const std::string& l) {
      return l.find("segmented_tiles_offsets") != std::string::npos && l.find("up to 512 keys left") != std::string::npos;
    }));
    algo::set_segmented_policy_override({});
  }
  DeviceDescription cpu = h100;
  cpu.backend = "opencl", cpu.is_gpu = false, cpu.name = "cpu-haswell", cpu.vendor = "The pocl project";
  EXPECT_EQ(algo::segmented_warp_segments_max(cpu), 0u);
}

TEST(SegmentedBinned, ShapeAndPlanSteps) {
  const DeviceDescription& desc = test_context().runtime_device().description();
  const algo::SegmentedLongShape s = algo::segmented_long_shape(desc, key_type::f32, 4);
  ASSERT_GT(s.tile, 0u);
  EXPECT_EQ(s.groups, std::uint64_t(std::max(1u, desc.compute_units)) *
                          algo::segmented_tuning_for(desc).binned_groups_per_compute_unit);
  EXPECT_LE(s.local_bytes, desc.local_memory_bytes);
  EXPECT_EQ(s.passes, 8u);
  const auto steps = algo::segmented_binned_plan_steps(desc, key_type::f32, 4, true, 100000, 300, {});
  ASSERT_GE(steps.size(), 3u);
  EXPECT_NE(steps.front().find("segmented_bin_long"), std::string::npos) << steps.front();
  const auto names = [&](const char* kernel) {
    return std::any_of(steps.begin(), steps.end(), [&](const std::string& l) { return l.find(kernel) != std::string::npos; });
  };
  EXPECT_TRUE(names("segmented_long_sort"));
  EXPECT_EQ(names("segmented_warp_segments"), algo::segmented_warp_segments_max(desc) != 0);
  // where the device shares its longest segments among blocks (CUDA's row), the listed onesweep follows
  EXPECT_EQ(names("segmented_listed_onesweep"), algo::segmented_tuning_for(desc).binned_onesweep_min_length != 0);
  for (std::string line : steps) {  // no step reads anything back
    const std::size_t nothing = line.find("nothing read back");
    if (nothing != std::string::npos) line.erase(nothing, 17);
    EXPECT_EQ(line.find("read back"), std::string::npos) << line;
  }
  // temporaries: the counters, the list, keys and values
  EXPECT_GE(algo::segmented_binned_temp_bytes(desc, key_type::f32, 4, false, 100000, 300, {}), 100000u * 8);
}

}  // namespace
}  // namespace gpusort::test
