// Top-k of the caller's CUDA memory on the caller's stream (gpusort/topk.hpp): cuMemAlloc'd buffers
// and a user stream through the project's driver-API loader, the caller's copies before and after
// on that stream with no synchronisation in between; the shapes of issue 53 (LLM sampler rows, a
// long 1-D row split among blocks), against the host reference. Skipped without a CUDA device.
#include <cstring>
#include <string>
#include <vector>

#include "gpusort/plan.hpp"
#include "gpusort/topk.hpp"
#include "runtime/cuda/cuda_api.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "support/caller_cuda.hpp"
#include "support/test_support.hpp"
#include "support/topk_reference.hpp"

namespace gpusort::test {
namespace {

using namespace rt::cuda;
using namespace caller_cuda;

template <class T>
void check_native(std::uint64_t rows, std::uint64_t length, std::uint64_t k, bool largest, bool sorted, dist d) {
  auto& c = caller();
  const auto input = make_keys<T>(rows * length, d, fresh_seed());
  Mem keys(input), values(std::vector<T>{}, rows * k), indices(std::vector<std::int64_t>{}, rows * k);
  const SortReport report =
      topk_native(*c.gpusort, key_type_of<T>::value, keys.view(), input.size(), k, values.view(), indices.view(), 8,
                  CudaStream{c.stream}, {.rows = rows, .largest = largest, .sorted = sorted});
  const auto v = values.read<T>(rows * k);
  const auto i = indices.read<std::int64_t>(rows * k);
  EXPECT_TRUE(topk_like_reference(input, rows, k, largest, sorted, v, &i))
      << rows << " x " << length << ", k " << k << ", " << dist_name(d) << ": " << report.algorithm;
  EXPECT_EQ(0, std::memcmp(keys.read<T>(input.size()).data(), input.data(), input.size() * sizeof(T)));
}

TEST(TopkCuda, SamplerRows) {
  SKIP_WITHOUT_CUDA();
  for (std::uint64_t k : {50ull, 1024ull}) {
    check_native<float>(64, 128256, k, true, true, dist::uniform);
    check_native<float>(64, 128256, k, true, false, dist::few_unique);
  }
  check_native<float>(16384, 1024, 50, true, true, dist::specials);
  check_native<bfloat16_bits>(256, 4096, 50, true, true, dist::uniform);
  check_native<half_bits>(33, 4097, 4097, false, true, dist::specials);
}

TEST(TopkCuda, LongRowSplitAmongBlocks) {
  SKIP_WITHOUT_CUDA();
  const std::uint64_t n = std::uint64_t(1) << 24;
  SortRequest r{.type = key_type::f32, .n = n, .value_bytes = 8, .where = data_location::caller_memory, .rows = 1,
                .row_length = n, .topk = true, .k = 100};
  const SortPlan p = plan(*caller().gpusort, r);
  EXPECT_NE(p.text().find("topk_round_histogram"), std::string::npos) << p.text();
  for (std::uint64_t k : {10ull, 1000ull, 100000ull}) check_native<float>(1, n, k, true, true, dist::uniform);
  check_native<std::uint32_t>(1, n, 1000, false, false, dist::all_equal);
  check_native<double>(1, n, 5000, true, true, dist::specials);
}

}  // namespace
}  // namespace gpusort::test
