// A tile of keys in digit order with warp votes (RADIX_WARP_RANK = 1; host: NVIDIA GPUs, CUDA or
// OpenCL), for the portable radix kernels through radix_tile_sort (radix_tile_split.h, which
// includes this after its slot layout). The split rounds' two passes over local memory with a group
// scan each become eight ballots per key, as in the CUDA onesweep pass (radix_warp_rank.h).
#ifndef GPUSORT_RADIX_TILE_WARP_RANK_H
#define GPUSORT_RADIX_TILE_WARP_RANK_H
#if RADIX_WARP_RANK
#include "radix_warp_rank.h"
#if GROUP_SIZE % 32 != 0
#error "RADIX_WARP_RANK needs whole warps"
#endif
#if RADIX_BITS > 8 || 32 * ITEMS > 65535
#error "radix_tile_sort_warps packs a key's digit and rank in one word"
#endif
// Warp w takes the ITEMS x 32 keys from tile position w * 32 * ITEMS on, lane l of item i the key
// at + i * 32 + l (that order is the tile's). Per item, eight ballots find the lanes with the same
// digit (radix_match_peers, as in the CUDA pass); their ranks follow the warp's count of that digit
// so far (counts[w][d], advanced by the highest such lane). One barrier later the counts become each
// warp's first place per digit (tile_start[d] + the lower warps' counts) and every key goes to its
// place. counts: the split rounds' `cols`, WARPS x RADIX words used. Keys past `valid` are left where
// they are (last).
DEVICE_FN void radix_tile_sort_warps(LOCAL key_t* lkeys, LOCAL u32* lsrc, LOCAL u32* counts, LOCAL const u32* tile_start,
                                     u32 valid, okey_t flip, u32 shift) {
  const u32 t = LOCAL_ID(), lane = t & 31u, warp = t >> 5;
  const u32 lanes_below = (1u << lane) - 1u;
  LOCAL u32* mine = counts + warp * RADIX;
  for (u32 d = lane; d < RADIX; d += 32u) mine[d] = 0;
  warp_sync();
  key_t k[ITEMS];
  u32 place[ITEMS];  // digit << 16 | rank among the warp's keys of that digit
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 q = warp * 32u * ITEMS + i * 32u + lane;
    k[i] = lkeys[TILE_SLOT(q)];
    const bool has_key = q < valid;
    const u32 d = has_key ? radix_digit(k[i], flip, shift) : 0u;
    const u32 peers = radix_match_peers(d, warp_ballot(has_key), has_key);
    const u32 before = has_key ? mine[d] : 0u;
    warp_sync();  // every peer has read the count before the highest one writes it
    const u32 rank = before + warp_popcount(peers & lanes_below);
    if (has_key && (peers & ~(lanes_below | (1u << lane))) == 0u) mine[d] = rank + 1u;  // the highest peer
    warp_sync();
    place[i] = d << 16 | rank;
  }
  BARRIER();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) {
    u32 run = tile_start[d];
    for (u32 w = 0; w < GROUP_SIZE / 32u; ++w) {
      const u32 c = counts[w * RADIX + d];
      counts[w * RADIX + d] = run;
      run += c;
    }
  }
  BARRIER();
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 q = warp * 32u * ITEMS + i * 32u + lane;
    if (q < valid) {
      const u32 to = mine[place[i] >> 16] + (place[i] & 0xFFFFu);
      lkeys[TILE_SLOT(to)] = k[i];
#if HAS_VALUES
      lsrc[TILE_SLOT(to)] = q;
#endif
    }
  }
  BARRIER();
}
#endif  // RADIX_WARP_RANK

#endif  // GPUSORT_RADIX_TILE_WARP_RANK_H
