// Segmented sorts of the caller's CUDA memory on the caller's stream (gpusort/segmented.hpp):
// cuMemAlloc'd buffers and a user stream through the project's driver-API loader, the caller's own
// copies before and after the sort on that stream and no synchronisation in between; offsets on
// the device and on the host; the bins the CUDA tuning row chooses by itself; a sort by device
// offsets captured in a CUDA graph and replayed on fresh data. Skipped without a CUDA device.
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms/segmented/segmented_policy.hpp"
#include "gpusort/segmented.hpp"
#include "runtime/cuda/cuda_api.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "support/segmented_reference.hpp"
#include "support/caller_cuda.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

using namespace rt::cuda;
using namespace caller_cuda;

// Out of place, pairs of value = global index, stable descending; returns what the sort reported.
template <class T>
std::string check_pairs(const Offsets& offsets, const Segments& segments, const std::string& what) {
  auto& c = caller();
  const std::size_t n = offsets.back();
  const auto input = make_keys<T>(n, dist::few_unique, fresh_seed());
  const auto index = index_values<std::uint32_t>(n);
  const auto ref = reference_order(input, offsets, order::descending);
  Mem kin(input), vin(index), kout(std::vector<T>{}, n), vout(std::vector<std::uint32_t>{}, n);
  const SortReport report =
      sort_segments_native(*c.gpusort, key_type_of<T>::value, kin.view(), kout.view(), n, vin.view(), vout.view(), 4,
                           segments, CudaStream{c.stream}, {.order = order::descending, .stable = true});
  EXPECT_TRUE(keys_like_reference(input, ref, kout.read<T>(n))) << what;
  EXPECT_TRUE(values_like_reference(ref, vout.read<std::uint32_t>(n))) << what;
  EXPECT_EQ(0, std::memcmp(kin.read<T>(n).data(), input.data(), n * sizeof(T))) << what << ": keys_in changed";
  return report.algorithm;
}

TEST(SegmentedCuda, PairsByDeviceOffsetsAndRows) {
  SKIP_WITHOUT_CUDA();
  const Offsets offsets = power_law_offsets(8192, 4096, fresh_seed());
  const std::vector<std::uint32_t> narrow(offsets.begin(), offsets.end());
  Mem on_device(narrow);
  check_pairs<float>(offsets, Segments::device_offsets(on_device.view(), offsets.size() - 1, 4), "device offsets");
  for (const auto& [rows, length] : {std::pair<std::uint64_t, std::uint64_t>{64, 128256}, {4096, 33}, {4096, 1024}}) {
    Segments s = Segments::rows(rows, length);
    check_pairs<float>(row_offsets(rows, length), s, std::to_string(rows) + " rows of " + std::to_string(length));
  }
}

TEST(SegmentedCuda, AFewHugeRowsSortOneByOne) {
  SKIP_WITHOUT_CUDA();
  const std::uint64_t rows = 3, length = std::uint64_t(1) << 21;
  EXPECT_EQ(check_pairs<std::uint32_t>(row_offsets(rows, length), Segments::rows(rows, length), "huge rows"),
            "segmented per-row/radix");
}

TEST(SegmentedCuda, ArgsortLocalIndicesOnTheStream) {
  SKIP_WITHOUT_CUDA();
  auto& c = caller();
  const Offsets offsets = power_law_offsets(4000, 4096, fresh_seed());
  HostOffsets<std::uint64_t> given(offsets);
  const std::size_t n = offsets.back();
  const auto input = make_keys<float>(n, dist::specials, fresh_seed());
  const auto ref = reference_order(input, offsets, order::ascending);
  Mem keys(input), idx(std::vector<std::uint64_t>{}, n);
  Completion done = argsort_segments_native_async(*c.gpusort, key_type::f32, keys.view(), keys.view(), n, idx.view(),
                                                  8, given.segments(), CudaStream{c.stream}, {.stable = true});
  EXPECT_TRUE(values_like_reference(ref, idx.read<std::uint64_t>(n), &offsets));
  EXPECT_TRUE(keys_like_reference(input, ref, keys.read<float>(n)));
  done.wait();
}

// Rows long enough for the onesweep bin, 8-byte indices: sorted as 4-byte positions and widened
// (SegmentedChoice::narrow_positions); each index is its key's position in its row.
TEST(SegmentedCuda, LongRowsArgsortWithEightByteIndices) {
  SKIP_WITHOUT_CUDA();
  auto& c = caller();
  const std::uint64_t rows = 37, length = 5003;
  const Offsets offsets = row_offsets(rows, length);
  const std::size_t n = offsets.back();
  for (order o : {order::ascending, order::descending}) {
    const auto input = make_keys<float>(n, dist::specials, fresh_seed());
    const auto ref = reference_order(input, offsets, o);
    Mem keys(input), out(std::vector<float>{}, n), idx(std::vector<std::uint64_t>{}, n);
    Completion done =
        argsort_segments_native_async(*c.gpusort, key_type::f32, keys.view(), out.view(), n, idx.view(), 8,
                                      Segments::rows(rows, length), CudaStream{c.stream}, {.order = o, .stable = true});
    EXPECT_TRUE(values_like_reference(ref, idx.read<std::uint64_t>(n), &offsets));
    EXPECT_TRUE(keys_like_reference(input, ref, out.read<float>(n)));
    done.wait();
  }
}

// The graph entry points of the driver API (not in the project's loader: only this test uses
// them), from the libcuda the runtime has opened.
struct GraphApi {
  CUresult (*begin_capture)(CUstream stream, int mode) = nullptr;      // cuStreamBeginCapture_v2
  CUresult (*end_capture)(CUstream stream, void** graph) = nullptr;    // cuStreamEndCapture
  CUresult (*instantiate)(void** exec, void* graph, unsigned long long flags) = nullptr;  // ...WithFlags
  CUresult (*launch)(void* exec, CUstream stream) = nullptr;           // cuGraphLaunch
  CUresult (*exec_destroy)(void* exec) = nullptr;                      // cuGraphExecDestroy
  CUresult (*destroy)(void* graph) = nullptr;                          // cuGraphDestroy
  static constexpr int kCaptureRelaxed = 2;  // CU_STREAM_CAPTURE_MODE_RELAXED

  GraphApi() {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) return;
    const auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    };
    get(begin_capture, "cuStreamBeginCapture_v2");
    get(end_capture, "cuStreamEndCapture");
    get(instantiate, "cuGraphInstantiateWithFlags");
    get(launch, "cuGraphLaunch");
    get(exec_destroy, "cuGraphExecDestroy");
    get(destroy, "cuGraphDestroy");
  }
  bool ok() const { return begin_capture && end_capture && instantiate && launch && exec_destroy && destroy; }
};

// Issue 52's segment lengths (0, 1, 31, 32, 33, 1023, 4097, 65537) several times among short ones,
// in random order: long segments for the long-segment kernel, short ones for the tiles.
Offsets mixed_offsets(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> lengths;
  for (std::uint64_t l : {0, 1, 31, 32, 33, 1023, 4097, 65537})
    for (int i = 0; i < (l > 5000 ? 3 : 20); ++i) lengths.push_back(l);
  while (lengths.size() < 20000) lengths.push_back(rng() % 10 == 0 ? rng() % 3000 : rng() % 65);
  std::shuffle(lengths.begin(), lengths.end(), rng);
  Offsets o{0};
  for (std::uint64_t l : lengths) o.push_back(o.back() + l);
  return o;
}

// A sort by device offsets is enqueued once outside a capture (its kernels compiled, the pool's
// temporaries made), then captured into a graph on the caller's stream, and the graph replayed
// twice on fresh keys written into the same memory: every replay sorts them. Pairs with u32
// offsets, and an argsort (8-byte local indices) with u64 offsets.
TEST(SegmentedCuda, DeviceOffsetsSortCapturedInAGraphReplaysOnFreshData) {
  SKIP_WITHOUT_CUDA();
  // the binned bin (CUDA's row keeps offsets in tiles-or-portable, which reads one word back and
  // so cannot be captured)
  algo::set_segmented_policy_override({.bin = algo::SegmentedBin::binned});
  struct Reset {
    ~Reset() { algo::set_segmented_policy_override({}); }
  } reset;
  auto& c = caller();
  const GraphApi g;
  if (!g.ok()) GTEST_SKIP() << "the driver has no stream capture entry points";
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Offsets offsets = mixed_offsets(seed);
  const std::size_t n = offsets.back();
  const std::vector<std::uint32_t> narrow(offsets.begin(), offsets.end());
  const std::vector<std::uint64_t> wide(offsets.begin(), offsets.end());
  Mem offsets32(narrow), offsets64(wide);
  const Segments by32 = Segments::device_offsets(offsets32.view(), offsets.size() - 1, 4);
  const Segments by64 = Segments::device_offsets(offsets64.view(), offsets.size() - 1, 8);
  const auto index = index_values<std::uint32_t>(n);
  Mem kin(std::vector<float>{}, n), vin(index), kout(std::vector<float>{}, n), vout(std::vector<std::uint32_t>{}, n);
  Mem akeys(std::vector<float>{}, n), aidx(std::vector<std::uint64_t>{}, n);
  const SortOptions desc{.order = order::descending, .stable = true};
  const auto enqueue_pairs = [&] {
    return sort_segments_native_async(*c.gpusort, key_type::f32, kin.view(), kout.view(), n, vin.view(), vout.view(), 4,
                                      by32, CudaStream{c.stream}, desc);
  };
  const auto enqueue_argsort = [&] {
    return argsort_segments_native_async(*c.gpusort, key_type::f32, akeys.view(), akeys.view(), n, aidx.view(), 8,
                                         by64, CudaStream{c.stream}, {.stable = true});
  };
  const auto fresh = [&](std::uint64_t s) {
    std::vector<float> keys = make_keys<float>(n, dist::few_unique, s);
    c.current();
    cuda_check(c.api->cuMemcpyHtoDAsync_v2(kin.p, keys.data(), n * sizeof(float), c.stream), "cuMemcpyHtoDAsync");
    cuda_check(c.api->cuMemcpyHtoDAsync_v2(akeys.p, keys.data(), n * sizeof(float), c.stream), "cuMemcpyHtoDAsync");
    cuda_check(c.api->cuMemsetD8Async(kout.p, 0x5A, n * sizeof(float), c.stream), "cuMemsetD8Async");
    cuda_check(c.api->cuMemsetD8Async(vout.p, 0x5A, n * 4, c.stream), "cuMemsetD8Async");
    cuda_check(c.api->cuMemsetD8Async(aidx.p, 0x5A, n * 8, c.stream), "cuMemsetD8Async");
    cuda_check(c.api->cuStreamSynchronize(c.stream), "cuStreamSynchronize");
    return keys;
  };
  const auto check = [&](const std::vector<float>& input, const std::string& what) {
    const auto ref_desc = reference_order(input, offsets, order::descending);
    const auto ref_asc = reference_order(input, offsets, order::ascending);
    EXPECT_TRUE(keys_like_reference(input, ref_desc, kout.read<float>(n))) << what;
    EXPECT_TRUE(values_like_reference(ref_desc, vout.read<std::uint32_t>(n))) << what;
    EXPECT_TRUE(keys_like_reference(input, ref_asc, akeys.read<float>(n))) << what << " (argsort)";
    EXPECT_TRUE(values_like_reference(ref_asc, aidx.read<std::uint64_t>(n), &offsets)) << what << " (argsort)";
  };

  {  // uncaptured first
    const auto input = fresh(seed + 1);
    Completion pairs = enqueue_pairs();
    Completion argsort = enqueue_argsort();
    EXPECT_EQ(pairs.algorithm(), "segmented binned");
    EXPECT_EQ(argsort.algorithm(), "segmented binned");
    check(input, "uncaptured");
  }
  c.current();
  cuda_check(g.begin_capture(c.stream, GraphApi::kCaptureRelaxed), "cuStreamBeginCapture");
  void* graph = nullptr;
  {
    Completion pairs = enqueue_pairs();  // never waited on: its events belong to the capture
    Completion argsort = enqueue_argsort();
    cuda_check(g.end_capture(c.stream, &graph), "cuStreamEndCapture");
  }
  void* exec = nullptr;
  cuda_check(g.instantiate(&exec, graph, 0), "cuGraphInstantiateWithFlags");
  for (int replay = 0; replay < 2; ++replay) {
    const auto input = fresh(seed + 2 + replay);
    cuda_check(g.launch(exec, c.stream), "cuGraphLaunch");
    check(input, "replay " + std::to_string(replay));
  }
  g.exec_destroy(exec);
  g.destroy(graph);
}

}  // namespace
}  // namespace gpusort::test
