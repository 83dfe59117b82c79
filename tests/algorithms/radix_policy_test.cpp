// The radix policy (src/algorithms/radix_policy.cpp) without a device: the paths, tile shapes and
// switches its tables give for the measured cases (a CUDA device like the H200 and a PoCL-like CPU),
// the override seam and its parser, the -D lists and the temporary layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

#include "algorithms/algorithm.hpp"
#include "algorithms/radix_policy.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

DeviceDescription cuda_device() {
  DeviceDescription d;
  d.backend = "cuda", d.vendor = "NVIDIA Corporation", d.local_memory_bytes = 227 * 1024, d.max_work_group_size = 1024, d.compute_units = 132;
  d.is_gpu = true, d.name = "NVIDIA H200", d.architecture = "sm_90";
  return d;
}
DeviceDescription cpu_device() {
  DeviceDescription d;
  d.backend = "opencl", d.local_memory_bytes = 1024 * 1024, d.max_work_group_size = 4096, d.compute_units = 2;
  return d;
}
RadixPolicy choose(const DeviceDescription& d, key_type t, std::size_t vb, std::uint64_t n, const SortOptions& o = {}) {
  return choose_radix_policy(d, t, vb, n, o, RadixPolicyOverride{});
}
bool has(const std::vector<std::string>& defines, const std::string& d) {
  return std::find(defines.begin(), defines.end(), d) != defines.end();
}

TEST(RadixPolicy, CudaPathsAndTileShapes) {
  const auto dev = cuda_device();
  // small n: the single tile (smallest shape that holds n), then the onesweep passes
  const RadixPolicyOverride no_network{.bitonic_max = 0};
  EXPECT_EQ(choose(dev, key_type::u32, 0, 4096).path, RadixPath::single_tile);
  EXPECT_EQ(choose_radix_policy(dev, key_type::f32, 0, 4096, {}, no_network).single_tile.tile(), 4096u);
  EXPECT_EQ(choose_radix_policy(dev, key_type::f32, 0, 4096, {}, no_network).single_tile.threads, 512u);  // 512 x 8
  EXPECT_EQ(choose(dev, key_type::u32, 0, 8192).single_tile.threads, 1024u);  // 1024 x 8
  // 4-byte keys alone beyond 8192: the onesweep passes (faster than the 1024 x 16 tile); others keep it
  EXPECT_EQ(choose(dev, key_type::f32, 0, 8193).path, RadixPath::onesweep);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 16384, {}, {.single_tile_max = 16384}).single_tile.threads, 1024u);
  EXPECT_EQ(choose(dev, key_type::u16, 0, 16384).single_tile.tile(), 16384u);
  EXPECT_EQ(choose(dev, key_type::u64, 8, 4096).single_tile.tile(), 4096u);
  // up to 4096 keys, or pairs with keys of up to 32 bits: the bitonic network, 4 elements per thread,
  // padded to 2^7 .. 2^12; two buffers of N elements of shared memory from 2^8
  EXPECT_EQ(choose(dev, key_type::u32, 0, 4096).single_tile.bitonic_log2, 12u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 4096).single_tile.threads, 1024u);
  EXPECT_EQ(choose(dev, key_type::i8, 0, 100).single_tile.bitonic_log2, 7u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 4097).single_tile.bitonic_log2, 0u);
  EXPECT_EQ(choose(dev, key_type::u64, 8, 1024).single_tile.bitonic_log2, 0u);  // no element for them
  // the default caps (kBitonicCaps): 4096 keys of up to 4 bytes, 2048 of 8 bytes, 512 small pairs
  EXPECT_EQ(choose(dev, key_type::f32, 0, 4096).single_tile.bitonic_log2, 12u);
  EXPECT_EQ(choose(dev, key_type::u64, 0, 2048).single_tile.bitonic_log2, 11u);
  EXPECT_EQ(choose(dev, key_type::f64, 0, 2049).single_tile.bitonic_log2, 0u);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 512).single_tile.bitonic_log2, 9u);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 513).single_tile.bitonic_log2, 0u);
  EXPECT_EQ(choose(dev, key_type::u16, 16, 300).single_tile.bitonic_log2, 9u);
  // bitonic_max replaces the default caps, up to 4096, for the types the network holds
  EXPECT_EQ(choose_radix_policy(dev, key_type::u64, 0, 4096, {}, {.bitonic_max = 4096}).single_tile.bitonic_log2, 12u);
  EXPECT_EQ(choose_radix_policy(dev, key_type::f32, 4, 4096, {}, {.bitonic_max = 8192}).single_tile.bitonic_log2, 12u);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 4097, {}, {.bitonic_max = 8192}).single_tile.bitonic_log2, 0u);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u64, 4, 64, {}, {.bitonic_max = 4096}).single_tile.bitonic_log2, 0u);
  EXPECT_EQ(single_tile_local_bytes({.threads = 256, .items = 4, .bitonic_log2 = 10}, 4, 0), 8u * 1024);
  EXPECT_EQ(single_tile_local_bytes({.threads = 256, .items = 4, .bitonic_log2 = 10}, 8, 0), 16u * 1024);
  EXPECT_EQ(single_tile_local_bytes({.threads = 256, .items = 4, .bitonic_log2 = 10}, 2, 16), 16u * 1024);
  EXPECT_EQ(single_tile_local_bytes({.threads = 32, .items = 4, .bitonic_log2 = 7}, 4, 4), 0u);
  // the radix single tile: staging slots padded by one in 32 (keys, then values), 256 counters per warp
  EXPECT_EQ(single_tile_local_bytes({.threads = 512, .items = 8}, 4, 4), (4096u + 128u) * 8u + 16u * 1024u);
  EXPECT_EQ(single_tile_local_bytes({.threads = 1024, .items = 16}, 2, 0), (16384u + 512u) * 2u + 32u * 1024u);
  EXPECT_EQ(single_tile_local_bytes({.threads = 256, .items = 4}, 8, 16), (1024u + 32u) * 24u + 8u * 1024u);
  // float keys: the kernels check for -0 and NaN themselves (no switch from the host)
  for (RadixPath path : {RadixPath::single_tile, RadixPath::onesweep, RadixPath::segments})
    for (const std::string& d : to_defines(choose(dev, key_type::f32, 0, 4096), path))
      EXPECT_EQ(d.find("FLOAT_FLAG"), std::string::npos) << d;
  {  // switched off by bitonic_max = 0 or a smaller single_tile_max (then the radix tile, or nothing)
    const auto with = [&](const RadixPolicyOverride& o, std::uint64_t n) {
      return choose_radix_policy(dev, key_type::u32, 0, n, {}, o).single_tile;
    };
    EXPECT_EQ(with({.bitonic_max = 0}, 4096).bitonic_log2, 0u);
    EXPECT_EQ(with({.bitonic_max = 0}, 4096).threads, 512u);
    EXPECT_EQ(with({.bitonic_max = 1000}, 1000).bitonic_log2, 10u);
    EXPECT_EQ(with({.bitonic_max = 1000}, 1001).bitonic_log2, 0u);
    EXPECT_EQ(with({.single_tile_max = 100}, 200).threads, 0u);
    // a device whose groups cannot hold N / 4 threads keeps the radix tile
    DeviceDescription small = dev;
    small.max_work_group_size = 512;
    EXPECT_EQ(choose(small, key_type::u32, 0, 4096).single_tile.bitonic_log2, 0u);
    EXPECT_EQ(choose(small, key_type::u32, 0, 2048).single_tile.bitonic_log2, 11u);
    // 64 KiB of shared memory (sm_75): 2 N 8-byte elements at 4096 fill it, and the float kernels'
    // static words would not fit beside them
    DeviceDescription turing = dev;
    turing.local_memory_bytes = 64 * 1024;
    const RadixPolicyOverride all{.bitonic_max = 4096};
    EXPECT_EQ(choose_radix_policy(turing, key_type::f64, 0, 4096, {}, all).single_tile.bitonic_log2, 0u);
    EXPECT_EQ(choose_radix_policy(turing, key_type::f64, 0, 2048, {}, all).single_tile.bitonic_log2, 11u);
    EXPECT_EQ(choose_radix_policy(turing, key_type::f32, 0, 4096, {}, all).single_tile.bitonic_log2, 12u);
  }
  EXPECT_EQ(choose(dev, key_type::u32, 0, 16385).path, RadixPath::onesweep);
  // small n: items shrink (steps of 4, at least 4) until keys alone fill 64 tiles, pairs 128
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 15).onesweep.items, 4u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 17).onesweep.items, 8u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 18).onesweep.items, 16u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 20).onesweep.items, 28u);
  EXPECT_EQ(choose(dev, key_type::u64, 8, 1ull << 13).onesweep.items, 4u);
  EXPECT_EQ(choose(dev, key_type::u64, 8, 1ull << 18).onesweep.items, 8u);
  EXPECT_EQ(choose(dev, key_type::u64, 8, 1ull << 19).onesweep.items, 16u);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1ull << 17).onesweep.items, 4u);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1ull << 20).onesweep.items, 32u);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 1ull << 15, {}, {.items = 20}).onesweep.items, 20u);
  EXPECT_EQ(choose(dev, key_type::u64, 8, 4097).path, RadixPath::onesweep);
  // from 2^30 keys (30-bit look-back counts) the onesweep passes run in portions
  EXPECT_EQ(choose(dev, key_type::u32, 0, (1ull << 30) - 1).onesweep.portion, 0u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 30).path, RadixPath::onesweep);
  // items per thread and blocks per SM by key/value width and n (kOnesweepItems, min_blocks_rule)
  struct Case {
    key_type t;
    std::size_t vb;
    int log2n;
    std::uint32_t items, min_blocks;
    bool packed;
  };
  for (const Case& c : {Case{key_type::u32, 0, 28, 28, 4, false}, {key_type::u32, 4, 20, 32, 3, false},
                        {key_type::u32, 4, 21, 32, 3, false}, {key_type::u32, 4, 22, 24, 3, true},
                        {key_type::u32, 4, 24, 24, 3, true}, {key_type::u32, 4, 28, 24, 3, true},
                        {key_type::f32, 4, 23, 24, 3, false}, {key_type::f32, 4, 24, 24, 3, true},
                        {key_type::u16, 2, 28, 32, 3, false}, {key_type::u64, 0, 28, 24, 3, false},
                        {key_type::u64, 0, 23, 16, 4, false}, {key_type::f64, 0, 24, 24, 3, false},
                        {key_type::u64, 8, 26, 28, 2, false}, {key_type::f64, 8, 25, 24, 2, false},
                        {key_type::u64, 8, 20, 16, 3, false}, {key_type::u64, 8, 21, 16, 2, false},
                        {key_type::u64, 8, 22, 24, 2, false}, {key_type::u64, 8, 24, 24, 2, false},
                        {key_type::f32, 8, 22, 24, 2, false}, {key_type::u64, 16, 28, 16, 2, false}}) {
    const OnesweepPolicy os = choose(dev, c.t, c.vb, 1ull << c.log2n).onesweep;
    EXPECT_EQ(os.items, c.items) << key_type_name(c.t) << "/" << c.vb << " 2^" << c.log2n;
    EXPECT_EQ(os.min_blocks, c.min_blocks) << key_type_name(c.t) << "/" << c.vb << " 2^" << c.log2n;
    EXPECT_EQ(os.packed_pairs, c.packed) << key_type_name(c.t) << "/" << c.vb << " 2^" << c.log2n;
  }
  // switches: values beside the keys up to 8 bytes together, digits recomputed for integer keys
  // staged apart, the snapshot by key type, fewer histogram copies beyond 4 passes
  const OnesweepPolicy u64 = choose(dev, key_type::u64, 0, 1 << 20).onesweep;
  EXPECT_TRUE(u64.recompute_digit && u64.snapshot == 4 && u64.hist_copies == 16);
  const OnesweepPolicy f32 = choose(dev, key_type::f32, 4, 1 << 20).onesweep;
  EXPECT_TRUE(f32.split_stage && !f32.recompute_digit && f32.snapshot == 0 && f32.hist_copies == 32);
  // 4-byte keys alone: 16 histogram copies from 2^21 to below 2^24 (kHistCopies16Keys4From)
  EXPECT_EQ(choose(dev, key_type::u32, 0, (1 << 21) - 1).onesweep.hist_copies, 32u);
  EXPECT_EQ(choose(dev, key_type::f32, 0, 1 << 21).onesweep.hist_copies, 16u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, (1 << 24) - 1).onesweep.hist_copies, 16u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1 << 24).onesweep.hist_copies, 32u);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1 << 22).onesweep.hist_copies, 32u);
  // the histogram's blocks: about 8 per SM (whole spans of 8192 keys), more where a span would pass
  // 2^19 keys (u16 lane counters)
  const auto hist_groups = [&](const DeviceDescription& d, std::uint64_t n) {
    return choose(d, key_type::u32, 0, n).onesweep.hist_spans;
  };
  EXPECT_GT(hist_groups(dev, 1 << 24).groups, 7u * dev.compute_units);
  EXPECT_LE(hist_groups(dev, 1 << 24).groups, 8u * dev.compute_units);
  DeviceDescription one_sm = dev;
  one_sm.compute_units = 1;
  EXPECT_EQ(hist_groups(one_sm, 1ull << 29).groups, 1024u);
  EXPECT_EQ(hist_groups(one_sm, 1ull << 29).span, 1ull << 19);
  EXPECT_FALSE(choose(dev, key_type::u32, 0, 1 << 20).onesweep.recompute_digit);
  EXPECT_TRUE(choose(dev, key_type::u32, 0, 1 << 24).onesweep.recompute_digit);  // kRecomputeKeys4From
  EXPECT_TRUE(choose(dev, key_type::i32, 0, 1ull << 28).onesweep.recompute_digit);
  EXPECT_FALSE(choose(dev, key_type::f32, 0, 1ull << 28).onesweep.recompute_digit);
  EXPECT_FALSE(choose(dev, key_type::u64, 8, 1 << 20).onesweep.split_stage);
  // 8-byte keys with 8-byte values beside their keys from 2^21 to below 2^24 (2 blocks per SM), on CUDA
  // only
  for (int log2n : {21, 23}) {
    const OnesweepPolicy wide = choose(dev, key_type::i64, 8, 1ull << log2n).onesweep;
    EXPECT_TRUE(wide.split_stage && wide.recompute_digit && wide.min_blocks == 2) << log2n;
  }
  EXPECT_FALSE(choose(dev, key_type::u64, 8, 1 << 24).onesweep.split_stage);
  EXPECT_TRUE(choose(dev, key_type::f64, 8, 1 << 22).onesweep.split_stage);  // float keys too
  {  // only where two blocks of that layout fit an SM: not with 99 KiB per block (sm_86), nor at 24 items
     // with 163 KiB (sm_80)
    DeviceDescription small = dev;
    small.local_memory_bytes = 99 * 1024;
    const OnesweepPolicy s86 = choose(small, key_type::u64, 8, 1 << 21).onesweep;
    EXPECT_TRUE(!s86.split_stage && s86.min_blocks == 3 && s86.items == 16);
    small.local_memory_bytes = 163 * 1024;
    EXPECT_TRUE(choose(small, key_type::u64, 8, 1 << 21).onesweep.split_stage);  // 16 items
    const OnesweepPolicy s80 = choose(small, key_type::u64, 8, 1 << 22).onesweep;
    EXPECT_TRUE(!s80.split_stage && s80.min_blocks == 2 && s80.items == 24);
  }
  {  // portions never pack, and take the unpacked pairs' tile
    const OnesweepPolicy big = choose(dev, key_type::u32, 4, 1ull << 30).onesweep;
    EXPECT_GT(big.portion, 0u);
    EXPECT_TRUE(!big.packed_pairs && big.items == 32);
  }
  EXPECT_FALSE(choose(dev, key_type::u64, 4, 1 << 22).onesweep.split_stage);
  EXPECT_TRUE(choose_radix_policy(dev, key_type::u64, 8, 1 << 24, {}, {.split_stage = true}).onesweep.split_stage);
  {  // the warp-level count: 8-byte keys with 8-byte values staged after their keys, from 2^24
    for (key_type t : {key_type::u64, key_type::i64, key_type::f64})
      for (std::uint64_t n : {std::uint64_t(1) << 24, std::uint64_t(1) << 28, std::uint64_t(1) << 31}) {
        const RadixPolicy p = choose(dev, t, 8, n);
        EXPECT_TRUE(p.onesweep.uniform_count) << key_type_name(t) << " " << n;
        EXPECT_TRUE(has(to_defines(p, RadixPath::onesweep), "RADIX_UNIFORM_COUNT=1"));
      }
    EXPECT_FALSE(choose(dev, key_type::u64, 8, 1 << 23).onesweep.uniform_count);  // beside their keys
    for (std::size_t vb : {std::size_t(0), std::size_t(4), std::size_t(16)})
      EXPECT_FALSE(choose(dev, key_type::u64, vb, 1 << 26).onesweep.uniform_count) << vb;
    EXPECT_FALSE(choose(dev, key_type::u32, 4, 1 << 26).onesweep.uniform_count);
    EXPECT_TRUE(choose_radix_policy(dev, key_type::u32, 0, 1 << 20, {}, {.uniform_count = true}).onesweep.uniform_count);
    EXPECT_FALSE(choose_radix_policy(dev, key_type::u64, 8, 1 << 24, {}, {.uniform_count = false}).onesweep.uniform_count);
  }
  // the single tile's program has no count switch (its warp-uniform form was removed)
  for (const std::string& def : to_defines(choose(dev, key_type::u32, 4, 4096), RadixPath::single_tile))
    EXPECT_EQ(def.find("RADIX_UNIFORM_COUNT"), std::string::npos) << def;
  // every pass overlaps the kernel before it; the next starts before the scatter, except where a pass
  // is one wave over more than half the SMs (132 here): 67 .. 132 x min_blocks tiles
  struct Overlap {
    key_type t;
    std::size_t vb;
    std::uint64_t n, tiles;
    bool early;
  };
  for (const Overlap& c : {Overlap{key_type::u32, 0, 1u << 18, 64, true},  // 4096-key tiles
                           {key_type::u32, 0, 1u << 19, 74, false},        // 7168-key tiles, 4 blocks/SM
                           {key_type::u32, 0, 1u << 21, 293, false},
                           {key_type::u32, 0, 1u << 22, 586, true},
                           {key_type::u32, 4, 1u << 16, 64, true},
                           {key_type::u32, 4, 1u << 20, 128, false},
                           {key_type::u32, 4, 1u << 22, 683, true},  // 24 items, 3 blocks/SM: 396 slots
                           {key_type::u64, 8, 1u << 20, 256, false},
                           {key_type::u64, 8, 1u << 21, 512, true},
                           {key_type::u64, 8, 1ull << 28, 37450, true}}) {  // 28 items
    const RadixPolicy p = choose(dev, c.t, c.vb, c.n);
    const std::string what = std::string(key_type_name(c.t)) + "/" + std::to_string(c.vb) + " n " + std::to_string(c.n);
    EXPECT_EQ(ceil_div(c.n, p.onesweep.tile()), c.tiles) << what;
    EXPECT_TRUE(p.onesweep.overlap_passes) << what;
    EXPECT_EQ(p.onesweep.early_trigger, c.early) << what;
    EXPECT_TRUE(has(to_defines(p, RadixPath::onesweep), c.early ? "ONESWEEP_ALLOW_NEXT=1" : "ONESWEEP_ALLOW_NEXT=0")) << what;
  }
  // portions (from 2^30 keys): the tiles of one launch count
  EXPECT_TRUE(choose(dev, key_type::u32, 0, 1ull << 31).onesweep.early_trigger);
  const RadixPolicy no_overlap = choose_radix_policy(dev, key_type::u32, 0, 1 << 16, {}, {.overlap_passes = false});
  EXPECT_FALSE(no_overlap.onesweep.overlap_passes || no_overlap.onesweep.early_trigger);
  EXPECT_FALSE(choose_radix_policy(dev, key_type::u32, 0, 1 << 16, {}, {.overlap_passes = false, .early_trigger = true})
                   .onesweep.early_trigger);  // no early start without the overlap
  EXPECT_TRUE(has(to_defines(no_overlap, RadixPath::onesweep), "ONESWEEP_ALLOW_NEXT=0"));
  EXPECT_FALSE(choose_radix_policy(dev, key_type::u32, 0, 1 << 16, {}, {.early_trigger = false}).onesweep.early_trigger);
  EXPECT_TRUE(choose_radix_policy(dev, key_type::u32, 0, 1 << 24, {}, {.early_trigger = true}).onesweep.early_trigger);
  // explicit options: the tiled path's shape
  const SortOptions items{.items_per_thread = 100};
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1000, items).path, RadixPath::onesweep);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1000, items).onesweep.items, 64u);
}

// CUDA segments (kSegmentsFrom, kSegmentShapes): integer keys of 4 or 8 bytes alone or with values of
// their own width, from the rows' n, in the smallest measured shape that holds a segment; never for
// floats, other widths, other backends or portions; the override takes any width of 32 bits or more
// (in 256-thread tiles only). The layout asks for the segments' words.
TEST(RadixPolicy, CudaSegments) {
  const auto dev = cuda_device();
  const auto tile = [&](key_type t, std::size_t vb, std::uint64_t n, RadixPolicyOverride o = {}) {
    return choose_radix_policy(dev, t, vb, n, {}, o).segments.tile();
  };
  EXPECT_EQ(tile(key_type::u32, 0, 1ull << 28), 4608u);
  EXPECT_EQ(tile(key_type::i32, 0, 1ull << 28), 4608u);
  EXPECT_EQ(tile(key_type::u32, 0, (1ull << 28) - 1), 0u);
  EXPECT_EQ(tile(key_type::u32, 4, 1ull << 27), 2560u);
  EXPECT_EQ(tile(key_type::u32, 4, (1ull << 27) - 1), 0u);
  EXPECT_EQ(tile(key_type::u64, 0, 1ull << 26), 1536u);
  EXPECT_EQ(tile(key_type::i64, 8, 1ull << 26), 1536u);
  EXPECT_EQ(tile(key_type::u64, 8, (1ull << 26) - 1), 0u);
  EXPECT_EQ(tile(key_type::f32, 0, 1ull << 28), 0u);
  EXPECT_EQ(tile(key_type::f64, 8, 1ull << 28), 0u);
  EXPECT_EQ(tile(key_type::u32, 8, 1ull << 28), 0u);
  EXPECT_EQ(tile(key_type::u64, 0, 1ull << 29), 0u);  // segments larger than 256 x 18 keys
  EXPECT_EQ(tile(key_type::u64, 0, 1ull << 29, {.segments = true}), 0u);
  EXPECT_EQ(tile(key_type::u64, 0, 1ull << 30, {.segments = true}), 0u);  // portions
  EXPECT_EQ(tile(key_type::f32, 4, 100001, {.segments = true}), 1536u);
  EXPECT_EQ(tile(key_type::u16, 0, 1ull << 28, {.segments = true}), 0u);
  EXPECT_EQ(tile(key_type::u32, 0, 1ull << 28, {.segments = false}), 0u);
  EXPECT_EQ(choose(cpu_device(), key_type::u32, 0, 1ull << 28).segments.tile(), 0u);
  // a shape the caller asks for is the tiled path's: no segments
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 28, {.work_group_size = 128}).segments.tile(), 0u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 28, {.items_per_thread = 8}).segments.tile(), 0u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 28).segments.skew_percent, kSegmentTopSkewPercent);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 30011, {}, parse_radix_policy_override("segments=1,segment_skew_percent=1000"))
                .segments.skew_percent,
            1000u);
  // the tiles' form: the row's, or the override's
  const RadixPolicy other = choose_radix_policy(dev, key_type::u32, 4, 1ull << 28, {},
                                                parse_radix_policy_override("segment_rank_first=1"));
  EXPECT_TRUE(other.segments.rank_first);
  EXPECT_TRUE(has(to_defines(other, RadixPath::segments), "RADIX_SEGMENT_RANK_FIRST=1"));
  EXPECT_TRUE(has(to_defines(choose(dev, key_type::u32, 0, 1ull << 28), RadixPath::segments), "RADIX_SEGMENT_MIN_BLOCKS=4"));
  EXPECT_TRUE(has(to_defines(choose(dev, key_type::u32, 4, 1ull << 28), RadixPath::segments), "RADIX_SEGMENT_RANK_FIRST=0"));
  EXPECT_THROW(parse_radix_policy_override("segment_min_blocks=9"), Error);
  EXPECT_THROW(parse_radix_policy_override("segment_rank_first=2"), Error);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 28).segments.threads, 256u);
  // the rows' passes: 4-byte keys alone rank first with an atomic first pass in 64 registers
  EXPECT_TRUE(choose(dev, key_type::u32, 0, 1ull << 28).segments.rank_first);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 28).segments.min_blocks, 4u);
  EXPECT_FALSE(choose(dev, key_type::u32, 4, 1ull << 28).segments.rank_first);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1ull << 28).segments.min_blocks, 0u);
  EXPECT_FALSE(choose(dev, key_type::u64, 0, 1ull << 28).segments.rank_first);
  EXPECT_TRUE(choose_radix_policy(dev, key_type::f32, 0, 100001, {}, {.segments = true}).segments.rank_first);
  EXPECT_FALSE(choose_radix_policy(dev, key_type::u32, 8, 100001, {}, {.segments = true}).segments.rank_first);
  // interleaved pairs: 4-byte integer keys with 4-byte values where the onesweep passes pack them (from
  // 2^22), unless the override says no; the tiles' program and the segments' words know
  const auto interleaved = [&](key_type t, std::size_t vb, std::uint64_t n, RadixPolicyOverride o = {.segments = true}) {
    return choose_radix_policy(dev, t, vb, n, {}, o).segments.interleaved;
  };
  EXPECT_TRUE(interleaved(key_type::u32, 4, 1ull << 28, {}));
  EXPECT_TRUE(interleaved(key_type::i32, 4, 1ull << 27, {}));
  EXPECT_FALSE(interleaved(key_type::f32, 4, 1ull << 24));
  EXPECT_FALSE(interleaved(key_type::u32, 4, 1ull << 21));
  EXPECT_TRUE(interleaved(key_type::u32, 4, 1ull << 21, {.packed_pairs = true, .segments = true}));
  EXPECT_FALSE(interleaved(key_type::u32, 4, 1ull << 28, {.packed_pairs = false}));
  EXPECT_FALSE(interleaved(key_type::u32, 4, 1ull << 28, parse_radix_policy_override("segment_interleaved=0")));
  EXPECT_FALSE(interleaved(key_type::u32, 0, 1ull << 28, {}));
  EXPECT_FALSE(interleaved(key_type::u64, 8, 1ull << 28, {}));
  EXPECT_TRUE(has(to_defines(choose(dev, key_type::u32, 4, 1ull << 28), RadixPath::segments), "RADIX_SEGMENT_INTERLEAVED=1"));
  EXPECT_TRUE(has(to_defines(choose(dev, key_type::u32, 0, 1ull << 28), RadixPath::segments), "RADIX_SEGMENT_INTERLEAVED=0"));
  EXPECT_EQ(radix_temp_layout(choose(dev, key_type::u32, 4, 1ull << 28)).segments, (kSegmentWords + kSegmentEndWords) * 4);
  EXPECT_EQ(radix_onesweep_program_defines(dev, key_type::u32, 4, 1ull << 28).size(), 5u);  // + the interleaving pass
  EXPECT_TRUE(has(radix_onesweep_program_defines(dev, key_type::u32, 4, 1ull << 28).back(), "ONESWEEP_PACKED_OUT=2"));
  EXPECT_EQ(radix_temp_layout(choose(dev, key_type::u32, 0, 1ull << 28)).segments, kSegmentWords * 4);
  EXPECT_EQ(radix_temp_layout(choose(dev, key_type::u32, 0, 1ull << 27)).segments, 0u);
}

TEST(RadixPolicy, CpuPaths) {
  const auto dev = cpu_device();
  const RadixPolicy small = choose(dev, key_type::u32, 4, 4096);
  EXPECT_EQ(small.path, RadixPath::single_group);
  EXPECT_EQ(small.single_group.group, 16u);
  EXPECT_EQ(small.single_group.max_n, 4096u);
  const RadixPolicy large = choose(dev, key_type::u32, 4, 4097);
  EXPECT_EQ(large.path, RadixPath::portable);
  EXPECT_EQ(large.portable.group, 64u);
  EXPECT_EQ(large.portable.groups_per_compute_unit, 2u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1000, {.work_group_size = 32}).path, RadixPath::portable);
}

// Other GPUs: onesweep passes of the portable shape below 2^30 keys, with their own counters and
// status buffers (no views: slow on NVIDIA's OpenCL), the ping-pong buffer from two passes.
TEST(RadixPolicy, OpenclGpuPaths) {
  DeviceDescription dev = cpu_device();
  dev.is_gpu = true, dev.local_memory_bytes = 48 * 1024, dev.max_work_group_size = 1024, dev.compute_units = 132;
  const RadixPolicy p = choose(dev, key_type::u32, 4, 1 << 20);
  EXPECT_EQ(p.path, RadixPath::portable_onesweep);
  EXPECT_EQ(p.portable.tile(), 256u * 8);
  const auto d = to_defines(p, RadixPath::portable_onesweep);
  EXPECT_TRUE(has(d, "GROUP_SIZE=256") && has(d, "ITEMS=8") && has(d, "ONESWEEP_SPIN_LIMIT=4096") &&
              has(d, "ONESWEEP_FALLBACK_ONLY=0") && has(d, "RADIX_GROUP_DIGIT_SCAN=1") && has(d, "RADIX_WARP_RANK=0") &&
              has(d, "ONESWEEP_LOOKBACK_WINDOW=1"));
  const RadixTempLayout l = radix_temp_layout(p);
  EXPECT_EQ(l.status, (1u << 20) / 2048 * 256 * 4);
  EXPECT_EQ(l.status2, l.status);
  EXPECT_EQ(l.counters, 4u * 4);
  EXPECT_EQ(l.counts, 0u);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1 << 20).portable_onesweep.lookback_window, 4u);  // keys only
  EXPECT_EQ(radix_temp_layout(choose(dev, key_type::u8, 0, 1 << 20)).status2, 0u);  // one pass
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 30).path, RadixPath::portable);   // 30-bit counts
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 1 << 20, {}, {.portable_onesweep = false}).path,
            RadixPath::portable);
  EXPECT_EQ(choose_radix_policy(cpu_device(), key_type::u32, 0, 1 << 20, {}, {.portable_onesweep = true}).path,
            RadixPath::portable_onesweep);
  EXPECT_EQ(parse_radix_policy_override("portable_onesweep=1,spin_limit=0,fallback_only=1").spin_limit, 0u);
  // never on CUDA, whatever the override says (radix_onesweep.cl at every n)
  for (std::optional<bool> portable : {std::optional<bool>{}, std::optional<bool>{true}, std::optional<bool>{false}})
    EXPECT_EQ(choose_radix_policy(cuda_device(), key_type::u32, 0, 1 << 20, {}, {.portable_onesweep = portable}).path,
              RadixPath::onesweep);
  // warp votes on NVIDIA's GPUs only, whole warps, and not when switched off
  DeviceDescription nvidia_cl = dev;
  nvidia_cl.vendor = "NVIDIA Corporation";
  EXPECT_TRUE(has(to_defines(choose(nvidia_cl, key_type::u32, 0, 1 << 20), RadixPath::portable_onesweep),
                  "RADIX_WARP_RANK=1"));
  EXPECT_FALSE(choose(nvidia_cl, key_type::u32, 0, 1 << 20, {.work_group_size = 48}).portable.warp_rank);
  EXPECT_FALSE(choose_radix_policy(nvidia_cl, key_type::u32, 0, 1 << 20, {}, {.warp_rank = false}).portable.warp_rank);
  EXPECT_FALSE(choose(cpu_device(), key_type::u32, 0, 1 << 20).portable.warp_rank);
}

// NVIDIA's OpenCL: radix_onesweep.cl below 2^30 keys, without the cp.async switches, tiles and
// histogram copies within 48 KiB of local memory (pairs staged after the keys when they no longer fit
// beside them), the register cap as a define, and buffers of their own (no views).
TEST(RadixPolicy, NvidiaOpenclOnesweep) {
  DeviceDescription dev = cpu_device();
  dev.is_gpu = true, dev.local_memory_bytes = 48 * 1024, dev.max_work_group_size = 1024, dev.compute_units = 132;
  dev.vendor = "NVIDIA Corporation";
  const RadixPolicy u32 = choose(dev, key_type::u32, 0, 1ull << 28);
  EXPECT_EQ(u32.path, RadixPath::onesweep);
  EXPECT_TRUE(u32.onesweep.opencl);
  EXPECT_EQ(u32.onesweep.items, 28u);  // CUDA's shape fits
  EXPECT_EQ(u32.onesweep.max_registers, 64u);
  EXPECT_FALSE(u32.onesweep.overlap_passes || u32.onesweep.early_trigger);  // OpenCL launches never overlap
  EXPECT_FALSE(choose(dev, key_type::u32, 0, 1 << 16).onesweep.early_trigger);
  const RadixPolicy forced =
      choose_radix_policy(dev, key_type::u32, 0, 1 << 22, {}, {.overlap_passes = true, .early_trigger = true});
  EXPECT_FALSE(forced.onesweep.overlap_passes || forced.onesweep.early_trigger);  // not even when asked
  const auto d = to_defines(u32, RadixPath::onesweep);
  EXPECT_TRUE(has(d, "GS_MAX_REGISTERS=64") && has(d, "ONESWEEP_PACKED_IN=0") && has(d, "ONESWEEP_PORTIONS=0"));
  EXPECT_EQ(u32.onesweep.hist_copies, 16u);  // 4 passes x 16 copies: 32 KiB
  EXPECT_FALSE(choose(dev, key_type::u64, 8, 1ull << 26).onesweep.uniform_count);  // timed on CUDA only
  EXPECT_TRUE(has(d, "RADIX_MATCH_IMMEDIATE=0"));  // CUDA's inline PTX form only
  EXPECT_FALSE(u32.onesweep.recompute_digit);        // CUDA's row for 4-byte keys was not timed here
  EXPECT_TRUE(has(to_defines(choose_radix_policy(dev, key_type::u32, 0, 1ull << 28, {}, {.match_immediate = 1}),
                             RadixPath::onesweep),
                  "RADIX_MATCH_IMMEDIATE=0"));  // not even when asked
  const RadixPolicy pairs = choose(dev, key_type::u32, 4, 1ull << 28);
  EXPECT_FALSE(pairs.onesweep.packed_pairs);
  EXPECT_FALSE(pairs.onesweep.split_stage);  // 28 x 256 x 8 staged bytes do not fit: values after the keys
  EXPECT_FALSE(pairs.onesweep.recompute_digit);
  EXPECT_EQ(pairs.onesweep.items, 24u);
  EXPECT_EQ(pairs.onesweep.min_blocks, 3u);
  EXPECT_EQ(pairs.onesweep.max_registers, 80u);
  EXPECT_TRUE(choose(dev, key_type::u8, 1, 1ull << 28).onesweep.split_stage);  // small pairs still fit
  {  // 8-byte keys with 8-byte values stay staged after their keys (CUDA stages them beside from 2^21)
    const OnesweepPolicy wide = choose(dev, key_type::u64, 8, 1ull << 22).onesweep;
    EXPECT_FALSE(wide.split_stage);
    EXPECT_EQ(wide.items, 16u);  // 24 x 256 x 8 staged bytes do not fit
    EXPECT_EQ(wide.min_blocks, 3u);
    // even where the beside layout would fit 48 KiB (8 items: 2048 x 16 bytes)
    const OnesweepPolicy small_tile = choose(dev, key_type::u64, 8, 1ull << 22, {.items_per_thread = 8}).onesweep;
    EXPECT_TRUE(!small_tile.split_stage && small_tile.items == 8 && small_tile.min_blocks == 3);
  }
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1ull << 28, {.items_per_thread = 20}).onesweep.items, 20u);  // explicit shape
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1ull << 28, {.items_per_thread = 32}).onesweep.items, 28u);  // shrunk to fit
  EXPECT_EQ(choose(dev, key_type::u64, 0, 1ull << 28).onesweep.hist_copies, 8u);
  for (key_type t : {key_type::u8, key_type::i16, key_type::u32, key_type::f32, key_type::u64, key_type::f64})
    for (std::size_t vb : {0, 1, 2, 4, 8, 16})
      for (std::uint64_t n : {std::uint64_t(5000), std::uint64_t(1) << 22, std::uint64_t(1) << 28}) {
        const RadixPolicy p = choose(dev, t, vb, n);
        const OnesweepPolicy& os = p.onesweep;
        ASSERT_EQ(p.path, RadixPath::onesweep) << key_type_name(t) << "/" << vb << " n " << n;
        EXPECT_LE(onesweep_pass_local_bytes(p) + onesweep_pass_static_local_bytes(os), dev.local_memory_bytes)
            << key_type_name(t) << "/" << vb << " n " << n;
        EXPECT_TRUE(os.opencl && !os.packed_pairs && os.snapshot == 0 && os.portion == 0);
        EXPECT_LE(onesweep_hist_local_bytes(p), dev.local_memory_bytes);
        EXPECT_LE(os.hist_spans.span, (std::uint64_t(1) << 15) * os.hist_copies);  // u16 lane counters
        EXPECT_EQ(os.max_registers, 65536 / (256 * os.min_blocks) / 8 * 8);
        const RadixTempLayout l = radix_temp_layout(p);  // no views of meta
        EXPECT_EQ(l.meta, l.hist);
        EXPECT_EQ(l.counters, p.passes * 4u);
        EXPECT_EQ(l.status, (n + os.tile() - 1) / os.tile() * 256 * 4);
        EXPECT_EQ(l.status2, p.passes > 1 ? l.status : 0u);
      }
  // small n: the single work-group; 2^30 keys: the portable passes; the override: the portable ones
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1000).path, RadixPath::single_group);
  EXPECT_EQ(choose(dev, key_type::u32, 0, 1ull << 30).path, RadixPath::portable);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 1 << 20, {}, {.portable_onesweep = true}).path,
            RadixPath::portable_onesweep);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 1 << 20, {}, {.portable_onesweep = false}).path,
            RadixPath::portable);
  EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 4, 1 << 20, {}, {.min_blocks = 2}).onesweep.max_registers, 128u);
  // the CUDA path keeps its one meta buffer and no cap define
  const RadixPolicy cuda = choose(cuda_device(), key_type::u32, 0, 1ull << 28);
  EXPECT_FALSE(cuda.onesweep.opencl);
  EXPECT_EQ(radix_temp_layout(cuda).counters, 0u);
  for (const std::string& def : to_defines(cuda, RadixPath::onesweep)) EXPECT_EQ(def.find("GS_MAX_REGISTERS"), std::string::npos);
  // CUDA's warp match tests digit bits against immediates, in the passes and the single tile, unless
  // the override asks for the masks' form
  EXPECT_TRUE(has(to_defines(cuda, RadixPath::onesweep), "RADIX_MATCH_IMMEDIATE=1"));
  EXPECT_TRUE(has(to_defines(choose(cuda_device(), key_type::f32, 4, 4096), RadixPath::single_tile), "RADIX_MATCH_IMMEDIATE=1"));
  EXPECT_TRUE(has(to_defines(choose_radix_policy(cuda_device(), key_type::u64, 8, 1ull << 24, {}, {.match_immediate = 0}),
                             RadixPath::onesweep),
                  "RADIX_MATCH_IMMEDIATE=0"));
}

TEST(RadixPolicy, OverrideSeam) {
  const auto dev = cuda_device();
  const RadixPolicyOverride o =
      parse_radix_policy_override("items=20,min_blocks=2,packed_pairs=0,,single_tile_max=0,bitonic_max=64,overlap_passes=0,early_trigger=1,"
                                  "uniform_count=1");
  EXPECT_EQ(o.items, 20u);
  EXPECT_EQ(o.uniform_count, true);
  EXPECT_EQ(o.min_blocks, 2u);
  EXPECT_EQ(o.packed_pairs, false);
  EXPECT_EQ(o.single_tile_max, 0u);
  EXPECT_EQ(o.bitonic_max, 64u);
  EXPECT_EQ(o.overlap_passes, false);
  EXPECT_EQ(o.early_trigger, true);
  EXPECT_FALSE(o.snapshot.has_value());
  EXPECT_FALSE(parse_radix_policy_override("").items.has_value());
  for (const char* bad : {"itemz=3", "items", "items=", "items=-1", "items=65", "packed_pairs=2", "uniform_count=2", "items=3x",
                          "packed_registers=0",  // the parked form is gone
                          // settled switches, gone with their kernels' other forms
                          "float_flag=0", "hist_blocks_per_sm=3", "segment_threads=512", "segment_rank=1", "segment_packed=1"})
    EXPECT_THROW(parse_radix_policy_override(bad), Error) << bad;
  {
    const ScopedRadixPolicyOverride scoped(o);
    const RadixPolicy p = choose_radix_policy(dev, key_type::u32, 4, 1ull << 26, {});
    EXPECT_EQ(p.onesweep.items, 20u);
    EXPECT_EQ(p.onesweep.min_blocks, 2u);
    EXPECT_FALSE(p.onesweep.packed_pairs);
    EXPECT_EQ(choose_radix_policy(dev, key_type::u32, 0, 100, {}).path, RadixPath::single_group);
  }
  EXPECT_FALSE(radix_policy_override().items.has_value());
  // packed pairs stay 4-byte keys with 4-byte values staged apart
  EXPECT_FALSE(choose_radix_policy(dev, key_type::u64, 8, 1 << 20, {}, {.packed_pairs = true}).onesweep.packed_pairs);
  EXPECT_TRUE(choose_radix_policy(dev, key_type::i32, 4, 1 << 20, {}, {.packed_pairs = true}).onesweep.packed_pairs);
}

TEST(RadixPolicy, DefinesAndLayout) {
  const auto dev = cuda_device();
  const RadixPolicy p = choose(dev, key_type::f32, 4, 1ull << 26);
  const auto d = to_defines(p, RadixPath::onesweep, true, false);
  for (const char* want : {"KEY_KIND=2", "ITEMS=24", "ONESWEEP_MIN_BLOCKS=3", "ONESWEEP_SPLIT_STAGE=1",
                           "ONESWEEP_RECOMPUTE_DIGIT=0", "ONESWEEP_LOOKBACK_SNAPSHOT=0", "RADIX_HIST_COPIES=32",
                           "ONESWEEP_PACKED_IN=1", "ONESWEEP_PACKED_OUT=0"})
    EXPECT_TRUE(has(d, want)) << want;
  EXPECT_EQ(radix_onesweep_program_defines(dev, key_type::f32, 4, 1ull << 26).size(), 4u);  // + 3 packed passes
  // one layout for the sort and its size query: ping-pong copies, the meta buffer, the second status buffer
  const RadixTempLayout l = radix_temp_layout(p);
  const std::uint64_t n = p.n, tiles = ceil_div(n, 256 * 24);
  EXPECT_EQ(l.keys, n * 4);
  EXPECT_EQ(l.values, n * 4);
  EXPECT_EQ(l.hist, 4 * 256 * 8 + 8);
  EXPECT_EQ(l.counters_offset, 12288u);  // the histograms rounded up to 4096
  EXPECT_EQ(l.status_offset, 16384u);
  EXPECT_EQ(l.status_bytes, tiles * 256 * 4);
  EXPECT_EQ(l.status2, l.status_bytes);
  EXPECT_EQ(l.total(), temp_request_bytes(l.keys) + temp_request_bytes(l.values) + temp_request_bytes(l.meta) +
                           temp_request_bytes(l.status2));
  EXPECT_EQ(radix_temp_layout(choose(dev, key_type::u32, 0, 4096)).total(), 0u);  // single tile
  // portions: 4096-aligned offsets blocks, counters for every launch, status words
  // for one portion, the second status buffer even for one pass
  const RadixPolicy big = choose(dev, key_type::u32, 0, (3ull << 29) + 5);
  ASSERT_EQ(big.path, RadixPath::onesweep);
  const OnesweepPolicy& os = big.onesweep;
  EXPECT_GT(os.portion, 0u);
  EXPECT_LE(os.portion, kOnesweepPortion);
  EXPECT_EQ(os.portion % (16 * os.tile()), 0u);  // portions start 4096-byte aligned
  EXPECT_FALSE(os.packed_pairs);
  EXPECT_TRUE(has(to_defines(big, RadixPath::onesweep), "ONESWEEP_PORTIONS=1536"));  // words between blocks
  EXPECT_TRUE(has(to_defines(p, RadixPath::onesweep), "ONESWEEP_PORTIONS=0"));
  const std::uint64_t parts = os.portions(big.n);
  EXPECT_EQ(parts, ceil_div(big.n, os.portion));
  const RadixTempLayout bl = radix_temp_layout(big);
  EXPECT_EQ(bl.block_stride, 12288u);
  EXPECT_EQ(bl.bases_offset, 12288u);                        // after the histogram
  EXPECT_EQ(bl.counters_offset, 12288u + (parts + 1) * 12288u);  // one block more than portions
  EXPECT_EQ(bl.status_bytes, ceil_div(os.portion, os.tile()) * 256 * 4);
  EXPECT_EQ(bl.meta, bl.status_offset + bl.status_bytes);
  const RadixPolicy forced = choose_radix_policy(dev, key_type::u8, 0, 300000, {}, {.portion = 1});
  EXPECT_EQ(forced.onesweep.portion, 16 * forced.onesweep.tile());  // at least 16 tiles
  EXPECT_GT(radix_temp_layout(forced).status2, 0u);                  // one pass, several launches
  EXPECT_EQ(parse_radix_policy_override("portion=65536").portion, 65536u);
  // every value width takes portions
  const RadixPolicy narrow = choose_radix_policy(dev, key_type::i16, 1, 300001, {}, {.portion = 1});
  EXPECT_EQ(narrow.onesweep.portion, 16 * narrow.onesweep.tile());
  EXPECT_EQ(choose(dev, key_type::u32, 2, 1ull << 30).path, RadixPath::onesweep);
  EXPECT_EQ(choose(dev, key_type::u32, 4, 1ull << 30).path, RadixPath::onesweep);
  const RadixTempLayout portable = radix_temp_layout(choose(cpu_device(), key_type::u8, 0, 100000));
  EXPECT_EQ(portable.status2, 0u);
  EXPECT_GT(portable.counts, 0u);
}

// The class key tuning rows are chosen by: CUDA's compute capability and model, OpenCL's vendor and
// architecture, every CPU alike.
TEST(RadixTuning, DeviceClassKeys) {
  DeviceDescription h100 = cuda_device();
  h100.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(device_class(h100), "cuda:sm_90:H100");
  EXPECT_EQ(device_class(cuda_device()), "cuda:sm_90:H200");
  DeviceDescription a100 = cuda_device();
  a100.name = "NVIDIA A100-SXM4-80GB", a100.architecture = "sm_80";
  EXPECT_EQ(device_class(a100), "cuda:sm_80:A100");
  DeviceDescription nameless = cuda_device();
  nameless.name = "", nameless.architecture = "";
  EXPECT_EQ(device_class(nameless), "cuda:unknown:unknown");
  DeviceDescription nvidia_cl = cuda_device();
  nvidia_cl.backend = "opencl";
  EXPECT_EQ(device_class(nvidia_cl), "opencl:nvidia:sm_90");
  DeviceDescription amd = nvidia_cl;
  amd.vendor = "Advanced Micro Devices, Inc.", amd.name = "gfx90a", amd.architecture = "gfx90a";
  EXPECT_EQ(device_class(amd), "opencl:amd:gfx90a");
  DeviceDescription pocl = cpu_device();
  pocl.vendor = "AuthenticAMD", pocl.architecture = "cpu";
  EXPECT_EQ(device_class(pocl), "cpu");
  EXPECT_EQ(device_class(cpu_device()), "cpu");
}

// Rows are picked by that class: each measured device its own, a device nobody measured the generic
// row (no cp.async forms, no segments by default), every CPU the CPU's.
TEST(RadixTuning, RowsPickedByDeviceClass) {
  DeviceDescription h100 = cuda_device();
  h100.name = "NVIDIA H100 80GB HBM3";
  EXPECT_STREQ(radix_tuning_for(cuda_device()).name, "sm90-h200");
  EXPECT_STREQ(radix_tuning_for(h100).name, "sm90-h100");
  EXPECT_STREQ(radix_tuning_for(h100).measured_on, "cuda:sm_90:H200");  // its values are the H200's so far
  DeviceDescription gh200 = cuda_device();  // same architecture, another model: not assumed alike
  gh200.name = "NVIDIA GH200 480GB";
  DeviceDescription turing = cuda_device();
  turing.name = "NVIDIA GeForce RTX 2080", turing.architecture = "sm_75", turing.local_memory_bytes = 64 * 1024;
  for (const DeviceDescription& unknown : {gh200, turing}) {
    const RadixTuning& row = radix_tuning_for(unknown);
    EXPECT_STREQ(row.name, "gpu-generic") << device_class(unknown);
    // u64 keys (snapshot on the H200), u32/u32 (packed, then segments), u32 at 2^28 (segments)
    EXPECT_EQ(choose(unknown, key_type::u64, 0, 1ull << 24).onesweep.snapshot, 0u);
    EXPECT_FALSE(choose(unknown, key_type::u32, 4, 1ull << 27).onesweep.packed_pairs);
    EXPECT_EQ(choose(unknown, key_type::u32, 0, 1ull << 28).segments.threads, 0u);
    EXPECT_EQ(choose(unknown, key_type::u32, 0, 1ull << 24).path, RadixPath::onesweep);
    for (const auto& defines : radix_onesweep_program_defines(unknown, key_type::u32, 4, 1ull << 28))
      EXPECT_TRUE(has(defines, "ONESWEEP_PACKED_IN=0") && has(defines, "ONESWEEP_PACKED_OUT=0"));
  }
  EXPECT_EQ(choose(cuda_device(), key_type::u64, 0, 1ull << 24).onesweep.snapshot, 4u);
  EXPECT_TRUE(choose(cuda_device(), key_type::u32, 4, 1ull << 27).onesweep.packed_pairs);
  EXPECT_GT(choose(cuda_device(), key_type::u32, 0, 1ull << 28).segments.threads, 0u);
  // the H100's row gives the H200's defines, program by program
  for (auto [t, vb, n] : {std::tuple{key_type::u32, 4, 1ull << 28}, {key_type::u64, 0, 1ull << 24}, {key_type::f32, 0, 1ull << 20}})
    EXPECT_EQ(radix_onesweep_program_defines(h100, t, std::size_t(vb), n),
              radix_onesweep_program_defines(cuda_device(), t, std::size_t(vb), n));
  // the override still reaches what a row leaves off
  EXPECT_TRUE(choose_radix_policy(gh200, key_type::u32, 4, 1 << 24, {}, {.packed_pairs = true}).onesweep.packed_pairs);
  DeviceDescription nvidia_cl = cuda_device();
  nvidia_cl.backend = "opencl", nvidia_cl.local_memory_bytes = 48 * 1024;
  EXPECT_STREQ(radix_tuning_for(nvidia_cl).name, "sm90-nvidia-opencl");
  nvidia_cl.architecture = "";  // a driver without the compute capability query
  EXPECT_STREQ(radix_tuning_for(nvidia_cl).name, "gpu-generic");
  DeviceDescription pocl = cpu_device();
  pocl.name = "cpu-haswell-AMD EPYC", pocl.architecture = "cpu";
  EXPECT_STREQ(radix_tuning_for(pocl).name, "cpu");
  EXPECT_EQ(choose(pocl, key_type::u32, 0, 1 << 20).portable.group, 64u);
  EXPECT_EQ(choose(pocl, key_type::u32, 0, 1 << 20).path, RadixPath::portable);
  // the policy names its row
  EXPECT_EQ(choose(h100, key_type::u32, 0, 1 << 20).tuning, &radix_tuning_for(h100));
  // the class patterns: a whole key or a prefix ending at ':'; "" matches every class
  EXPECT_TRUE(tuning_class_matches("cuda", "cuda:sm_90:H100"));
  EXPECT_FALSE(tuning_class_matches("cuda:sm_9", "cuda:sm_90:H100"));
  EXPECT_TRUE(tuning_class_matches("", "opencl:amd:gfx90a"));
  EXPECT_FALSE(tuning_class_matches("cuda:sm_90:H100", "cuda:sm_90:H1000"));
}

// describe(): the row, the device class it was measured on, the path and its shapes.
TEST(RadixTuning, DescribePrintsRowAndShapes) {
  const auto joined = [](const RadixPolicy& p) {
    std::string all;
    for (const std::string& line : describe(p)) all += line + "\n";
    return all;
  };
  const std::string h200 = joined(choose(cuda_device(), key_type::u32, 4, 1ull << 28));
  EXPECT_NE(h200.find("tuning row sm90-h200 (measured on cuda:sm_90:H200)"), std::string::npos) << h200;
  EXPECT_NE(h200.find("path: onesweep (radix_onesweep.cl)"), std::string::npos) << h200;
  EXPECT_NE(h200.find("256 threads x 24 items, 3 blocks per SM"), std::string::npos) << h200;
  EXPECT_NE(h200.find("packed pairs on,"), std::string::npos) << h200;
  EXPECT_NE(h200.find("segments (radix_segments.cl): 256 threads x 18 items"), std::string::npos) << h200;
  EXPECT_NE(h200.find("interleaved on"), std::string::npos) << h200;
  EXPECT_NE(h200.find("temporaries: "), std::string::npos) << h200;
  const std::string cpu = joined(choose(cpu_device(), key_type::u32, 0, 1 << 20));
  EXPECT_NE(cpu.find("tuning row cpu (measured on cpu)"), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("path: portable passes (radix_passes.cl)"), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("tiles: 64 work-items x 16 items"), std::string::npos) << cpu;
  const std::string small = joined(choose(cuda_device(), key_type::u32, 0, 1000));
  EXPECT_NE(small.find("bitonic network of 2^10 elements"), std::string::npos) << small;
  EXPECT_NE(joined(RadixPolicy{}).find("tuning row: none"), std::string::npos);
}

}  // namespace
}  // namespace gpusort::algo
