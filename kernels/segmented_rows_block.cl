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
//
// The segmented_listed_* kernels sort segments given by offsets alike: the binned bin's block
// classes (src/algorithms/segmented/segmented_binned.cpp), segments of 2^(c-1) + 1 to 2^c keys that
// kernels/segmented_long.cl's segmented_bin_long listed on the device. A fixed grid: block b takes
// list entries b, b + gridDim.x, ... up to the list's length (work[slot]), so nothing is read back;
// the list starts at entry list_at of `lists` (one buffer holds every class's list).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8
#include "radix_common.h"

#if !GS_CUDA
#error "segmented_rows_block.cl is for CUDA; other devices take segmented_tiles.cl"
#endif

#include "radix_single_tile.h"
#include "radix_small_bitonic.h"
#include "segmented_offsets.h"

// The row of this block: its first key, and the same offset into the values.
#define GS_ROW_BASE() const u64 base = (u64)blockIdx.x * row_length

// The listed kernels' loop: each of this block's list entries in turn, its segment at base with
// row_length keys; a barrier after each, before the next one's sort reuses shared memory.
#define GS_LISTED_PARAMS                                                                                 \
  GLOBAL const u32 *offsets_buffer, u64 first, u32 wide, GLOBAL const u64 *lists, u64 list_at,          \
      GLOBAL const u32 *work, u32 slot, okey_t flip, u32 positions
#define GS_FOR_EACH_LISTED(BODY)                                                          \
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);                \
  GLOBAL const u64* list = lists + list_at;                                               \
  const u32 listed = work[slot];                                                          \
  for (u32 e = blockIdx.x; e < listed; e += gridDim.x) {                                  \
    const u64 base = offset_at(offsets, wide, list[e]);                                   \
    const u32 row_length = (u32)(offset_at(offsets, wide, list[e] + 1) - base);           \
    BODY;                                                                                 \
    __syncthreads();                                                                      \
  }

#define GS_TILE_BODY(TPB, IT)                                                                            \
  radix_single_tile_body<TPB, IT, KEY_BITS>(smem, keys_in + base, values_in + (HAS_VALUES ? base : 0),   \
                                            keys + base, values + (HAS_VALUES ? base : 0), row_length, flip, \
                                            positions)
#define GS_ROWS_TILE_KERNEL(TPB, IT)                                                                    \
  KERNEL __launch_bounds__(TPB)                                                                         \
      segmented_rows_tile_##TPB##_##IT(const key_t* keys_in, const value_t* values_in, key_t* keys,     \
                                       value_t* values, u32 row_length, okey_t flip,                    \
                                       u32 positions GS_DYNAMIC_LOCAL) {                                \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                 \
    GS_ROW_BASE();                                                                                      \
    GS_TILE_BODY(TPB, IT);                                                                              \
  }                                                                                                     \
  KERNEL __launch_bounds__(TPB)                                                                         \
      segmented_listed_tile_##TPB##_##IT(const key_t* keys_in, const value_t* values_in, key_t* keys,   \
                                         value_t* values, GS_LISTED_PARAMS GS_DYNAMIC_LOCAL) {          \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                 \
    GS_FOR_EACH_LISTED(GS_TILE_BODY(TPB, IT))                                                           \
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
#define GS_BITONIC_BODY(LOG_N)                                                                          \
  small_bitonic_body<LOG_N>(smem, keys_in + base, values_in + (HAS_VALUES ? base : 0), keys + base,     \
                            values + (HAS_VALUES ? base : 0), row_length, flip, positions)
#define GS_ROWS_BITONIC_KERNEL(LOG_N)                                                                   \
  KERNEL __launch_bounds__(1u << (LOG_N - 2))                                                           \
      segmented_rows_bitonic_##LOG_N(const key_t* keys_in, const value_t* values_in, key_t* keys,       \
                                     value_t* values, u32 row_length, okey_t flip,                      \
                                     u32 positions GS_DYNAMIC_LOCAL) {                                  \
    GS_DECLARE_DYNAMIC_LOCAL(bitonic_t, smem);                                                          \
    GS_ROW_BASE();                                                                                      \
    GS_BITONIC_BODY(LOG_N);                                                                             \
  }                                                                                                     \
  KERNEL __launch_bounds__(1u << (LOG_N - 2))                                                           \
      segmented_listed_bitonic_##LOG_N(const key_t* keys_in, const value_t* values_in, key_t* keys,     \
                                       value_t* values, GS_LISTED_PARAMS GS_DYNAMIC_LOCAL) {            \
    GS_DECLARE_DYNAMIC_LOCAL(bitonic_t, smem);                                                          \
    GS_FOR_EACH_LISTED(GS_BITONIC_BODY(LOG_N))                                                          \
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
