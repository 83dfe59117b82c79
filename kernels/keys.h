// Keys and values as the kernels see them, and the one order every kernel sorts by.
//
// Specialised by the host with:
//   KEY_BITS    8, 16, 32 or 64: the key's storage width; keys are stored and moved as key_t bits.
//   KEY_KIND    0 unsigned, 1 signed two's complement, 2 float (f16 / f32 / f64 by KEY_BITS; bfloat16
//               with KEY_BFLOAT16=1 and KEY_BITS 16), 3 bool (KEY_BITS 8: the byte 0 false, any other true),
//               4 complex64 (KEY_BITS 64: the real part's f32 bits low, the imaginary part's high).
//   VALUE_BYTES 0 (keys only), 1, 2, 4, 8 or 16.
//
// ordered_key(k, flip) maps a key to an unsigned integer whose natural order is the sort order:
//   - signed: flip the sign bit;
//   - bool: 0 for false, 1 for true, so a true byte other than 1 sorts with the 1s;
//   - complex64: numpy's order (gpusort/key_order.hpp, complex_image): the parts' f32 images, the top
//     word re's image for keys without NaN parts, else a class above every number's image (imaginary
//     NaN, real NaN, both), the bottom word the part that orders the class. Not injective either;
//   - float: -0.0 and +0.0 map to the same value, every NaN maps to the largest value (NaN last
//     ascending), other values by the usual sign-magnitude flip. The map is not injective, which is
//     why kernels move the original bits and only compare ordered keys: NaN payloads and the sign of
//     zero survive the sort bit for bit.
//   - flip is 0 for ascending and all ones for descending: descending is the exact reverse order,
//     so a stable sort by the flipped key keeps equal keys in input order (NaNs first).
#ifndef GPUSORT_KEYS_H
#define GPUSORT_KEYS_H
#include "prelude.h"

#if !defined(KEY_BITS) || !defined(KEY_KIND)
#error "KEY_BITS and KEY_KIND must be defined"
#endif
#ifndef VALUE_BYTES
#define VALUE_BYTES 0
#endif

#if KEY_BITS == 8
typedef u8 key_t;
typedef u32 okey_t;
#define KEY_SIGN_BIT 0x80u
#define KEY_ALL_ONES 0xFFu
#elif KEY_BITS == 16
typedef u16 key_t;
typedef u32 okey_t;
#define KEY_SIGN_BIT 0x8000u
#define KEY_ALL_ONES 0xFFFFu
#if KEY_BFLOAT16
#define KEY_EXP_MASK 0x7F80u  // bfloat16: 8 exponent bits, 7 mantissa bits
#else
#define KEY_EXP_MASK 0x7C00u  // binary16: 5 exponent bits, 10 mantissa bits
#endif
#elif KEY_BITS == 32
typedef u32 key_t;
typedef u32 okey_t;
#define KEY_SIGN_BIT 0x80000000u
#define KEY_ALL_ONES 0xFFFFFFFFu
#define KEY_EXP_MASK 0x7F800000u
#elif KEY_BITS == 64
typedef u64 key_t;
typedef u64 okey_t;
#define KEY_SIGN_BIT 0x8000000000000000ull
#define KEY_ALL_ONES 0xFFFFFFFFFFFFFFFFull
#define KEY_EXP_MASK 0x7FF0000000000000ull
#else
#error "KEY_BITS must be 8, 16, 32 or 64"
#endif

#if KEY_KIND == 2 && KEY_BITS == 8
#error "float keys are 16, 32 or 64 bits"
#endif
#if KEY_KIND == 3 && KEY_BITS != 8
#error "bool keys are 8 bits"
#endif
#if KEY_KIND == 4 && KEY_BITS != 64
#error "complex keys are 64 bits (two f32)"
#endif

#if KEY_KIND == 4
// The ordered image of an f32's bits, as the float branch of ordered_key has it for KEY_BITS 32.
DEVICE_FN u32 f32_ordered_image(u32 k) {
  const u32 mag = k & 0x7FFFFFFFu;
  u32 o = k ^ ((0u - (k >> 31)) | 0x80000000u);
  o = mag == 0u ? 0x80000000u : o;
  return mag > 0x7F800000u ? 0xFFFFFFFFu : o;
}
#endif

// The flip argument every kernel takes for the order: 0 ascending, KEY_ALL_ONES descending.
DEVICE_FN okey_t ordered_key(key_t k, okey_t flip) {
#if KEY_KIND == 0
  okey_t o = (okey_t)k;
#elif KEY_KIND == 1
  okey_t o = (okey_t)(k ^ KEY_SIGN_BIT);
#elif KEY_KIND == 3
  okey_t o = k != 0 ? 1u : 0u;
#elif KEY_KIND == 4
  const u32 re = f32_ordered_image((u32)k), im = f32_ordered_image((u32)(k >> 32));
  const int re_nan = re == 0xFFFFFFFFu, im_nan = im == 0xFFFFFFFFu;
  const u32 hi = re_nan ? (im_nan ? 0xFFFFFFFFu : 0xFF800002u) : im_nan ? 0xFF800001u : re;
  const u32 lo = re_nan ? im : im_nan ? re : im;
  okey_t o = (okey_t)hi << 32 | (okey_t)lo;
#else
  // branch-free (selects): negative -> ~k, positive -> k | sign; then -0/+0 and NaN fixed up
  const okey_t kk = (okey_t)k;
  const okey_t mag = kk & ~(okey_t)KEY_SIGN_BIT;
  const okey_t neg = (okey_t)0 - (kk >> (KEY_BITS - 1));  // all ones if the sign bit is set
  okey_t o = kk ^ (neg | (okey_t)KEY_SIGN_BIT);
  o = mag == 0 ? (okey_t)KEY_SIGN_BIT : o;         // -0.0 and +0.0: equal
  o = mag > KEY_EXP_MASK ? (okey_t)KEY_ALL_ONES : o;  // any NaN: greatest, all NaNs equal
#endif
  return (o ^ flip) & (okey_t)KEY_ALL_ONES;
}

// A run-time order (SortOptions::comparator; the comparison sorts): the host resolves this include to
// gs_user_before(a, b), the user's comparator already turned around for a descending sort, and
// defines GPUSORT_USER_ORDER; otherwise it is empty.
#include "user_order.h"

// What the comparison sorts' searches compare (rank_search.h, merge_path.h): order_key(k, flip),
// of type order_t. The natural order compares ordered keys (okey_t); a run-time order compares the
// keys themselves with the user's comparator (flip is then already part of it).
#ifdef GPUSORT_USER_ORDER
typedef key_t order_t;
DEVICE_FN order_t order_key(key_t k, okey_t flip) {
  (void)flip;
  return k;
}
DEVICE_FN int order_before(order_t a, order_t b) { return gs_user_before(a, b) ? 1 : 0; }
#else
typedef okey_t order_t;
#define order_key ordered_key
#define order_before(a, b) ((a) < (b))
#endif

// a strictly before b in the sort order.
#ifdef GPUSORT_USER_ORDER
DEVICE_FN int key_before(key_t a, key_t b, okey_t flip) {
  (void)flip;
  return order_before(a, b);
}
#else
// The same order as ordered_key(a, flip) < ordered_key(b, flip), spelled for the type: descending
// swaps the operands; integers compare natively (signed kinds as signed), bools as truth values;
// f32 and f64 keys on CUDA compare as floats with NaN last (-0 == +0 and NaN == NaN, as ordered_key
// has them): a few instructions where the mapping costs a dozen per comparison (H100, 2026-11-23,
// f64 merge sort of 2^28 keys: 49.6 ms mapped, 32.0 ms with the run-time comparator `return a <
// b;`). OpenCL maps floats (fp64 is optional there), and so does CUDA for 16-bit floats and complex keys.
DEVICE_FN int key_before(key_t a, key_t b, okey_t flip) {
  const key_t x = flip ? b : a, y = flip ? a : b;
#if KEY_KIND == 0
  return x < y;
#elif KEY_KIND == 1 && KEY_BITS == 8
  return (i8)x < (i8)y;
#elif KEY_KIND == 1 && KEY_BITS == 16
  return (i16)x < (i16)y;
#elif KEY_KIND == 1 && KEY_BITS == 32
  return (i32)x < (i32)y;
#elif KEY_KIND == 1
  return (i64)x < (i64)y;
#elif KEY_KIND == 3
  return (x == 0) & (y != 0);
#elif KEY_KIND == 2 && GS_CUDA && KEY_BITS == 32
  // x is a number and not (x >= y): x < y, or y is NaN (a NaN y follows every number x). Two
  // comparisons, no branches ("less or unordered" and a NaN test of x).
  const float fx = __int_as_float((int)x), fy = __int_as_float((int)y);
  return (fx == fx) & !(fx >= fy);
#elif KEY_KIND == 2 && GS_CUDA && KEY_BITS == 64
  const double fx = __longlong_as_double((long long)x), fy = __longlong_as_double((long long)y);
  return (fx == fx) & !(fx >= fy);
#else
  return ordered_key(x, 0) < ordered_key(y, 0);
#endif
}
#endif

// A position, count or split that a comparison sort computes from comparisons, clamped to the
// range [lo, hi] it has under a strict weak order. A run-time order may not be one (`a < b` over
// NaN, `a <= b`, `return 1;`): then searches disagree with each other, and unclamped positions
// would write outside the sort's buffers. Clamped, such a sort stays in bounds; what it lost is
// reported by the check after it (src/algorithms/order_check.cpp). The natural order is a strict
// weak order, so its programs keep the value as it is (and their code unchanged).
#ifdef GPUSORT_USER_ORDER
DEVICE_FN u64 order_clamp_u64(u64 x, u64 lo, u64 hi) { return x < lo ? lo : x > hi ? hi : x; }
DEVICE_FN u32 order_clamp_u32(u32 x, u32 lo, u32 hi) { return x < lo ? lo : x > hi ? hi : x; }
#else
#define order_clamp_u64(x, lo, hi) (x)
#define order_clamp_u32(x, lo, hi) (x)
#endif

#if VALUE_BYTES == 0
#define HAS_VALUES 0
typedef u8 value_t;  // placeholder so signatures stay uniform; never read
#else
#define HAS_VALUES 1
#if VALUE_BYTES == 1
typedef u8 value_t;
#elif VALUE_BYTES == 2
typedef u16 value_t;
#elif VALUE_BYTES == 4
typedef u32 value_t;
#elif VALUE_BYTES == 8
typedef u64 value_t;
#elif VALUE_BYTES == 16
typedef struct {
  u64 lo, hi;
} value_t;
#else
#error "VALUE_BYTES must be 0, 1, 2, 4, 8 or 16"
#endif
#endif

// Declares a local-memory array of count values, or, without values, a null pointer in its place
// so helpers keep one signature and no local memory is spent on values that are never read.
#if HAS_VALUES
#define LOCAL_VALUE_ARRAY(name, count) LOCAL_ARRAY value_t name[count]
#else
#define LOCAL_VALUE_ARRAY(name, count) LOCAL value_t* name = 0
#endif

#endif  // GPUSORT_KEYS_H
