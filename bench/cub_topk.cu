// CUB's top-k, the peers of gpusort's in `gpusort-bench topk`: see cub_topk_open / cub_topk in
// cub_peer.h. Part of libgpusort_cub_peer.so. cub::DeviceTopK first appears in CUB 3.3 and
// cub::DeviceBatchedTopK in 3.5; with older headers (the CUDA 13.0 toolkit's CUB 3.0) those entries
// return -5, so the peer builds with any CUB. Newer headers are put first for this library alone
// (bench/CMakeLists.txt, GPUSORT_CUB_PEER_CCCL_INCLUDE).

// A request the GPU cannot serve (the batched cluster backend below sm_90) fails at run time with
// cudaErrorNotSupported instead of at compile time, whatever CMAKE_CUDA_ARCHITECTURES says.
#define CUB_DISABLE_TOPK_UNSUPPORTED_ARCH_ASSERT

#include <cuda_runtime.h>

#include <cstdint>
#include <cub/version.cuh>
#include <limits>
#include <type_traits>

#include "cub_common.cuh"
#include "cub_peer.h"

#if CUB_VERSION >= 300300
#include <cub/device/device_topk.cuh>
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>
#include <cuda/iterator>
#include <cuda/std/__execution/env.h>
#define GPUSORT_CUB_HAS_TOPK 1
#else
#define GPUSORT_CUB_HAS_TOPK 0
#endif
#if CUB_VERSION >= 300500
#include <cub/device/device_batched_topk.cuh>
#include <cuda/__execution/tie_break.h>
#include <cuda/argument>
#define GPUSORT_CUB_HAS_BATCHED_TOPK 1
#else
#define GPUSORT_CUB_HAS_BATCHED_TOPK 0
#endif

namespace {

using cub_peer::Mem;
#define CHECK CUB_PEER_CHECK

// One shape's keys on the device, kept between calls (a top-k only reads them).
struct TopkInput {
  std::uint64_t rows = 0, length = 0;
  Mem keys;
};

// Output buffers of one call: rows x k keys and, for pairs, rows x k positions.
template <class I>
struct TopkOutputs {
  static constexpr bool pairs = !std::is_same_v<I, void>;
  using II = std::conditional_t<pairs, I, int>;
  Mem keys, idx;
  float* k() { return static_cast<float*>(keys.p); }
  II* v() { return static_cast<II*>(idx.p); }
  cudaError_t alloc(std::uint64_t count) {
    cudaError_t e = cudaMalloc(&keys.p, count * sizeof(float));
    if (e == cudaSuccess && pairs) e = cudaMalloc(&idx.p, count * sizeof(II));
    return e;
  }
  cudaError_t download(std::uint64_t count, void* out_keys, void* out_idx) {
    cudaError_t e = cudaSuccess;
    if (out_keys) e = cudaMemcpy(out_keys, keys.p, count * sizeof(float), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && pairs && out_idx)
      e = cudaMemcpy(out_idx, idx.p, count * sizeof(II), cudaMemcpyDeviceToHost);
    return e;
  }
};

// cudaErrorNotSupported (a request this GPU's architecture cannot serve) reads as "not for this shape".
[[maybe_unused]] double code_or_unsupported(cudaError_t e) {
  return e == cudaErrorNotSupported ? -5 : cub_peer::code_of(e);
}

// Queries the temporary storage of call(temp, bytes), allocates it, times call `repeats` times after a
// warm-up (nothing to reset: the keys are only read) and copies the last result back.
template <class I, class Call>
double time_call(TopkOutputs<I>& o, std::uint64_t count, int repeats, void* out_keys, void* out_idx, Call&& call) {
  size_t tb = 0;
  if (const cudaError_t e = call(nullptr, tb); e != cudaSuccess) {
    (void)cudaGetLastError();
    return code_or_unsupported(e);
  }
  Mem temp;
  CHECK(cudaMalloc(&temp.p, tb ? tb : 1));
  cudaError_t failed = cudaSuccess;
  const double ms = cub_peer::timed_median(
      repeats, [] { return cudaSuccess; },
      [&] {
        size_t bytes = tb;
        const cudaError_t e = call(temp.p, bytes);
        if (e != cudaSuccess) failed = e;
        return e;
      });
  if (failed == cudaErrorNotSupported) return -5;
  if (ms < 0) return ms;
  CHECK(o.download(count, out_keys, out_idx));
  return ms;
}

#if GPUSORT_CUB_HAS_TOPK
// DeviceTopK asks the caller to accept an unsorted result that may differ between runs when keys tie.
auto topk_env() {
  return cuda::std::execution::env{cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                            cuda::execution::output_ordering::unsorted)};
}

// entry 0: DeviceTopK::MaxKeys / MaxPairs on each row (one call for one row, else a loop over the rows
// on the host), num_items and k of type Num; the positions are a counting iterator (nothing made).
template <class Num, class I>
double device_topk(TopkInput& in, std::uint64_t k, int repeats, void* out_keys, void* out_idx) {
  if (in.length > std::uint64_t(std::numeric_limits<Num>::max())) return -5;
  TopkOutputs<I> o;
  CHECK(o.alloc(in.rows * k));
  const float* keys = static_cast<const float*>(in.keys.p);
  const auto env = topk_env();
  auto one_row = [&](void* t, size_t& tb, std::uint64_t r) -> cudaError_t {
    const Num n = static_cast<Num>(in.length), kk = static_cast<Num>(k);
    if constexpr (TopkOutputs<I>::pairs)
      return cub::DeviceTopK::MaxPairs(t, tb, keys + r * in.length, o.k() + r * k, cuda::make_counting_iterator(I(0)),
                                       o.v() + r * k, n, kk, env);
    else
      return cub::DeviceTopK::MaxKeys(t, tb, keys + r * in.length, o.k() + r * k, n, kk, env);
  };
  return time_call(o, in.rows * k, repeats, out_keys, out_idx, [&](void* t, size_t& tb) -> cudaError_t {
    if (!t) return one_row(t, tb, 0);
    for (std::uint64_t r = 0; r < in.rows; ++r)
      if (const cudaError_t e = one_row(t, tb, r); e != cudaSuccess) return e;
    return cudaSuccess;
  });
}
#endif

#if GPUSORT_CUB_HAS_BATCHED_TOPK
auto batched_env() {
  return cuda::std::execution::env{cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                            cuda::execution::tie_break::unspecified,
                                                            cuda::execution::output_ordering::unsorted)};
}

// DeviceBatchedTopK::MaxKeys / MaxPairs over uniform rows: every row's keys and outputs through
// strided iterators, each row's positions one counting iterator.
template <class I, class Size, class K, class Segments>
double batched(TopkInput& in, std::uint64_t k, Size size, K k_arg, Segments segments, int repeats, void* out_keys,
               void* out_idx) {
  TopkOutputs<I> o;
  CHECK(o.alloc(in.rows * k));
  const auto length = static_cast<std::int64_t>(in.length), kk = static_cast<std::int64_t>(k);
  const float* keys = static_cast<const float*>(in.keys.p);
  const auto keys_in = cuda::make_strided_iterator(cuda::make_counting_iterator(keys), length);
  const auto keys_out = cuda::make_strided_iterator(cuda::make_counting_iterator(o.k()), kk);
  const auto env = batched_env();
  return time_call(o, in.rows * k, repeats, out_keys, out_idx, [&](void* t, size_t& tb) -> cudaError_t {
    if constexpr (TopkOutputs<I>::pairs) {
      const auto values_in = cuda::make_constant_iterator(cuda::make_counting_iterator(I(0)));
      const auto values_out = cuda::make_strided_iterator(cuda::make_counting_iterator(o.v()), kk);
      return cub::DeviceBatchedTopK::MaxPairs(t, tb, keys_in, keys_out, values_in, values_out, size, k_arg, segments,
                                              env);
    } else {
      return cub::DeviceBatchedTopK::MaxKeys(t, tb, keys_in, keys_out, size, k_arg, segments, env);
    }
  });
}

// entry 1: the row length and k known at run time, under the tightest of three compile-time bounds
// (CUB sizes its kernels and temporary storage by the bound), of type Num like the row count.
template <class Num, class I, std::int64_t Bound>
double batched_runtime_in(TopkInput& in, std::uint64_t k, int repeats, void* ok, void* oi) {
  const auto size = cuda::args::immediate{static_cast<Num>(in.length), cuda::args::bounds<Num(1), Num(Bound)>()};
  const auto k_arg = cuda::args::immediate{static_cast<Num>(k), cuda::args::bounds<Num(1), Num(Bound)>()};
  return batched<I>(in, k, size, k_arg, cuda::args::immediate{static_cast<Num>(in.rows)}, repeats, ok, oi);
}
template <class Num, class I>
double batched_runtime(TopkInput& in, std::uint64_t k, int repeats, void* ok, void* oi) {
  if (in.rows > std::uint64_t(std::numeric_limits<std::int32_t>::max())) return -5;
  if (in.length <= 1024) return batched_runtime_in<Num, I, 1024>(in, k, repeats, ok, oi);
  if (in.length <= 131072) return batched_runtime_in<Num, I, 131072>(in, k, repeats, ok, oi);
  if (in.length <= (1 << 21)) return batched_runtime_in<Num, I, (1 << 21)>(in, k, repeats, ok, oi);
  return -5;  // longer rows than DeviceBatchedTopK takes
}

// entry 2: the row length and k as compile-time constants, as CUB's own benchmarks call it: issue 53's
// shapes only.
template <class I, int Length, int K>
double batched_constant_in(TopkInput& in, std::uint64_t k, int repeats, void* ok, void* oi) {
  return batched<I>(in, k, cuda::args::constant<Length>{}, cuda::args::constant<K>{},
                    cuda::args::immediate{static_cast<std::int32_t>(in.rows)}, repeats, ok, oi);
}
template <class I>
double batched_constant(TopkInput& in, std::uint64_t k, int repeats, void* ok, void* oi) {
  if (in.rows > std::uint64_t(std::numeric_limits<std::int32_t>::max())) return -5;
  const std::uint64_t l = in.length;
  if (l == 128256 && k == 50) return batched_constant_in<I, 128256, 50>(in, k, repeats, ok, oi);
  if (l == 128256 && k == 1024) return batched_constant_in<I, 128256, 1024>(in, k, repeats, ok, oi);
  if (l == 131072 && k == 50) return batched_constant_in<I, 131072, 50>(in, k, repeats, ok, oi);
  if (l == 32768 && k == 50) return batched_constant_in<I, 32768, 50>(in, k, repeats, ok, oi);
  if (l == 32768 && k == 1024) return batched_constant_in<I, 32768, 1024>(in, k, repeats, ok, oi);
  if (l == 1024 && k == 50) return batched_constant_in<I, 1024, 50>(in, k, repeats, ok, oi);
  return -5;
}
#endif

template <class I>
double by_entry(TopkInput& in, int entry, int offset_kind, std::uint64_t k, int repeats, void* ok, void* oi) {
  [[maybe_unused]] const bool wide = offset_kind == 1;
  switch (entry) {
    case 0:
#if GPUSORT_CUB_HAS_TOPK
      return wide ? device_topk<std::int64_t, I>(in, k, repeats, ok, oi)
                  : device_topk<std::int32_t, I>(in, k, repeats, ok, oi);
#else
      return -5;
#endif
    case 1:
#if GPUSORT_CUB_HAS_BATCHED_TOPK
      return wide ? batched_runtime<std::int64_t, I>(in, k, repeats, ok, oi)
                  : batched_runtime<std::int32_t, I>(in, k, repeats, ok, oi);
#else
      return -5;
#endif
    case 2:
#if GPUSORT_CUB_HAS_BATCHED_TOPK
      return wide ? -5 : batched_constant<I>(in, k, repeats, ok, oi);
#else
      return -5;
#endif
    default:
      return -4;
  }
}

}  // namespace

extern "C" {

int cub_topk_entries(void) { return (GPUSORT_CUB_HAS_TOPK ? 1 : 0) | (GPUSORT_CUB_HAS_BATCHED_TOPK ? 6 : 0); }

void* cub_topk_open(const float* keys, uint64_t rows, uint64_t length, double* status) {
  auto fail = [&](double code) -> void* {
    if (status) *status = code;
    return nullptr;
  };
  if (!cub_peer::have_device()) return fail(-1);
  if (!keys || rows == 0 || length == 0) return fail(-4);
  auto* in = new TopkInput;
  in->rows = rows;
  in->length = length;
  auto setup = [&]() -> double {
    CHECK(cudaMalloc(&in->keys.p, rows * length * sizeof(float)));
    CHECK(cudaMemcpy(in->keys.p, keys, rows * length * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
  };
  if (const double code = setup(); code < 0) {
    delete in;
    return fail(code);
  }
  if (status) *status = 0;
  return in;
}

double cub_topk(void* input, int entry, int offset_kind, int index_kind, uint64_t k, int repeats, void* out_keys,
                void* out_indices) {
  if (!input || repeats < 1 || offset_kind < 0 || offset_kind > 1) return -4;
  auto& in = *static_cast<TopkInput*>(input);
  if (k == 0 || k > in.length) return -4;
  switch (index_kind) {
    case 0:
      return by_entry<void>(in, entry, offset_kind, k, repeats, out_keys, out_indices);
    case 1:
      return by_entry<std::int32_t>(in, entry, offset_kind, k, repeats, out_keys, out_indices);
    case 2:
      return by_entry<std::int64_t>(in, entry, offset_kind, k, repeats, out_keys, out_indices);
    default:
      return -4;
  }
}

void cub_topk_close(void* input) { delete static_cast<TopkInput*>(input); }

}  // extern "C"
