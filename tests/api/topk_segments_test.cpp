// Top-k of segments by offsets (TopkOptions::segments): each segment against the host reference (its
// stable sort, the first min(k, length)), indices within the segment, the padding of segments shorter
// than k, host offsets of both widths, device offsets, and the checks made before anything runs.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpusort/plan.hpp"
#include "gpusort/topk.hpp"
#include "support/caller_opencl.hpp"
#include "support/topk_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// count segments: empty ones, single keys, some shorter and some longer than k, one of `longest`.
std::vector<std::uint64_t> segment_offsets(std::uint64_t count, std::uint64_t k, std::uint64_t longest,
                                           std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> offsets{0};
  for (std::uint64_t s = 0; s < count; ++s) {
    std::uint64_t length = 0;
    switch (rng() % 6) {
      case 0: length = 0; break;
      case 1: length = 1; break;
      case 2: length = rng() % (k + 1); break;         // up to k
      case 3: length = k + rng() % (4 * k + 1); break;  // from k
      default: length = rng() % 700; break;
    }
    if (s == count / 2) length = longest;
    offsets.push_back(offsets.back() + length);
  }
  return offsets;
}

// Every segment's first min(k, length) slots like the reference; the rest padded (keys all bits zero,
// indices all bits one).
template <class T, class I>
::testing::AssertionResult segments_like_reference(const std::vector<T>& keys, const std::vector<std::uint64_t>& offsets,
                                                   std::uint64_t k, bool largest, bool sorted,
                                                   const std::vector<T>& values, const std::vector<I>* indices) {
  const std::uint64_t count = offsets.size() - 1;
  if (values.size() != count * k) return ::testing::AssertionFailure() << "values: " << values.size() << " elements";
  for (std::uint64_t s = 0; s < count; ++s) {
    const std::uint64_t length = offsets[s + 1] - offsets[s], taken = std::min(k, length);
    const std::vector<T> segment(keys.begin() + offsets[s], keys.begin() + offsets[s + 1]);
    const std::vector<T> got(values.begin() + s * k, values.begin() + s * k + taken);
    std::vector<I> got_indices;
    if (indices) got_indices.assign(indices->begin() + s * k, indices->begin() + s * k + taken);
    auto fits = topk_like_reference(segment, 1, taken, largest, sorted, got, indices ? &got_indices : nullptr);
    if (!fits) return fits << " (segment " << s << " of " << count << ", length " << length << ")";
    for (std::uint64_t j = s * k + taken; j < (s + 1) * k; ++j) {
      const T zero{};
      if (std::memcmp(&values[j], &zero, sizeof(T)) != 0)
        return ::testing::AssertionFailure() << "segment " << s << " (length " << length << "): padding key at " << j;
      if (indices && (*indices)[j] != static_cast<I>(~std::uint64_t(0)))
        return ::testing::AssertionFailure() << "segment " << s << " (length " << length << "): padding index at " << j;
    }
  }
  return ::testing::AssertionSuccess();
}

template <class T, class I, class O>
void check_segments(std::uint64_t count, std::uint64_t k, std::uint64_t longest, bool largest, bool sorted, dist d) {
  const std::uint64_t seed = fresh_seed();
  const std::vector<std::uint64_t> wide = segment_offsets(count, k, longest, seed);
  const std::vector<O> offsets(wide.begin(), wide.end());
  const auto keys = make_keys<T>(wide.back(), d, seed + 1);
  const std::string what = "seed " + std::to_string(seed) + ", " + std::to_string(count) + " segments, k " +
                           std::to_string(k) + (largest ? ", largest" : ", smallest") + (sorted ? ", sorted" : "") +
                           ", offsets of " + std::to_string(sizeof(O)) + " bytes";
  const TopkOptions o{.largest = largest, .sorted = sorted, .segments = Segments::offsets(std::span<const O>(offsets))};
  std::vector<T> values(count * k, T(7));  // poisoned
  std::vector<I> indices(count * k, I(77));
  topk(test_context(), std::span<const T>(keys), k, std::span<T>(values), std::span<I>(indices), o);
  EXPECT_TRUE(segments_like_reference(keys, wide, k, largest, sorted, values, &indices)) << what;
  std::vector<T> alone(count * k, T(7));
  topk_keys(test_context(), std::span<const T>(keys), k, std::span<T>(alone), o);
  EXPECT_TRUE((segments_like_reference<T, I>(keys, wide, k, largest, sorted, alone, nullptr))) << what << ", keys alone";
}

TEST(TopkSegments, HostOffsetsAgainstTheReference) {
  for (bool largest : {true, false})
    for (bool sorted : {true, false}) {
      check_segments<float, std::int64_t, std::uint64_t>(300, 50, 20000, largest, sorted, dist::specials);
      check_segments<float, std::int32_t, std::uint32_t>(200, 7, 3000, largest, sorted, dist::few_unique);
    }
  check_segments<float, std::int64_t, std::uint32_t>(64, 1, 5000, true, true, dist::uniform);        // k = 1
  check_segments<float, std::uint32_t, std::uint64_t>(50, 2000, 9000, false, true, dist::all_equal);  // ties
  check_segments<std::int64_t, std::int64_t, std::uint64_t>(150, 33, 4000, true, true, dist::few_unique);
}

TEST(TopkSegments, DeviceArraysAndThePlan) {
  Context& ctx = test_context();
  const std::vector<std::uint64_t> wide = segment_offsets(120, 40, 6000, fresh_seed());
  const std::vector<std::uint32_t> narrow(wide.begin(), wide.end());
  const auto host = make_keys<float>(wide.back(), dist::uniform, fresh_seed());
  DeviceArray<float> keys(ctx, std::span<const float>(host)), values(ctx, 120 * 40);
  DeviceArray<std::int64_t> indices(ctx, 120 * 40);
  const SortReport report = topk(ctx, keys, 40, values, indices,
                                 {.segments = Segments::offsets(std::span<const std::uint32_t>(narrow))});
  std::vector<float> v(120 * 40);
  std::vector<std::int64_t> i(120 * 40);
  values.download(std::span<float>(v));
  indices.download(std::span<std::int64_t>(i));
  EXPECT_TRUE(segments_like_reference(host, wide, 40, true, true, v, &i));
  EXPECT_EQ(report.algorithm.rfind("topk radix-select + segmented", 0), 0u) << report.algorithm;

  const SortRequest r{.type = key_type::f32, .n = wide.back(), .value_bytes = 8, .rows = 120, .offset_bytes = 8,
                      .topk = true, .k = 40};
  const std::string text = plan(ctx, r).text();
  EXPECT_NE(text.find("120 segments by 8-byte offsets"), std::string::npos) << text;
  EXPECT_NE(text.find("one segment each"), std::string::npos) << text;
  EXPECT_NE(text.find("sort each segment's selected keys"), std::string::npos) << text;
}

using namespace caller_opencl;

TEST(TopkSegments, CallersOpenCLMemoryWithDeviceOffsets) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::uint64_t count = 90, k = 25;
  const std::vector<std::uint64_t> wide = segment_offsets(count, k, 3000, fresh_seed());
  const auto host = make_keys<float>(wide.back(), dist::specials, fresh_seed());
  Mem keys{c.buffer_of(host)}, offsets{c.buffer_of(wide)}, values{c.buffer(nullptr, count * k * 4)},
      indices{c.buffer(nullptr, count * k * 4)};
  const TopkOptions o{.largest = false, .segments = Segments::device_offsets(OpenCLView{offsets.m}, count, 8)};
  Completion done = topk_native_async(*c.gpusort, key_type::f32, OpenCLView{keys.m}, host.size(), k,
                                      OpenCLView{values.m}, OpenCLView{indices.m}, 4, OpenCLQueue{c.queue}, o);
  const auto v = c.read<float>(values.m, count * k);
  const auto i = c.read<std::int32_t>(indices.m, count * k);
  done.wait();
  EXPECT_TRUE(segments_like_reference(host, wide, k, false, true, v, &i));
}

TEST(TopkSegments, BadOffsetsAreRefusedBeforeAnythingRuns) {
  const std::vector<float> keys(100, 1.0f);
  std::vector<float> values(3 * 5, 9.0f);
  std::vector<std::int64_t> indices(3 * 5, 9);
  for (const std::vector<std::uint64_t>& bad : {std::vector<std::uint64_t>{1, 50, 60, 100},    // not from 0
                                                std::vector<std::uint64_t>{0, 50, 40, 100},    // decreasing
                                                std::vector<std::uint64_t>{0, 50, 60, 99}}) {  // not to n
    const TopkOptions o{.segments = Segments::offsets(std::span<const std::uint64_t>(bad))};
    EXPECT_THROW(topk(test_context(), std::span<const float>(keys), 5, std::span<float>(values),
                      std::span<std::int64_t>(indices), o),
                 Error);
  }
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_TRUE(values[i] == 9.0f && indices[i] == 9);
  const std::vector<std::uint64_t> good{0, 50, 60, 100};
  std::vector<float> short_values(2 * 5);  // 3 segments x k wanted
  std::vector<std::int64_t> short_indices(2 * 5);
  EXPECT_THROW(topk(test_context(), std::span<const float>(keys), 5, std::span<float>(short_values),
                    std::span<std::int64_t>(short_indices),
                    {.segments = Segments::offsets(std::span<const std::uint64_t>(good))}),
               Error);
}

}  // namespace
}  // namespace gpusort::test
