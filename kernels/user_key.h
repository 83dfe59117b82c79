// The key as its own type for a run-time order (SortOptions::comparator): user_key_t (u32, i16,
// float, double...) and user_key(k) from the stored bits. Included by the host's text for a
// program built with one (src/runtime/kernel_sources.cpp, register_user_order), so programs
// without one never meet double (devices without fp64 build f64 sorts as bits).
#ifndef GPUSORT_USER_KEY_H
#define GPUSORT_USER_KEY_H
#include "keys.h"

#if KEY_KIND == 2 && KEY_BITS == 32
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
#else
typedef key_t user_key_t;
#endif
DEVICE_FN user_key_t user_key(key_t k) {
#if KEY_KIND == 2 && GS_CUDA && KEY_BITS == 32
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
