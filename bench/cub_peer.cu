// CUB peers for gpusort-bench: see cub_peer.h. Compiled by nvcc for sm_90 (H100/H200).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <limits>
#include <vector>

#include "cub_common.cuh"
#include "cub_peer.h"

namespace {

// Plain <: the benchmark's float generators make no NaNs, and -0.0 == +0.0 under <.
template <class K>
struct LessOf {
  __host__ __device__ bool operator()(const K& a, const K& b) const { return a < b; }
};

using cub_peer::median;
using cub_peer::Mem;
#define CHECK CUB_PEER_CHECK

// Times `repeats` calls of sort(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out).
// in-place algorithms (merge) use keys_out == keys_in restored from a pristine copy each time.
// Offset: the integer type of num_items, which selects CUB's kernel configuration (its u32 key sort
// is faster with int64_t on Hopper; pairs with int): the peer runs both and the benchmark takes the
// faster.
template <class K, class V, bool Radix, class Offset>
double run(const void* hkeys, const void* hvalues, size_t n, int repeats, void* out_keys, void* out_values) {
  if (n == 0 || n > size_t(std::numeric_limits<Offset>::max()) || repeats < 1) return -4;
  constexpr bool pairs = !std::is_same_v<V, void>;
  using VV = std::conditional_t<pairs, V, char>;
  const size_t kb = n * sizeof(K), vb = pairs ? n * sizeof(VV) : 0;
  Mem pk, pv, k1, v1, k2, v2, temp;
  CHECK(cudaMalloc(&pk.p, kb));
  CHECK(cudaMalloc(&k1.p, kb));
  CHECK(cudaMalloc(&k2.p, kb));
  CHECK(cudaMemcpy(pk.p, hkeys, kb, cudaMemcpyHostToDevice));
  if (pairs) {
    CHECK(cudaMalloc(&pv.p, vb));
    CHECK(cudaMalloc(&v1.p, vb));
    CHECK(cudaMalloc(&v2.p, vb));
    CHECK(cudaMemcpy(pv.p, hvalues, vb, cudaMemcpyHostToDevice));
  }
  K* ki = static_cast<K*>(k1.p);
  K* ko = static_cast<K*>(k2.p);
  VV* vi = static_cast<VV*>(v1.p);
  VV* vo = static_cast<VV*>(v2.p);
  const Offset num = static_cast<Offset>(n);
  auto call = [&](void* t, size_t& tb) -> cudaError_t {
    if constexpr (Radix) {
      if constexpr (pairs) return cub::DeviceRadixSort::SortPairs(t, tb, ki, ko, vi, vo, num);
      else return cub::DeviceRadixSort::SortKeys(t, tb, ki, ko, num);
    } else {
      if constexpr (pairs) return cub::DeviceMergeSort::SortPairs(t, tb, ki, vi, num, LessOf<K>{});
      else return cub::DeviceMergeSort::SortKeys(t, tb, ki, num, LessOf<K>{});
    }
  };
  size_t temp_bytes = 0;
  CHECK(call(nullptr, temp_bytes));
  CHECK(cudaMalloc(&temp.p, std::max<size_t>(temp_bytes, 1)));
  const double ms = cub_peer::timed_median(
      repeats,
      [&] {
        cudaError_t e = cudaMemcpy(ki, pk.p, kb, cudaMemcpyDeviceToDevice);
        if (e == cudaSuccess && pairs) e = cudaMemcpy(vi, pv.p, vb, cudaMemcpyDeviceToDevice);
        return e;
      },
      [&] { return call(temp.p, temp_bytes); });
  if (ms < 0) return ms;
  const K* rk = Radix ? ko : ki;
  const VV* rv = Radix ? vo : vi;
  if (out_keys) CHECK(cudaMemcpy(out_keys, rk, kb, cudaMemcpyDeviceToHost));
  if (pairs && out_values) CHECK(cudaMemcpy(out_values, rv, vb, cudaMemcpyDeviceToHost));
  return ms;
}

template <bool Radix, class Offset>
double dispatch_typed(int kk, int vk, const void* k, const void* v, size_t n, int r, void* ok, void* ov) {
  switch (kk * 3 + vk) {
    case 0: return run<std::uint32_t, void, Radix, Offset>(k, v, n, r, ok, ov);
    case 1: return run<std::uint32_t, std::uint32_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 2: return run<std::uint32_t, std::uint64_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 3: return run<std::uint64_t, void, Radix, Offset>(k, v, n, r, ok, ov);
    case 4: return run<std::uint64_t, std::uint32_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 5: return run<std::uint64_t, std::uint64_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 6: return run<float, void, Radix, Offset>(k, v, n, r, ok, ov);
    case 7: return run<float, std::uint32_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 8: return run<float, std::uint64_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 9: return run<double, void, Radix, Offset>(k, v, n, r, ok, ov);
    case 10: return run<double, std::uint32_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 11: return run<double, std::uint64_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 12: return run<__half, void, Radix, Offset>(k, v, n, r, ok, ov);
    case 13: return run<__half, std::uint32_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 14: return run<__half, std::uint64_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 15: return run<__nv_bfloat16, void, Radix, Offset>(k, v, n, r, ok, ov);
    case 16: return run<__nv_bfloat16, std::uint32_t, Radix, Offset>(k, v, n, r, ok, ov);
    case 17: return run<__nv_bfloat16, std::uint64_t, Radix, Offset>(k, v, n, r, ok, ov);
    default: return -4;
  }
}

template <bool Radix>
double dispatch(int offset_kind, int kk, int vk, const void* k, const void* v, size_t n, int r, void* ok, void* ov) {
  if (!cub_peer::have_device()) return -1;
  if (offset_kind == 0) return dispatch_typed<Radix, int>(kk, vk, k, v, n, r, ok, ov);
  if (offset_kind == 1) return dispatch_typed<Radix, std::int64_t>(kk, vk, k, v, n, r, ok, ov);
  return -4;
}

}  // namespace

extern "C" {

int cub_peer_abi(void) { return GPUSORT_CUB_PEER_ABI; }
int cub_peer_cub_version(void) { return CUB_VERSION; }

int cub_peer_init(int device, char* name, size_t name_bytes) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  if (count <= 0 || device < 0 || device >= count) return 0;
  if (cudaSetDevice(device) != cudaSuccess) return 0;
  cudaDeviceProp prop{};
  if (name && name_bytes && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    std::strncpy(name, prop.name, name_bytes - 1);
    name[name_bytes - 1] = 0;
  }
  return count;
}

double cub_radix_sort_keys(int ok, int kk, const void* keys, size_t n, int repeats, void* out_keys) {
  return dispatch<true>(ok, kk, 0, keys, nullptr, n, repeats, out_keys, nullptr);
}
double cub_radix_sort_pairs(int ok, int kk, int vk, const void* keys, const void* values, size_t n, int repeats,
                            void* out_keys, void* out_values) {
  if (vk < 1 || vk > 2) return -4;
  return dispatch<true>(ok, kk, vk, keys, values, n, repeats, out_keys, out_values);
}
double cub_merge_sort_keys(int ok, int kk, const void* keys, size_t n, int repeats, void* out_keys) {
  return dispatch<false>(ok, kk, 0, keys, nullptr, n, repeats, out_keys, nullptr);
}
double cub_merge_sort_pairs(int ok, int kk, int vk, const void* keys, const void* values, size_t n, int repeats,
                            void* out_keys, void* out_values) {
  if (vk < 1 || vk > 2) return -4;
  return dispatch<false>(ok, kk, vk, keys, values, n, repeats, out_keys, out_values);
}

double cub_copy_d2d_ms(size_t bytes, int repeats) {
  if (!cub_peer::have_device()) return -1;
  Mem a, b;
  CHECK(cudaMalloc(&a.p, bytes));
  CHECK(cudaMalloc(&b.p, bytes));
  CHECK(cudaMemset(a.p, 1, bytes));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<double> times;
  for (int r = -1; r < repeats; ++r) {
    CHECK(cudaEventRecord(e0));
    CHECK(cudaMemcpy(b.p, a.p, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 0) times.push_back(ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return median(times);
}

}  // extern "C"
