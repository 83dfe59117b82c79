// The tile bin of segmented sorts (algorithms/segmented/segmented_tiles.hpp, kernels/segmented_tiles.cl)
// called directly: uniform rows of 1 .. capacity keys, 1 to many rows, keys alone, pairs and argsort
// within rows, both orders, checked row by row against std::stable_sort (exact bits: stability, NaN
// payloads, the sign of zero), with the outputs poisoned first and the inputs of out-of-place sorts
// checked untouched. Few define sets: one program per key type and value width.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

#include "algorithms/segmented/segmented_policy.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "support/segmented_offsets_case.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

std::uint64_t capacity(key_type type, std::size_t value_bytes, bool positions = false) {
  return algo::segmented_tiles_capacity(test_context().runtime_device(), type, value_bytes, positions);
}

struct Case {
  std::uint64_t rows, length;
  mode m;
  order o;
  bool out_of_place;
  dist d;
};

std::string describe(const Case& c, std::uint64_t seed) {
  return std::to_string(c.rows) + " rows of " + std::to_string(c.length) + ", " + mode_name(c.m) + ", " +
         (c.o == order::ascending ? "asc" : "desc") + (c.out_of_place ? ", out of place" : ", in place") +
         ", dist " + dist_name(c.d) + ", seed " + std::to_string(seed);
}

// One run of the tile bin: outputs poisoned (the keys too out of place), the input where the case
// puts it (apart out of place, in the outputs in place), and the job over those buffers.
template <class K, class V>
struct TileRun {
  DeviceBuffer keys_out, values_out, keys_in, values_in;
  SortOptions options;
  algo::SortJob job;
  TileRun(Context& ctx, mode m, order o, bool out_of_place, const std::vector<K>& keys, const std::vector<V>& values)
      : keys_out(ctx, keys.size() * sizeof(K)),
        values_out(ctx, std::max<std::size_t>(1, keys.size() * sizeof(V))),
        keys_in(ctx, keys.size() * sizeof(K)),
        values_in(ctx, keys.size() * sizeof(V)),
        options{.order = o, .stable = true},
        job{ctx.runtime_device(), key_type_of<K>::value, keys.size(), m == mode::keys ? 0 : sizeof(V),
            keys_out.runtime_buffer(), m == mode::keys ? nullptr : &values_out.runtime_buffer(), options} {
    rt::Device& dev = ctx.runtime_device();
    const std::size_t n = keys.size();
    dev.fill_bytes(values_out.runtime_buffer(), 0xA5, 0, values_out.bytes());  // poison: every output is written
    if (out_of_place) {
      dev.fill_bytes(keys_out.runtime_buffer(), 0xA5, 0, keys_out.bytes());
      keys_in.upload(keys.data(), n * sizeof(K));
      values_in.upload(values.data(), n * sizeof(V));
      job.keys_in = &keys_in.runtime_buffer();
      if (m == mode::pairs) job.values_in = &values_in.runtime_buffer();
    } else {
      keys_out.upload(keys.data(), n * sizeof(K));
      if (m == mode::pairs) values_out.upload(values.data(), n * sizeof(V));
    }
    job.values_are_positions = m == mode::argsort;
  }
};

// Sorts one case with keys of K and values (or indices) of V, and checks every row.
template <class K, class V = std::uint32_t>
void check_rows(const Case& c) {
  SCOPED_TRACE(describe(c, 0));
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const std::uint64_t seed = fresh_seed();
  const std::size_t n = c.rows * c.length;
  const std::vector<K> keys = make_keys<K>(n, c.d, seed);
  const std::vector<V> values = index_values<V>(n);  // the low bytes of each key's global position
  const std::size_t vb = c.m == mode::keys ? 0 : sizeof(V);

  TileRun<K, V> run(ctx, c.m, c.o, c.out_of_place, keys, values);
  auto& [keys_out, values_out, keys_in, values_in, options, job] = run;
  algo::SegmentedJob seg{job, {.count = c.rows, .row_length = c.length}};
  algo::segmented_tiles_sort(seg);
  EXPECT_FALSE(job.values_are_positions) << "the bin makes the positions and says so";

  std::vector<K> got_keys(n);
  std::vector<V> got_values(n);
  keys_out.download(got_keys.data(), n * sizeof(K));
  if (vb) values_out.download(got_values.data(), n * sizeof(V));

  const key_less<K> less{c.o};
  std::vector<std::size_t> ref(c.length);
  for (std::uint64_t r = 0; r < c.rows; ++r) {
    const std::size_t base = r * c.length;
    std::iota(ref.begin(), ref.end(), base);
    std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    for (std::size_t i = 0; i < c.length; ++i) {
      const std::size_t at = base + i, from = ref[i];
      ASSERT_TRUE(same_bits(got_keys[at], keys[from]))
          << "key at row " << r << " position " << i << " differs from the stable reference (" << describe(c, seed) << ")";
      if (c.m == mode::pairs)
        ASSERT_TRUE(same_bits(got_values[at], values[from]))
            << "value at row " << r << " position " << i << " differs (" << describe(c, seed) << ")";
      if (c.m == mode::argsort)
        ASSERT_EQ(value_index(got_values[at]), from - base)
            << "index at row " << r << " position " << i << " (" << describe(c, seed) << ")";
    }
  }
  if (c.out_of_place) {  // the inputs are only read
    std::vector<K> in_keys(n);
    std::vector<V> in_values(n);
    keys_in.download(in_keys.data(), n * sizeof(K));
    values_in.download(in_values.data(), n * sizeof(V));
    EXPECT_EQ(bytes_of(in_keys), bytes_of(keys)) << "keys_in written (" << describe(c, seed) << ")";
    EXPECT_EQ(bytes_of(in_values), bytes_of(values)) << "values_in written (" << describe(c, seed) << ")";
  }
}

// Row lengths the kernel's chunking and digit passes meet: 1 (no passes), 2, around 32, 1023, and
// the capacity (one row per group) and just below it.
std::vector<std::uint64_t> lengths(std::uint64_t cap) {
  std::vector<std::uint64_t> l = {1, 2, 31, 32, 33, 1023, cap - 1, cap};
  std::sort(l.begin(), l.end());
  l.erase(std::unique(l.begin(), l.end()), l.end());
  while (!l.empty() && l.back() > cap) l.pop_back();
  return l;
}
// Row counts: one, a few (fewer than the groups the shape spreads them over), and many (whole tiles,
// more than sixteen rows per tile, so that the row passes take two digits, and a last tile partly full).
std::vector<std::uint64_t> row_counts(std::uint64_t length, std::uint64_t cap) {
  const std::uint64_t per_tile = cap / length;
  const std::uint64_t many = std::min<std::uint64_t>(std::max<std::uint64_t>(40, 3 * per_tile + 5), 100000 / length + 7);
  return {1, 7, many};
}

TEST(SegmentedTiles, CapacityAndShape) {
  const DeviceDescription& desc = test_context().runtime_device().description();
  const std::uint64_t cap = capacity(key_type::f32, 4);
  ASSERT_GE(cap, 1023u) << "the tile bin should take rows of a thousand keys with values";
  EXPECT_LE(cap, 65536u);
  EXPECT_GE(capacity(key_type::f32, 4, true), cap) << "indices made in the kernel take no local memory";
  EXPECT_GE(capacity(key_type::u8, 0), capacity(key_type::u64, 16));
  for (std::uint64_t length : std::vector<std::uint64_t>{1, 33, 1023, cap}) {
    const auto s = algo::segmented_tiles_shape(desc, key_type::f32, 4, false, 100000, length);
    ASSERT_GE(s.rows_per_group, 1u) << length;
    EXPECT_LE(s.rows_per_group * length, cap) << length;
    // CUDA's warp rows put warp_items rows on each lane; its block form one row per block
    EXPECT_EQ(s.groups, (100000 + s.rows_per_group * s.warp_items - 1) / (s.rows_per_group * s.warp_items)) << length;
    if (s.block) EXPECT_EQ(s.rows_per_group, 1u) << length;
    EXPECT_LE(s.local_bytes, desc.local_memory_bytes) << length;
  }
  EXPECT_EQ(algo::segmented_tiles_shape(desc, key_type::f32, 4, false, 10, cap + 1).rows_per_group, 0u);
  const auto steps = algo::segmented_tiles_plan_steps(desc, key_type::f32, 4, false, 33000, 1000, 33);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_NE(steps[0].find(algo::segmented_tiles_tuning_for(desc).name), std::string::npos) << steps[0];
  if (algo::segmented_tiles_shape(desc, key_type::f32, 4, false, 1000, 33).block) {
    EXPECT_NE(steps[1].find("segmented_rows_block.cl"), std::string::npos) << steps[1];
  } else {
    EXPECT_NE(steps[1].find("segmented_tiles_rows"), std::string::npos) << steps[1];
    EXPECT_NE(steps[1].find("rows of 33 keys per group"), std::string::npos) << steps[1];
    EXPECT_NE(steps[1].find("bytes of local memory"), std::string::npos) << steps[1];
  }
  const auto window = algo::segmented_tiles_window(test_context().runtime_device(), key_type::f32, 4);
  ASSERT_GE(window, 512u);
  EXPECT_LE(2 * window, cap) << "a window's tile holds twice its keys, and row starts besides";
  const auto by_offsets = algo::segmented_tiles_offsets_shape(desc, key_type::f32, 4, false, 10 * window + 1);
  EXPECT_EQ(by_offsets.window, window);
  EXPECT_EQ(by_offsets.groups, 11u);
  EXPECT_LE(by_offsets.local_bytes, desc.local_memory_bytes);
  const auto offsets_steps = algo::segmented_tiles_plan_steps(desc, key_type::f32, 4, true, 100000, 300, 0);
  ASSERT_EQ(offsets_steps.size(), by_offsets.rank_max ? 3u : 2u);
  EXPECT_NE(offsets_steps[1].find("segmented_tiles_offsets"), std::string::npos) << offsets_steps[1];
  EXPECT_NE(offsets_steps[1].find("indices made in the kernel"), std::string::npos) << offsets_steps[1];
  if (by_offsets.rank_max)
    EXPECT_NE(offsets_steps[2].find("place counted"), std::string::npos) << offsets_steps[2];
}

// The shapes chosen for a CUDA device (no device needed): rows of up to 32 keys in warp lanes, a
// power of two of lanes each, longer rows in tiles; the tuning row's class matches CUDA devices.
TEST(SegmentedTiles, CudaShapes) {
  DeviceDescription h100;
  h100.backend = "cuda", h100.name = "NVIDIA H100 80GB HBM3", h100.vendor = "NVIDIA Corporation";
  h100.architecture = "sm_90", h100.is_gpu = true;
  h100.local_memory_bytes = 232448, h100.max_work_group_size = 1024, h100.compute_units = 132;
  EXPECT_STREQ(algo::segmented_tiles_tuning_for(h100).name, "cuda-generic");
  for (std::uint64_t length = 1; length <= 32; ++length) {
    const auto s = algo::segmented_tiles_shape(h100, key_type::f32, 4, true, 1000, length);
    ASSERT_TRUE(s.warp) << length;
    EXPECT_GE(1u << s.warp_width_log2, length);
    EXPECT_LT(1u << s.warp_width_log2, std::max<std::uint64_t>(2, 2 * length));
    EXPECT_EQ(s.rows_per_group, s.group >> s.warp_width_log2);
    EXPECT_EQ(s.warp_items, algo::segmented_tiles_tuning_for(h100).warp_items);
    const std::uint64_t per_group = s.rows_per_group * s.warp_items;
    EXPECT_EQ(s.groups, (1000 + per_group - 1) / per_group);
    EXPECT_EQ(s.local_bytes, 0u);
  }
  const auto tile = algo::segmented_tiles_shape(h100, key_type::f32, 4, true, 1000, 33);
  EXPECT_FALSE(tile.warp);
  EXPECT_GE(tile.rows_per_group, 1u);
  EXPECT_LE(tile.local_bytes, h100.local_memory_bytes);
  const auto steps = algo::segmented_tiles_plan_steps(h100, key_type::f32, 4, true, 32000, 1000, 32);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_NE(steps[1].find("segmented_tiles_warp"), std::string::npos) << steps[1];
  EXPECT_NE(steps[1].find("32 lanes per row"), std::string::npos) << steps[1];
  // From the tuning row's block_min_row up, a block per row with the 1-D sort's one-block sort of the row
  const std::uint64_t block_min = algo::segmented_tiles_tuning_for(h100).block_min_row;
  ASSERT_GT(block_min, 32u);
  EXPECT_FALSE(algo::segmented_tiles_shape(h100, key_type::f32, 4, true, 1000, block_min - 1).block);
  for (std::uint64_t length : {block_min, std::uint64_t(1024), std::uint64_t(4096)}) {
    const auto b = algo::segmented_tiles_shape(h100, key_type::f32, 4, true, 1000, length);
    ASSERT_TRUE(b.block) << length;
    EXPECT_GE(b.block_sort.bitonic_log2 ? std::uint64_t(1) << b.block_sort.bitonic_log2 : b.block_sort.tile(), length);
    EXPECT_EQ(b.groups, 1000u);
    EXPECT_EQ(b.rows_per_group, 1u);
    // the one-block sort's shared memory: none for a network that never leaves a warp (below 256)
    EXPECT_EQ(b.local_bytes, algo::single_tile_local_bytes(b.block_sort, 4, 4));
    EXPECT_LE(b.local_bytes, h100.local_memory_bytes);
    const auto block_steps = algo::segmented_tiles_plan_steps(h100, key_type::f32, 4, true, 1000 * length, 1000, length);
    ASSERT_EQ(block_steps.size(), 2u);
    EXPECT_NE(block_steps[1].find("segmented_rows_block.cl segmented_rows_"), std::string::npos) << block_steps[1];
  }
  // 16-byte values with 8-byte keys: no one-block shape holds 4096 of them in registers, so the tile
  EXPECT_FALSE(algo::segmented_tiles_shape(h100, key_type::i64, 16, false, 1000, 4096).block);
  algo::set_segmented_policy_override({.warp_items = 3});
  EXPECT_EQ(algo::segmented_tiles_shape(h100, key_type::f32, 4, true, 1000, 7).warp_items, 3u);
  algo::set_segmented_policy_override({.block_min_row = 0});
  EXPECT_FALSE(algo::segmented_tiles_shape(h100, key_type::f32, 4, true, 1000, 1024).block) << "the override's 0: never";
  algo::set_segmented_policy_override({});
  DeviceDescription cpu;
  cpu.backend = "opencl", cpu.is_gpu = false, cpu.local_memory_bytes = 1 << 20, cpu.max_work_group_size = 4096;
  cpu.compute_units = 2;
  EXPECT_FALSE(algo::segmented_tiles_shape(cpu, key_type::f32, 4, true, 1000, 32).warp) << "warps are CUDA's";
  EXPECT_FALSE(algo::segmented_tiles_shape(cpu, key_type::f32, 4, true, 1000, 1024).block) << "blocks are CUDA's";
}

TEST(SegmentedTiles, TooLongRowsAndComparatorsAreRefused) {
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const std::uint64_t length = capacity(key_type::u32, 0) + 1;
  DeviceBuffer keys(ctx, 2 * length * 4);
  const SortOptions options{};
  algo::SortJob job{dev, key_type::u32, 2 * length, 0, keys.runtime_buffer(), nullptr, options};
  algo::SegmentedJob too_long{job, {.count = 2, .row_length = length}};
  EXPECT_THROW(algo::segmented_tiles_sort(too_long), Error);
  const SortOptions by_comparator{.comparator = "return a < b;"};
  algo::SortJob comparator_job{dev, key_type::u32, 2 * length, 0, keys.runtime_buffer(), nullptr, by_comparator};
  algo::SegmentedJob comparator{comparator_job, {.count = 2, .row_length = length}};
  try {
    algo::segmented_tiles_sort(comparator);
    FAIL() << "a run-time comparator taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
}

// Keys alone, u32: every length x row count x order, in place and out of place.
TEST(SegmentedTiles, KeysEveryShape) {
  const std::uint64_t cap = capacity(key_type::u32, 0);
  for (std::uint64_t length : lengths(cap))
    for (std::uint64_t rows : row_counts(length, cap))
      for (order o : {order::ascending, order::descending})
        check_rows<std::uint32_t>({rows, length, mode::keys, o, rows == 7, dist::uniform});
}

// Pairs and argsort of u32 keys with 4-byte values: one program for both.
TEST(SegmentedTiles, PairsAndArgsortEveryShape) {
  const std::uint64_t cap = capacity(key_type::u32, 4);
  for (std::uint64_t length : lengths(cap))
    for (std::uint64_t rows : row_counts(length, cap))
      for (order o : {order::ascending, order::descending}) {
        check_rows<std::uint32_t, std::uint32_t>({rows, length, mode::pairs, o, rows != 7, dist::few_unique});
        check_rows<std::uint32_t, std::uint32_t>({rows, length, mode::argsort, o, rows == 7, dist::few_unique});
      }
}

// f32 keys with NaNs, +-0, infinities: NaN last ascending (first descending), -0 == +0 kept in input
// order, payloads kept; stable descending.
TEST(SegmentedTiles, FloatSpecials) {
  const std::uint64_t cap = capacity(key_type::f32, 4);
  for (std::uint64_t length : std::vector<std::uint64_t>{2, 33, 1023, cap})
    for (order o : {order::ascending, order::descending})
      for (mode m : {mode::pairs, mode::argsort}) {
        check_rows<float, std::uint32_t>({9, length, m, o, true, dist::specials});
        check_rows<float, std::uint32_t>({cap / length * 3 + 1, length, m, o, false, dist::all_equal});
      }
}

// The other widths and kinds: f16 with 8-byte indices, i64 with 16-byte values, u8 with 1-byte values,
// bool with 2-byte values, f64 and bf16 keys alone.
TEST(SegmentedTiles, OtherKeyTypes) {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t f16 = capacity(key_type::f16, 8, true);
    for (std::uint64_t length : std::vector<std::uint64_t>{31, 1023, f16}) {
      check_rows<half_bits, std::uint64_t>({7, length, mode::argsort, o, true, dist::specials});
      check_rows<half_bits, std::uint64_t>({f16 / length * 2 + 3, length, mode::argsort, o, false, dist::few_unique});
    }
    const std::uint64_t i64 = capacity(key_type::i64, 16);
    for (std::uint64_t length : std::vector<std::uint64_t>{1, 32, i64})
      check_rows<std::int64_t, Bytes16>({i64 / length + 2, length, mode::pairs, o, true, dist::uniform});
    const std::uint64_t u8 = capacity(key_type::u8, 1);
    for (std::uint64_t length : std::vector<std::uint64_t>{33, 1023, u8})
      check_rows<std::uint8_t, std::uint8_t>({u8 / length * 2 + 1, length, mode::pairs, o, false, dist::uniform});
    const std::uint64_t b8 = capacity(key_type::b8, 2);
    for (std::uint64_t length : std::vector<std::uint64_t>{2, 33, b8})
      check_rows<bool_byte, std::uint16_t>({b8 / length + 3, length, mode::pairs, o, true, dist::uniform});
    check_rows<double>({20, 333, mode::keys, o, false, dist::specials});
    check_rows<bfloat16_bits>({50, 100, mode::keys, o, true, dist::specials});
  }
}

// ---- segments by offsets ----------------------------------------------------------------------

// Sorts one case by offsets (placed 3 offsets into their buffer) and checks every segment: those of
// at most the window sorted like std::stable_sort, longer ones untouched (the input in place, the
// poison out of place, indices unwritten).
template <class K, class V = std::uint32_t>
void check_offsets(const OffsetsCase& c) {
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const std::uint64_t seed = fresh_seed();
  const std::uint64_t window = algo::segmented_tiles_window(dev, key_type_of<K>::value, c.m == mode::keys ? 0 : sizeof(V),
                                                            c.m == mode::argsort);
  const std::vector<std::uint64_t> offsets = offsets_of(c.lengths);
  const std::size_t n = offsets.back();
  const std::string where = describe_offsets(c, n, "", seed);
  const std::vector<K> keys = make_keys<K>(n, c.d, seed);
  const std::vector<V> values = index_values<V>(n);
  const std::size_t vb = c.m == mode::keys ? 0 : sizeof(V);

  const std::size_t ob = c.wide ? 8 : 4, lead = 3;
  const std::vector<unsigned char> offset_bytes = placed_offsets(offsets, ob, lead);
  DeviceBuffer offsets_buffer(ctx, offset_bytes.size());
  offsets_buffer.upload(offset_bytes.data(), offset_bytes.size());
  TileRun<K, V> run(ctx, c.m, c.o, c.out_of_place, keys, values);
  auto& [keys_out, values_out, keys_in, values_in, options, job] = run;
  algo::SegmentedJob seg{job,
                         {.count = c.lengths.size(), .row_length = 0, .offsets = &offsets_buffer.runtime_buffer(),
                          .offsets_byte_offset = lead * ob, .offset_bytes = ob}};
  algo::segmented_tiles_sort(seg);

  std::vector<K> got_keys(n);
  std::vector<V> got_values(n);
  keys_out.download(got_keys.data(), n * sizeof(K));
  values_out.download(got_values.data(), n * sizeof(V));
  K poison_key;
  V poison_value;
  std::memset(&poison_key, 0xA5, sizeof poison_key);
  std::memset(&poison_value, 0xA5, sizeof poison_value);
  const key_less<K> less{c.o};
  std::size_t long_ones = 0;
  for (std::size_t s = 0; s < c.lengths.size(); ++s) {
    const std::size_t base = offsets[s], len = c.lengths[s];
    const bool taken = len <= window;
    long_ones += !taken;
    std::vector<std::size_t> ref(len);
    std::iota(ref.begin(), ref.end(), base);
    if (taken)
      std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    for (std::size_t i = 0; i < len; ++i) {
      const std::size_t at = base + i, from = ref[i];
      const bool poisoned = !taken && c.out_of_place;
      ASSERT_TRUE(same_bits(got_keys[at], poisoned ? poison_key : keys[from]))
          << "key at segment " << s << " (" << len << " keys) position " << i << " (" << where << "): "
          << ::testing::PrintToString(got_keys[at]) << " for " << ::testing::PrintToString(poisoned ? poison_key : keys[from])
          << " input there " << ::testing::PrintToString(keys[at]);
      if (c.m == mode::pairs)
        ASSERT_TRUE(same_bits(got_values[at], poisoned ? poison_value : values[from]))
            << "value at segment " << s << " position " << i << " (" << where << ")";
      if (c.m == mode::argsort && taken)
        ASSERT_EQ(value_index(got_values[at]), from - base) << "index at segment " << s << " position " << i << " ("
                                                            << where << ")";
      if (c.m == mode::argsort && !taken)
        ASSERT_TRUE(same_bits(got_values[at], poison_value)) << "index of a long segment written (" << where << ")";
    }
  }
  if (c.out_of_place) {
    std::vector<K> in_keys(n);
    keys_in.download(in_keys.data(), n * sizeof(K));
    EXPECT_EQ(bytes_of(in_keys), bytes_of(keys)) << "keys_in written (" << where << ")";
  }
  if (std::count(c.lengths.begin(), c.lengths.end(), window + 1) != 0)
    EXPECT_GT(long_ones, 0u) << "a segment one key above the window is left to another bin";
}

// Lengths of a power-law-like mix: many empty and tiny segments, some around 32, a few up to the
// window and (when long) some just above it and far above it.
std::vector<std::uint64_t> mixed_lengths(std::uint64_t window, std::size_t count, bool with_long, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> l;
  const std::uint64_t edges[] = {0, 1, 2, 31, 32, 33, window - 1, window};
  for (std::uint64_t e : edges) l.push_back(e);
  if (with_long) {
    l.push_back(window + 1);
    l.push_back(3 * window + 17);
  }
  while (l.size() < count) {
    const unsigned r = rng() % 100;
    l.push_back(r < 20 ? 0 : r < 60 ? rng() % 8 : r < 90 ? rng() % 100 : r < 97 ? rng() % 1100 : rng() % (window + 1));
  }
  std::shuffle(l.begin(), l.end(), rng);
  return l;
}

TEST(SegmentedTiles, OffsetsKeysPairsArgsort) {
  rt::Device& dev = test_context().runtime_device();
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t wk = algo::segmented_tiles_window(dev, key_type::u32, 0);
    check_offsets<std::uint32_t>({mixed_lengths(wk, 300, true, seed), mode::keys, o, false, false, dist::uniform});
    check_offsets<std::uint32_t>({mixed_lengths(wk, 40, false, seed + 1), mode::keys, o, true, true, dist::few_unique});
    const std::uint64_t wp = algo::segmented_tiles_window(dev, key_type::u32, 4);
    check_offsets<std::uint32_t, std::uint32_t>({mixed_lengths(wp, 300, true, seed + 2), mode::pairs, o, true, false,
                                                 dist::few_unique});
    check_offsets<std::uint32_t, std::uint32_t>({mixed_lengths(wp, 100, true, seed + 3), mode::pairs, o, false, true,
                                                 dist::all_equal});
    const std::uint64_t wa = algo::segmented_tiles_window(dev, key_type::u32, 4, true);
    check_offsets<std::uint32_t, std::uint32_t>({mixed_lengths(wa, 300, true, seed + 4), mode::argsort, o, true, true,
                                                 dist::few_unique});
    check_offsets<std::uint32_t, std::uint32_t>({std::vector<std::uint64_t>(50, 7), mode::argsort, o, false, false,
                                                 dist::uniform});
  }
}

TEST(SegmentedTiles, OffsetsFloatSpecials) {
  rt::Device& dev = test_context().runtime_device();
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  const std::uint64_t w = algo::segmented_tiles_window(dev, key_type::f32, 4);
  for (order o : {order::ascending, order::descending}) {
    check_offsets<float, std::uint32_t>({mixed_lengths(w, 200, true, seed), mode::pairs, o, true, false, dist::specials});
    check_offsets<float, std::uint32_t>({mixed_lengths(w, 200, false, seed + 1), mode::argsort, o, false, true,
                                         dist::specials});
  }
}

// A tile by offsets is sorted by digit passes or, where its segments are all short, by counting
// each key's place: digit passes only (tile_rank_max=0), tiles of segments of up to 64 keys counted
// and the others by digits in one launch (64, PoCL's tuning), every tile counted (a limit above any
// window): the stable sort alike.
struct RankLimit {
  explicit RankLimit(std::uint32_t max) { algo::set_segmented_policy_override({.tile_rank_max = max}); }
  ~RankLimit() { algo::set_segmented_policy_override({}); }
};

TEST(SegmentedTiles, OffsetsRankedAndByDigitPassesAlike) {
  rt::Device& dev = test_context().runtime_device();
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("lengths seed " + std::to_string(seed));
  const std::uint64_t wp = algo::segmented_tiles_window(dev, key_type::f32, 4);
  const std::uint64_t wa = algo::segmented_tiles_window(dev, key_type::u16, 8, true);
  const std::uint64_t wk = algo::segmented_tiles_window(dev, key_type::i64, 0);
  for (std::uint32_t limit : {0u, 64u, 65536u}) {
    RankLimit forced(limit);
    SCOPED_TRACE("tile_rank_max " + std::to_string(limit));
    for (order o : {order::ascending, order::descending}) {
      check_offsets<float, std::uint32_t>({mixed_lengths(wp, 120, true, seed), mode::pairs, o, true, false,
                                           dist::specials});
      check_offsets<std::uint16_t, std::uint64_t>({mixed_lengths(wa, 120, false, seed + 1), mode::argsort, o, false,
                                                   true, dist::few_unique});
      check_offsets<std::int64_t>({std::vector<std::uint64_t>(300, 5), mode::keys, o, true, false, dist::all_equal});
      check_offsets<std::int64_t>({mixed_lengths(wk, 60, true, seed + 2), mode::keys, o, false, true, dist::uniform});
    }
  }
}

}  // namespace
}  // namespace gpusort::test
