// Partition's entry points (gpusort/partition.hpp): host data (new vectors, spans, keys alone,
// positions alone), select_kth, DeviceArray, and the caller's OpenCL memory and queue, each against
// the host reference (numpy's contract and the exact three-way split); the input is never written.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpusort/partition.hpp"
#include "support/caller_opencl.hpp"
#include "support/partition_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

TEST(PartitionApi, HostVectorsLikeNumpy) {
  const auto keys = make_keys<float>(4 * 5000, dist::specials, fresh_seed());
  const auto input = keys;
  const std::span<const float> in(keys);
  const std::vector<float> out = partition(test_context(), in, 77, {.rows = 4});
  EXPECT_TRUE((partition_like_reference<float, std::int64_t>(keys, 4, 77, &out, nullptr)));
  const std::vector<std::int64_t> p = argpartition(test_context(), in, -1, {.rows = 4});
  EXPECT_TRUE((partition_like_reference<float, std::int64_t>(keys, 4, 4999, nullptr, &p)));
  const std::vector<std::uint32_t> p32 = argpartition<float, std::uint32_t>(test_context(), in, 2500);
  EXPECT_TRUE((partition_like_reference<float, std::uint32_t>(keys, 1, 2500, nullptr, &p32)));
  const std::vector<float> median = select_kth(test_context(), in, 2500, {.rows = 4});
  EXPECT_TRUE((select_kth_like_reference<float, std::int64_t>(keys, 4, 2500, median, nullptr)));
  EXPECT_EQ(0, std::memcmp(keys.data(), input.data(), keys.size() * sizeof(float)));
  std::vector<float> both(keys.size());
  std::vector<std::int32_t> positions(keys.size());
  const SortReport r = partition(test_context(), in, 0, std::span<float>(both), std::span<std::int32_t>(positions),
                                 {.rows = 4});
  EXPECT_TRUE(partition_like_reference(keys, 4, 0, &both, &positions));
  EXPECT_EQ(r.algorithm, "partition radix-select");
}

TEST(PartitionApi, DeviceArrays) {
  Context& ctx = test_context();
  const auto host = make_keys<double>(3 * 4097, dist::few_unique, fresh_seed());
  DeviceArray<double> keys(ctx, std::span<const double>(host)), out(ctx, host.size()), kth_values(ctx, 3);
  DeviceArray<std::int64_t> positions(ctx, host.size());
  partition(ctx, keys, 1000, out, positions, {.rows = 3});
  std::vector<double> v(host.size());
  std::vector<std::int64_t> p(host.size());
  out.download(std::span<double>(v));
  positions.download(std::span<std::int64_t>(p));
  EXPECT_TRUE(partition_like_reference(host, 3, 1000, &v, &p));
  argpartition(ctx, keys, -2, positions, {.rows = 3});
  positions.download(std::span<std::int64_t>(p));
  EXPECT_TRUE((partition_like_reference<double, std::int64_t>(host, 3, 4095, nullptr, &p)));
  partition(ctx, keys, 5, out, {.rows = 3});
  out.download(std::span<double>(v));
  EXPECT_TRUE((partition_like_reference<double, std::int64_t>(host, 3, 5, &v, nullptr)));
  select_kth(ctx, keys, 2048, kth_values, {.rows = 3});
  std::vector<double> m(3);
  kth_values.download(std::span<double>(m));
  EXPECT_TRUE((select_kth_like_reference<double, std::int64_t>(host, 3, 2048, m, nullptr)));
  std::vector<double> after(host.size());
  keys.download(std::span<double>(after));
  EXPECT_EQ(0, std::memcmp(after.data(), host.data(), host.size() * sizeof(double)));
}

// ---- the caller's OpenCL memory and queue ----

using namespace caller_opencl;

TEST(PartitionApi, CallersOpenCLMemoryAndQueue) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::uint64_t rows = 3, length = 2000;
  const auto host = make_keys<half_bits>(rows * length, dist::specials, fresh_seed());
  const std::size_t n = host.size();
  Mem keys{c.buffer(host.data(), n * 2)}, out{c.buffer(nullptr, n * 2)}, positions{c.buffer(nullptr, n * 4)};
  Completion done = partition_native_async(*c.gpusort, key_type::f16, OpenCLView{keys.m}, n, 600, OpenCLView{out.m},
                                           OpenCLView{positions.m}, 4, false, OpenCLQueue{c.queue}, {.rows = rows});
  // the caller's queue runs after the partition: its reads see the result without a wait
  const auto v = c.read<half_bits>(out.m, n);
  const auto p = c.read<std::uint32_t>(positions.m, n);
  done.wait();
  EXPECT_TRUE(partition_like_reference(host, rows, 600, &v, &p));
  const auto after = c.read<half_bits>(keys.m, n);
  EXPECT_EQ(0, std::memcmp(after.data(), host.data(), n * 2));
  const SortReport r = partition_native(*c.gpusort, key_type::f16, OpenCLView{keys.m}, n, -1, std::nullopt,
                                        OpenCLView{positions.m}, 4, true, OpenCLQueue{c.queue}, {.rows = rows});
  EXPECT_EQ(r.algorithm, "select_kth radix-select");
  const auto last = c.read<std::uint32_t>(positions.m, rows);
  for (std::uint64_t row = 0; row < rows; ++row)
    EXPECT_EQ(last[row], rank_position(host, length, row, length - 1)) << row;
}

}  // namespace
}  // namespace gpusort::test
