// LSD radix sort of a whole small input by ONE work-group, in local memory (issue 5: small-n
// latency). One launch, no temporaries: the n keys (and values) are loaded into local memory, every
// digit pass runs there, and the result is written back over the input.
//
// Per pass (digit of RADIX_BITS bits of ordered_key(k, flip), least significant first):
//  1. count: work-item t owns the contiguous chunk [t*per, (t+1)*per) of the current key order
//     (blocked arrangement) and counts its digits into its own column counters[d][t] (no atomics);
//  2. scan: one exclusive scan over the counters in digit-major order (d, then t) gives each
//     (digit, work-item) pair its first output position. Work-item t scans the RADIX contiguous
//     entries [t*RADIX, (t+1)*RADIX) (all of one digit, since GROUP_SIZE is a multiple of RADIX);
//     a group scan of the GROUP_SIZE partial sums (group_scan.h) joins them. The partial sums also give
//     each digit's total: a pass whose digit is the same for all n keys is skipped (narrow data);
//  3. scatter: work-item t walks its chunk in order and moves each key (and value) to
//     counters[d][t]++ in the other buffer. Stable: chunks are in work-item order, the scan is
//     digit-major, and within a chunk keys keep their order.
// No subgroup/warp intrinsics: the same source runs under OpenCL and CUDA (NVRTC).
//
// Local memory (dynamic, laid out by the host; `slots` is a multiple of 16 so every sub-array
// starts 16-byte aligned): values[2][slots] (first: the widest alignment), keys[2][slots],
// counters[PAD(RADIX * GROUP_SIZE)] u32, partial[GROUP_SIZE] u32, skip flag u32.
// Indices go through SG_PAD (one spare slot per 32): a work-item's chunk and its scan entries are
// read at a stride of `per` / RADIX elements, which without padding hits one memory bank.
//
// Specialised by keys.h's defines, RADIX_BITS (4) and GROUP_SIZE (a multiple of RADIX, power of two).
// n and slots are arguments, so one program serves every n (PoCL builds a program in ~1 s).
// NVRTC-CHECK-DEFINES: RADIX_BITS=4 GROUP_SIZE=256
#include "radix_common.h"
#include "group_scan.h"

#if GROUP_SIZE % (1 << RADIX_BITS) != 0
#error "radix_single_group needs GROUP_SIZE to be a multiple of RADIX"
#endif

#define SG_PAD(i) ((i) + ((i) >> 5))
#define SG_ENTRIES (RADIX * GROUP_SIZE)
#define SG_THREADS_PER_DIGIT (GROUP_SIZE / RADIX)

KERNEL radix_single_group(GLOBAL key_t* keys, GLOBAL value_t* values, u32 n, okey_t flip, u32 slots GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, smem);
  const u32 t = LOCAL_ID();
#if HAS_VALUES
  LOCAL value_t* vsrc = (LOCAL value_t*)smem;
  LOCAL value_t* vdst = vsrc + slots;
  LOCAL key_t* ksrc = (LOCAL key_t*)(vdst + slots);
#else
  LOCAL key_t* ksrc = (LOCAL key_t*)smem;
#endif
  LOCAL key_t* kdst = ksrc + slots;
  LOCAL u32* counters = (LOCAL u32*)(kdst + slots);
  LOCAL u32* partial = counters + SG_PAD(SG_ENTRIES);
  LOCAL u32* skip = partial + GROUP_SIZE;  // pass + 1 when that pass moves nothing

  for (u32 i = t; i < n; i += GROUP_SIZE) {  // striped: coalesced global reads
    ksrc[SG_PAD(i)] = keys[i];
#if HAS_VALUES
    vsrc[SG_PAD(i)] = values[i];
#endif
  }
  if (t == 0) *skip = 0;
  BARRIER();

  const u32 per = (n + GROUP_SIZE - 1) / GROUP_SIZE;
  const u32 begin = gs_min_u32(n, t * per);
  const u32 end = gs_min_u32(n, begin + per);
  for (u32 pass = 0; pass < RADIX_PASSES; ++pass) {
    const u32 shift = pass * RADIX_BITS;
    // 1. count this work-item's chunk into its own column
    for (u32 d = 0; d < RADIX; ++d) counters[SG_PAD(d * GROUP_SIZE + t)] = 0;
    for (u32 p = begin; p < end; ++p) counters[SG_PAD(radix_digit(ksrc[SG_PAD(p)], flip, shift) * GROUP_SIZE + t)] += 1u;
    BARRIER();
    // 2. exclusive scan of the counters in digit-major order
    u32 sum = 0;
    for (u32 j = 0; j < RADIX; ++j) sum += counters[SG_PAD(t * RADIX + j)];
    u32 run = group_exclusive_scan_u32(sum, partial);  // partial: the inclusive sums
    if (t < RADIX) {  // digit t's total: the partial sums of its SG_THREADS_PER_DIGIT work-items
      const u32 hi = partial[(t + 1) * SG_THREADS_PER_DIGIT - 1];
      const u32 lo = t == 0 ? 0u : partial[t * SG_THREADS_PER_DIGIT - 1];
      if (hi - lo == n) *skip = pass + 1;
    }
    for (u32 j = 0; j < RADIX; ++j) {
      const u32 e = SG_PAD(t * RADIX + j);
      const u32 c = counters[e];
      counters[e] = run;
      run += c;
    }
    BARRIER();
    if (*skip == pass + 1) continue;  // same value for every work-item: keys stay where they are
    // 3. stable scatter into the other buffer
    for (u32 p = begin; p < end; ++p) {
      const key_t k = ksrc[SG_PAD(p)];
      const u32 e = SG_PAD(radix_digit(k, flip, shift) * GROUP_SIZE + t);
      const u32 pos = counters[e];
      counters[e] = pos + 1u;
      kdst[SG_PAD(pos)] = k;
#if HAS_VALUES
      vdst[SG_PAD(pos)] = vsrc[SG_PAD(p)];
#endif
    }
    BARRIER();
    LOCAL key_t* kt = ksrc;
    ksrc = kdst;
    kdst = kt;
#if HAS_VALUES
    LOCAL value_t* vt = vsrc;
    vsrc = vdst;
    vdst = vt;
#endif
  }

  for (u32 i = t; i < n; i += GROUP_SIZE) {
    keys[i] = ksrc[SG_PAD(i)];
#if HAS_VALUES
    values[i] = vsrc[SG_PAD(i)];
#endif
  }
}
