// The long-row bin of segmented sorts (algorithms/segmented/segmented_onesweep.hpp, CUDA only: skipped
// without a CUDA device). The driver is called directly on uniform rows and each row is compared
// with std::stable_sort of that row: keys bit for bit (so -0/+0 and NaN payloads keep their input
// order), values as the stable reference's positions. Rows 1, 3 and 64 of lengths just above the
// tile, 4097, 65537 and 131072 + 7; keys alone, pairs and argsort with positions local to the row;
// both orders; f32 with NaN and -0, u32, i64, f16, u8 (one pass: the odd count's copy); in place and
// out of place (the input left alone); rows of even length whose pairs move packed. Without a GPU,
// the kernel file's every program for two shapes is compiled by NVRTC for sm_90.
// GPUSORT_SEGMENTED_ONESWEEP_TIMING=1 also times the bin on 64 x 128256 and 4096 x 32768 (f32 keys with
// u32 values and argsort; CUDA events, median of 7 after a warm-up) beside a copy of keys and values.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <vector>

#include "algorithms/drivers.hpp"
#include "algorithms/segmented/segmented_onesweep.hpp"
#include "gpusort/device_array.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/kernel_sources.hpp"
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// The first CUDA device, opened once; nullptr without one.
Context* cuda_context() {
  static std::unique_ptr<Context> ctx = []() -> std::unique_ptr<Context> {
    for (const DeviceDescription& d : list_devices())
      if (d.backend == "cuda") return std::make_unique<Context>(d.id);
    return nullptr;
  }();
  return ctx.get();
}

#define REQUIRE_CUDA()                                                  \
  Context* ctx_ptr = cuda_context();                                    \
  if (!ctx_ptr) GTEST_SKIP() << "no CUDA device: the bin is CUDA-only"; \
  Context& ctx = *ctx_ptr

enum class Mode { keys, pairs, argsort };

// Keys one above the bin's tile for this shape (its 1-D onesweep tile shrinks for small arrays).
std::uint64_t tile_of(Context& ctx, key_type type, std::size_t vb, std::uint64_t rows, std::uint64_t length) {
  const auto p = algo::choose_segmented_onesweep_policy(ctx.runtime_device().description(), type, vb, rows, length, {});
  return p.radix.onesweep.tile();
}

// Sorts rows x length keys of distribution d with the bin and checks every row against the host's
// stable sort. V: the values' type (positions within the row; unused for keys alone).
template <class K, class V = std::uint32_t>
void check_rows(Context& ctx, std::uint64_t rows, std::uint64_t length, dist d, order o, Mode mode, bool out_of_place) {
  const std::uint64_t n = rows * length;
  const std::uint64_t seed = fresh_seed();
  const std::vector<K> input = make_keys<K>(n, d, seed);
  std::vector<V> values(n);
  for (std::uint64_t i = 0; i < n; ++i) values[i] = static_cast<V>(i % length);
  const std::size_t vb = mode == Mode::keys ? 0 : sizeof(V);
  const SortOptions options{.order = o, .stable = true};

  DeviceArray<K> keys_in(ctx, std::span<const K>(input));
  std::optional<DeviceArray<K>> keys_out;
  if (out_of_place) keys_out.emplace(ctx, n);
  std::optional<DeviceArray<V>> values_in, values_out;
  if (mode == Mode::pairs) values_in.emplace(ctx, std::span<const V>(values));
  if (mode != Mode::keys && (out_of_place || mode == Mode::argsort)) values_out.emplace(ctx, n);
  rt::Buffer& keys = out_of_place ? keys_out->buffer().runtime_buffer() : keys_in.buffer().runtime_buffer();
  rt::Buffer* vals = mode == Mode::keys ? nullptr
                     : values_out       ? &values_out->buffer().runtime_buffer()
                                        : &values_in->buffer().runtime_buffer();
  algo::SortJob job{ctx.runtime_device(), key_type_of<K>::value, n, vb, keys, vals, options};
  if (out_of_place) {
    job.keys_in = &keys_in.buffer().runtime_buffer();
    if (mode == Mode::pairs) job.values_in = &values_in->buffer().runtime_buffer();
  }
  job.values_are_positions = mode == Mode::argsort;
  algo::SegmentedJob sj{job, algo::SegmentShape{.count = rows, .row_length = length}};
  const std::string what = "rows=" + std::to_string(rows) + " length=" + std::to_string(length) + " dist=" +
                           dist_name(d) + (o == order::descending ? " descending" : " ascending") +
                           (mode == Mode::keys ? " keys" : mode == Mode::pairs ? " pairs" : " argsort") +
                           (out_of_place ? " out of place" : " in place") + " value bytes=" + std::to_string(vb) +
                           " seed=" + std::to_string(seed);
  ASSERT_TRUE(algo::segmented_onesweep_takes(sj)) << what;
  algo::segmented_onesweep_sort(sj);
  EXPECT_FALSE(job.values_are_positions) << "the bin makes the positions itself";

  std::vector<K> got(n);
  (out_of_place ? *keys_out : keys_in).download(got);
  std::vector<V> got_values(mode == Mode::keys ? 0 : n);
  if (mode != Mode::keys) (values_out ? *values_out : *values_in).download(got_values);
  const key_less<K> less{o};
  std::vector<std::uint64_t> ref(length);
  for (std::uint64_t r = 0; r < rows; ++r) {
    const K* row = input.data() + r * length;
    std::iota(ref.begin(), ref.end(), std::uint64_t(0));
    std::stable_sort(ref.begin(), ref.end(), [&](std::uint64_t a, std::uint64_t b) { return less(row[a], row[b]); });
    for (std::uint64_t i = 0; i < length; ++i) {
      ASSERT_TRUE(same_bits(got[r * length + i], row[ref[i]])) << what << ": row " << r << " key " << i;
      if (mode != Mode::keys) ASSERT_EQ(std::uint64_t(got_values[r * length + i]), ref[i]) << what << ": row " << r << " value " << i;
    }
  }
  if (out_of_place) {  // the input is only read
    std::vector<K> after(n);
    keys_in.download(after);
    ASSERT_TRUE(std::memcmp(after.data(), input.data(), n * sizeof(K)) == 0) << what << ": the input keys changed";
    if (mode == Mode::pairs) {
      std::vector<V> values_after(n);
      values_in->download(values_after);
      ASSERT_EQ(values_after, values) << what << ": the input values changed";
    }
  }
}

// Rows 1, 3 and 64 of lengths just above a whole number of tiles (the fewest the bin takes), 4097,
// 65537 and 131072 + 7.
template <class K, class V = std::uint32_t>
void check_shapes(Context& ctx, dist d, Mode mode) {
  const std::size_t vb = mode == Mode::keys ? 0 : sizeof(V);
  bool out_of_place = false;
  for (std::uint64_t rows : {1, 3, 64})
    for (std::uint64_t length : {std::uint64_t(0), std::uint64_t(4097), std::uint64_t(65537), std::uint64_t(131072 + 7)})
      for (order o : {order::ascending, order::descending}) {
        const std::uint64_t min = algo::segmented_onesweep_tuning_for(ctx.runtime_device().description()).min_row_length;
        const std::uint64_t tile = tile_of(ctx, key_type_of<K>::value, vb, rows, min);
        const std::uint64_t len = length ? length : (min - 1 + tile - 1) / tile * tile + 1;
        check_rows<K, V>(ctx, rows, len, d, o, mode, out_of_place);
        if (::testing::Test::HasFatalFailure()) return;
        out_of_place = !out_of_place;
      }
}

TEST(SegmentedOnesweep, FloatKeysWithNanAndZeros) {
  REQUIRE_CUDA();
  check_shapes<float>(ctx, dist::specials, Mode::keys);
}

TEST(SegmentedOnesweep, FloatPairsAndArgsort) {
  REQUIRE_CUDA();
  check_shapes<float, std::uint32_t>(ctx, dist::specials, Mode::pairs);
  check_shapes<float, std::uint32_t>(ctx, dist::uniform, Mode::argsort);
  check_shapes<float, std::uint64_t>(ctx, dist::few_unique, Mode::argsort);
}

TEST(SegmentedOnesweep, IntegerKeys) {
  REQUIRE_CUDA();
  check_shapes<std::uint32_t>(ctx, dist::uniform, Mode::keys);
  check_shapes<std::int64_t, std::uint64_t>(ctx, dist::few_unique, Mode::pairs);
  check_shapes<std::int64_t>(ctx, dist::entropy, Mode::keys);
}

TEST(SegmentedOnesweep, HalfKeys) {
  REQUIRE_CUDA();
  check_shapes<half_bits>(ctx, dist::specials, Mode::keys);
  check_shapes<half_bits, std::uint32_t>(ctx, dist::specials, Mode::argsort);
}

// One pass (8-bit keys): in place the input is sorted from a copy in the temporaries.
TEST(SegmentedOnesweep, OnePassKeys) {
  REQUIRE_CUDA();
  for (bool out : {false, true}) {
    check_rows<std::uint8_t>(ctx, 3, 65537, dist::uniform, order::descending, Mode::keys, out);
    check_rows<std::uint8_t, std::uint32_t>(ctx, 3, 65537, dist::uniform, order::ascending, Mode::pairs, out);
    check_rows<std::int8_t, std::uint32_t>(ctx, 64, 4097, dist::uniform, order::descending, Mode::argsort, out);
  }
}

// Many equal keys per row, descending: stability (equal keys keep their input order).
TEST(SegmentedOnesweep, StableDescending) {
  REQUIRE_CUDA();
  for (dist d : {dist::all_equal, dist::few_unique, dist::sorted})
    for (bool out : {false, true}) check_rows<float, std::uint32_t>(ctx, 3, 131072 + 7, d, order::descending, Mode::pairs, out);
}

// Rows of even length with enough pairs in all: the passes between the first and the last move the
// pairs packed in 8-byte words (radix_packed_pairs.h), each row's within the row's parts of the buffers.
TEST(SegmentedOnesweep, PackedPairsOnEvenRows) {
  REQUIRE_CUDA();
  const DeviceDescription& desc = ctx.runtime_device().description();
  for (auto [type, rows] : {std::pair{key_type::u32, 64}, {key_type::i32, 64}, {key_type::f32, 256}})
    if (!algo::choose_segmented_onesweep_policy(desc, type, 4, rows, 65538, {}).radix.onesweep.packed_pairs)
      GTEST_SKIP() << "this device's tuning packs no pairs at these shapes";
  for (bool out : {false, true}) {
    check_rows<std::uint32_t, std::uint32_t>(ctx, 64, 65538, dist::few_unique, order::descending, Mode::pairs, out);
    check_rows<std::int32_t, std::uint32_t>(ctx, 64, 65538, dist::uniform, order::ascending, Mode::argsort, out);
  }
  check_rows<float, std::uint32_t>(ctx, 256, 65538, dist::specials, order::descending, Mode::pairs, true);
  EXPECT_FALSE(algo::choose_segmented_onesweep_policy(desc, key_type::u32, 4, 64, 65537, {}).radix.onesweep.packed_pairs)
      << "odd rows would start packed pairs 4-byte aligned";
}

// Which shapes the bin takes (no device needed: the descriptions alone).
TEST(SegmentedOnesweep, TakesLongUniformRowsOnCudaOnly) {
  DeviceDescription cuda;
  cuda.backend = "cuda", cuda.vendor = "NVIDIA Corporation", cuda.name = "NVIDIA H100 80GB HBM3";
  cuda.architecture = "sm_90", cuda.compute_units = 132, cuda.local_memory_bytes = 227 * 1024;
  cuda.max_work_group_size = 1024, cuda.is_gpu = true;
  const std::uint64_t min = algo::segmented_onesweep_tuning_for(cuda).min_row_length;
  EXPECT_TRUE(algo::segmented_onesweep_takes_shape(cuda, key_type::f32, 4, 64, 128256, {}));
  EXPECT_TRUE(algo::segmented_onesweep_takes_shape(cuda, key_type::f32, 4, 1, min, {}));
  EXPECT_FALSE(algo::segmented_onesweep_takes_shape(cuda, key_type::f32, 4, 1, min - 1, {}));
  EXPECT_FALSE(algo::segmented_onesweep_takes_shape(cuda, key_type::f32, 4, 4, 1ull << 30, {}));  // 30-bit counts
  EXPECT_FALSE(algo::segmented_onesweep_takes_shape(cuda, key_type::f32, 2, 64, 128256, {}, true));  // positions: 4 or 8 bytes
  EXPECT_FALSE(algo::segmented_onesweep_takes_shape(cuda, key_type::u32, 0, 64, 128256, {.comparator = "return a < b;"}));
  DeviceDescription cpu = cuda;
  cpu.backend = "opencl";
  cpu.is_gpu = false;
  EXPECT_FALSE(algo::segmented_onesweep_takes_shape(cpu, key_type::f32, 4, 64, 128256, {}));
  // the plan names the passes and the rows' tiles
  const auto steps = algo::segmented_onesweep_plan_steps(cuda, key_type::f32, 4, 64, 128256, {});
  ASSERT_GE(steps.size(), 3u);
  EXPECT_NE(steps[1].find("64 rows x 128256 keys"), std::string::npos) << steps[1];
}

// The kernel file as NVRTC builds it for the H100, every key type and value width (the build matrix:
// test::build_matrix_takes) at two shapes (the tile shape depends on the rows), the packed passes'
// forms included: ptxas failures show up without a GPU.
TEST(SegmentedOnesweepBuild, EveryKeyTypeAndValueWidthCompilesForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  DeviceDescription h100;
  h100.backend = "cuda", h100.is_gpu = true, h100.compute_units = 132, h100.vendor = "NVIDIA Corporation";
  h100.name = "NVIDIA H100 80GB HBM3", h100.architecture = "sm_90";
  h100.local_memory_bytes = 227 * 1024, h100.max_work_group_size = 1024;
  const std::string source = rt::assemble_kernel_source("segmented_onesweep.cl");
  std::set<std::string> built;
  for (key_type type : test::kernel_key_types) {
    for (std::size_t value_bytes : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(8), std::size_t(16)}) {
      if (!test::build_matrix_takes(type, value_bytes)) continue;
      for (auto [rows, length] : {std::pair<std::uint64_t, std::uint64_t>{64, 128256}, {4096, 32768}})
        for (const auto& defines : algo::segmented_onesweep_program_defines(h100, type, value_bytes, rows, length)) {
          std::string all;
          for (const auto& d : defines) all += " " + d;
          if (!built.insert(all).second) continue;
          EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "")
              << key_type_name(type) << " keys, " << value_bytes << "-byte values, " << rows << " x " << length << ":" << all;
        }
    }
  }
  EXPECT_GE(built.size(), test::full_build_matrix() ? 60u : 30u);
}

// Not a check: prints the bin's device time on the long-row shapes (f32 keys; u32 values or
// argsort positions), out of place, with a copy of keys and values beside it.
TEST(SegmentedOnesweep, Timing) {
  const char* env = std::getenv("GPUSORT_SEGMENTED_ONESWEEP_TIMING");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "GPUSORT_SEGMENTED_ONESWEEP_TIMING=1 times the bin";
  REQUIRE_CUDA();
  rt::Device& dev = ctx.runtime_device();
  // GPUSORT_SEGMENTED_ONESWEEP_ITEMS=16,24: keys per thread to time beside the default (0)
  std::vector<std::size_t> items_list{0};
  if (const char* items = std::getenv("GPUSORT_SEGMENTED_ONESWEEP_ITEMS"))
    for (const char* c = items; *c;) {
      char* end = nullptr;
      items_list.push_back(std::strtoul(c, &end, 10));
      c = *end ? end + 1 : end;
    }
  for (auto [rows, length] : {std::pair<std::uint64_t, std::uint64_t>{64, 128256}, {4096, 32768}}) {
    const std::uint64_t n = rows * length;
    const std::vector<float> host = make_keys<float>(n, dist::uniform, fresh_seed());
    DeviceArray<float> kin(ctx, std::span<const float>(host)), kout(ctx, n);
    DeviceArray<std::uint32_t> vin(ctx, n), vout(ctx, n);
    const auto median_ms = [&](auto&& run) {
      run();  // warm-up: program builds, pool temporaries
      std::vector<double> ms;
      for (int i = 0; i < 7; ++i) {
        auto start = dev.record();
        run();
        auto stop = dev.record();
        stop->wait();
        ms.push_back(stop->elapsed_ms_since(*start));
      }
      std::sort(ms.begin(), ms.end());
      return ms[3];
    };
    // the bin (or, segmented false, the 1-D radix sort of all rows x length keys as one array)
    const auto sort = [&](bool argsort, bool values, const SortOptions& options, bool segmented = true) {
      algo::SortJob job{dev, key_type::f32, n, values ? 4u : 0u, kout.buffer().runtime_buffer(),
                        values ? &vout.buffer().runtime_buffer() : nullptr, options};
      job.keys_in = &kin.buffer().runtime_buffer();
      if (values && !argsort) job.values_in = &vin.buffer().runtime_buffer();
      job.values_are_positions = argsort;
      algo::SegmentedJob sj{job, algo::SegmentShape{.count = rows, .row_length = length}};
      if (segmented)
        algo::segmented_onesweep_sort(sj);
      else
        algo::radix_sort(job);
    };
    const double copy = median_ms([&] {
      dev.copy(kin.buffer().runtime_buffer(), 0, kout.buffer().runtime_buffer(), 0, n * 4);
      dev.copy(vin.buffer().runtime_buffer(), 0, vout.buffer().runtime_buffer(), 0, n * 4);
    });
    const SortOptions stable{.stable = true};
    std::printf("%llu x %llu f32 (%s): copy keys+values %.3f ms; 1-D radix of all keys: keys %.3f ms, pairs %.3f ms\n",
                (unsigned long long)rows, (unsigned long long)length, dev.description().name.c_str(), copy,
                median_ms([&] { sort(false, false, stable, false); }), median_ms([&] { sort(false, true, stable, false); }));
    for (std::size_t items : items_list) {
      const SortOptions options{.stable = true, .items_per_thread = items};
      const auto p = algo::choose_segmented_onesweep_policy(dev.description(), key_type::f32, 4, rows, length, options);
      const auto pk = algo::choose_segmented_onesweep_policy(dev.description(), key_type::f32, 0, rows, length, options);
      std::printf("  items %zu (keys %u x %llu tiles/row, pairs %u x %llu tiles/row, min_blocks %u): keys %.3f ms; "
                  "pairs (u32 values) %.3f ms; argsort (u32 positions made) %.3f ms\n",
                  items, pk.radix.onesweep.items, (unsigned long long)pk.tiles_per_row, p.radix.onesweep.items,
                  (unsigned long long)p.tiles_per_row, p.radix.onesweep.min_blocks,
                  median_ms([&] { sort(false, false, options); }), median_ms([&] { sort(false, true, options); }),
                  median_ms([&] { sort(true, true, options); }));
    }
  }
}

}  // namespace
}  // namespace gpusort::test
