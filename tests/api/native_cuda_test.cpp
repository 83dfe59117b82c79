// Sorting memory the caller owns on the caller's CUDA stream (gpusort/native.hpp): cuMemAlloc'd
// buffers and a user stream made through the driver API (the project's dlopen loader, so the tests
// need no CUDA toolkit to build), with the caller's own memset/copies before and after the sort on
// that stream and no cuCtxSynchronize in between. Skipped without a CUDA device; scripts/device-check
// runs them on a GPU.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>

#include "algorithms/radix_policy.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/native.hpp"
#include "runtime/cuda/cuda_api.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "support/caller_cuda.hpp"
#include "support/complex128_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

using namespace rt::cuda;
using namespace caller_cuda;

// Before the sort, on the caller's stream: garbage everywhere, then the input (asynchronous).
template <class T>
void enqueue_input(CUdeviceptr p, std::size_t total, const std::vector<T>& data, CUstream s) {
  auto& c = caller();
  c.current();
  cuda_check(c.api->cuMemsetD8Async(p, 0xA5, total, s), "cuMemsetD8Async");
  if (!data.empty())
    cuda_check(c.api->cuMemcpyHtoDAsync_v2(p, data.data(), data.size() * sizeof(T), s), "cuMemcpyHtoDAsync");
}

// After the sort, on the caller's stream: a copy back, then a wait on that stream only.
template <class T>
std::vector<T> read_after(CUdeviceptr p, std::size_t n, CUstream s) {
  auto& c = caller();
  std::vector<T> out(n);
  if (n == 0) return out;
  c.current();
  cuda_check(c.api->cuMemcpyDtoHAsync_v2(out.data(), p, n * sizeof(T), s), "cuMemcpyDtoHAsync");
  cuda_check(c.api->cuStreamSynchronize(s), "cuStreamSynchronize");
  return out;
}

template <class K>
void check_keys(std::size_t n, bool in_place, bool async, CUstream s, order o = order::ascending,
                dist d = dist::uniform) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<K>(n, d, seed);
  DeviceMem in(n * sizeof(K));
  std::optional<DeviceMem> out;
  if (!in_place) out.emplace(n * sizeof(K));
  const CUdeviceptr out_ptr = in_place ? in.p : out->p;
  enqueue_input(in.p, n * sizeof(K), input, s);
  if (!in_place) enqueue_input(out_ptr, n * sizeof(K), std::vector<K>{}, s);
  std::optional<Completion> pending;
  const CudaView vin{static_cast<std::uintptr_t>(in.p)}, vout{static_cast<std::uintptr_t>(out_ptr)};
  if (async)
    pending.emplace(sort_native_async<K>(*c.gpusort, vin, vout, n, CudaStream{s}, {.order = o}));
  else
    sort_native<K>(*c.gpusort, vin, vout, n, CudaStream{s}, {.order = o});
  const auto sorted = read_after<K>(out_ptr, n, s);
  EXPECT_TRUE(keys_sorted_like_reference(input, sorted, o, true))  // radix is the default: stable, bit for bit
      << "n=" << n << (in_place ? " in place" : " out of place") << (async ? " async" : "") << " seed=" << seed;
  if (!in_place) {
    const auto kept = read_after<K>(in.p, n, s);
    EXPECT_EQ(0, std::memcmp(kept.data(), input.data(), n * sizeof(K))) << "keys_in was modified";
  }
  if (pending) pending->wait();
}

TEST(NativeCuda, KeysOnAUserStream) {
  SKIP_WITHOUT_CUDA();
  auto s = caller().stream;
  for (std::size_t n : {0, 1, 2, 1000, 100003}) check_keys<std::uint32_t>(n, true, false, s);
  check_keys<float>(1 << 20, true, true, s, order::descending);
  check_keys<std::int64_t>(77777, false, false, s);
  check_keys<double>(300001, false, true, s);
  check_keys<std::uint8_t>(4099, false, false, s);
}

TEST(NativeCuda, KeysOnTheLegacyDefaultStream) {
  SKIP_WITHOUT_CUDA();
  check_keys<std::uint32_t>(50001, true, false, nullptr);
  check_keys<float>(50001, false, true, nullptr);
}

TEST(NativeCuda, PairsOutOfPlace) {
  SKIP_WITHOUT_CUDA();
  auto& c = caller();
  const std::size_t n = 123457;
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<std::uint32_t>(n, dist::few_unique, seed);
  const auto values = index_values<std::uint64_t>(n);
  DeviceMem kin(n * 4), kout(n * 4), vin(n * 8), vout(n * 8);
  enqueue_input(kin.p, n * 4, keys, c.stream);
  enqueue_input(vin.p, n * 8, values, c.stream);
  auto v = [](const DeviceMem& m) { return CudaView{static_cast<std::uintptr_t>(m.p)}; };
  sort_pairs_native<std::uint32_t, std::uint64_t>(*c.gpusort, v(kin), v(kout), v(vin), v(vout), n,
                                                  CudaStream{c.stream}, {.stable = true});
  const auto sk = read_after<std::uint32_t>(kout.p, n, c.stream);
  const auto sv = read_after<std::uint64_t>(vout.p, n, c.stream);
  EXPECT_TRUE(pairs_sorted_like_reference(keys, sk, sv, order::ascending, true)) << "seed=" << seed;
}

// Radix out of place reads the input where it lies (its histogram and first pass), and its passes
// ping-pong so that the last one writes the output. Above 2^22 keys the onesweep path plans every
// pass before it knows which digits vary (it reads the histogram while the first pass runs), so
// keys with constant digits end in the temporary and are copied back; with every digit varying no
// copy runs (checked in the verbose phases). The output starts poisoned. correlated_top: integer keys
// whose second-highest byte is set to their highest (two even top digits that make 256 segments
// together); expect_phase: a phase the verbose output must name.
template <class K, class V>
void check_radix_out_of_place(std::size_t n, std::uint64_t mask, dist d = dist::uniform, bool correlated_top = false,
                              const char* expect_phase = nullptr) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  auto keys = make_keys<K>(n, d, seed);
  if constexpr (std::is_integral_v<K>)
    for (K& k : keys) {
      std::uint64_t x = static_cast<std::uint64_t>(k) & mask;
      constexpr unsigned bits = 8 * sizeof(K);
      if (correlated_top && bits >= 32) x = (x & ~(0xFFull << (bits - 16))) | (((x >> (bits - 8)) & 0xFF) << (bits - 16));
      k = static_cast<K>(x);
    }
  const auto values = index_values<V>(n);
  DeviceMem kin(n * sizeof(K)), kout(n * sizeof(K)), vin(n * sizeof(V)), vout(n * sizeof(V));
  enqueue_input(kin.p, n * sizeof(K), keys, c.stream);
  enqueue_input(kout.p, n * sizeof(K), std::vector<K>{}, c.stream);
  enqueue_input(vin.p, n * sizeof(V), values, c.stream);
  enqueue_input(vout.p, n * sizeof(V), std::vector<V>{}, c.stream);
  auto v = [](const DeviceMem& m) { return CudaView{static_cast<std::uintptr_t>(m.p)}; };
  testing::internal::CaptureStderr();
  sort_pairs_native<K, V>(*c.gpusort, v(kin), v(kout), v(vin), v(vout), n, CudaStream{c.stream},
                          {.stable = true, .algorithm = "radix", .verbose = true});
  const std::string phases = testing::internal::GetCapturedStderr();
  const std::string what = "n=" + std::to_string(n) + " mask=" + std::to_string(mask) + " seed=" + std::to_string(seed);
  EXPECT_TRUE(pairs_sorted_like_reference(keys, read_after<K>(kout.p, n, c.stream), read_after<V>(vout.p, n, c.stream),
                                          order::ascending, true))
      << what;
  EXPECT_EQ(0, std::memcmp(read_after<K>(kin.p, n, c.stream).data(), keys.data(), n * sizeof(K)))
      << "keys_in was modified: " << what;
  EXPECT_EQ(0, std::memcmp(read_after<V>(vin.p, n, c.stream).data(), values.data(), n * sizeof(V)))
      << "values_in was modified: " << what;
  if (mask == ~std::uint64_t(0) && n > 100000) {
    EXPECT_EQ(phases.find("copy back"), std::string::npos) << what << "\n" << phases;
    EXPECT_NE(phases.find("onesweep pass"), std::string::npos) << "no phases printed: " << what;
  }
  if (expect_phase) EXPECT_NE(phases.find(expect_phase), std::string::npos) << what << "\n" << phases;
}

TEST(NativeCuda, RadixOutOfPlaceReadsTheInputWhereItLies) {
  SKIP_WITHOUT_CUDA();
  const std::size_t big = (std::size_t(1) << 22) + 3;  // onesweep, planned before the read-back (packed pairs)
  for (std::uint64_t mask : {0x0ull, 0xFFull, 0xFF00FFull, 0xFFFFFF00ull, ~0ull}) {
    check_radix_out_of_place<std::uint32_t, std::uint32_t>(big, mask);
    check_radix_out_of_place<std::uint32_t, std::uint32_t>(300007, mask);  // every pass planned from the histogram
  }
  check_radix_out_of_place<std::uint64_t, std::uint64_t>(big, ~0ull);
  check_radix_out_of_place<std::uint64_t, std::uint64_t>(big, 0xFF0000FF0000FFull);
  check_radix_out_of_place<float, std::uint32_t>(big, ~0ull);
}

// Keys apart, values sorted in place beside them: the values are read and written in one buffer
// while the keys are read from theirs (the output keys start poisoned).
template <class K, class V>
void check_values_in_place_keys_apart(std::size_t n, dist d = dist::few_unique, const char* expect_phase = nullptr) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<K>(n, d, seed);
  const auto values = index_values<V>(n);
  DeviceMem kin(n * sizeof(K)), kout(n * sizeof(K)), vals(n * sizeof(V));
  enqueue_input(kin.p, n * sizeof(K), keys, c.stream);
  enqueue_input(kout.p, n * sizeof(K), std::vector<K>{}, c.stream);
  enqueue_input(vals.p, n * sizeof(V), values, c.stream);
  auto v = [](const DeviceMem& m) { return CudaView{static_cast<std::uintptr_t>(m.p)}; };
  if (expect_phase) testing::internal::CaptureStderr();
  sort_pairs_native<K, V>(*c.gpusort, v(kin), v(kout), v(vals), v(vals), n, CudaStream{c.stream},
                          {.stable = true, .algorithm = "radix", .verbose = expect_phase != nullptr});
  if (expect_phase) {
    const std::string phases = testing::internal::GetCapturedStderr();
    EXPECT_NE(phases.find(expect_phase), std::string::npos) << "n=" << n << "\n" << phases;
  }
  EXPECT_TRUE(pairs_sorted_like_reference(keys, read_after<K>(kout.p, n, c.stream), read_after<V>(vals.p, n, c.stream),
                                          order::ascending, true))
      << "n=" << n << " seed=" << seed;
  EXPECT_EQ(0, std::memcmp(read_after<K>(kin.p, n, c.stream).data(), keys.data(), n * sizeof(K)))
      << "keys_in was modified: n=" << n;
}

// The one-launch sorts (the bitonic network up to 4096 keys alone, or up to 512 pairs with keys of
// up to 32 bits; the single tile beyond, and for 64-bit keys with values) read the input where it
// lies and write the output, which starts poisoned: keys alone, pairs (values apart, and in place
// beside keys apart), argsort's positions made in the kernel, and float keys with -0 and NaN (the
// network gathers those from their input positions).
TEST(NativeCuda, OneLaunchSortsReadTheInputWhereItLies) {
  SKIP_WITHOUT_CUDA();
  auto s = caller().stream;
  for (std::size_t n : {2, 129, 1000, 4096, 5000, 8192}) check_keys<std::uint32_t>(n, false, false, s);
  for (std::size_t n : {1000, 4096, 6000})
    check_keys<float>(n, false, false, s, n == 4096 ? order::descending : order::ascending, dist::specials);
  check_keys<std::uint64_t>(2048, false, false, s);
  check_keys<double>(3000, false, false, s, order::ascending, dist::specials);
  check_keys<std::uint16_t>(16384, false, true, s);
  for (std::size_t n : {1000, 4096}) check_radix_out_of_place<std::uint32_t, std::uint32_t>(n, ~0ull);
  check_radix_out_of_place<std::uint32_t, std::uint64_t>(3000, ~0ull, dist::few_unique);
  check_radix_out_of_place<float, std::uint32_t>(3000, ~0ull, dist::specials);
  check_radix_out_of_place<std::uint64_t, std::uint64_t>(1000, ~0ull);
  check_radix_out_of_place<std::uint64_t, std::uint32_t>(6000, ~0ull, dist::few_unique);
  // pairs through the network (up to 512)
  check_radix_out_of_place<std::uint32_t, std::uint32_t>(300, ~0ull);
  check_radix_out_of_place<float, std::uint64_t>(512, ~0ull, dist::specials);
  check_radix_out_of_place<std::int16_t, std::uint8_t>(200, ~0ull, dist::few_unique);
  for (std::size_t n : {300, 3000}) check_values_in_place_keys_apart<std::uint32_t, std::uint32_t>(n);
}

// argsort_native on the caller's stream: the indices start poisoned (the positions are made on the
// device), for the single-tile sorts, the passes, and the onesweep path planned before its read-back.
template <class K, class I>
void check_argsort_native(std::size_t n, order o, bool keys_in_place, dist d = dist::few_unique,
                          const char* expect_phase = nullptr) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<K>(n, d, seed);
  DeviceMem kin(n * sizeof(K)), kout(n * sizeof(K)), idx(n * sizeof(I));
  enqueue_input(kin.p, n * sizeof(K), keys, c.stream);
  enqueue_input(kout.p, n * sizeof(K), std::vector<K>{}, c.stream);
  enqueue_input(idx.p, n * sizeof(I), std::vector<I>{}, c.stream);
  const CUdeviceptr ko = keys_in_place ? kin.p : kout.p;
  SortOptions options = argsort_options();
  options.order = o;
  auto v = [](CUdeviceptr p) { return CudaView{static_cast<std::uintptr_t>(p)}; };
  options.verbose = expect_phase != nullptr;
  if (expect_phase) testing::internal::CaptureStderr();
  argsort_native_async(*c.gpusort, key_type_of<K>::value, v(kin.p), v(ko), n, v(idx.p), sizeof(I), CudaStream{c.stream},
                       options);
  if (expect_phase) {
    const std::string phases = testing::internal::GetCapturedStderr();
    EXPECT_NE(phases.find(expect_phase), std::string::npos) << "n=" << n << "\n" << phases;
  }
  std::vector<I> ref(n);
  std::iota(ref.begin(), ref.end(), I{0});
  std::stable_sort(ref.begin(), ref.end(), [&](I a, I b) { return key_less<K>{o}(keys[a], keys[b]); });
  const std::string what = "n=" + std::to_string(n) + (keys_in_place ? " keys in place" : " keys apart") +
                           " seed=" + std::to_string(seed);
  EXPECT_EQ(read_after<I>(idx.p, n, c.stream), ref) << what;
  EXPECT_TRUE(keys_sorted_like_reference(keys, read_after<K>(ko, n, c.stream), o, true)) << what;
  if (!keys_in_place)
    EXPECT_EQ(0, std::memcmp(read_after<K>(kin.p, n, c.stream).data(), keys.data(), n * sizeof(K)))
        << "keys_in was modified: " << what;
}

// The radix segments (override segments=1; uniform keys, so the driver takes them, checked in the
// verbose phases): the top passes read the input where it lies and write the output, whose segments
// are then sorted in place; argsort's positions; values sorted in place beside keys apart. Keys
// whose top two digits are equal make segments larger than the tile: the ordinary passes then sort
// the output in place (pairs, out of place).
TEST(NativeCuda, RadixSegmentsOutOfPlace) {
  SKIP_WITHOUT_CUDA();
  const algo::ScopedRadixPolicyOverride forced({.segments = true});
  const char* const tiles = "segment tiles";
  for (std::size_t n : {std::size_t(300007), (std::size_t(1) << 22) + 3}) {
    check_radix_out_of_place<std::uint32_t, std::uint32_t>(n, ~0ull, dist::uniform, false, tiles);
    check_argsort_native<std::uint32_t, std::uint32_t>(n, order::descending, false, dist::uniform, tiles);
    check_values_in_place_keys_apart<std::uint32_t, std::uint32_t>(n, dist::uniform, tiles);
  }
  check_radix_out_of_place<std::uint64_t, std::uint64_t>(300007, ~0ull, dist::uniform, false, tiles);
  check_radix_out_of_place<std::int32_t, std::uint64_t>(300007, ~0ull, dist::uniform, false, tiles);
  check_argsort_native<std::uint64_t, std::uint64_t>(300007, order::ascending, true, dist::uniform, tiles);
  const std::size_t big = (std::size_t(1) << 22) + 3;  // segments of about 16384 keys, tiles of 1536
  check_radix_out_of_place<std::uint32_t, std::uint32_t>(big, ~0ull, dist::uniform, true, "outgrew");
  check_radix_out_of_place<std::uint64_t, std::uint32_t>(big, ~0ull, dist::uniform, true, "outgrew");
}

// Packed and interleaved pairs store 8-byte words in the caller's buffers; views only 4-byte aligned
// (here 4 bytes into an allocation, as a slice of an array would be) keep the pairs unpacked: in
// place with the segments forced (their default is from 2^27 pairs), and out of place.
TEST(NativeCuda, PairsOfFourByteAlignedViews) {
  SKIP_WITHOUT_CUDA();
  auto& c = caller();
  const algo::ScopedRadixPolicyOverride forced({.segments = true});
  const std::size_t n = (std::size_t(1) << 22) + 3;  // packed onesweep passes from 2^22 pairs
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<std::uint32_t>(n, dist::uniform, seed);
  const auto values = index_values<std::uint32_t>(n);
  for (bool in_place : {true, false}) {
    DeviceMem k((n + 1) * 4), v((n + 1) * 4), kout((n + 1) * 4), vout((n + 1) * 4);
    const CUdeviceptr kp = k.p + 4, vp = v.p + 4;  // 4 bytes in: not 8-byte aligned
    const CUdeviceptr kop = in_place ? kp : kout.p + 4, vop = in_place ? vp : vout.p + 4;
    enqueue_input(kp, n * 4, keys, c.stream);
    enqueue_input(vp, n * 4, values, c.stream);
    auto view = [](CUdeviceptr p) { return CudaView{static_cast<std::uintptr_t>(p)}; };
    testing::internal::CaptureStderr();
    sort_pairs_native<std::uint32_t, std::uint32_t>(*c.gpusort, view(kp), view(kop), view(vp), view(vop), n,
                                                    CudaStream{c.stream}, {.stable = true, .algorithm = "radix", .verbose = true});
    const std::string phases = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(pairs_sorted_like_reference(keys, read_after<std::uint32_t>(kop, n, c.stream),
                                            read_after<std::uint32_t>(vop, n, c.stream), order::ascending, true))
        << (in_place ? "in place" : "out of place") << " seed=" << seed;
    EXPECT_NE(phases.find("segment tiles"), std::string::npos) << phases;
    EXPECT_EQ(phases.find("(interleaved)"), std::string::npos) << phases;
  }
}

TEST(NativeCuda, ArgsortMakesThePositionsOnTheDevice) {
  SKIP_WITHOUT_CUDA();
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(300007), (std::size_t(1) << 22) + 3}) {
    check_argsort_native<std::uint32_t, std::uint32_t>(n, order::ascending, false);
    check_argsort_native<std::uint32_t, std::uint64_t>(n, order::ascending, true);
  }
  check_argsort_native<float, std::uint64_t>(123457, order::descending, false);
  check_argsort_native<std::uint64_t, std::uint32_t>(77777, order::ascending, false);
  // made by the one-launch kernels: the network (4-byte keys up to 512) and the single tile (64-bit
  // keys, and 4-byte keys beyond the network)
  for (std::size_t n : {std::size_t(2), std::size_t(300), std::size_t(512), std::size_t(4096), std::size_t(6000)}) {
    check_argsort_native<float, std::uint32_t>(n, order::descending, false);
    check_argsort_native<std::int32_t, std::uint64_t>(n, order::ascending, true);
    check_argsort_native<std::uint64_t, std::uint64_t>(n, order::ascending, false);
    check_argsort_native<double, std::uint32_t>(n, order::descending, true);
  }
}

// complex128 keys on the caller's stream, sorted as 16-byte records (two passes, then the
// gathers): keys alone, the argsort's indices made in the caller's buffer, and values in or out of
// place, against the stable reference in numpy's order.
TEST(NativeCuda, Complex128KeysArgsortAndPairs) {
  SKIP_WITHOUT_CUDA();
  using c128 = std::complex<double>;
  auto& c = caller();
  for (order o : {order::ascending, order::descending}) {
    check_keys<c128>(100003, o == order::ascending, o == order::descending, c.stream, o, dist::specials);
    check_argsort_native<c128, std::uint64_t>(100003, o, false, dist::specials);
    check_argsort_native<c128, std::uint32_t>(4097, o, true);
    for (const bool in_place : {false, true}) {
      const std::size_t n = 65537;
      const std::uint64_t seed = fresh_seed();
      const auto keys = shuffled_specials(n, seed);
      const auto values = index_values<std::uint32_t>(n);
      DeviceMem kin(n * 16), kout(n * 16), vin(n * 4), vout(n * 4);
      enqueue_input(kin.p, n * 16, keys, c.stream);
      enqueue_input(vin.p, n * 4, values, c.stream);
      auto v = [](const DeviceMem& m) { return CudaView{static_cast<std::uintptr_t>(m.p)}; };
      const DeviceMem& ko = in_place ? kin : kout;
      const DeviceMem& vo = in_place ? vin : vout;
      sort_pairs_native<c128, std::uint32_t>(*c.gpusort, v(kin), v(ko), v(vin), v(vo), n, CudaStream{c.stream},
                                             {.order = o});
      const std::string what = std::string(in_place ? "in place" : "out of place") + " seed=" + std::to_string(seed);
      EXPECT_TRUE(equals_reference(keys, read_after<c128>(ko.p, n, c.stream), o)) << what;
      const auto ref = stable_reference(keys, o);
      const auto got = read_after<std::uint32_t>(vo.p, n, c.stream);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], values[ref[i]]) << "value " << i << ": " << what;
    }
  }
}

TEST(NativeCuda, HostMemoryAndMisalignmentAreRefused) {
  SKIP_WITHOUT_CUDA();
  auto& c = caller();
  std::vector<std::uint32_t> host(16);
  EXPECT_THROW(sort_native<std::uint32_t>(*c.gpusort, CudaView{host.data()}, CudaView{host.data()}, 16,
                                          CudaStream{c.stream}),
               Error);
  DeviceMem m(64);
  const CudaView odd{static_cast<std::uintptr_t>(m.p + 2)};
  EXPECT_THROW(sort_native<std::uint32_t>(*c.gpusort, odd, odd, 8, CudaStream{c.stream}), Error);
}

// The caller's temporary storage (NativeTemporaries) on CUDA, large enough for the onesweep passes
// (a histogram, status words and a second key buffer): exactly what gpusort asks for, between guard
// bytes that must stay as they were; too little, misaligned or overlapping the keys is refused
// before the keys are touched.
TEST(NativeCuda, CallersTemporaries) {
  SKIP_WITHOUT_CUDA();
  auto& c = caller();
  const std::size_t n = (std::size_t(1) << 22) + 12345, guard = 256;
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<std::uint32_t>(n, dist::uniform, seed);
  const auto values = index_values<std::uint32_t>(n);
  const SortOptions options{.stable = true};
  const std::size_t need = temporary_storage_bytes(*c.gpusort, key_type::u32, n, 4, options);
  DeviceMem k(n * 4), v(n * 4), t(guard + need + guard);
  enqueue_input(k.p, n * 4, keys, c.stream);
  enqueue_input(v.p, n * 4, values, c.stream);
  enqueue_input(t.p, guard + need + guard, std::vector<std::uint32_t>{}, c.stream);  // 0xA5 everywhere
  const CudaView kv{static_cast<std::uintptr_t>(k.p)}, vv{static_cast<std::uintptr_t>(v.p)};
  const CudaView tv{static_cast<std::uintptr_t>(t.p + guard)};
  const auto sort_with = [&](const NativeTemporaries& temps) {
    sort_native(*c.gpusort, key_type::u32, kv, kv, n, vv, vv, 4, CudaStream{c.stream}, options, temps);
  };
  const auto refused = [&](const NativeTemporaries& temps, const char* why) {
    try {
      sort_with(temps);
      ADD_FAILURE() << "not refused: " << why;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused({tv, need - 1}, "bytes of temporary storage");
  refused({CudaView{static_cast<std::uintptr_t>(t.p + guard + 4)}, need}, "256-byte aligned");
  refused({CudaView{static_cast<std::uintptr_t>(v.p + 256)}, need}, "overlaps the keys or values");
  EXPECT_EQ(0, std::memcmp(read_after<std::uint32_t>(k.p, n, c.stream).data(), keys.data(), n * 4))
      << "a refused sort touched the keys";
  sort_with({tv, need});
  EXPECT_TRUE(pairs_sorted_like_reference(keys, read_after<std::uint32_t>(k.p, n, c.stream),
                                          read_after<std::uint32_t>(v.p, n, c.stream), order::ascending, true))
      << "seed=" << seed;
  const auto bytes = read_after<unsigned char>(t.p, guard + need + guard, c.stream);
  EXPECT_TRUE(std::any_of(bytes.begin() + guard, bytes.begin() + guard + need, [](unsigned char b) { return b != 0xA5; }))
      << "the sort did not use the temporaries it was given";
  for (std::size_t i = 0; i < guard; ++i) {
    ASSERT_EQ(bytes[i], 0xA5) << "byte " << i << " before the temporaries was written";
    ASSERT_EQ(bytes[guard + need + i], 0xA5) << "byte " << i << " after the temporaries was written";
  }
}

}  // namespace
}  // namespace gpusort::test
