// LSD radix sort of a whole small input by ONE work-group, in local memory (issue 5: small-n
// latency). One launch, no temporaries: the n keys (and values) are loaded into local memory, every
// digit pass runs there, and the result is written back over the input.
//
// Per pass (digit of RADIX_BITS bits of ordered_key(k, flip), least significant first): count each
// work-item's chunk, scan, stable scatter into the other buffer (radix_group_digits.h, which
// segmented_tiles.cl shares). A pass whose digit is the same for all n keys is skipped (narrow data).
// No subgroup/warp intrinsics: the same source runs under OpenCL and CUDA (NVRTC).
//
// Local memory (dynamic, laid out by the host; `slots` is a multiple of 16 so every sub-array
// starts 16-byte aligned): values[2][slots] (first: the widest alignment), keys[2][slots],
// counters[PAD(RADIX * GROUP_SIZE)] u32, partial[GROUP_SIZE] u32, skip flag u32.
//
// Specialised by keys.h's defines, RADIX_BITS (4) and GROUP_SIZE (a multiple of RADIX, power of two).
// n and slots are arguments, so one program serves every n (PoCL builds a program in ~1 s).
// NVRTC-CHECK-DEFINES: RADIX_BITS=4 GROUP_SIZE=256
#include "radix_group_digits.h"

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
    group_digits_clear(counters, t);
    for (u32 p = begin; p < end; ++p) counters[SG_PAD(radix_digit(ksrc[SG_PAD(p)], flip, shift) * GROUP_SIZE + t)] += 1u;
    if (group_digits_scan(counters, partial, skip, n, pass)) continue;  // keys stay where they are
    // stable scatter into the other buffer
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
