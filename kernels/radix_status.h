// The look-back status word of the onesweep passes (radix_lookback.h on NVIDIA GPUs,
// radix_lookback_fallback.h elsewhere): status[tile][digit] = 30-bit count | AGGREGATE (the tile's
// own count of the digit) or INCLUSIVE (every key of the digit up to and including the tile, counted
// from the digit's global offset). 0 = nothing published yet. One word carries flag and count, so a
// reader never sees one without the other and no fence orders them.
#ifndef GPUSORT_RADIX_STATUS_H
#define GPUSORT_RADIX_STATUS_H

#define STATUS_AGGREGATE 0x40000000u
#define STATUS_INCLUSIVE 0x80000000u
#define STATUS_VALUE 0x3FFFFFFFu

#endif  // GPUSORT_RADIX_STATUS_H
