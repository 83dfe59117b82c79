// Fixed-size records sorted by fields on the device (src/api/records_device.cpp): the record
// index that travels as the value of every pass's sort, each pass's key made from the records,
// and the final gather of the records by the sorted index. Records are byte arrays of any size
// (1 to 1024 bytes) at any alignment, so fields are read a byte at a time; the keys and the
// gather are written a whole element (word) at a time.
// NVRTC-CHECK-DEFINES: RECORD_INDEX_BYTES=8
#include "prelude.h"

#ifndef RECORD_INDEX_BYTES
#define RECORD_INDEX_BYTES 4
#endif
#if RECORD_INDEX_BYTES == 8
typedef u64 index_t;
#else
typedef u32 index_t;
#endif

KERNEL records_iota(GLOBAL index_t* index, u64 n) {
  const u64 i = GLOBAL_ID();
  if (i < n) index[i] = (index_t)i;
}

// keys[i] = the pass's key of record index[i] (of record i when `identity`). A plain field is
// `field_bytes` bytes stored little-endian; a packed piece of a bytesK field is its field_bytes
// bytes read as a big-endian number of key_bytes bytes, padded with zero bytes on the right, so
// that unsigned order is the bytes' lexicographic order. key_bytes (1, 2, 4 or 8) is the width of
// the key written.
KERNEL records_extract_key(GLOBAL const u8* records, u64 n, u64 record_bytes, GLOBAL const index_t* index,
                           u32 identity, u32 offset, u32 field_bytes, u32 packed, u32 key_bytes, GLOBAL u8* keys) {
  const u64 i = GLOBAL_ID();
  if (i >= n) return;
  const u64 r = identity ? i : (u64)index[i];
  GLOBAL const u8* field = records + r * record_bytes + offset;
  u64 v = 0;
  if (packed) {
    for (u32 b = 0; b < key_bytes; ++b) v = (v << 8) | (u64)(b < field_bytes ? field[b] : 0);
  } else {
    for (u32 b = 0; b < field_bytes; ++b) v |= (u64)field[b] << (8 * b);
  }
  if (key_bytes == 8) ((GLOBAL u64*)keys)[i] = v;
  else if (key_bytes == 4) ((GLOBAL u32*)keys)[i] = (u32)v;
  else if (key_bytes == 2) ((GLOBAL u16*)keys)[i] = (u16)v;
  else keys[i] = (u8)v;
}

// out record j = in record index[j], for the `per_group` records of this work-group, moved in
// units of `unit` bytes (4 when the record size is a multiple of 4, else 1): consecutive
// work-items take consecutive units, so each record's bytes are read and written together. Each
// work-item loads GATHER_BATCH units before it stores them, so that many reads are in flight.
#define GATHER_BATCH 8
KERNEL records_gather(GLOBAL const u8* RESTRICT in, GLOBAL u8* RESTRICT out, u64 n, u64 record_bytes,
                      GLOBAL const index_t* RESTRICT index, u32 unit, u32 per_group) {
  const u64 first = GROUP_ID() * per_group;
  if (first >= n) return;
  const u32 count = (u32)(n - first < (u64)per_group ? n - first : (u64)per_group);
  const u32 units = (u32)(record_bytes / unit);  // per record
  const u32 total = count * units;
  for (u32 t0 = LOCAL_ID(); t0 < total; t0 += GATHER_BATCH * LOCAL_SIZE()) {
    u32 word[GATHER_BATCH];
    u64 dst[GATHER_BATCH];
#pragma unroll
    for (u32 j = 0; j < GATHER_BATCH; ++j) {
      const u32 t = t0 + j * LOCAL_SIZE();
      if (t < total) {
        const u32 k = t / units;
        const u32 w = t - k * units;
        const u64 src = (u64)index[first + k] * units + w;
        dst[j] = (first + k) * (u64)units + w;
        word[j] = unit == 4 ? ((GLOBAL const u32*)in)[src] : (u32)in[src];
      }
    }
#pragma unroll
    for (u32 j = 0; j < GATHER_BATCH; ++j) {
      if (t0 + j * LOCAL_SIZE() < total) {
        if (unit == 4) ((GLOBAL u32*)out)[dst[j]] = word[j];
        else out[dst[j]] = (u8)word[j];
      }
    }
  }
}
