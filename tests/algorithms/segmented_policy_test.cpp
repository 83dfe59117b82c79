// The segmented policy (src/algorithms/segmented/segmented_policy.cpp) without a device: which bin
// each shape takes on a CUDA device and elsewhere, the widths of positions and segment numbers, and
// the override seam with its parser.
#include <gtest/gtest.h>

#include "algorithms/segmented/segmented_policy.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

DeviceDescription cuda_device() {
  DeviceDescription d;
  d.backend = "cuda", d.vendor = "NVIDIA Corporation", d.name = "NVIDIA H100 80GB HBM3", d.architecture = "sm_90";
  d.is_gpu = true;
  d.local_memory_bytes = 232448, d.max_work_group_size = 1024, d.compute_units = 132;
  return d;
}
DeviceDescription cpu_device() {
  DeviceDescription d;
  d.backend = "opencl", d.architecture = "cpu";
  d.local_memory_bytes = 1 << 20, d.max_work_group_size = 4096, d.compute_units = 2;
  return d;
}

SortRequest rows(key_type t, std::uint64_t count, std::uint64_t length, std::size_t value_bytes = 0) {
  return {.type = t, .n = count * length, .value_bytes = value_bytes, .rows = count, .row_length = length};
}

TEST(SegmentedPolicy, TheLastRowServesEveryDevice) {
  const auto all = segmented_tuning_rows();
  ASSERT_FALSE(all.empty());
  EXPECT_STREQ(all.back().device_class, "");
  EXPECT_STREQ(segmented_tuning_for(cpu_device()).name, "cpu");
  EXPECT_STREQ(segmented_tuning_for(cuda_device()).name, "cuda");
}

TEST(SegmentedPolicy, BinsByShape) {
  // one segment: the 1-D sort itself, everywhere
  EXPECT_EQ(choose_segmented(cpu_device(), rows(key_type::f32, 1, 1000)).bin, SegmentedBin::per_row);
  EXPECT_EQ(choose_segmented(cpu_device(), rows(key_type::f32, 1, 1000)).sort_n, 1000u);
  // a few huge rows on CUDA: one 1-D sort per row, of the row's length
  const SegmentedChoice huge = choose_segmented(cuda_device(), rows(key_type::f32, 4, 1 << 24, 4));
  EXPECT_EQ(huge.bin, SegmentedBin::per_row);
  EXPECT_EQ(huge.sort_n, 1u << 24);
  // ... not where a row's bytes do not start a sub-buffer, nor for many rows: on CUDA the segmented
  // onesweep takes those (rows longer than a tile), elsewhere the portable bin
  EXPECT_EQ(choose_segmented(cuda_device(), rows(key_type::f32, 4, (1 << 24) + 1)).bin, SegmentedBin::onesweep);
  EXPECT_EQ(choose_segmented(cuda_device(), rows(key_type::f32, 4096, 1 << 20)).bin, SegmentedBin::onesweep);
  EXPECT_EQ(choose_segmented(cuda_device(), rows(key_type::f32, 64, 128256, 4)).bin, SegmentedBin::onesweep);
  EXPECT_EQ(choose_segmented(cuda_device(), rows(key_type::f32, 4096, 4097)).bin, SegmentedBin::onesweep);
  EXPECT_EQ(choose_segmented(cpu_device(), rows(key_type::f32, 4, 1 << 24)).bin, SegmentedBin::portable);
  EXPECT_EQ(choose_segmented(cpu_device(), rows(key_type::f32, 64, 128256)).bin, SegmentedBin::portable);
  // short rows: several to a work-group, in local memory, on every backend; longer ones portable
  EXPECT_EQ(choose_segmented(cuda_device(), rows(key_type::f32, 1 << 20, 32)).bin, SegmentedBin::tiles);
  EXPECT_EQ(choose_segmented(cpu_device(), rows(key_type::f32, 16, 4096)).bin, SegmentedBin::tiles);
  const SegmentedChoice long_rows = choose_segmented(cpu_device(), rows(key_type::f32, 16, 4097));
  EXPECT_EQ(long_rows.bin, SegmentedBin::portable);
  EXPECT_EQ(long_rows.sort_n, 16u * 4097);
  // offsets: on a CPU and on CUDA binned on the device (tiles for the short segments, the
  // long-segment kernels for the others; no 1-D sort, the request's algorithm is chosen for n all
  // the same); on other GPUs tiles-or-portable (the generic row: not measured there)
  const SortRequest offsets{.type = key_type::u32, .n = 1 << 26, .rows = 1 << 16, .offset_bytes = 8};
  for (const DeviceDescription& d : {cuda_device(), cpu_device()}) {
    const SegmentedChoice c = choose_segmented(d, offsets);
    EXPECT_EQ(c.bin, SegmentedBin::binned) << d.backend;
    EXPECT_EQ(c.sort_n, offsets.n) << d.backend;
  }
  DeviceDescription other_gpu = cpu_device();
  other_gpu.is_gpu = true, other_gpu.vendor = "Advanced Micro Devices, Inc.", other_gpu.architecture = "gfx90a";
  EXPECT_STREQ(segmented_tuning_for(other_gpu).name, "generic");
  EXPECT_EQ(choose_segmented(other_gpu, offsets).bin, SegmentedBin::tiles_or_portable);
  SortRequest argsort = offsets;
  argsort.value_bytes = 8, argsort.positions = true, argsort.offset_bytes = 4;
  EXPECT_EQ(choose_segmented(cpu_device(), argsort).bin, SegmentedBin::binned);
  SortRequest wide_pairs = offsets;
  wide_pairs.type = key_type::f64, wide_pairs.value_bytes = 8;
  EXPECT_EQ(choose_segmented(cpu_device(), wide_pairs).bin, SegmentedBin::binned);
  // 2^32 keys and more: the long-segment kernel counts in 32 bits, so the window is checked on
  // the device and read back (tiles or portable)
  SortRequest four_g = offsets;
  four_g.n = std::uint64_t(1) << 32;
  EXPECT_EQ(choose_segmented(cpu_device(), four_g).bin, SegmentedBin::tiles_or_portable);
  // a named algorithm or a comparator: portable; no local memory for a tile: portable
  SortRequest named = offsets;
  named.options.algorithm = "merge";
  EXPECT_EQ(choose_segmented(cuda_device(), named).bin, SegmentedBin::portable);
  SortRequest ordered = offsets;
  ordered.options.comparator = "a > b";
  EXPECT_EQ(choose_segmented(cpu_device(), ordered).bin, SegmentedBin::portable);
  DeviceDescription no_local = cpu_device();
  no_local.local_memory_bytes = 0;
  EXPECT_EQ(choose_segmented(no_local, offsets).bin, SegmentedBin::portable);
}

// CUDA's onesweep bin sorts an argsort's 8-byte indices as 4-byte positions and widens them after;
// other bins, 4-byte indices and sorts with values do not, nor does the override's 0.
TEST(SegmentedPolicy, OnesweepArgsortsNarrowTheirPositions) {
  SortRequest argsort = rows(key_type::f32, 64, 128256, 8);
  argsort.positions = true;
  const SegmentedChoice narrowed = choose_segmented(cuda_device(), argsort);
  EXPECT_EQ(narrowed.bin, SegmentedBin::onesweep);
  EXPECT_TRUE(narrowed.narrow_positions);
  SortRequest i32 = rows(key_type::f32, 64, 128256, 4);
  i32.positions = true;
  EXPECT_FALSE(choose_segmented(cuda_device(), i32).narrow_positions);
  EXPECT_FALSE(choose_segmented(cuda_device(), rows(key_type::f32, 64, 128256, 8)).narrow_positions) << "values";
  SortRequest tiles = rows(key_type::f32, 1 << 14, 1024, 8);
  tiles.positions = true;
  EXPECT_FALSE(choose_segmented(cuda_device(), tiles).narrow_positions);
  set_segmented_policy_override({.narrow_positions = false});
  EXPECT_FALSE(choose_segmented(cuda_device(), argsort).narrow_positions);
  set_segmented_policy_override({});
  EXPECT_EQ(parse_segmented_policy_override("narrow_positions=0").narrow_positions, false);
  EXPECT_EQ(parse_segmented_policy_override("block_min_row=100").block_min_row, 100u);
  EXPECT_THROW(parse_segmented_policy_override("narrow_positions=yes"), Error);
  EXPECT_THROW(parse_segmented_policy_override("block_min_row=x"), Error);
}

TEST(SegmentedPolicy, WidthsGrowWithTheData) {
  const SegmentedChoice small = choose_segmented(cpu_device(), rows(key_type::u8, 1 << 10, 1 << 10));
  EXPECT_EQ(small.position_bytes, 4u);
  EXPECT_EQ(small.segment_bytes, 4u);
  const SegmentedChoice exactly = choose_segmented(cpu_device(), rows(key_type::u8, 2, std::uint64_t(1) << 31));
  EXPECT_EQ(exactly.position_bytes, 4u) << "positions 0..2^32-1 fit 4 bytes";
  const SegmentedChoice many = choose_segmented(cpu_device(), rows(key_type::u8, (std::uint64_t(1) << 32) + 1, 2));
  EXPECT_EQ(many.position_bytes, 8u);
  EXPECT_EQ(many.segment_bytes, 8u);
}

struct Forced {
  explicit Forced(const SegmentedPolicyOverride& o) { set_segmented_policy_override(o); }
  ~Forced() { set_segmented_policy_override({}); }
};

TEST(SegmentedPolicy, TheOverrideForcesABinAndWidths) {
  {
    Forced f(parse_segmented_policy_override("bin=per-row,position_bytes=8,segment_bytes=8"));
    const SegmentedChoice c = choose_segmented(cpu_device(), rows(key_type::u32, 8, 1024));
    EXPECT_EQ(c.bin, SegmentedBin::per_row);
    EXPECT_EQ(c.sort_n, 1024u);
    EXPECT_EQ(c.position_bytes, 8u);
    EXPECT_EQ(c.segment_bytes, 8u);
    // rows of 1000 u32 keys do not start sub-buffers
    EXPECT_THROW(choose_segmented(cpu_device(), rows(key_type::u32, 8, 1000)), Error);
  }
  {
    Forced f(parse_segmented_policy_override("position_bytes=4"));
    EXPECT_EQ(choose_segmented(cpu_device(), rows(key_type::u8, 4, std::uint64_t(1) << 31)).position_bytes, 8u)
        << "never narrower than the data need";
  }
  EXPECT_EQ(parse_segmented_policy_override("bin=tiles-or-portable").bin, SegmentedBin::tiles_or_portable);
  EXPECT_EQ(parse_segmented_policy_override("bin=binned").bin, SegmentedBin::binned);
  EXPECT_STREQ(to_string(SegmentedBin::binned), "binned");
  {  // the portable bin stays reachable for offsets
    Forced f(parse_segmented_policy_override("bin=portable"));
    const SortRequest offsets{.type = key_type::u32, .n = 1 << 20, .rows = 1 << 10, .offset_bytes = 4};
    EXPECT_EQ(choose_segmented(cpu_device(), offsets).bin, SegmentedBin::portable);
  }
  EXPECT_STREQ(to_string(SegmentedBin::tiles_or_portable), "tiles-or-portable");
  EXPECT_EQ(parse_segmented_policy_override("tile_rank_max=32").tile_rank_max, 32u);
  EXPECT_EQ(parse_segmented_policy_override("bin=binned,tile_rank_max=0").tile_rank_max, 0u);
  EXPECT_EQ(parse_segmented_policy_override("warp_segments_max=64").warp_segments_max, 64u);
  EXPECT_EQ(parse_segmented_policy_override("warp_segments_max=0").warp_segments_max, 0u);
  EXPECT_EQ(parse_segmented_policy_override("block_max=2048").block_max, 2048u);
  EXPECT_EQ(parse_segmented_policy_override("segments_per_warp=8").segments_per_warp, 8u);
  for (const char* bad : {"bin=fast", "position_bytes=2", "segments=4", "bin", "tile_rank_max=", "tile_rank_max=65537", "block_max=x", "segments_per_warp=0", "segments_per_warp=33",
                          "tile_rank_max=-1", "warp_segments_max=129", "warp_segments_max="})
    EXPECT_THROW(parse_segmented_policy_override(bad), Error) << bad;
}

}  // namespace
}  // namespace gpusort::algo
