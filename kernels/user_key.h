// The key as its own type for a run-time order (SortOptions::comparator): user_key_t (u32, i16,
// float, double, bool...) and user_key(k) from the stored bits. f16 and bf16 keys are floats there
// (every value of theirs is one, exactly), so a comparator needs no half-precision support. Included by the host's text for a
// program built with one (src/runtime/kernel_sources.cpp, register_user_order), so programs
// without one never meet double (devices without fp64 build f64 sorts as bits).
#ifndef GPUSORT_USER_KEY_H
#define GPUSORT_USER_KEY_H
#include "keys.h"

#if KEY_KIND == 4
#error "a run-time order over complex keys is not supported (the host refuses it)"
#endif
#if KEY_KIND == 2 && KEY_BITS <= 32
typedef float user_key_t;
#elif KEY_KIND == 2
#if !GS_CUDA
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef double user_key_t;
#elif KEY_KIND == 1 && KEY_BITS == 8
typedef i8 user_key_t;
#elif KEY_KIND == 1 && KEY_BITS == 16
typedef i16 user_key_t;
#elif KEY_KIND == 1 && KEY_BITS == 32
typedef i32 user_key_t;
#elif KEY_KIND == 1
typedef i64 user_key_t;
#elif KEY_KIND == 3
typedef bool user_key_t;
#else
typedef key_t user_key_t;
#endif
#if KEY_KIND == 2 && KEY_BITS == 16
// The f32 bits of a 16-bit float's value (NaN payloads move up with the mantissa).
DEVICE_FN u32 user_float_bits(key_t k) {
#if KEY_BFLOAT16
  return (u32)k << 16;
#else
  const u32 h = (u32)k, sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu;
  u32 m = h & 0x3FFu;
  if (e == 0x1Fu) return sign | 0x7F800000u | m << 13;  // inf and NaN
  if (e != 0u) return sign | (e + 112u) << 23 | m << 13;  // normal: the exponent's bias 15 becomes 127
  if (m == 0u) return sign;                              // -0 and +0
  u32 fe = 113u;                                         // subnormal: m x 2^-24, normalised
  while ((m & 0x400u) == 0u) m <<= 1, --fe;
  return sign | fe << 23 | (m & 0x3FFu) << 13;
#endif
}
#endif
DEVICE_FN user_key_t user_key(key_t k) {
#if KEY_KIND == 2 && GS_CUDA && KEY_BITS == 16
  return __int_as_float((int)user_float_bits(k));
#elif KEY_KIND == 2 && KEY_BITS == 16
  return as_float(user_float_bits(k));
#elif KEY_KIND == 3
  return k != 0;
#elif KEY_KIND == 2 && GS_CUDA && KEY_BITS == 32
  return __int_as_float((int)k);
#elif KEY_KIND == 2 && GS_CUDA
  return __longlong_as_double((long long)k);
#elif KEY_KIND == 2 && KEY_BITS == 32
  return as_float(k);
#elif KEY_KIND == 2
  return as_double(k);
#else
  return (user_key_t)k;
#endif
}

#endif
