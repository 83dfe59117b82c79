// Warp-level ranking of 8-bit digits on NVIDIA GPUs (radix_onesweep, radix_single_tile, and the
// portable kernels' warp votes, radix_tile_warp_rank.h; under NVIDIA's OpenCL the votes are inline PTX,
// nvidia_ops.h): which lanes of a warp hold the same digit (a hand-made match-any: one ballot per
// digit bit), and a key's place among the warp's keys of its digit so far.
//
// The ranking is ALU-bound (Nsight Compute, H200, 2026-11-21), so the instructions per bit matter;
// measured forms (lab/notes/radix-tuning.md): MATCH.ANY 9.35 ms for
// 2^28 u32 keys against 4.90; the partial form below with every lane valid ~7 SASS instructions per
// bit; sign tests of the shifted digit 5 (NVIDIA's OpenCL); bit tests against masks in constant
// memory 4 (the fallback); bit tests against immediates ~3 (R2P; the default on CUDA, a nibble per
// register: 4.86 -> 4.64 ms).
#ifndef GPUSORT_RADIX_WARP_RANK_H
#define GPUSORT_RADIX_WARP_RANK_H
#include "radix_common.h"
#include "nvidia_ops.h"

#if RADIX_BITS > 8
#error "radix_bit_mask holds 8 bits"
#endif
// RADIX_MATCH_IMMEDIATE (host: the policy's match_immediate; CUDA only): the bit tests against
// immediates, in inline PTX so that no earlier compiler pass folds them. ptxas derives a nibble's
// four predicates with one R2P (about 3 instructions per bit instead of 4). Over all eight bits at
// once (one R2P of seven) it fails to allocate predicates in most configurations ("Register
// allocation failed with register count of '7'", ptxas 13.0), so each nibble is tested from a
// register of its own; the host still rebuilds a program without the switch if ptxas fails
// (radix_sort.cpp).
#ifndef RADIX_MATCH_IMMEDIATE
#define RADIX_MATCH_IMMEDIATE 0
#endif
#if GS_CUDA && RADIX_MATCH_IMMEDIATE == 2  // tests: a build that fails, for the host's fallback
#error "RADIX_MATCH_IMMEDIATE=2: this build fails on purpose (tests of the fallback)"
#endif
#if GS_CUDA && RADIX_MATCH_IMMEDIATE
// Lanes of a full warp (every lane holds a key) whose digit equals ours.
DEVICE_FN u32 radix_match_peers_full(u32 d) {
  u32 peers = 0xFFFFFFFFu;
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    u32 bal, same;  // same: all ones where d has bit b (then bal is the peers' bit), else zero
    asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
        "and.b32 t, %2, %3;\n\tsetp.ne.u32 p, t, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\tselp.b32 %1, 0xffffffff, 0, p;\n\t}"
        : "=r"(bal), "=r"(same)
        : "r"(d >> (b & ~3u)), "r"(1u << (b & 3u)));
    peers &= ~(bal ^ same);
  }
  return peers;
}
#elif GS_CUDA
__constant__ u32 radix_bit_mask[8] = {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u};
// Lanes of a full warp (every lane holds a key) whose digit equals ours.
DEVICE_FN u32 radix_match_peers_full(u32 d) {
  u32 peers = 0xFFFFFFFFu;
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    const bool bit = (d & radix_bit_mask[b]) != 0u;  // masks opaque to ptxas: no R2P
    const u32 bal = warp_ballot(bit);
    peers &= bit ? bal : ~bal;
  }
  return peers;
}
#else
// NVIDIA's OpenCL: its __constant tables are immutable, so the compiler would fold the masks into the
// immediates ptxas failed on; sign tests of the digit shifted up a bit at a time instead (~5
// instructions per bit, no R2P: the robust form).
DEVICE_FN u32 radix_match_peers_full(u32 d) {
  u32 peers = 0xFFFFFFFFu;
  u32 x = d << (32u - RADIX_BITS);
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    const bool bit = (i32)x < 0;
    const u32 bal = warp_ballot(bit);
    peers &= bit ? bal : ~bal;
    x <<= 1;
  }
  return peers;
}
#endif
// A full warp's key of digit d: its place among the warp's keys of that digit so far. counts[d] is
// the warp's next position for digit d; every peer reads it (one broadcast), the leader (highest
// peer) writes it back advanced by the peers' number, and __syncwarp orders that store before the
// next item's reads (no atomic, no shuffle, no branch). lanes_le: this lane and the ones below it.
DEVICE_FN u32 radix_rank_full(u32 d, LOCAL u32* counts, u32 lanes_le) {
  const u32 peers = radix_match_peers_full(d);
  const u32 rank_le = warp_popcount(peers & lanes_le);  // the leader's (highest peer) is the peers' number
  const u32 before = counts[d];
  if ((peers & ~lanes_le) == 0u) counts[d] = before + rank_le;
  warp_sync();
  return before + rank_le - 1u;
}
// The same for a partial stripe: restricted to the lanes in `valid` (lanes past the end take part in
// the ballots but match nobody).
DEVICE_FN u32 radix_match_peers(u32 d, u32 valid, u32 is_valid) {
  u32 peers = is_valid ? valid : 0u;
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    const u32 bal = warp_ballot(((d >> b) & 1u) != 0u);
    peers &= ((d >> b) & 1u) ? bal : ~bal;
  }
  return peers;
}

// A thread's digits kept for its ranking, 4 per word (byte i % 4 of word i / 4), so the digit is
// found once per key and pass: radix_onesweep's count, the single tile's float blocks with -0 or NaN.
// i is a constant once the item loops unroll: one PRMT keeps a digit, one reads it (0 where none was
// kept but the word was zeroed).
DEVICE_FN void radix_keep_digit(u32* dpk, u32 i, u32 d) {
  dpk[i / 4] = byte_perm(dpk[i / 4], d, (0x3210u & ~(0xFu << (4u * (i % 4)))) | (4u << (4u * (i % 4))));
}
DEVICE_FN u32 radix_kept_digit(const u32* dpk, u32 i) { return byte_perm(dpk[i / 4], 0u, 0x4440u | (i % 4)); }

// RADIX_UNIFORM_COUNT (host: the policy's uniform_count): the count phase of radix_onesweep (its early
// counts) counts a warp's item once where every lane holds the same digit, since shared atomics of 32
// lanes on one word serialise and sorted input has such warps in its high-digit passes. Measured, that
// alone gained nothing (sorted u64 keys at 2^28 13.86 ms either way; in the single tile, whose form
// was removed, a count of sorted input's runs gained nothing either); where it is on by default (wide
// pairs staged after their keys) the gain comes with the full-stripe count it brings to that layout
// (radix_onesweep.cl, full_count).
#ifndef RADIX_UNIFORM_COUNT
#define RADIX_UNIFORM_COUNT 0
#endif
// Every lane of a full warp holds digit d (one shuffle and one vote).
DEVICE_FN bool radix_warp_uniform(u32 d) { return warp_ballot(d == warp_shuffle(d, 0u)) == 0xFFFFFFFFu; }
// A full warp's key of digit d counted into the warp's counters: one atomic where all lanes agree.
DEVICE_FN void radix_count_digit_warp(LOCAL u32* counts, u32 d, u32 lane) {
  if (radix_warp_uniform(d)) {
    if (lane == 0u) ATOMIC_ADD_U32(&counts[d], 32u);
  } else {
    ATOMIC_ADD_U32(&counts[d], 1u);
  }
}

#endif  // GPUSORT_RADIX_WARP_RANK_H
