// Bitonic network in the form where every comparator puts the smaller key at the lower index.
// Stage k (k = 2, 4, 8, ...) makes sorted runs of length k. Its first step (j == k/2) pairs each
// position of a run's lower half with its mirror in the upper half (i <-> run_start + k-1-offset),
// which merges two ascending runs without alternating directions; the later steps (j < k/2) are
// ordinary half-cleaners (i <-> i + j). Because no comparator ever moves a larger key downwards, an
// input conceptually padded with +infinity up to a power of two sorts correctly by skipping every
// comparator whose upper index is past the end: this is how gpusort sorts any n, not only 2^k.
#ifndef GPUSORT_BITONIC_NETWORK_H
#define GPUSORT_BITONIC_NETWORK_H
#include "keys.h"

// Comparator c of step (k, j) compares positions lo = bitonic_low(c, j) and
// hi = bitonic_high(lo, k, j). In the first step of a stage (j == k/2), lo = run + p with p < k/2
// and its mirror run + k-1-p equals lo ^ (k-1). Stamped for 64-bit positions (the whole array) and
// as the 32-bit twins bitonic_low32 / bitonic_high32 for positions inside a local-memory tile
// (cheaper index arithmetic).
#define GS_DEFINE_BITONIC_POSITIONS(low_name, high_name, index_t) \
  DEVICE_FN index_t low_name(index_t c, index_t j) {               \
    const index_t low_bits = c & (j - 1);                          \
    return ((c - low_bits) << 1) | low_bits;                       \
  }                                                                \
  DEVICE_FN index_t high_name(index_t lo, index_t k, index_t j) {  \
    return (j == (k >> 1)) ? (lo ^ (k - 1)) : (lo + j);            \
  }
GS_DEFINE_BITONIC_POSITIONS(bitonic_low, bitonic_high, u64)
GS_DEFINE_BITONIC_POSITIONS(bitonic_low32, bitonic_high32, u32)

#endif
