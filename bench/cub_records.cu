// CUB's forms of a fixed-size record sort, the peer of gpusort::sort_records in
// gpusort-records-bench: see cub_sort_records in cub_peer.h. Part of libgpusort_cub_peer.so.
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>
#include <cuda/std/utility>
#include <limits>
#include <vector>

#include "cub_common.cuh"
#include "cub_peer.h"

namespace {

using cub_peer::median;
using cub_peer::Mem;
#define CHECK CUB_PEER_CHECK

// --- form 0: the records themselves ----------------------------------------------------------

// A record as 32-bit words: records of a multiple of 4 bytes are 4-byte aligned in a cudaMalloc'd
// array, and CUB then moves them a word at a time instead of a byte at a time.
template <int Words>
struct Record {
  std::uint32_t w[Words];
};

// Bytes [Off, Off + Len) of a record compared as unsigned bytes in order, four at a time as
// big-endian words. Every byte position is a compile-time constant once unrolled, so the records
// the merge sort holds stay in registers (a run-time position would index them and spill them).
template <int Words, int Off, int Len>
struct RecordKeyLess {
  static_assert(Off + Len <= 4 * Words, "the key must lie inside the record");
  __device__ __forceinline__ static std::uint32_t chunk(const Record<Words>& r, int j) {
    std::uint32_t v = 0;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int at = 4 * j + b < Len ? Off + 4 * j + b : Off;  // past the key: any valid index, masked below
      const std::uint32_t byte = (r.w[at / 4] >> (8 * (at % 4))) & 0xFFu;
      v = (v << 8) | (4 * j + b < Len ? byte : 0u);
    }
    return v;
  }
  __device__ bool operator()(const Record<Words>& a, const Record<Words>& b) const {
#pragma unroll
    for (int j = 0; j < (Len + 3) / 4; ++j) {
      const std::uint32_t x = chunk(a, j), y = chunk(b, j);
      if (x != y) return x < y;
    }
    return false;
  }
};

template <class Offset, int Words, int Off, int Len>
double sort_whole(const void* host, size_t n, int repeats, void* out, double* sort_ms) {
  using R = Record<Words>;
  const size_t bytes = n * sizeof(R);
  Mem pristine, work, temp;
  CHECK(cudaMalloc(&pristine.p, bytes));
  CHECK(cudaMalloc(&work.p, bytes));
  CHECK(cudaMemcpy(pristine.p, host, bytes, cudaMemcpyHostToDevice));
  R* recs = static_cast<R*>(work.p);
  const Offset num = static_cast<Offset>(n);
  using Less = RecordKeyLess<Words, Off, Len>;
  size_t temp_bytes = 0;
  CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, recs, num, Less{}));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(temp_bytes, 1)));
  const double ms = cub_peer::timed_median(
      repeats, [&] { return cudaMemcpy(recs, pristine.p, bytes, cudaMemcpyDeviceToDevice); },
      [&] { return cub::DeviceMergeSort::StableSortKeys(temp.p, temp_bytes, recs, num, Less{}); });
  if (ms < 0) return ms;
  if (out) CHECK(cudaMemcpy(out, recs, bytes, cudaMemcpyDeviceToHost));
  if (sort_ms) *sort_ms = ms;
  return ms;
}

// --- forms 1 and 2: (key, index) pairs, then a gather -----------------------------------------

// A key of up to 4 W bytes as big-endian words, zero-padded: numeric order = byte order.
template <int W>
struct Key {
  std::uint32_t w[W];
};

template <int W>
struct KeyLess {
  __device__ bool operator()(const Key<W>& a, const Key<W>& b) const {
#pragma unroll
    for (int j = 0; j < W; ++j)
      if (a.w[j] != b.w[j]) return a.w[j] < b.w[j];
    return false;
  }
};

// The radix sort's view of a key: its words, the first the most significant.
template <int W>
struct KeyWords {
  template <size_t... I>
  __host__ __device__ static auto tie(Key<W>& k, ::cuda::std::index_sequence<I...>) {
    return ::cuda::std::tie(k.w[I]...);
  }
  __host__ __device__ auto operator()(Key<W>& k) const { return tie(k, ::cuda::std::make_index_sequence<W>{}); }
};

// Key i and index i of every record. Word loads when the key's words lie on word boundaries of
// the record (100-byte records, offset 0), else byte loads.
template <int W>
__global__ void make_pairs(const unsigned char* records, size_t n, size_t rb, size_t off, size_t kb,
                           Key<W>* keys, std::uint32_t* index) {
  const bool words = rb % 4 == 0 && off % 4 == 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const unsigned char* k = records + i * rb + off;
    Key<W> key;
#pragma unroll
    for (int j = 0; j < W; ++j) {
      std::uint32_t v = 0;
      if (words) {  // off + 4 W <= rb here: both are multiples of 4 and the key fits
        v = __byte_perm(reinterpret_cast<const std::uint32_t*>(k)[j], 0, 0x0123);
      } else {
        for (int b = 0; b < 4; ++b) v = (v << 8) | (4 * j + b < int(kb) ? k[4 * j + b] : 0u);
      }
      const int valid = int(kb) - 4 * j;  // bytes of this word inside the key
      if (valid < 4) v &= valid <= 0 ? 0u : ~0u << (8 * (4 - valid));
      key.w[j] = v;
    }
    keys[i] = key;
    index[i] = std::uint32_t(i);
  }
}

// out record i = in record index[i]: a warp per record, its lanes on consecutive words, U records
// loaded before any is stored so that enough bytes are in flight to keep memory busy.
template <class Word, int U>
__global__ void gather(const Word* in, Word* out, const std::uint32_t* index, size_t n, unsigned words) {
  const unsigned lane = threadIdx.x % 32;
  const size_t warp = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32;
  const size_t warps = size_t(gridDim.x) * blockDim.x / 32;
  for (size_t base = warp * U; base < n; base += warps * U) {
    for (unsigned w = lane; w - lane < words; w += 32) {
      Word v[U];
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (base + u < n && w < words) v[u] = in[size_t(index[base + u]) * words + w];
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (base + u < n && w < words) out[(base + u) * words + w] = v[u];
    }
  }
}

unsigned blocks_for(size_t work, unsigned threads) {
  return unsigned(std::min<size_t>((work + threads - 1) / threads, size_t(1) << 20));
}

template <class Offset, int W, bool Radix>
double sort_by_index(const void* host, size_t n, size_t rb, size_t off, size_t kb, int repeats, void* out,
                     double* sort_ms) {
  if (n > std::numeric_limits<std::uint32_t>::max()) return -4;  // u32 indices
  const size_t bytes = n * rb;
  Mem pristine, work, result, k1, k2, i1, i2, temp;
  CHECK(cudaMalloc(&pristine.p, bytes));
  CHECK(cudaMalloc(&work.p, bytes));
  CHECK(cudaMalloc(&result.p, bytes));
  CHECK(cudaMalloc(&k1.p, n * sizeof(Key<W>)));
  CHECK(cudaMalloc(&i1.p, n * sizeof(std::uint32_t)));
  if (Radix) {  // the radix sort's alternate buffers (CUB's double-buffer form: no copy of its own)
    CHECK(cudaMalloc(&k2.p, n * sizeof(Key<W>)));
    CHECK(cudaMalloc(&i2.p, n * sizeof(std::uint32_t)));
  }
  CHECK(cudaMemcpy(pristine.p, host, bytes, cudaMemcpyHostToDevice));
  auto* keys = static_cast<Key<W>*>(k1.p);
  auto* index = static_cast<std::uint32_t*>(i1.p);
  const Offset num = static_cast<Offset>(n);
  const int begin_bit = int(8 * (4 * W - kb)), end_bit = 32 * W;  // the zero padding is not sorted
  cub::DoubleBuffer<Key<W>> dk(keys, static_cast<Key<W>*>(k2.p));
  cub::DoubleBuffer<std::uint32_t> dv(index, static_cast<std::uint32_t*>(i2.p));
  auto sort = [&](void* t, size_t& tb) -> cudaError_t {
    if constexpr (Radix) {
      dk = cub::DoubleBuffer<Key<W>>(keys, static_cast<Key<W>*>(k2.p));
      dv = cub::DoubleBuffer<std::uint32_t>(index, static_cast<std::uint32_t*>(i2.p));
      return cub::DeviceRadixSort::SortPairs(t, tb, dk, dv, num, KeyWords<W>{}, begin_bit, end_bit);
    } else {
      return cub::DeviceMergeSort::StableSortPairs(t, tb, keys, index, num, KeyLess<W>{});
    }
  };
  size_t temp_bytes = 0;
  CHECK(sort(nullptr, temp_bytes));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(temp_bytes, 1)));
  const bool word_records = rb % 4 == 0;
  const unsigned words = unsigned(word_records ? rb / 4 : rb);
  constexpr int kUnroll = 8, kThreads = 256;
  cudaEvent_t ev[4];
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  std::vector<double> total, sorting;
  for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up
    CHECK(cudaMemcpy(work.p, pristine.p, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(ev[0]));
    make_pairs<W><<<blocks_for(n, kThreads), kThreads>>>(static_cast<const unsigned char*>(work.p), n, rb, off, kb,
                                                         keys, index);
    CHECK(cudaEventRecord(ev[1]));
    CHECK(sort(temp.p, temp_bytes));
    CHECK(cudaEventRecord(ev[2]));
    const std::uint32_t* sorted = Radix ? dv.Current() : index;
    const unsigned gather_blocks = blocks_for((n + kUnroll - 1) / kUnroll * 32, kThreads);
    if (word_records)
      gather<std::uint32_t, kUnroll><<<gather_blocks, kThreads>>>(static_cast<const std::uint32_t*>(work.p),
                                                                  static_cast<std::uint32_t*>(result.p), sorted, n, words);
    else
      gather<unsigned char, kUnroll><<<gather_blocks, kThreads>>>(static_cast<const unsigned char*>(work.p),
                                                                  static_cast<unsigned char*>(result.p), sorted, n, words);
    CHECK(cudaEventRecord(ev[3]));
    CHECK(cudaEventSynchronize(ev[3]));
    CHECK(cudaGetLastError());
    float all = 0, part = 0;
    CHECK(cudaEventElapsedTime(&all, ev[0], ev[3]));
    CHECK(cudaEventElapsedTime(&part, ev[1], ev[2]));
    if (r >= 0) total.push_back(all), sorting.push_back(part);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  if (out) CHECK(cudaMemcpy(out, result.p, bytes, cudaMemcpyDeviceToHost));
  if (sort_ms) *sort_ms = median(sorting);
  return median(total);
}

template <class Offset, bool Radix>
double by_key_words(const void* h, size_t n, size_t rb, size_t off, size_t kb, int r, void* out, double* sm) {
  switch ((kb + 3) / 4) {
    case 1: return sort_by_index<Offset, 1, Radix>(h, n, rb, off, kb, r, out, sm);
    case 2: return sort_by_index<Offset, 2, Radix>(h, n, rb, off, kb, r, out, sm);
    case 3: return sort_by_index<Offset, 3, Radix>(h, n, rb, off, kb, r, out, sm);
    case 4: return sort_by_index<Offset, 4, Radix>(h, n, rb, off, kb, r, out, sm);
    default: return -5;
  }
}

template <class Offset>
double run(int form, const void* h, size_t n, size_t rb, size_t off, size_t kb, int r, void* out, double* sm) {
  if (n > size_t(std::numeric_limits<Offset>::max())) return -4;
  switch (form) {
    case 0:
      if (rb != 100 || off != 0 || kb != 10) return -5;  // the one compiled layout: the classic records
      return sort_whole<Offset, 25, 0, 10>(h, n, r, out, sm);
    case 1: return by_key_words<Offset, false>(h, n, rb, off, kb, r, out, sm);
    case 2: return by_key_words<Offset, true>(h, n, rb, off, kb, r, out, sm);
    default: return -4;
  }
}

}  // namespace

extern "C" double cub_sort_records(int offset_kind, int form, const void* records, size_t n, size_t record_bytes,
                                   size_t key_offset, size_t key_bytes, int repeats, void* out_records,
                                   double* sort_ms) {
  if (!cub_peer::have_device()) return -1;
  if (!records || n == 0 || repeats < 1 || record_bytes == 0 || key_bytes == 0 || key_offset >= record_bytes ||
      key_bytes > record_bytes - key_offset)
    return -4;
  if (offset_kind == 0) return run<int>(form, records, n, record_bytes, key_offset, key_bytes, repeats, out_records, sort_ms);
  if (offset_kind == 1)
    return run<std::int64_t>(form, records, n, record_bytes, key_offset, key_bytes, repeats, out_records, sort_ms);
  return -4;
}
