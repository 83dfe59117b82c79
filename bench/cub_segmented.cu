// CUB's forms of a segmented sort, the peers of gpusort's segmented sorts in `gpusort-bench
// segmented`: see cub_seg_open / cub_seg_sort in cub_peer.h. Part of libgpusort_cub_peer.so.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits>
#include <type_traits>
#include <vector>

#include "cub_common.cuh"
#include "cub_peer.h"

namespace {

using cub_peer::Mem;
#define CHECK CUB_PEER_CHECK

constexpr unsigned kThreads = 256;
unsigned blocks_for(size_t n) { return static_cast<unsigned>(std::max<size_t>(1, (n + kThreads - 1) / kThreads)); }

// The input of one shape on the device, kept between calls so that each entry costs no upload.
struct SegInput {
  size_t n = 0, segments = 0;
  std::uint64_t row_length = 0;             // uniform rows: the length; 0: lengths vary
  std::vector<std::uint64_t> host_offsets;  // segments + 1 (the per-row loop reads them)
  Mem pristine, work;                       // f32 keys: as given, and the copy each repeat sorts
  Mem off32, off64;                         // offsets as int32 (absent above INT32_MAX keys) and int64
};

// The segment holding element i: by division for uniform rows, else the last offset <= i.
__device__ __forceinline__ std::uint64_t segment_of(std::uint64_t i, std::uint64_t row_length,
                                                    const std::int64_t* offsets, std::uint64_t segments) {
  if (row_length) return i / row_length;
  std::uint64_t lo = 0, hi = segments;  // offsets[lo] <= i < offsets[hi]
  while (hi - lo > 1) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (static_cast<std::uint64_t>(offsets[mid]) <= i)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Each element's position within its segment: the values an argsort sorts beside the keys.
template <class I>
__global__ void local_indices(I* idx, std::uint64_t n, std::uint64_t row_length, const std::int64_t* offsets,
                              std::uint64_t segments) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t s = segment_of(i, row_length, offsets, segments);
  idx[i] = static_cast<I>(i - (row_length ? s * row_length : static_cast<std::uint64_t>(offsets[s])));
}

// f32 bits in an order unsigned comparison follows (negative floats flipped whole, positive ones
// with the sign bit set), and back.
__device__ __forceinline__ std::uint32_t ordered(float f) {
  const std::uint32_t b = __float_as_uint(f);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ float unordered(std::uint32_t o) {
  return __uint_as_float((o & 0x80000000u) ? (o & 0x7FFFFFFFu) : ~o);
}

// (segment << 32 | ordered key): one radix sort over all of them sorts every segment. With idx,
// also each element's position within its segment.
template <class I>
__global__ void pack(const float* keys, std::uint64_t* packed, I* idx, std::uint64_t n, std::uint64_t row_length,
                     const std::int64_t* offsets, std::uint64_t segments) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t s = segment_of(i, row_length, offsets, segments);
  packed[i] = (s << 32) | ordered(keys[i]);
  if (idx) idx[i] = static_cast<I>(i - (row_length ? s * row_length : static_cast<std::uint64_t>(offsets[s])));
}

__global__ void unpack(const std::uint64_t* packed, float* keys, std::uint64_t n) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) keys[i] = unordered(static_cast<std::uint32_t>(packed[i]));
}

// Output buffers of one call, and the local indices its pair forms sort beside the keys.
template <class I>
struct Outputs {
  static constexpr bool pairs = !std::is_same_v<I, void>;
  using II = std::conditional_t<pairs, I, int>;
  Mem keys, idx_in, idx_out;
  float* k() { return static_cast<float*>(keys.p); }
  II* vi() { return static_cast<II*>(idx_in.p); }
  II* vo() { return static_cast<II*>(idx_out.p); }
  cudaError_t alloc(size_t n) {
    cudaError_t e = cudaMalloc(&keys.p, n * sizeof(float));
    if (e == cudaSuccess && pairs) e = cudaMalloc(&idx_in.p, n * sizeof(II));
    if (e == cudaSuccess && pairs) e = cudaMalloc(&idx_out.p, n * sizeof(II));
    return e;
  }
  // The last repeat's result to the host, after the timing.
  cudaError_t download(size_t n, void* out_keys, void* out_idx) {
    cudaError_t e = cudaSuccess;
    if (out_keys) e = cudaMemcpy(out_keys, keys.p, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && pairs && out_idx)
      e = cudaMemcpy(out_idx, idx_out.p, n * sizeof(II), cudaMemcpyDeviceToHost);
    return e;
  }
};

template <class I>
cudaError_t make_local_indices(SegInput& in, I* idx) {
  local_indices<I><<<blocks_for(in.n), kThreads>>>(idx, in.n, in.row_length,
                                                   static_cast<const std::int64_t*>(in.off64.p), in.segments);
  return cudaGetLastError();
}

// Times run() (the whole sort: indices made, CUB called, anything after) from a fresh copy of the input.
template <class Run>
double time_entry(SegInput& in, int repeats, Run&& run) {
  return cub_peer::timed_median(
      repeats, [&] { return cudaMemcpy(in.work.p, in.pristine.p, in.n * sizeof(float), cudaMemcpyDeviceToDevice); },
      std::forward<Run>(run));
}

// entry 0 / 1: DeviceSegmentedSort (SortKeys / SortPairs; Stable* with Stable).
template <bool Stable, class Off, class I>
double segmented_sort(SegInput& in, int repeats, void* out_keys, void* out_idx) {
  Outputs<I> o;
  CHECK(o.alloc(in.n));
  const float* ki = static_cast<const float*>(in.work.p);
  const Off* off = static_cast<const Off*>(sizeof(Off) == 4 ? in.off32.p : in.off64.p);
  const auto n = static_cast<std::int64_t>(in.n), s = static_cast<std::int64_t>(in.segments);
  auto call = [&](void* t, size_t& tb) -> cudaError_t {
    using S = cub::DeviceSegmentedSort;
    if constexpr (Outputs<I>::pairs) {
      if constexpr (Stable)
        return S::StableSortPairs(t, tb, ki, o.k(), o.vi(), o.vo(), n, s, off, off + 1);
      else
        return S::SortPairs(t, tb, ki, o.k(), o.vi(), o.vo(), n, s, off, off + 1);
    } else {
      if constexpr (Stable)
        return S::StableSortKeys(t, tb, ki, o.k(), n, s, off, off + 1);
      else
        return S::SortKeys(t, tb, ki, o.k(), n, s, off, off + 1);
    }
  };
  size_t tb = 0;
  Mem temp;
  CHECK(call(nullptr, tb));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(tb, 1)));
  const double ms = time_entry(in, repeats, [&] {
    if constexpr (Outputs<I>::pairs) {
      const cudaError_t e = make_local_indices(in, o.vi());
      if (e != cudaSuccess) return e;
    }
    return call(temp.p, tb);
  });
  if (ms < 0) return ms;
  CHECK(o.download(in.n, out_keys, out_idx));
  return ms;
}

// entry 2: DeviceSegmentedRadixSort (num_items and num_segments are int in CUB 3.0).
template <class Off, class I>
double segmented_radix(SegInput& in, int repeats, void* out_keys, void* out_idx) {
  if (in.n > size_t(std::numeric_limits<int>::max()) || in.segments > size_t(std::numeric_limits<int>::max()))
    return -5;
  Outputs<I> o;
  CHECK(o.alloc(in.n));
  const float* ki = static_cast<const float*>(in.work.p);
  const Off* off = static_cast<const Off*>(sizeof(Off) == 4 ? in.off32.p : in.off64.p);
  const int n = static_cast<int>(in.n), s = static_cast<int>(in.segments);
  auto call = [&](void* t, size_t& tb) -> cudaError_t {
    using S = cub::DeviceSegmentedRadixSort;
    if constexpr (Outputs<I>::pairs)
      return S::SortPairs(t, tb, ki, o.k(), o.vi(), o.vo(), n, s, off, off + 1);
    else
      return S::SortKeys(t, tb, ki, o.k(), n, s, off, off + 1);
  };
  size_t tb = 0;
  Mem temp;
  CHECK(call(nullptr, tb));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(tb, 1)));
  const double ms = time_entry(in, repeats, [&] {
    if constexpr (Outputs<I>::pairs) {
      const cudaError_t e = make_local_indices(in, o.vi());
      if (e != cudaSuccess) return e;
    }
    return call(temp.p, tb);
  });
  if (ms < 0) return ms;
  CHECK(o.download(in.n, out_keys, out_idx));
  return ms;
}

// entry 3: one DeviceRadixSort over (segment << 32 | ordered key), over the bits that vary only;
// the sorted keys are then the low halves.
template <class Num, class I>
double packed_radix(SegInput& in, int repeats, void* out_keys, void* out_idx) {
  if (in.n > size_t(std::numeric_limits<Num>::max()) || in.segments > (std::uint64_t(1) << 32)) return -5;
  Outputs<I> o;
  CHECK(o.alloc(in.n));
  Mem p_in, p_out, temp;
  CHECK(cudaMalloc(&p_in.p, in.n * 8));
  CHECK(cudaMalloc(&p_out.p, in.n * 8));
  auto* pi = static_cast<std::uint64_t*>(p_in.p);
  auto* po = static_cast<std::uint64_t*>(p_out.p);
  int end_bit = 32;  // the segment's bits above the key's: as many as the last segment needs
  for (std::uint64_t last = in.segments - 1; last; last >>= 1) ++end_bit;
  const Num n = static_cast<Num>(in.n);
  auto call = [&](void* t, size_t& tb) -> cudaError_t {
    if constexpr (Outputs<I>::pairs)
      return cub::DeviceRadixSort::SortPairs(t, tb, pi, po, o.vi(), o.vo(), n, 0, end_bit);
    else
      return cub::DeviceRadixSort::SortKeys(t, tb, pi, po, n, 0, end_bit);
  };
  size_t tb = 0;
  CHECK(call(nullptr, tb));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(tb, 1)));
  const double ms = time_entry(in, repeats, [&] {
    using II = typename Outputs<I>::II;
    pack<II><<<blocks_for(in.n), kThreads>>>(static_cast<const float*>(in.work.p), pi,
                                             Outputs<I>::pairs ? o.vi() : nullptr, in.n, in.row_length,
                                             static_cast<const std::int64_t*>(in.off64.p), in.segments);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = call(temp.p, tb);
    if (e != cudaSuccess) return e;
    unpack<<<blocks_for(in.n), kThreads>>>(po, o.k(), in.n);
    return cudaGetLastError();
  });
  if (ms < 0) return ms;
  CHECK(o.download(in.n, out_keys, out_idx));
  return ms;
}

// entry 4: one DeviceRadixSort per segment, in a loop on the host (a few segments only).
constexpr size_t kLoopMaxSegments = 64;
template <class Num, class I>
double row_loop(SegInput& in, int repeats, void* out_keys, void* out_idx) {
  if (in.segments > kLoopMaxSegments) return -5;
  std::uint64_t longest = 0;
  for (size_t s = 0; s < in.segments; ++s) longest = std::max(longest, in.host_offsets[s + 1] - in.host_offsets[s]);
  if (longest > std::uint64_t(std::numeric_limits<Num>::max())) return -5;
  Outputs<I> o;
  CHECK(o.alloc(in.n));
  const float* ki = static_cast<const float*>(in.work.p);
  auto call = [&](void* t, size_t& tb, std::uint64_t at, std::uint64_t len) -> cudaError_t {
    const Num num = static_cast<Num>(len);
    if constexpr (Outputs<I>::pairs)
      return cub::DeviceRadixSort::SortPairs(t, tb, ki + at, o.k() + at, o.vi() + at, o.vo() + at, num);
    else
      return cub::DeviceRadixSort::SortKeys(t, tb, ki + at, o.k() + at, num);
  };
  size_t tb = 0;
  Mem temp;
  CHECK(call(nullptr, tb, 0, longest));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(tb, 1)));
  const double ms = time_entry(in, repeats, [&] {
    if constexpr (Outputs<I>::pairs) {
      const cudaError_t e = make_local_indices(in, o.vi());
      if (e != cudaSuccess) return e;
    }
    for (size_t s = 0; s < in.segments; ++s) {
      const std::uint64_t at = in.host_offsets[s], len = in.host_offsets[s + 1] - at;
      if (len == 0) continue;
      size_t bytes = tb;
      const cudaError_t e = call(temp.p, bytes, at, len);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  });
  if (ms < 0) return ms;
  CHECK(o.download(in.n, out_keys, out_idx));
  return ms;
}

template <class I>
double by_entry(SegInput& in, int entry, int offset_kind, int repeats, void* ok, void* oi) {
  const bool wide = offset_kind == 1;
  if (!wide && !in.off32.p) return -5;  // more keys than int32 offsets reach
  switch (entry) {
    case 0:
      return wide ? segmented_sort<false, std::int64_t, I>(in, repeats, ok, oi)
                  : segmented_sort<false, std::int32_t, I>(in, repeats, ok, oi);
    case 1:
      return wide ? segmented_sort<true, std::int64_t, I>(in, repeats, ok, oi)
                  : segmented_sort<true, std::int32_t, I>(in, repeats, ok, oi);
    case 2:
      return wide ? segmented_radix<std::int64_t, I>(in, repeats, ok, oi)
                  : segmented_radix<std::int32_t, I>(in, repeats, ok, oi);
    case 3:
      return wide ? packed_radix<std::int64_t, I>(in, repeats, ok, oi) : packed_radix<int, I>(in, repeats, ok, oi);
    case 4:
      return wide ? row_loop<std::int64_t, I>(in, repeats, ok, oi) : row_loop<int, I>(in, repeats, ok, oi);
    default:
      return -4;
  }
}

}  // namespace

extern "C" {

void* cub_seg_open(const float* keys, size_t n, const uint64_t* offsets, size_t segments, uint64_t row_length,
                   double* status) {
  auto fail = [&](double code) -> void* {
    if (status) *status = code;
    return nullptr;
  };
  if (!cub_peer::have_device()) return fail(-1);
  if (n == 0 || segments == 0 || !offsets || offsets[0] != 0 || offsets[segments] != n) return fail(-4);
  auto* in = new SegInput;
  in->n = n;
  in->segments = segments;
  in->row_length = row_length;
  in->host_offsets.assign(offsets, offsets + segments + 1);
  auto setup = [&]() -> double {
    CHECK(cudaMalloc(&in->pristine.p, n * sizeof(float)));
    CHECK(cudaMalloc(&in->work.p, n * sizeof(float)));
    CHECK(cudaMemcpy(in->pristine.p, keys, n * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<std::int64_t> o64(offsets, offsets + segments + 1);
    CHECK(cudaMalloc(&in->off64.p, o64.size() * 8));
    CHECK(cudaMemcpy(in->off64.p, o64.data(), o64.size() * 8, cudaMemcpyHostToDevice));
    if (n <= size_t(std::numeric_limits<std::int32_t>::max())) {
      std::vector<std::int32_t> o32(offsets, offsets + segments + 1);
      CHECK(cudaMalloc(&in->off32.p, o32.size() * 4));
      CHECK(cudaMemcpy(in->off32.p, o32.data(), o32.size() * 4, cudaMemcpyHostToDevice));
    }
    return 0;
  };
  if (const double code = setup(); code < 0) {
    delete in;
    return fail(code);
  }
  if (status) *status = 0;
  return in;
}

double cub_seg_sort(void* input, int entry, int offset_kind, int index_kind, int repeats, void* out_keys,
                    void* out_indices) {
  if (!input || repeats < 1 || offset_kind < 0 || offset_kind > 1) return -4;
  auto& in = *static_cast<SegInput*>(input);
  switch (index_kind) {
    case 0:
      return by_entry<void>(in, entry, offset_kind, repeats, out_keys, out_indices);
    case 1:
      return by_entry<std::int32_t>(in, entry, offset_kind, repeats, out_keys, out_indices);
    case 2:
      return by_entry<std::int64_t>(in, entry, offset_kind, repeats, out_keys, out_indices);
    default:
      return -4;
  }
}

void cub_seg_close(void* input) { delete static_cast<SegInput*>(input); }

}  // extern "C"
