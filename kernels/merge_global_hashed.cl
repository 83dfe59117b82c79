// merge algorithm, global variant "hashed": Locicero's hashed local-memory cache. As in "cached", a
// work-group's keys rank inside one window [lo, hi) of the sibling run; here local memory is a
// direct-mapped cache of CACHE slots over that window: window index m maps to slot m*CACHE/len and
// a slot holds (tag = m, key). Every binary-search probe looks in its slot first; on a miss it reads
// global memory and fills the slot. The first probes of all work-items are the same few midpoints,
// so they hit. The study's version let work-items overwrite (key, tag) pairs concurrently, which can
// pair one key with another's tag; here the search runs in lock-step rounds (uniform round count
// from the window length) and a miss fills its slot in two barrier-separated steps: every missing
// work-item writes its tag, then only those whose tag won write the key (all of them write the same
// key), so a slot's tag always describes its key when it is read.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 CACHE=1024
#include "merge_runs.h"
#include "rank_search.h"

#ifndef CACHE
#error "CACHE (slots of the hashed cache per work-group) must be defined"
#endif
#define NO_TAG 0xFFFFFFFFu

KERNEL merge_pass(MERGE_PASS_ARGS) {
  LOCAL_ARRAY key_t cache[CACHE];
  LOCAL_ARRAY u32 tags[CACHE];
  MERGE_WINDOW_BEGIN
  const int upper = !left;
  for (u32 s = t; s < CACHE; s += GROUP_SIZE) tags[s] = NO_TAG;
  BARRIER();
  const u64 lo = window[0];
  const u64 wl = merge_window_length(window);
  const int use_cache = wl < (u64)NO_TAG;  // tags are 32-bit window indices
  u32 rounds = 0;
  for (u64 x = wl; x != 0; x >>= 1) ++rounds;  // a search over wl keys takes at most this many probes
  const int valid = t < cnt;
  const u64 i = g0 + t;
  const key_t key = valid ? src_keys[i] : src_keys[g0];
  const order_t o = order_key(key, flip);
  u64 l = 0, r = wl;
  for (u32 round = 0; round < rounds; ++round) {
    const int probing = valid && l < r;
    const u64 m = l + ((r - l) >> 1);
    const u32 slot = use_cache ? (u32)((m * (u64)CACHE) / (wl ? wl : 1)) : 0u;
    int miss = 0;
    key_t probe = key;
    if (probing) {
      if (use_cache && tags[slot] == (u32)m) {
        probe = cache[slot];
      } else {
        probe = sb[lo + m];
        miss = 1;
      }
      if (rank_probe_before(order_key(probe, flip), o, upper))
        l = m + 1;
      else
        r = m;
    }
    BARRIER();
    if (miss && use_cache) tags[slot] = (u32)m;
    BARRIER();
    if (miss && use_cache && tags[slot] == (u32)m) cache[slot] = probe;
    BARRIER();
  }
  if (valid) merge_move(dst_keys, dst_values, merge_destination(i, width, lo + l), key, src_values, i);
}
