// Top-k of long rows cut among work-groups, small k: a sample's threshold filters each row's
// candidates in one read, and the rounds (topk_select.cl) select the k among the candidates alone.
//
// The rounds read a row at least twice (a digit pass to count, then a filter), and a pass more for
// every top digit that ties more than their candidate cap (floats clustered in a few exponents). A
// sample of the row does better where k is small against the row: the key of rank j among
// `sample_keys` keys drawn across the row (j a few standard deviations above the k * sample / length
// that the top-k's keys would put in the sample) is, with high probability, beyond the row's k-th
// key and not far beyond it. One read then keeps every key at or before that threshold, a few times
// k of them, whatever the distribution of the keys:
//  - topk_sample_keys: the sample, one key from each of `sample_keys` equal blocks of the row (a
//    hashed place in the block, so that no period of the data lines up with the draws);
//  - topk_partition_rows (topk_select.cl, kth_only) on the sample: its key of rank j, the threshold;
//  - topk_sample_filter: each tile of TKS_TILE keys keeps those at or before the threshold, in
//    position order, in a stage, at a place reserved by one atomic add per tile (the order of the
//    tiles in the stage is the order they ran in; each tile records its count and its first slot);
//  - topk_sample_place: per row, the tiles' counts scanned in tile order into each tile's place
//    among the row's candidates; where the row kept at least k keys and no more than the stage
//    holds, the rounds' state takes the candidates as its source (buffer A, every key tied, k to
//    take); otherwise the state stays on the row itself and the rounds run as without a sample;
//  - topk_sample_gather: every staged key to its place in buffer A, so the candidates are in
//    position order, as the rounds take them (ties by position), whatever order the tiles ran in.
// The threshold may be wrong (a sample is random); the result never is: a row whose candidates
// fall short of k or overflow the stage reads the row again in the rounds.
//
// Specialised by keys.h's defines (VALUE_BYTES 0), GROUP_SIZE (a power of two, 64..1024) and, on NVIDIA
// GPUs, TK_WARP_SCAN=1 (the scans in warp shuffles).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 TK_WARP_SCAN=1
#include "topk_rounds.h"

// Keys per work-item of a filter tile: loaded interleaved (key j of work-item t at j * GROUP_SIZE + t,
// each load coalesced) and owned blocked (work-item t ranks the tile's positions 16 t .. 16 t + 15
// through the tile's bitmap), so that the stage is in position order with one scan per tile.
#define TKS_ITEMS 16u
#define TKS_TILE (GROUP_SIZE * TKS_ITEMS)

DEVICE_FN u32 tks_popcount16(u32 x) {
  x = x - ((x >> 1) & 0x5555u);
  x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
  x = (x + (x >> 4)) & 0x0F0Fu;
  return (x + (x >> 8)) & 0x1Fu;
}

// sample: rows x sample_keys keys; staged: rows u32, zeroed here for the filter's reservations.
// One work-item per sampled key.
KERNEL topk_sample_keys(GLOBAL const key_t* keys, GLOBAL key_t* sample, GLOBAL u32* staged, u64 rows, u64 length,
                        u64 sample_keys) {
  const u64 i = GLOBAL_ID();
  if (i < rows) staged[i] = 0;
  if (i >= rows * sample_keys) return;
  const u64 r = i / sample_keys, b = i % sample_keys, block = length / sample_keys;
  sample[i] = keys[r * length + b * block + gs_mix_u64(b) % block];  // a fixed scramble: where in the block
}

// One group per tile of TKS_TILE keys of a row (tiles per row). thresholds: each row's sample key of
// rank j. Writes the tile's count and first slot (tile_count, tile_first: rows x tiles) and its kept
// keys with their positions in position order to the stage (rows x stage_cap), those past the stage's
// end dropped (the row's reservations then pass stage_cap: topk_sample_place leaves it to the rounds).
KERNEL topk_sample_filter(GLOBAL const key_t* keys, GLOBAL const key_t* thresholds, GLOBAL key_t* stage_keys,
                          GLOBAL u32* stage_pos, GLOBAL u32* staged, GLOBAL u32* tile_count, GLOBAL u32* tile_first,
                          u64 length, u64 tiles, u64 stage_cap, okey_t flip) {
  LOCAL_ARRAY u32 bits[TKS_TILE / 32];
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u32 first_slot[1];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / tiles, start = (GROUP_ID() % tiles) * TKS_TILE;
  const okey_t limit = ordered_key(thresholds[r], flip);
  GLOBAL const key_t* row = keys + r * length;
  key_t v[TKS_ITEMS];
#pragma unroll
  for (u32 j = 0; j < TKS_ITEMS; ++j) {
    const u64 p = start + j * GROUP_SIZE + t;
    v[j] = p < length ? row[p] : (key_t)0;
  }
  for (u32 w = t; w < TKS_TILE / 32; w += GROUP_SIZE) bits[w] = 0;
  BARRIER();
#pragma unroll
  for (u32 j = 0; j < TKS_ITEMS; ++j) {
    const u32 q = j * GROUP_SIZE + t;
    if (start + q < length && ordered_key(v[j], flip) <= limit) ATOMIC_OR_U32(&bits[q >> 5], 1u << (q & 31u));
  }
  BARRIER();
  const u32 mine = (bits[t >> 1] >> ((t & 1u) * 16u)) & 0xFFFFu;  // the tile's positions 16 t .. 16 t + 15
  const u32 excl = tk_sub_scan(tks_popcount16(mine), scratch, GROUP_SIZE);
  const u32 total = scratch[GROUP_SIZE - 1];
  if (t == 0) {
    const u32 slot = total ? ATOMIC_ADD_U32(&staged[r], total) : 0u;
    first_slot[0] = slot;
    tile_count[GROUP_ID()] = total;
    tile_first[GROUP_ID()] = slot;
  }
  if (total == 0) return;  // the same for the whole group
  BARRIER();
  u64 at = (u64)first_slot[0] + excl;
  for (u32 b = 0; b < 16u; ++b)
    if ((mine >> b) & 1u) {
      const u64 p = start + t * 16u + b;
      if (at < stage_cap) {
        stage_keys[r * stage_cap + at] = row[p];  // read again: the tile's keys are in another work-item
        stage_pos[r * stage_cap + at] = (u32)p;
      }
      ++at;
    }
}

// Per-work-item runs of the tile counts that the place scan takes at once.
#define TKS_PLACE_ITEMS 16u

// One group per row: where the filter kept at least k keys and the stage holds them all, each tile's
// count becomes its first place among the row's candidates (exclusive, in tile order, in place) and
// the rounds' state (after topk_round_init) takes them as its source; otherwise nothing changes.
KERNEL topk_sample_place(GLOBAL u64* state, GLOBAL const u32* staged, GLOBAL u32* tile_count, u64 tiles, u64 k,
                         u64 stage_cap) {
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID();
  GLOBAL u64* gs = state + r * TK_SPLIT_STATE_WORDS;
  const u64 total = staged[r];
  if (gs[TK_DONE] || total < k || total > stage_cap) return;  // the same for the whole group
  GLOBAL u32* counts = tile_count + r * tiles;
  u32 carry = 0;
  for (u64 base = 0; base < tiles; base += (u64)GROUP_SIZE * TKS_PLACE_ITEMS) {
    const u64 first = base + (u64)t * TKS_PLACE_ITEMS;
    u32 c[TKS_PLACE_ITEMS], sum = 0;
#pragma unroll
    for (u32 j = 0; j < TKS_PLACE_ITEMS; ++j) {
      c[j] = first + j < tiles ? counts[first + j] : 0u;
      sum += c[j];
    }
    u32 run = carry + tk_sub_scan(sum, scratch, GROUP_SIZE);
    carry += scratch[GROUP_SIZE - 1];
    BARRIER();  // every work-item has the total before the next run's scan
#pragma unroll
    for (u32 j = 0; j < TKS_PLACE_ITEMS; ++j)
      if (first + j < tiles) {
        counts[first + j] = run;
        run += c[j];
      }
  }
  if (t == 0) tk_split_start(gs, 1, total, k, 0);  // exactly k kept: round 0's filter takes them all
}

// groups_per_row groups per row: each staged key to its place in candidate buffer A (rows x cap),
// where topk_sample_place gave the row its candidates.
KERNEL topk_sample_gather(GLOBAL const u64* state, GLOBAL const key_t* stage_keys, GLOBAL const u32* stage_pos,
                          GLOBAL const u32* staged, GLOBAL const u32* tile_place, GLOBAL const u32* tile_first,
                          GLOBAL key_t* cand_keys, GLOBAL u32* cand_pos, u64 rows, u64 tiles, u64 stage_cap, u64 cap,
                          u32 groups_per_row) {
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  if (state[r * TK_SPLIT_STATE_WORDS + TK_SOURCE] != 1) return;  // the row keeps to itself
  const u64 total = staged[r], to = tk_candidates_base(1, r, rows, cap);
  for (u64 i = g * GROUP_SIZE + LOCAL_ID(); i < total; i += (u64)groups_per_row * GROUP_SIZE) {
    const u32 p = stage_pos[r * stage_cap + i];
    const u64 tile = r * tiles + p / TKS_TILE;
    const u64 place = tile_place[tile] + (i - tile_first[tile]);
    cand_keys[to + place] = stage_keys[r * stage_cap + i];
    cand_pos[to + place] = p;
  }
}
