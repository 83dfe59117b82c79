// Sorting memory the caller owns on the caller's OpenCL queue (gpusort/native.hpp): a program with
// its own cl_context, queue and buffers, whose own commands before and after the sort are enqueued
// without any clFinish in between, so only the event ordering keeps them in order.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <thread>

#include "api/out_of_core.hpp"
#include "gpusort/argsort.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/native.hpp"
#include "support/caller_opencl.hpp"
#include "support/complex128_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

using namespace caller_opencl;

// The caller's own work before the sort: garbage over the whole buffer, then (non-blocking) the
// input at `offset`. Nothing waits for it on the host.
template <class T>
void enqueue_input(cl_command_queue q, cl_mem m, std::size_t offset, std::size_t total, const std::vector<T>& data) {
  const unsigned char garbage = 0xA5;
  ASSERT_EQ(clEnqueueFillBuffer(q, m, &garbage, 1, 0, total, 0, nullptr, nullptr), CL_SUCCESS);
  if (!data.empty())
    ASSERT_EQ(clEnqueueWriteBuffer(q, m, CL_FALSE, offset, data.size() * sizeof(T), data.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
}

// The caller's own work after the sort: a non-blocking read; waits on that read's event only.
template <class T>
std::vector<T> read_after(cl_command_queue q, cl_mem m, std::size_t offset, std::size_t n) {
  std::vector<T> out(n);
  if (n == 0) return out;
  cl_event e = nullptr;
  EXPECT_EQ(clEnqueueReadBuffer(q, m, CL_FALSE, offset, n * sizeof(T), out.data(), 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  clReleaseEvent(e);
  return out;
}

enum class call { sync, async };

template <class K>
void check_keys(std::size_t n, std::size_t offset, bool in_place, call how, order o = order::ascending) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<K>(n, dist::uniform, seed);
  const std::size_t total = offset + n * sizeof(K);
  Mem in{c.buffer(total)};
  Mem out{in_place ? nullptr : c.buffer(total)};
  cl_mem out_mem = in_place ? in.m : out.m;
  enqueue_input(c.queue, in.m, offset, total, input);
  if (!in_place) enqueue_input(c.queue, out.m, offset, total, std::vector<K>{});
  const OpenCLView vin{in.m, offset}, vout{out_mem, offset};
  std::optional<Completion> pending;
  if (how == call::sync)
    sort_native<K>(*c.gpusort, vin, vout, n, OpenCLQueue{c.queue}, {.order = o});
  else
    pending.emplace(sort_native_async<K>(*c.gpusort, vin, vout, n, OpenCLQueue{c.queue}, {.order = o}));
  const auto sorted = read_after<K>(c.queue, out_mem, offset, n);
  EXPECT_TRUE(keys_sorted_like_reference(input, sorted, o, false))
      << "n=" << n << " offset=" << offset << (in_place ? " in place" : " out of place") << " seed=" << seed;
  if (!in_place) {
    const auto kept = read_after<K>(c.queue, in.m, offset, n);
    EXPECT_EQ(0, std::memcmp(kept.data(), input.data(), n * sizeof(K))) << "keys_in was modified";
  }
  if (pending) pending->wait();
}

template <class K, class V>
void check_pairs_native(std::size_t n, std::size_t offset, bool in_place) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<K>(n, dist::few_unique, seed);
  const auto values = index_values<V>(n);
  const std::size_t ktotal = offset + n * sizeof(K), vtotal = offset + n * sizeof(V);
  Mem kin{c.buffer(ktotal)}, vin{c.buffer(vtotal)};
  Mem kout{in_place ? nullptr : c.buffer(ktotal)}, vout{in_place ? nullptr : c.buffer(vtotal)};
  enqueue_input(c.queue, kin.m, offset, ktotal, keys);
  enqueue_input(c.queue, vin.m, offset, vtotal, values);
  cl_mem ko = in_place ? kin.m : kout.m, vo = in_place ? vin.m : vout.m;
  sort_pairs_native<K, V>(*c.gpusort, OpenCLView{kin.m, offset}, OpenCLView{ko, offset}, OpenCLView{vin.m, offset},
                          OpenCLView{vo, offset}, n, OpenCLQueue{c.queue}, {.stable = true});
  const auto sorted_keys = read_after<K>(c.queue, ko, offset, n);
  const auto sorted_values = read_after<V>(c.queue, vo, offset, n);
  EXPECT_TRUE(pairs_sorted_like_reference(keys, sorted_keys, sorted_values, order::ascending, true))
      << "n=" << n << " offset=" << offset << (in_place ? " in place" : " out of place") << " seed=" << seed;
}

TEST(NativeOpenCL, KeysInPlaceOnTheCallersQueue) {
  SKIP_WITHOUT_OPENCL();
  for (std::size_t n : {0, 1, 2, 1000, 4097, 30011}) check_keys<std::uint32_t>(n, 0, true, call::sync);
  check_keys<float>(12345, 0, true, call::sync, order::descending);
  check_keys<std::int64_t>(7777, 0, true, call::async);
  check_keys<double>(3001, 0, true, call::sync);
  check_keys<std::int8_t>(999, 0, true, call::async);
}

TEST(NativeOpenCL, KeysOutOfPlaceLeaveTheInputAlone) {
  SKIP_WITHOUT_OPENCL();
  check_keys<std::uint32_t>(1, 0, false, call::sync);
  check_keys<std::uint32_t>(20001, 0, false, call::sync);
  check_keys<float>(4099, 0, false, call::async);
  check_keys<std::uint16_t>(1235, 0, false, call::sync, order::descending);
}

TEST(NativeOpenCL, AtAnAlignedOffset) {
  SKIP_WITHOUT_OPENCL();
  const std::size_t align = caller().base_align();
  check_keys<std::uint32_t>(5003, align, true, call::sync);
  check_keys<double>(2049, 3 * align, false, call::async);
}

TEST(NativeOpenCL, Pairs) {
  SKIP_WITHOUT_OPENCL();
  const std::size_t align = caller().base_align();
  check_pairs_native<std::uint32_t, std::uint32_t>(10007, 0, true);
  check_pairs_native<float, std::uint64_t>(3333, 0, false);
  check_pairs_native<std::int16_t, Bytes16>(1001, align, false);
  check_pairs_native<std::uint64_t, std::uint8_t>(255, align, true);
}

// Radix out of place reads the input where it lies and plans its ping-pong so that the last pass
// writes the output: its pass count (digits that vary) decides which buffer the first pass writes.
// Keys masked to 0, 1, 2 and 4 varying bytes give 0 to 4 passes; the output starts poisoned; keys and
// values both apart, and keys apart with values in place (an odd number of passes copies the keys in
// first).
template <class K, class V>
void check_radix_out_of_place(std::size_t n, std::uint64_t mask, bool values_apart) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  auto keys = make_keys<K>(n, dist::uniform, seed);
  for (K& k : keys) k = static_cast<K>(static_cast<std::uint64_t>(k) & mask);
  const auto values = index_values<V>(n);
  Mem kin{c.buffer(n * sizeof(K))}, kout{c.buffer(n * sizeof(K))};
  Mem vin{c.buffer(n * sizeof(V))}, vout{values_apart ? c.buffer(n * sizeof(V)) : nullptr};
  enqueue_input(c.queue, kin.m, 0, n * sizeof(K), keys);
  enqueue_input(c.queue, kout.m, 0, n * sizeof(K), std::vector<K>{});  // 0xA5 poison
  enqueue_input(c.queue, vin.m, 0, n * sizeof(V), values);
  if (values_apart) enqueue_input(c.queue, vout.m, 0, n * sizeof(V), std::vector<V>{});
  cl_mem vo = values_apart ? vout.m : vin.m;
  testing::internal::CaptureStderr();  // the phases (verbose): no copy back where the radix reads the input
  sort_pairs_native<K, V>(*c.gpusort, OpenCLView{kin.m}, OpenCLView{kout.m}, OpenCLView{vin.m}, OpenCLView{vo}, n,
                          OpenCLQueue{c.queue}, {.stable = true, .algorithm = "radix", .verbose = true});
  const std::string phases = testing::internal::GetCapturedStderr();
  const std::string what = "n=" + std::to_string(n) + " mask=" + std::to_string(mask) +
                           (values_apart ? " values apart" : " values in place") + " seed=" + std::to_string(seed);
  // values in place with an odd number of passes: the keys are copied in, sorted in place, copied back
  int passes = 0;
  for (int byte = 0; byte < 8; ++byte) passes += (mask >> (8 * byte) & 0xFF) != 0;
  if (values_apart || passes % 2 == 0) EXPECT_EQ(phases.find("copy back"), std::string::npos) << what << "\n" << phases;
  if (n > 4096 && passes > 0) EXPECT_NE(phases.find("pass"), std::string::npos) << "no phases printed: " << what;
  EXPECT_TRUE(pairs_sorted_like_reference(keys, read_after<K>(c.queue, kout.m, 0, n), read_after<V>(c.queue, vo, 0, n),
                                          order::ascending, true))
      << what;
  EXPECT_EQ(0, std::memcmp(read_after<K>(c.queue, kin.m, 0, n).data(), keys.data(), n * sizeof(K)))
      << "keys_in was modified: " << what;
  if (values_apart)
    EXPECT_EQ(0, std::memcmp(read_after<V>(c.queue, vin.m, 0, n).data(), values.data(), n * sizeof(V)))
        << "values_in was modified: " << what;
}

TEST(NativeOpenCL, RadixOutOfPlaceReadsTheInputWhereItLies) {
  SKIP_WITHOUT_OPENCL();
  for (std::uint64_t mask : {0x0ull, 0xFFull, 0xFF00FFull, 0xFFFFFFFFull}) {
    check_radix_out_of_place<std::uint32_t, std::uint32_t>(20011, mask, true);
    check_radix_out_of_place<std::uint32_t, std::uint32_t>(20011, mask, false);
  }
  check_radix_out_of_place<std::uint64_t, std::uint64_t>(9001, 0xFF0000FF0000FFull, true);  // 3 passes of 8
  check_radix_out_of_place<std::uint32_t, std::uint32_t>(1000, 0xFFFFFFFFull, true);        // one work-group
  check_radix_out_of_place<std::uint32_t, std::uint32_t>(1, 0xFFFFFFFFull, true);
}

// argsort_native: the indices start poisoned (the positions are made on the device), the keys are
// read where they lie or sorted in place, and the result is the stable reference's permutation.
template <class K, class I>
void check_argsort_native(std::size_t n, dist d, order o, bool keys_in_place, const char* algorithm = "auto") {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<K>(n, d, seed);
  Mem kin{c.buffer(n * sizeof(K))}, kout{keys_in_place ? nullptr : c.buffer(n * sizeof(K))}, idx{c.buffer(n * sizeof(I))};
  enqueue_input(c.queue, kin.m, 0, n * sizeof(K), keys);
  if (!keys_in_place) enqueue_input(c.queue, kout.m, 0, n * sizeof(K), std::vector<K>{});
  enqueue_input(c.queue, idx.m, 0, n * sizeof(I), std::vector<I>{});  // 0xA5 poison
  cl_mem ko = keys_in_place ? kin.m : kout.m;
  SortOptions options = argsort_options();
  options.order = o;
  options.algorithm = algorithm;
  const SortReport report = argsort_native(*c.gpusort, key_type_of<K>::value, OpenCLView{kin.m}, OpenCLView{ko}, n,
                                           OpenCLView{idx.m}, sizeof(I), OpenCLQueue{c.queue}, options);
  EXPECT_GT(report.sort_ms, 0.0);
  std::vector<I> ref(n);
  std::iota(ref.begin(), ref.end(), I{0});
  std::stable_sort(ref.begin(), ref.end(), [&](I a, I b) { return key_less<K>{o}(keys[a], keys[b]); });
  const std::string what = "n=" + std::to_string(n) + " dist=" + dist_name(d) + " algorithm=" + algorithm +
                           (keys_in_place ? " keys in place" : " keys apart") + " seed=" + std::to_string(seed);
  EXPECT_EQ(read_after<I>(c.queue, idx.m, 0, n), ref) << what;
  EXPECT_TRUE(keys_sorted_like_reference(keys, read_after<K>(c.queue, ko, 0, n), o, true)) << what;
  if (!keys_in_place)
    EXPECT_EQ(0, std::memcmp(read_after<K>(c.queue, kin.m, 0, n).data(), keys.data(), n * sizeof(K)))
        << "keys_in was modified: " << what;
}

// complex128 keys in the caller's memory, sorted as 16-byte records (two passes, then the gathers),
// against the stable reference in numpy's order: values of width sizeof(V) carried in or out of
// place at `offset`, and the argsort's indices (made in the caller's buffer) of the same keys.
template <class V, class I>
void check_complex128_native(std::size_t n, std::size_t offset, bool in_place, order o) {
  auto& c = caller();
  const std::uint64_t seed = fresh_seed();
  const auto keys = shuffled_specials(n, seed);
  const auto values = index_values<V>(n);
  const auto ref = stable_reference(keys, o);
  const std::string what = "n=" + std::to_string(n) + " offset=" + std::to_string(offset) +
                           (in_place ? " in place" : " out of place") + " seed=" + std::to_string(seed);
  const std::size_t ktotal = offset + n * 16, vtotal = offset + n * sizeof(V);
  Mem kin{c.buffer(ktotal)}, vin{c.buffer(vtotal)};
  Mem kout{in_place ? nullptr : c.buffer(ktotal)}, vout{in_place ? nullptr : c.buffer(vtotal)};
  enqueue_input(c.queue, kin.m, offset, ktotal, keys);
  enqueue_input(c.queue, vin.m, offset, vtotal, values);
  if (!in_place) enqueue_input(c.queue, kout.m, offset, ktotal, std::vector<c128>{});
  if (!in_place) enqueue_input(c.queue, vout.m, offset, vtotal, std::vector<V>{});
  cl_mem ko = in_place ? kin.m : kout.m, vo = in_place ? vin.m : vout.m;
  sort_pairs_native<c128, V>(*c.gpusort, OpenCLView{kin.m, offset}, OpenCLView{ko, offset}, OpenCLView{vin.m, offset},
                             OpenCLView{vo, offset}, n, OpenCLQueue{c.queue}, {.order = o});
  EXPECT_TRUE(equals_reference(keys, read_after<c128>(c.queue, ko, offset, n), o)) << what;
  const auto got = read_after<V>(c.queue, vo, offset, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(same_bits(got[i], values[ref[i]])) << "value " << i << ": " << what;
  if (!in_place)
    EXPECT_EQ(0, std::memcmp(read_after<c128>(c.queue, kin.m, offset, n).data(), keys.data(), n * 16)) << what;
  // argsort of the same keys: indices poisoned first, keys read where they lie
  Mem idx{c.buffer(n * sizeof(I))}, sorted{c.buffer(n * 16)};
  enqueue_input(c.queue, kin.m, 0, ktotal, keys);
  enqueue_input(c.queue, idx.m, 0, n * sizeof(I), std::vector<I>{});
  SortOptions options = argsort_options();
  options.order = o;
  argsort_native(*c.gpusort, key_type::c128, OpenCLView{kin.m}, OpenCLView{sorted.m}, n, OpenCLView{idx.m}, sizeof(I),
                 OpenCLQueue{c.queue}, options);
  const auto indices = read_after<I>(c.queue, idx.m, 0, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(indices[i], I(ref[i])) << "index " << i << ": " << what;
  EXPECT_TRUE(equals_reference(keys, read_after<c128>(c.queue, sorted.m, 0, n), o)) << what;
}

TEST(NativeOpenCL, Complex128KeysArgsortAndPairs) {
  SKIP_WITHOUT_OPENCL();
  const std::size_t align = caller().base_align();
  for (order o : {order::ascending, order::descending}) {
    check_complex128_native<std::uint32_t, std::uint32_t>(10007, 0, true, o);
    check_complex128_native<Bytes16, std::uint64_t>(3001, align, false, o);
  }
  check_complex128_native<std::uint8_t, std::uint64_t>(255, align, true, order::ascending);
  check_complex128_native<std::uint16_t, std::uint32_t>(1, 0, false, order::descending);
}

TEST(NativeOpenCL, ArgsortMakesThePositionsOnTheDevice) {
  SKIP_WITHOUT_OPENCL();
  for (std::size_t n : {1, 2, 1000, 20011}) {
    check_argsort_native<std::uint32_t, std::uint32_t>(n, dist::few_unique, order::ascending, false);
    check_argsort_native<std::uint32_t, std::uint64_t>(n, dist::few_unique, order::ascending, true);
  }
  check_argsort_native<float, std::uint64_t>(9001, dist::specials, order::descending, false);
  check_argsort_native<std::int64_t, std::uint32_t>(5003, dist::sorted, order::descending, false, "merge");
  auto& c = caller();
  // the caller's temporaries: as much as temporary_storage_bytes asks for with the index width
  {
    const std::size_t n = 30011;
    const auto keys = make_keys<std::uint32_t>(n, dist::few_unique, fresh_seed());
    const std::size_t need = temporary_storage_bytes(*c.gpusort, key_type::u32, n, 8, argsort_options());
    Mem k{c.buffer(n * 4)}, idx{c.buffer(n * 8)}, temp{c.buffer(need)};
    enqueue_input(c.queue, k.m, 0, n * 4, keys);
    argsort_native(*c.gpusort, key_type::u32, OpenCLView{k.m}, OpenCLView{k.m}, n, OpenCLView{idx.m}, 8,
                   OpenCLQueue{c.queue}, argsort_options(), NativeTemporaries{OpenCLView{temp.m}, need});
    std::vector<std::uint64_t> ref(n);
    std::iota(ref.begin(), ref.end(), std::uint64_t{0});
    std::stable_sort(ref.begin(), ref.end(), [&](std::uint64_t a, std::uint64_t b) { return keys[a] < keys[b]; });
    EXPECT_EQ(read_after<std::uint64_t>(c.queue, idx.m, 0, n), ref) << "with the caller's temporaries";
  }
  // refused before anything is written: a bad index width, 4-byte indices for more than 2^32 keys,
  // indices that meet the keys
  Mem k{c.buffer(64)}, idx{c.buffer(64)};
  const std::vector<std::uint32_t> fives(16, 5);  // alive until the non-blocking write is read back below
  enqueue_input(c.queue, k.m, 0, 64, fives);
  enqueue_input(c.queue, idx.m, 0, 64, std::vector<std::uint16_t>{});
  const auto refused = [&](std::size_t n, cl_mem keys_out, std::size_t keys_out_offset, std::size_t index_bytes,
                           const char* why) {
    try {
      argsort_native(*c.gpusort, key_type::u32, OpenCLView{k.m}, OpenCLView{keys_out, keys_out_offset}, n,
                     OpenCLView{idx.m}, index_bytes, OpenCLQueue{c.queue});
      ADD_FAILURE() << "not refused: " << why;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused(4, k.m, 0, 2, "indices must be 4 or 8 bytes wide");
  refused((std::size_t(1) << 32) + 1, k.m, 0, 4, "need 64-bit indices");
  refused(16, idx.m, 0, 4, "keys and values overlap");
  for (std::uint16_t v : read_after<std::uint16_t>(c.queue, idx.m, 0, 32)) EXPECT_EQ(v, 0xA5A5);
  for (std::uint32_t v : read_after<std::uint32_t>(c.queue, k.m, 0, 16)) EXPECT_EQ(v, 5u);
  argsort_native(*c.gpusort, key_type::u32, OpenCLView{k.m}, OpenCLView{k.m}, 0, OpenCLView{idx.m}, 8,
                 OpenCLQueue{c.queue});  // n == 0: nothing to do
}

// The caller's temporary storage (NativeTemporaries): exactly the size gpusort asks for, at an
// aligned offset of a buffer whose other bytes must stay as they were; too little, or overlapping
// the keys, is refused before the keys are touched.
TEST(NativeOpenCL, CallersTemporaries) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::size_t n = 20011, align = c.base_align();
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<std::uint32_t>(n, dist::uniform, seed);
  const auto values = index_values<std::uint32_t>(n);
  const SortOptions options{.stable = true};
  const std::size_t need = temporary_storage_bytes(*c.gpusort, key_type::u32, n, 4, options);
  ASSERT_GT(need, 0u);
  const std::size_t total = align + need + align;  // guard bytes on both sides
  // the keys' buffer has room past them, so a loan that overlaps the keys still fits the buffer
  Mem k{c.buffer(n * 4 + need)}, v{c.buffer(n * 4)}, t{c.buffer(total)};
  enqueue_input(c.queue, k.m, 0, n * 4, keys);
  enqueue_input(c.queue, v.m, 0, n * 4, values);
  enqueue_input(c.queue, t.m, 0, total, std::vector<std::uint32_t>{});  // 0xA5 everywhere
  const OpenCLView kv{k.m, 0}, vv{v.m, 0};
  const auto refused = [&](const NativeTemporaries& temps, const char* why) {
    try {
      sort_native(*c.gpusort, key_type::u32, kv, kv, n, vv, vv, 4, OpenCLQueue{c.queue}, options, temps);
      ADD_FAILURE() << "not refused: " << why;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused({OpenCLView{t.m, align}, need - 1}, "bytes of temporary storage");
  refused({OpenCLView{k.m, align}, need}, "overlaps the keys");
  cl_buffer_region region{align, need};  // the same bytes through a sub-buffer of the keys' buffer
  cl_int err = CL_SUCCESS;
  Mem sub{clCreateSubBuffer(k.m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err)};
  ASSERT_EQ(err, CL_SUCCESS);
  refused({OpenCLView{sub.m, 0}, need}, "overlaps the keys");
  EXPECT_EQ(0, std::memcmp(read_after<std::uint32_t>(c.queue, k.m, 0, n).data(), keys.data(), n * 4))
      << "a refused sort touched the keys";
  sort_native(*c.gpusort, key_type::u32, kv, kv, n, vv, vv, 4, OpenCLQueue{c.queue}, options,
              NativeTemporaries{OpenCLView{t.m, align}, need});
  EXPECT_TRUE(pairs_sorted_like_reference(keys, read_after<std::uint32_t>(c.queue, k.m, 0, n),
                                          read_after<std::uint32_t>(c.queue, v.m, 0, n), order::ascending, true))
      << "seed=" << seed;
  const auto guard = read_after<unsigned char>(c.queue, t.m, 0, total);
  EXPECT_TRUE(std::any_of(guard.begin() + align, guard.begin() + align + need, [](unsigned char b) { return b != 0xA5; }))
      << "the sort did not use the temporaries it was given";
  for (std::size_t i = 0; i < align; ++i) {
    ASSERT_EQ(guard[i], 0xA5) << "byte " << i << " before the temporaries was written";
    ASSERT_EQ(guard[align + need + i], 0xA5) << "byte " << i << " after the temporaries was written";
  }
}

// The caller's queue is held back by a user event while the sort is enqueued: only the event
// ordering can make the sort wait for the input, and the read after it wait for the sort. Another
// thread opens the gate, because some algorithms block the calling thread on device results
// (radix reads a histogram back) and so wait for the caller's earlier work inside the call.
TEST(NativeOpenCL, OrderingHoldsWhileTheCallersQueueIsBlocked) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::size_t n = 50001;
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<std::uint32_t>(n, dist::uniform, seed);
  Mem m{c.buffer(n * 4)};
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(c.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const unsigned char garbage = 0xFF;  // all keys equal: "sorted" already if the sort ran early
  ASSERT_EQ(clEnqueueFillBuffer(c.queue, m.m, &garbage, 1, 0, n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(c.queue, 1, &gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(c.queue, m.m, CL_FALSE, 0, n * 4, input.data(), 0, nullptr, nullptr), CL_SUCCESS);
  std::thread opener([gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    clSetUserEventStatus(gate, CL_COMPLETE);
  });
  Completion done = sort_native_async<std::uint32_t>(*c.gpusort, OpenCLView{m.m}, OpenCLView{m.m}, n,
                                                     OpenCLQueue{c.queue});
  std::vector<std::uint32_t> out(n);
  cl_event read = nullptr;
  EXPECT_EQ(clEnqueueReadBuffer(c.queue, m.m, CL_FALSE, 0, n * 4, out.data(), 0, nullptr, &read), CL_SUCCESS);
  opener.join();
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  done.wait();
  clReleaseEvent(read);
  clReleaseEvent(gate);
  EXPECT_TRUE(keys_sorted_like_reference(input, out, order::ascending, false)) << "seed=" << seed;
}

TEST(NativeOpenCL, MisalignedOffsetSaysTheAlignment) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::size_t align = c.base_align();
  if (align <= 4) GTEST_SKIP() << "every 4-byte offset is aligned on this device";
  Mem m{c.buffer(4 * align)};
  try {
    sort_native<std::uint32_t>(*c.gpusort, OpenCLView{m.m, 4}, OpenCLView{m.m, 4}, 16, OpenCLQueue{c.queue});
    FAIL() << "a misaligned offset was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find(std::to_string(align)), std::string::npos) << e.what();
  }
}

TEST(NativeOpenCL, ForeignContextIsRefused) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &c.device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem m = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  try {
    sort_native<std::uint32_t>(*c.gpusort, OpenCLView{m}, OpenCLView{m}, 16, OpenCLQueue{c.queue});
    FAIL() << "a cl_mem of another context was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("from_opencl"), std::string::npos) << e.what();
  }
  clReleaseMemObject(m);
  clReleaseContext(other);
}

TEST(NativeOpenCL, OverlappingInAndOutAreRefused) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  const std::size_t align = c.base_align();
  Mem m{c.buffer(64 * align)};
  EXPECT_THROW(sort_native<std::uint32_t>(*c.gpusort, OpenCLView{m.m, 0}, OpenCLView{m.m, align}, 8 * align,
                                          OpenCLQueue{c.queue}),
               Error);
  // keys and values in one buffer: an output that meets the other array's input or output
  Mem big{c.buffer(128 * align)};
  const std::size_t n = 4 * align;  // arrays of n * 4 = 16 * align bytes, 32 * align apart
  const OpenCLView k0{big.m, 0}, k1{big.m, 32 * align}, v0{big.m, 64 * align}, v1{big.m, 96 * align};
  const auto refused = [&](OpenCLView ki, OpenCLView ko, OpenCLView vi, OpenCLView vo, const char* what) {
    try {
      sort_pairs_native<std::uint32_t, std::uint32_t>(*c.gpusort, ki, ko, vi, vo, n, OpenCLQueue{c.queue});
      ADD_FAILURE() << "not refused: " << what;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << what;
      EXPECT_NE(std::string(e.what()).find("keys and values overlap"), std::string::npos) << e.what();
    }
  };
  refused(k0, k0, OpenCLView{big.m, align}, OpenCLView{big.m, align}, "values in place over keys in place");
  refused(k0, k1, v0, OpenCLView{big.m, 2 * align}, "values out over keys in");
  refused(k0, OpenCLView{big.m, 65 * align}, v0, v1, "keys out over values in");
  refused(k0, k1, v0, OpenCLView{big.m, 40 * align}, "values out over keys out");
  // the inputs may share memory: the keys sorted, with their own bytes as values
  const auto keys = make_keys<std::uint32_t>(n, dist::uniform, fresh_seed());
  enqueue_input(c.queue, big.m, 0, n * 4, keys);
  sort_pairs_native<std::uint32_t, std::uint32_t>(*c.gpusort, k0, k1, k0, v1, n, OpenCLQueue{c.queue});
  auto expected = keys;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(read_after<std::uint32_t>(c.queue, big.m, 32 * align, n), expected);
  EXPECT_EQ(read_after<std::uint32_t>(c.queue, big.m, 96 * align, n), expected);
}

TEST(NativeOpenCL, CudaHandlesAreRefused) {
  SKIP_WITHOUT_OPENCL();
  auto& c = caller();
  std::vector<std::uint32_t> host(8);
  EXPECT_THROW(sort_native<std::uint32_t>(*c.gpusort, CudaView{host.data()}, CudaView{host.data()}, 8, CudaStream{}),
               Error);
}

// ---- argsort (host spans) -----------------------------------------------------------------------

// The indices start poisoned and the keys must stay as they were. chunks: 1 for the one-step path
// (keys up as they lie, indices made on the device, only they back), more for the partition sort of
// data beyond a device memory limit (host-made indices).
template <class K, class I>
void check_argsort(std::size_t n, dist d, order o, const std::string& algorithm = "", std::size_t chunks = 1) {
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<K>(n, d, seed);
  const auto before = keys;
  std::vector<I> idx(n, I(-1));
  SortOptions options = argsort_options();
  options.order = o;
  options.algorithm = algorithm;
  if (chunks > 1) options.device_memory_limit = detail::pipeline_bytes(n / chunks + 1, sizeof(K), sizeof(I));
  const SortReport report = argsort(test_context(), keys, idx, options);
  std::vector<I> ref(n);
  std::iota(ref.begin(), ref.end(), I{0});
  std::stable_sort(ref.begin(), ref.end(), [&](I a, I b) { return key_less<K>{o}(keys[a], keys[b]); });
  const std::string what = "n=" + std::to_string(n) + " dist=" + dist_name(d) + " algorithm=" + algorithm +
                           " seed=" + std::to_string(seed);
  EXPECT_EQ(idx, ref) << what;
  EXPECT_TRUE(n == 0 || std::memcmp(keys.data(), before.data(), n * sizeof(K)) == 0)  // bits: NaN keys too
      << "the keys changed: " << what;
  if (n > 1) {
    if (chunks > 1)
      EXPECT_GT(report.chunks, 1u) << what;
    else
      EXPECT_EQ(report.chunks, 1u) << what;
  }
}

TEST(Argsort, MatchesAStableReference) {
  for (std::size_t n : {0, 1, 2, 3, 1000, 4097, 65537}) check_argsort<std::uint32_t, std::uint32_t>(n, dist::few_unique, order::ascending);
  check_argsort<float, std::uint64_t>(20001, dist::specials, order::ascending);
  check_argsort<std::int64_t, std::uint32_t>(9999, dist::few_unique, order::descending);
  check_argsort<std::uint8_t, std::uint64_t>(5000, dist::uniform, order::ascending);
  check_argsort<double, std::uint32_t>(3001, dist::sorted, order::descending);
}

// One step where the data fits (radix makes the positions in its kernels or fills them; merge by
// algo::run's fill), the partition sort beyond a device memory limit: the same stable order.
TEST(Argsort, OneStepAndPartitionedAgree) {
  for (const char* algorithm : {"radix", "merge"}) {
    check_argsort<std::uint32_t, std::uint64_t>(70001, dist::few_unique, order::ascending, algorithm);
    check_argsort<float, std::uint32_t>(70001, dist::specials, order::descending, algorithm);
    check_argsort<std::uint32_t, std::uint64_t>(70001, dist::few_unique, order::ascending, algorithm, 4);
    check_argsort<float, std::uint32_t>(70001, dist::specials, order::descending, algorithm, 4);
  }
}

// The request is checked before anything goes to the device: a refused argsort leaves the indices
// as they were. Algorithms that run partly on the host take the one-step path too (algo::run fills
// their positions on the device).
TEST(Argsort, RefusalsTouchNothingAndEveryAlgorithmGetsItsPositions) {
  const auto keys = make_keys<std::uint32_t>(3001, dist::few_unique, fresh_seed());
  std::vector<std::uint64_t> idx(keys.size(), 7);
  auto refused = [&](const std::string& algorithm, std::uint64_t limit, const char* why) {
    SortOptions o = argsort_options();
    o.algorithm = algorithm;
    o.device_memory_limit = limit;
    try {
      argsort(test_context(), keys, idx, o);
      ADD_FAILURE() << "not refused: " << why;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << why << ": " << e.what();
    }
    EXPECT_TRUE(std::all_of(idx.begin(), idx.end(), [](std::uint64_t i) { return i == 7; })) << why;
  };
  refused("bitonic", 0, "a stable bitonic sort");
  refused("no-such-sort", 0, "an unknown algorithm");
  refused("", 1024, "a device budget below the pipeline's least");
  for (const char* algorithm : {"hybrid", "section-merge"})
    check_argsort<std::uint32_t, std::uint64_t>(3001, dist::few_unique, order::descending, algorithm);
}

TEST(Argsort, LeavesTheKeysAloneAndChecksLengths) {
  std::vector<std::int32_t> keys = {3, -1, 3, 0};
  const auto before = keys;
  std::vector<std::uint32_t> idx(4);
  argsort(test_context(), std::span<const std::int32_t>(keys), idx);
  EXPECT_EQ(keys, before);
  EXPECT_EQ(idx, (std::vector<std::uint32_t>{1, 3, 0, 2}));
  std::vector<std::uint32_t> short_idx(3, 7);
  EXPECT_THROW(argsort(test_context(), keys, short_idx), Error);
  EXPECT_EQ(short_idx, (std::vector<std::uint32_t>(3, 7)));
}

}  // namespace
}  // namespace gpusort::test
