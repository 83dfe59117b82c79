// Top-k of the caller's CUDA memory on the caller's stream (gpusort/topk.hpp): cuMemAlloc'd buffers
// and a user stream through the project's driver-API loader, the caller's copies before and after
// on that stream with no synchronisation in between; the shapes of issue 53 (LLM sampler rows, a
// long 1-D row split among blocks), against the host reference. Skipped without a CUDA device.
#include <array>
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

// Rows of up to 1024 keys take a warp each (kernels/topk_warp_rows.cl): every keys-per-lane program,
// lengths around the warp and the items, k from 1 to the length, ties and NaNs, every key width.
TEST(TopkCuda, WarpRows) {
  SKIP_WITHOUT_CUDA();
  SortRequest r{.type = key_type::f32, .n = 16384 * 1024, .value_bytes = 8, .where = data_location::caller_memory,
                .rows = 16384, .row_length = 1024, .topk = true, .k = 50};
  const SortPlan p = plan(*caller().gpusort, r);
  EXPECT_NE(p.text().find("topk_warp_rows"), std::string::npos) << p.text();
  int turn = 0;
  for (std::uint64_t length : {1ull, 31ull, 32ull, 33ull, 127ull, 128ull, 129ull, 300ull, 513ull, 1000ull, 1024ull}) {
    for (std::uint64_t k : std::vector<std::uint64_t>{1, 2, 31, 33, 50, 129, length / 2, length - 1, length}) {
      if (k == 0 || k > length) continue;
      const dist d = std::array{dist::uniform, dist::few_unique, dist::all_equal, dist::specials}[turn % 4];
      check_native<float>(37, length, k, turn % 2 == 0, turn % 3 != 0, d);
      ++turn;
    }
  }
  check_native<double>(100, 1000, 50, true, true, dist::specials);
  check_native<std::int64_t>(100, 777, 100, false, false, dist::few_unique);
  check_native<half_bits>(1000, 1024, 50, true, true, dist::specials);
  check_native<bfloat16_bits>(1000, 200, 7, false, true, dist::uniform);
  check_native<std::uint8_t>(300, 1000, 500, true, true, dist::few_unique);
  check_native<std::uint32_t>(16384, 1024, 50, true, true, dist::uniform);
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
