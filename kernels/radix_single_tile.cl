// CUDA radix sort of small inputs in one launch: radix_single_tile_<threads>_<items>
// (radix_single_tile.h; the host's RadixPath::single_tile), and up to the host's network caps
// radix_small_bitonic_<log2 N> (radix_small_bitonic.h). A program of its own, so that a small
// sort neither compiles nor looks up the onesweep program and its dozen switches (the host's whole
// path for a few thousand keys is microseconds), and the onesweep programs do not carry these kernels.
// Specialised by keys.h's defines and RADIX_BITS (src/algorithms/radix_policy.cpp, to_defines).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8
#include "radix_common.h"

#if !GS_CUDA
#error "radix_single_tile.cl is for CUDA; other devices take the single work-group path (radix_single_group.cl)"
#endif

#include "radix_single_tile.h"
#include "radix_small_bitonic.h"

// radix_single_tile_<threads>_<items>: the host takes the smallest tile that holds n (the work is
// per tile; more threads hide more latency in the one block). A thread holds its items' keys and
// values in registers: shapes are left out beyond 32 (512 threads) or 16 (1024 threads) registers of
// them (radix_policy.cpp, kSingleTileShapes, applies the same rule).
#define GS_SINGLE_TILE_KERNEL(TPB, IT)                                                                   \
  KERNEL __launch_bounds__(TPB)                                                                          \
      radix_single_tile_##TPB##_##IT(const key_t* keys_in, const value_t* values_in, key_t* keys,        \
                                     value_t* values, u32 n, okey_t flip, u32 positions GS_DYNAMIC_LOCAL) { \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                  \
    radix_single_tile_body<TPB, IT, KEY_BITS>(smem, keys_in, values_in, keys, values, n, flip, positions); \
  }
#define SINGLE_KV_REGS ((KEY_BITS / 8 + 3) / 4 + (VALUE_BYTES + 3) / 4)
GS_SINGLE_TILE_KERNEL(256, 4)
#if 4 * SINGLE_KV_REGS <= 32
GS_SINGLE_TILE_KERNEL(512, 4)
#endif
#if 8 * SINGLE_KV_REGS <= 32
GS_SINGLE_TILE_KERNEL(512, 8)
#endif
#if 8 * SINGLE_KV_REGS <= 16
GS_SINGLE_TILE_KERNEL(1024, 8)
#endif
#if 16 * SINGLE_KV_REGS <= 16
GS_SINGLE_TILE_KERNEL(1024, 16)
#endif
#undef GS_SINGLE_TILE_KERNEL

#if SMALL_BITONIC
// radix_small_bitonic_<LOG_N>: N = 2^LOG_N elements at most, N / 4 threads; dynamic shared memory
// of 2 N elements for N >= 256 (below it no step leaves a warp): host, single_tile_local_bytes
#define GS_SMALL_BITONIC_KERNEL(LOG_N)                                                                   \
  KERNEL __launch_bounds__(1u << (LOG_N - 2))                                                            \
      radix_small_bitonic_##LOG_N(const key_t* keys_in, const value_t* values_in, key_t* keys,           \
                                  value_t* values, u32 n, okey_t flip, u32 positions GS_DYNAMIC_LOCAL) { \
    GS_DECLARE_DYNAMIC_LOCAL(bitonic_t, smem);                                                           \
    small_bitonic_body<LOG_N>(smem, keys_in, values_in, keys, values, n, flip, positions);               \
  }
GS_SMALL_BITONIC_KERNEL(7)
GS_SMALL_BITONIC_KERNEL(8)
GS_SMALL_BITONIC_KERNEL(9)
GS_SMALL_BITONIC_KERNEL(10)
GS_SMALL_BITONIC_KERNEL(11)
GS_SMALL_BITONIC_KERNEL(12)
#undef GS_SMALL_BITONIC_KERNEL
#endif
