// Top-k's entry points (gpusort/topk.hpp): host data (new vectors, spans, keys alone), DeviceArray,
// and the caller's OpenCL memory and queue, each against the host reference (stable sort of each
// row, its first k); the input is never written, and a refused request writes nothing.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpusort/topk.hpp"
#include "support/caller_opencl.hpp"
#include "support/topk_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

TEST(TopkApi, HostVectorsLikeTorchTopk) {
  const auto keys = make_keys<float>(4 * 5000, dist::specials, fresh_seed());
  const auto input = keys;
  const auto best = topk(test_context(), std::span<const float>(keys), 50, {.rows = 4});
  EXPECT_TRUE(topk_like_reference(keys, 4, 50, true, true, best.values, &best.indices));
  EXPECT_EQ(0, std::memcmp(keys.data(), input.data(), keys.size() * sizeof(float)));
  EXPECT_EQ(best.report.algorithm.rfind("topk radix-select + segmented", 0), 0u) << best.report.algorithm;
  // 1-D, smallest, unsorted, 32-bit indices
  const auto low = topk<float, std::int32_t>(test_context(), std::span<const float>(keys), 333,
                                             {.largest = false, .sorted = false});
  EXPECT_TRUE(topk_like_reference(keys, 1, 333, false, false, low.values, &low.indices));
  EXPECT_EQ(low.report.algorithm, "topk radix-select");
}

TEST(TopkApi, KeysAloneAndTheEdgesOfK) {
  const auto keys = make_keys<std::int64_t>(3 * 777, dist::few_unique, fresh_seed());
  for (std::uint64_t k : {0ull, 1ull, 776ull, 777ull}) {
    std::vector<std::int64_t> values(3 * k);
    topk_keys(test_context(), std::span<const std::int64_t>(keys), k, std::span<std::int64_t>(values),
              {.rows = 3, .largest = false});
    EXPECT_TRUE((topk_like_reference<std::int64_t, std::int64_t>(keys, 3, k, false, true, values, nullptr))) << k;
  }
}

TEST(TopkApi, RefusedRequestsWriteNothing) {
  const std::vector<std::uint32_t> keys(100, 3);
  std::vector<std::uint32_t> values(7, 0xABCD);
  std::vector<std::uint64_t> indices(7, 0xABCD);
  EXPECT_THROW(topk(test_context(), std::span<const std::uint32_t>(keys), 7, std::span<std::uint32_t>(values),
                    std::span<std::uint64_t>(indices), {.rows = 3}),
               Error);  // 3 rows do not cut 100 keys
  EXPECT_THROW(topk_host(test_context(), key_type::u32, keys.data(), keys.size(), 101, values.data(), indices.data(), 8),
               Error);  // k past the row
  EXPECT_THROW(topk_host(test_context(), key_type::u32, keys.data(), keys.size(), 7, values.data(), indices.data(), 2),
               Error);  // 2-byte indices
  for (std::size_t i = 0; i < 7; ++i) EXPECT_TRUE(values[i] == 0xABCD && indices[i] == 0xABCD);
}

TEST(TopkApi, DeviceArrays) {
  Context& ctx = test_context();
  const auto host = make_keys<double>(2 * 4097, dist::uniform, fresh_seed());
  DeviceArray<double> keys(ctx, std::span<const double>(host)), values(ctx, 2 * 100);
  DeviceArray<std::uint64_t> indices(ctx, 2 * 100);
  topk(ctx, keys, 100, values, indices, {.rows = 2});
  std::vector<double> v(2 * 100);
  std::vector<std::uint64_t> i(2 * 100);
  values.download(std::span<double>(v));
  indices.download(std::span<std::uint64_t>(i));
  EXPECT_TRUE(topk_like_reference(host, 2, 100, true, true, v, &i));
  std::vector<double> after(host.size());
  keys.download(std::span<double>(after));
  EXPECT_EQ(0, std::memcmp(after.data(), host.data(), host.size() * sizeof(double)));
  DeviceArray<double> keys_only(ctx, 2 * 9);
  topk_keys(ctx, keys, 9, keys_only, {.rows = 2, .largest = false, .sorted = false});
  std::vector<double> k9(2 * 9);
  keys_only.download(std::span<double>(k9));
  EXPECT_TRUE((topk_like_reference<double, std::int64_t>(host, 2, 9, false, false, k9, nullptr)));
}

// ---- the caller's OpenCL memory and queue ----

using namespace caller_opencl;

TEST(TopkApi, CallersOpenCLMemoryAndQueue) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::uint64_t rows = 3, length = 2000, k = 64;
  const auto host = make_keys<half_bits>(rows * length, dist::specials, fresh_seed());
  Mem keys{c.buffer(host.data(), host.size() * 2)}, values{c.buffer(nullptr, rows * k * 2)},
      indices{c.buffer(nullptr, rows * k * 4)};
  Completion done = topk_native_async(*c.gpusort, key_type::f16, OpenCLView{keys.m}, host.size(), k,
                                      OpenCLView{values.m}, OpenCLView{indices.m}, 4, OpenCLQueue{c.queue},
                                      {.rows = rows, .largest = false});
  // the caller's queue runs after the top-k: its reads see the result without a wait
  const auto v = c.read<half_bits>(values.m, rows * k);
  const auto i = c.read<std::uint32_t>(indices.m, rows * k);
  done.wait();
  EXPECT_TRUE(topk_like_reference(host, rows, k, false, true, v, &i));
  const auto after = c.read<half_bits>(keys.m, host.size());
  EXPECT_EQ(0, std::memcmp(after.data(), host.data(), host.size() * 2));
  const SortReport r = topk_native(*c.gpusort, key_type::f16, OpenCLView{keys.m}, host.size(), k, OpenCLView{values.m},
                                   std::nullopt, 0, OpenCLQueue{c.queue}, {.rows = rows, .sorted = false});
  EXPECT_EQ(r.algorithm, "topk radix-select");
  const auto keys_alone = c.read<half_bits>(values.m, rows * k);
  EXPECT_TRUE((topk_like_reference<half_bits, std::int64_t>(host, rows, k, true, false, keys_alone, nullptr)));
}

}  // namespace
}  // namespace gpusort::test
