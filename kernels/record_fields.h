// Reading the fields of a record in the kernel dialect: records are byte arrays of any size at any
// alignment, so a field is read a byte at a time and put together little-endian, as stored. Used by
// the record sort's key kernels (records.cl) and offered to a run-time record order
// (SortOptions::comparator for records: src/runtime/kernel_sources.cpp, register_record_order),
// whose body calls gs_u32(a, 8), gs_bytes_cmp(a, b, 0, 10) and the like on its two records.
#ifndef GPUSORT_RECORD_FIELDS_H
#define GPUSORT_RECORD_FIELDS_H
#include "prelude.h"

// `bytes` (0..8) bytes at `p`, little-endian.
DEVICE_FN u64 gs_record_le(GLOBAL const u8* p, u32 bytes) {
  u64 v = 0;
  for (u32 b = 0; b < bytes; ++b) v |= (u64)p[b] << (8 * b);
  return v;
}

DEVICE_FN u8 gs_u8(GLOBAL const u8* r, u32 offset) { return r[offset]; }
DEVICE_FN u16 gs_u16(GLOBAL const u8* r, u32 offset) { return (u16)gs_record_le(r + offset, 2); }
DEVICE_FN u32 gs_u32(GLOBAL const u8* r, u32 offset) { return (u32)gs_record_le(r + offset, 4); }
DEVICE_FN u64 gs_u64(GLOBAL const u8* r, u32 offset) { return gs_record_le(r + offset, 8); }
DEVICE_FN i8 gs_i8(GLOBAL const u8* r, u32 offset) { return (i8)r[offset]; }
DEVICE_FN i16 gs_i16(GLOBAL const u8* r, u32 offset) { return (i16)gs_u16(r, offset); }
DEVICE_FN i32 gs_i32(GLOBAL const u8* r, u32 offset) { return (i32)gs_u32(r, offset); }
DEVICE_FN i64 gs_i64(GLOBAL const u8* r, u32 offset) { return (i64)gs_u64(r, offset); }
#if GS_CUDA
DEVICE_FN float gs_f32(GLOBAL const u8* r, u32 offset) { return __int_as_float((int)gs_u32(r, offset)); }
DEVICE_FN double gs_f64(GLOBAL const u8* r, u32 offset) { return __longlong_as_double((long long)gs_u64(r, offset)); }
#else
DEVICE_FN float gs_f32(GLOBAL const u8* r, u32 offset) { return as_float(gs_u32(r, offset)); }
#ifdef cl_khr_fp64  // fp64 is optional in OpenCL: gs_f64 exists where the device has it
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
DEVICE_FN double gs_f64(GLOBAL const u8* r, u32 offset) { return as_double(gs_u64(r, offset)); }
#endif
#endif

// The `bytes` bytes at `offset` of records a and b compared as unsigned, lexicographically (as
// memcmp): negative when a's come first, 0 when equal, positive when b's come first.
DEVICE_FN int gs_bytes_cmp(GLOBAL const u8* a, GLOBAL const u8* b, u32 offset, u32 bytes) {
  for (u32 i = offset; i < offset + bytes; ++i)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

#endif
