// Fixed-size records sorted by fields on the device (src/api/records_device.cpp): the record
// index that travels as the value of every pass's sort, every pass's keys made from the records in
// one sequential read, each pass's keys put in the current order, and the final gather of the
// records by the sorted index. Records are byte arrays of any size (1 to 1024 bytes) at any
// alignment, so fields are read a byte at a time; keys and gathered words are written whole.
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

// A pass's key of one record from its key bytes f(0) .. f(field_bytes - 1): a plain field is
// stored little-endian; a packed piece of a bytesK field is read as a big-endian number of
// key_bytes bytes, padded with zero bytes on the right, so that unsigned order is the bytes'
// lexicographic order.
#define RECORD_KEY_FROM_BYTES(f, field_bytes, packed, key_bytes, v)                    \
  do {                                                                                 \
    v = 0;                                                                             \
    if (packed) {                                                                      \
      for (u32 b_ = 0; b_ < (key_bytes); ++b_) v = (v << 8) | (b_ < (field_bytes) ? f(b_) : 0); \
    } else {                                                                           \
      for (u32 b_ = 0; b_ < (field_bytes); ++b_) v |= f(b_) << (8 * b_);              \
    }                                                                                  \
  } while (0)

// The key from bytes read one at a time (records of any size and alignment).
DEVICE_FN u64 record_key_bytewise(GLOBAL const u8* field, u32 field_bytes, u32 packed, u32 key_bytes) {
  u64 v;
#define BYTE_AT(b) ((u64)field[b])
  RECORD_KEY_FROM_BYTES(BYTE_AT, field_bytes, packed, key_bytes, v);
#undef BYTE_AT
  return v;
}

// The same from the three aligned 4-byte words that cover the field (records whose size is a
// multiple of 4, so every record starts 4-aligned): 3 loads instead of up to 8, which matters
// because each load of a warp touches 32 records' lines.
DEVICE_FN u64 record_key_wordwise(GLOBAL const u8* record, u32 offset, u32 field_bytes, u32 packed, u32 key_bytes) {
  GLOBAL const u32* words = (GLOBAL const u32*)(record + (offset & ~3u));
  const u32 skip = offset & 3u;  // bytes of the first word before the field
  const u32 last = (skip + field_bytes - 1) >> 2;
  const u64 low = (u64)words[0] | (last >= 1 ? (u64)words[1] << 32 : 0);
  const u32 high = last >= 2 ? words[2] : 0;
  u64 v;
#define BYTE_AT(b) ((u64)((skip + (b)) < 8 ? (low >> (8 * (skip + (b)))) & 0xffu : (high >> (8 * (skip + (b) - 8))) & 0xffu))
  RECORD_KEY_FROM_BYTES(BYTE_AT, field_bytes, packed, key_bytes, v);
#undef BYTE_AT
  return v;
}

DEVICE_FN void store_key(GLOBAL u8* keys, u64 i, u32 key_bytes, u64 v) {
  if (key_bytes == 8) ((GLOBAL u64*)keys)[i] = v;
  else if (key_bytes == 4) ((GLOBAL u32*)keys)[i] = (u32)v;
  else if (key_bytes == 2) ((GLOBAL u16*)keys)[i] = (u16)v;
  else keys[i] = (u8)v;
}

DEVICE_FN u64 load_key(GLOBAL const u8* keys, u64 i, u32 key_bytes) {
  if (key_bytes == 8) return ((GLOBAL const u64*)keys)[i];
  if (key_bytes == 4) return ((GLOBAL const u32*)keys)[i];
  if (key_bytes == 2) return ((GLOBAL const u16*)keys)[i];
  return keys[i];
}

// Every pass's key of record i, in record order, while the record's key bytes are read once. Row p
// of the table (RECORD_PASS_WORDS words) describes pass p: {offset, field_bytes, packed, key_bytes,
// the byte position in `keys` of its array of n keys}.
#define RECORD_PASS_WORDS 5
KERNEL records_make_keys(GLOBAL const u8* records, u64 n, u64 record_bytes, GLOBAL const u64* table, u32 passes,
                         GLOBAL u8* keys) {
  const u64 i = GLOBAL_ID();
  if (i >= n) return;
  GLOBAL const u8* record = records + i * record_bytes;
  const int aligned = (record_bytes & 3u) == 0;
  for (u32 p = 0; p < passes; ++p) {
    GLOBAL const u64* row = table + RECORD_PASS_WORDS * p;
    const u32 offset = (u32)row[0], field_bytes = (u32)row[1], packed = (u32)row[2], key_bytes = (u32)row[3];
    const u64 v = aligned ? record_key_wordwise(record, offset, field_bytes, packed, key_bytes)
                          : record_key_bytewise(record + offset, field_bytes, packed, key_bytes);
    store_key(keys + row[4], i, key_bytes, v);
  }
}

// keys[i] = pass[index[i]] with pass = all + at: a pass's keys (made in record order) in the
// current order of the records.
KERNEL records_order_keys(GLOBAL const u8* RESTRICT all, u64 at, GLOBAL const index_t* RESTRICT index, u64 n,
                          u32 key_bytes, GLOBAL u8* RESTRICT keys) {
  const u64 i = GLOBAL_ID();
  if (i < n) store_key(keys, i, key_bytes, load_key(all + at, (u64)index[i], key_bytes));
}

// out record r = in record index[r]. `lanes` (a power of two up to 32, 1 << lanes_log2)
// consecutive work-items move one record, each every lanes-th unit of `unit` bytes (4 when the
// record size is a multiple of 4, else 1), so a record's bytes are read and written together and
// no work-item divides; each work-item loads GATHER_BATCH records' units before it stores them, so
// that many reads are in flight. A work-group moves (LOCAL_SIZE / lanes) * GATHER_BATCH records.
#define GATHER_BATCH 4
KERNEL records_gather(GLOBAL const u8* RESTRICT in, GLOBAL u8* RESTRICT out, u64 n, u64 record_bytes,
                      GLOBAL const index_t* RESTRICT index, u32 unit, u32 lanes_log2) {
  const u32 lanes = 1u << lanes_log2;
  const u32 lane = LOCAL_ID() & (lanes - 1u);
  const u32 slots = LOCAL_SIZE() >> lanes_log2;  // records of one batch step
  const u64 first = GROUP_ID() * (u64)slots * GATHER_BATCH + (LOCAL_ID() >> lanes_log2);
  const u32 units = (u32)(record_bytes / unit);  // per record
  u64 src[GATHER_BATCH];
#pragma unroll
  for (u32 j = 0; j < GATHER_BATCH; ++j) {
    const u64 r = first + (u64)j * slots;
    src[j] = r < n ? (u64)index[r] * units : 0;
  }
  for (u32 w0 = 0; w0 < units; w0 += lanes) {  // one round for records of up to 32 units
    const u32 w = w0 + lane;
    u32 word[GATHER_BATCH];
#pragma unroll
    for (u32 j = 0; j < GATHER_BATCH; ++j) {
      const u64 r = first + (u64)j * slots;
      if (r < n && w < units) word[j] = unit == 4 ? ((GLOBAL const u32*)in)[src[j] + w] : (u32)in[src[j] + w];
    }
#pragma unroll
    for (u32 j = 0; j < GATHER_BATCH; ++j) {
      const u64 r = first + (u64)j * slots;
      if (r < n && w < units) {
        if (unit == 4) ((GLOBAL u32*)out)[r * units + w] = word[j];
        else out[r * units + w] = (u8)word[j];
      }
    }
  }
}
