// Segmented sorts on CUDA, the tile bin's block form: uniform rows of a few hundred to a few
// thousand keys, one block per row, each sorted by the one-block sorts of the 1-D radix sort
// (radix_single_tile.h: warp-ranked 8-bit passes in registers and shared memory;
// radix_small_bitonic.h: a bitonic network in registers) over the row where it lies. Block b sorts
// keys [b x row_length, (b + 1) x row_length): the 1-D sort's output for those keys, so the rows are
// stable in either order, and an argsort's positions (positions != 0) are the row's own.
// The portable tile (segmented_tiles.cl) packs several rows into a group and takes 4-bit passes over
// (row, key); one block per row needs no row digits and ranks a warp's keys with ballots.
// Specialised as radix_single_tile.cl is (the host's radix_single_tile_program_defines); the host
// (segmented_tiles.cpp) picks the kernel the 1-D radix policy picks for n = row_length.
// NVRTC-CHECK-DEFINES: RADIX_BITS=8
#include "radix_common.h"

#if !GS_CUDA
#error "segmented_rows_block.cl is for CUDA; other devices take segmented_tiles.cl"
#endif

#include "radix_single_tile.h"
#include "radix_small_bitonic.h"

// The row of this block: its first key, and the same offset into the values.
#define GS_ROW_BASE() const u64 base = (u64)blockIdx.x * row_length

#define GS_ROWS_TILE_KERNEL(TPB, IT)                                                                    \
  KERNEL __launch_bounds__(TPB)                                                                         \
      segmented_rows_tile_##TPB##_##IT(const key_t* keys_in, const value_t* values_in, key_t* keys,     \
                                       value_t* values, u32 row_length, okey_t flip,                    \
                                       u32 positions GS_DYNAMIC_LOCAL) {                                \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                 \
    GS_ROW_BASE();                                                                                      \
    radix_single_tile_body<TPB, IT, KEY_BITS>(smem, keys_in + base, values_in + (HAS_VALUES ? base : 0), \
                                              keys + base, values + (HAS_VALUES ? base : 0), row_length, \
                                              flip, positions);                                         \
  }
#define SINGLE_KV_REGS ((KEY_BITS / 8 + 3) / 4 + (VALUE_BYTES + 3) / 4)
GS_ROWS_TILE_KERNEL(256, 4)
#if 4 * SINGLE_KV_REGS <= 32
GS_ROWS_TILE_KERNEL(512, 4)
#endif
#if 8 * SINGLE_KV_REGS <= 32
GS_ROWS_TILE_KERNEL(512, 8)
#endif
#if 8 * SINGLE_KV_REGS <= 16
GS_ROWS_TILE_KERNEL(1024, 8)
#endif
#if 16 * SINGLE_KV_REGS <= 16
GS_ROWS_TILE_KERNEL(1024, 16)
#endif
#undef GS_ROWS_TILE_KERNEL

#if SMALL_BITONIC
#define GS_ROWS_BITONIC_KERNEL(LOG_N)                                                                   \
  KERNEL __launch_bounds__(1u << (LOG_N - 2))                                                           \
      segmented_rows_bitonic_##LOG_N(const key_t* keys_in, const value_t* values_in, key_t* keys,       \
                                     value_t* values, u32 row_length, okey_t flip,                      \
                                     u32 positions GS_DYNAMIC_LOCAL) {                                  \
    GS_DECLARE_DYNAMIC_LOCAL(bitonic_t, smem);                                                          \
    GS_ROW_BASE();                                                                                      \
    small_bitonic_body<LOG_N>(smem, keys_in + base, values_in + (HAS_VALUES ? base : 0), keys + base,   \
                              values + (HAS_VALUES ? base : 0), row_length, flip, positions);           \
  }
GS_ROWS_BITONIC_KERNEL(7)
GS_ROWS_BITONIC_KERNEL(8)
GS_ROWS_BITONIC_KERNEL(9)
GS_ROWS_BITONIC_KERNEL(10)
GS_ROWS_BITONIC_KERNEL(11)
GS_ROWS_BITONIC_KERNEL(12)
#undef GS_ROWS_BITONIC_KERNEL
#endif
#undef GS_ROW_BASE
