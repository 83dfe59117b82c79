// The onesweep program (kernels/radix_onesweep.cl) and the single tile's (radix_single_tile.cl), as CUDA's
// NVRTC builds them, for every key type and value width (the build matrix: test::build_matrix_takes) with
// the radix driver's defaults. NVRTC compiles them for sm_90 here, without a GPU, so a ptxas failure shows
// up in CI rather than on a user's GPU: ptxas 13.0 fails on some forms of the warp match with "Register
// allocation failed with register count of '7'" (see radix_match_peers_full; the driver falls back to the
// masks' form where it does, radix_sort.cpp). Sorts of 2^30 keys and more take the portions' form
// (ONESWEEP_PORTIONS).
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "algorithms/radix_policy.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/kernel_sources.hpp"
#include "support/key_types.hpp"

namespace gpusort {
namespace {

// The defines depend on the SM count (the early trigger).
DeviceDescription h100_description() {
  DeviceDescription h100;
  h100.backend = "cuda", h100.is_gpu = true, h100.compute_units = 132;
  h100.name = "NVIDIA H100 80GB HBM3", h100.architecture = "sm_90";
  h100.local_memory_bytes = 227 * 1024, h100.max_work_group_size = 1024;
  return h100;
}

TEST(RadixOnesweepBuild, EveryKeyTypeAndValueWidthCompilesForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const DeviceDescription h100 = h100_description();
  const std::string source = rt::assemble_kernel_source("radix_onesweep.cl");
  std::set<std::string> built;  // the tile shape depends on n: small and large sorts, each variant once
  for (key_type type : test::kernel_key_types) {
    for (std::size_t value_bytes : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(8), std::size_t(16)}) {
      if (!test::build_matrix_takes(type, value_bytes)) continue;
      // 2^31: the portions' form (64-bit positions), for the common value widths
      for (std::uint64_t n : {std::uint64_t(1) << 16, std::uint64_t(1) << 23, std::uint64_t(1) << 28, std::uint64_t(1) << 31}) {
        if (n > (std::uint64_t(1) << 28) && value_bytes != 0 && value_bytes != 4 && value_bytes != 8) continue;
        for (const auto& defines : algo::radix_onesweep_program_defines(h100, type, value_bytes, n)) {
          std::string all;
          for (const auto& d : defines) all += " " + d;
          if (!built.insert(all).second) continue;
          EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "")
              << key_type_name(type) << " keys, " << value_bytes << "-byte values, n = " << n << ":" << all;
        }
      }
    }
  }
  EXPECT_GE(built.size(), test::full_build_matrix() ? 60u : 30u);
}

// Each switch's other form than the defaults' at 2^28: RADIX_UNIFORM_COUNT (override uniform_count)
// and the warp match with its bit masks in constant memory (match_immediate=0: the form the driver
// builds where ptxas fails on the default's bit tests against immediates).
TEST(RadixOnesweepBuild, OtherFormsCompileForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const DeviceDescription h100 = h100_description();
  const std::string onesweep = rt::assemble_kernel_source("radix_onesweep.cl");
  for (auto [type, value_bytes] : {std::pair{key_type::u32, std::size_t(0)}, {key_type::f32, std::size_t(4)},
                                   {key_type::u64, std::size_t(0)}, {key_type::u64, std::size_t(8)},
                                   {key_type::u16, std::size_t(8)}}) {
    const std::uint64_t n = std::uint64_t(1) << 28;
    const bool other = !algo::choose_radix_policy(h100, type, value_bytes, n, SortOptions{}).onesweep.uniform_count;
    for (const algo::RadixPolicyOverride& o :
         {algo::RadixPolicyOverride{.uniform_count = other}, algo::RadixPolicyOverride{.match_immediate = 0}}) {
      const algo::RadixPolicy p = algo::choose_radix_policy(h100, type, value_bytes, n, SortOptions{}, o);
      const std::string form = o.uniform_count ? "uniform_count " + std::to_string(other) : "match_immediate 0";
      ASSERT_EQ(p.onesweep.uniform_count, o.uniform_count.value_or(!other)) << form;
      ASSERT_EQ(p.onesweep.match_immediate, o.match_immediate ? 0u : 1u) << form;
      EXPECT_EQ(rt::nvrtc_compile_check(onesweep, rt::nvrtc_options(algo::to_defines(p, algo::RadixPath::onesweep), "sm_90")), "")
          << key_type_name(type) << ", " << value_bytes << "-byte values, " << form;
    }
  }
}

// The single tile of small CUDA sorts is a program of its own (radix_single_tile.cl): all its shapes
// for every key type it serves (not complex keys: it moves images, which have no inverse for them)
// and value width.
TEST(RadixOnesweepBuild, SingleTileCompilesForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const std::string source = rt::assemble_kernel_source("radix_single_tile.cl");
  for (key_type type : test::kernel_key_types) {
    if (is_complex(type)) continue;
    for (std::size_t value_bytes : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(8), std::size_t(16)}) {
      if (!test::build_matrix_takes(type, value_bytes)) continue;
      const auto defines = algo::radix_single_tile_program_defines(algo::radix_tuning_for(h100_description()), type, value_bytes);
      EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "")
          << key_type_name(type) << " keys, " << value_bytes << "-byte values";
    }
  }
}

// The segments' program (radix_segments.cl: keys of 32 or 64 bits), all its shapes, with the register
// cap of the widths' row: its own form of the tiles' passes for every key type and value width (the
// define sets the sorts build), both forms (SegmentPolicy::rank_first) for u32 and u64 keys alone and
// with values of their width and for f32 keys alone, and 4-byte integer pairs read unpacked (their
// row's are interleaved) (each build takes about 2 s here).
TEST(RadixOnesweepBuild, SegmentsCompileForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const std::string source = rt::assemble_kernel_source("radix_segments.cl");
  int built = 0;
  const auto build = [&](key_type type, std::size_t value_bytes, std::optional<bool> rank_first,
                         std::optional<bool> interleaved = std::nullopt) {
    const auto defines = algo::radix_segments_program_defines(
        algo::radix_tuning_for(h100_description()), type, value_bytes, rank_first, interleaved);
    EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "")
        << key_type_name(type) << " keys, " << value_bytes << "-byte values, "
        << (!rank_first ? "the row's form" : *rank_first ? "rank first" : "count first");
    ++built;
  };
  for (key_type type : test::kernel_key_types) {
    if (key_size(type) < 4 || is_complex(type)) continue;  // complex keys never take the segments
    for (std::size_t value_bytes : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(8), std::size_t(16)})
      if (test::build_matrix_takes(type, value_bytes)) build(type, value_bytes, std::nullopt);
  }
  for (key_type type : {key_type::u32, key_type::u64, key_type::f32})
    for (std::size_t value_bytes : {std::size_t(0), key_size(type)})
      if (type != key_type::f32 || value_bytes == 0)
        for (bool rank_first : {false, true}) build(type, value_bytes, rank_first);
  // 4-byte pairs unpacked (the row's are interleaved)
  build(key_type::u32, 4, std::nullopt, false);
  EXPECT_EQ(built, (test::full_build_matrix() ? 36 : 6 + 2 * 5) + 5 * 2 + 1);
}

}  // namespace
}  // namespace gpusort
