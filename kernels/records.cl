// Fixed-size records sorted by fields on the device (src/api/records_device.cpp): the record
// index that travels as the value of every pass's sort (made by positions.cl), every pass's keys
// made from the records in one sequential read, each pass's keys put in the current order, and the
// final gather of the records by the sorted index. Records are byte arrays of any size (1 to 1024
// bytes) at any alignment, so fields are read a byte at a time (reading them as aligned words where
// the record size allows measured no faster: lab/notes/records-on-the-device.md); keys and gathered
// words are written whole.
// NVRTC-CHECK-DEFINES: RECORD_INDEX_BYTES=8
#include "record_fields.h"

#ifndef RECORD_INDEX_BYTES
#define RECORD_INDEX_BYTES 4
#endif
#if RECORD_INDEX_BYTES == 8
typedef u64 index_t;
#else
typedef u32 index_t;
#endif

// The f64 image of a double's bits: unsigned order is the float order (-0 == +0, every NaN ~0).
DEVICE_FN u64 record_f64_image(u64 bits) {
  const u64 sign = (u64)1 << 63, mag = bits & ~sign;
  if (mag > 0x7FF0000000000000ull) return ~(u64)0;
  if (mag == 0) return sign;
  return (bits & sign) ? ~bits : (bits | sign);
}

// A word of a complex128 key's image (gpusort/key_order.hpp, complex128_high_word and
// complex128_low_word, compute the same): high, the NaN class above every number's image
// (+inf's, 0xFFF0000000000000) or the real part; low, the part that orders within the class.
DEVICE_FN u64 record_complex128_word(GLOBAL const u8* field, u32 high) {
  const u64 nan = ~(u64)0, inf = 0xFFF0000000000000ull;
  const u64 re = record_f64_image(gs_record_le(field, 8)), im = record_f64_image(gs_record_le(field + 8, 8));
  if (high) return re == nan ? (im == nan ? nan : inf + 2) : im == nan ? inf + 1 : re;
  return re == nan ? im : im == nan ? re : im;
}

// A pass's key of one record at `field` (its first byte), by `mode`: 0, a plain field, is
// `field_bytes` bytes stored little-endian; 1, a packed piece of a bytesK field, is its field_bytes
// bytes read as a big-endian number of key_bytes bytes, padded with zero bytes on the right, so
// that unsigned order is the bytes' lexicographic order; 2 and 3, the high and the low word of a
// complex128 field's image.
DEVICE_FN u64 record_key(GLOBAL const u8* field, u32 field_bytes, u32 mode, u32 key_bytes) {
  u64 v = 0;
  if (mode >= 2) {
    v = record_complex128_word(field, mode == 2);
  } else if (mode == 1) {
    for (u32 b = 0; b < key_bytes; ++b) v = (v << 8) | (u64)(b < field_bytes ? field[b] : 0);
  } else {
    v = gs_record_le(field, field_bytes);
  }
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
// of the table (RECORD_PASS_WORDS words) describes pass p: {offset, field_bytes, mode, key_bytes,
// the byte position in `keys` of its array of n keys}.
#ifndef RECORD_PASS_WORDS  // set by the driver (kPassTableWords)
#define RECORD_PASS_WORDS 5
#endif
KERNEL records_make_keys(GLOBAL const u8* records, u64 n, u64 record_bytes, GLOBAL const u64* table, u32 passes,
                         GLOBAL u8* keys) {
  const u64 i = GLOBAL_ID();
  if (i >= n) return;
  GLOBAL const u8* record = records + i * record_bytes;
  for (u32 p = 0; p < passes; ++p) {
    GLOBAL const u64* row = table + RECORD_PASS_WORDS * p;
    const u32 key_bytes = (u32)row[3];
    store_key(keys + row[4], i, key_bytes, record_key(record + row[0], (u32)row[1], (u32)row[2], key_bytes));
  }
}

// keys[i] = pass[index[i]] with pass = all + at: a pass's keys (made in record order) in the
// current order of the records.
KERNEL records_order_keys(GLOBAL const u8* RESTRICT all, u64 at, GLOBAL const index_t* RESTRICT index, u64 n,
                          u32 key_bytes, GLOBAL u8* RESTRICT keys) {
  const u64 i = GLOBAL_ID();
  if (i < n) store_key(keys, i, key_bytes, load_key(all + at, (u64)index[i], key_bytes));
}

// A record order given at run time (SortOptions::comparator for records) sorts the records'
// addresses: 64-bit keys that its comparator reads the records through (kernel_sources.cpp,
// register_record_order), in input order, so a stable sort keeps equal records in input order.
KERNEL records_addresses(GLOBAL const u8* records, u64 n, u64 record_bytes, GLOBAL u64* addresses) {
  const u64 i = GLOBAL_ID();
  if (i < n) addresses[i] = (u64)(records + i * record_bytes);
}

// The sorted addresses back to record indices, for the gather; an index past the records (an
// address the sort never had: its order was no strict weak order, which the sort's check reports)
// is clamped to the last record, so the gather stays inside them.
KERNEL records_index_of_addresses(GLOBAL const u8* records, GLOBAL const u64* RESTRICT addresses, u64 n,
                                  u64 record_bytes, GLOBAL index_t* RESTRICT index) {
  const u64 i = GLOBAL_ID();
  if (i < n) index[i] = (index_t)gs_min_u64((addresses[i] - (u64)records) / record_bytes, n - 1);
}

// out record r = in record index[r]. `lanes` (a power of two up to 32, 1 << lanes_log2)
// consecutive work-items move one record, each every lanes-th unit of `unit` bytes (4 when the
// record size is a multiple of 4, else 1), so a record's bytes are read and written together and
// no work-item divides; each work-item loads GATHER_BATCH records' units before it stores them, so
// that many reads are in flight. A work-group moves (LOCAL_SIZE / lanes) * GATHER_BATCH records.
#ifndef GATHER_BATCH  // set by the driver (kGatherBatch)
#define GATHER_BATCH 4
#endif
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
