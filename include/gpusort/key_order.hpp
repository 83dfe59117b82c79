#pragma once
// The order gpusort sorts by, on the host: the same rules the kernels apply (kernels/keys.h).
//  - integers: their natural order;
//  - floats (f16, bf16, f32, f64): -0.0 == +0.0; NaN (any payload) is greater than every number and
//    equal to every NaN;
//  - bool: false before true; the byte 0 is false, any other byte true;
//  - complex (c64, c128) as numpy sorts it: first the keys whose parts are both numbers, by real part, then
//    imaginary part; then those with only the imaginary part NaN, by real part; then those with only
//    the real part NaN, by imaginary part; last those with both parts NaN, all equal. Each part
//    compares by the float rules (-0.0 == +0.0);
//  - descending is the exact reverse of ascending, so a stable descending sort keeps equal keys
//    in input order.
// Useful to verify results: std::is_sorted(v.begin(), v.end(), gpusort::key_less<T>{order}).
#include <bit>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"

namespace gpusort {

// The bit layout of a float key type: its storage bits, the exponent field, the mantissa width.
template <class T>
struct float_layout;
template <class U, U ExpMask, int MantissaBits>
struct float_layout_of {
  using bits_type = U;
  static constexpr U exp_mask = ExpMask;
  static constexpr int mantissa_bits = MantissaBits;
};
template <> struct float_layout<float> : float_layout_of<std::uint32_t, 0x7F800000u, 23> {};
template <> struct float_layout<double> : float_layout_of<std::uint64_t, 0x7FF0000000000000ull, 52> {};
template <> struct float_layout<half_bits> : float_layout_of<std::uint16_t, 0x7C00u, 10> {};
template <> struct float_layout<bfloat16_bits> : float_layout_of<std::uint16_t, 0x7F80u, 7> {};
#if defined(__STDCPP_FLOAT16_T__)
template <> struct float_layout<std::float16_t> : float_layout<half_bits> {};
#endif
#if defined(__STDCPP_BFLOAT16_T__)
template <> struct float_layout<std::bfloat16_t> : float_layout<bfloat16_bits> {};
#endif

// Keys sorted by the float rules above.
template <class T>
concept float_key = requires { float_layout<std::remove_cv_t<T>>::exp_mask; };

// Keys sorted by the complex rules above.
template <class T>
concept complex_key = std::is_same_v<std::remove_cv_t<T>, std::complex<float>> ||
                      std::is_same_v<std::remove_cv_t<T>, std::complex<double>>;

// A complex128 key's image: 128 bits (a GCC and Clang extension; the device sorts it as two 64-bit
// words, algorithms/records/record_passes.hpp).
__extension__ typedef unsigned __int128 complex128_image_t;

template <class T>
constexpr auto ordered_bits(T key) noexcept;

// The 64-bit image of a complex64 key from the f32 images of its parts: the class of the NaN parts
// in the top word above every number's image (the largest, +inf's, is 0xFF800000), the part that
// orders the class below it. kernels/keys.h computes the same (KEY_KIND 4).
constexpr std::uint64_t complex_image(std::uint32_t re, std::uint32_t im) noexcept {
  constexpr std::uint32_t nan = ~std::uint32_t(0);
  const std::uint64_t hi = re == nan ? (im == nan ? nan : 0xFF800002u) : im == nan ? 0xFF800001u : re;
  const std::uint64_t lo = re == nan ? im : im == nan ? re : im;
  return hi << 32 | lo;
}

// The same for complex128 from the f64 images of its parts (+inf's is 0xFFF0000000000000): the high
// word (class and real part) and the low word (imaginary part, or the real part for the class with
// only the imaginary part NaN). kernels/records.cl computes the same words (records_make_keys).
constexpr std::uint64_t complex128_high_word(std::uint64_t re, std::uint64_t im) noexcept {
  constexpr std::uint64_t nan = ~std::uint64_t(0), inf = 0xFFF0000000000000ull;
  return re == nan ? (im == nan ? nan : inf + 2) : im == nan ? inf + 1 : re;
}
constexpr std::uint64_t complex128_low_word(std::uint64_t re, std::uint64_t im) noexcept {
  constexpr std::uint64_t nan = ~std::uint64_t(0);
  return re == nan ? im : im == nan ? re : im;
}
constexpr complex128_image_t complex_image(std::uint64_t re, std::uint64_t im) noexcept {
  return complex128_image_t(complex128_high_word(re, im)) << 64 | complex128_low_word(re, im);
}

// Maps a key to an unsigned integer whose natural order is the ascending sort order.
template <class T>
constexpr auto ordered_bits(T key) noexcept {
  if constexpr (complex_key<T>) {
    return complex_image(ordered_bits(key.real()), ordered_bits(key.imag()));
  } else if constexpr (float_key<T>) {
    using U = typename float_layout<T>::bits_type;
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    constexpr U exp_mask = float_layout<T>::exp_mask;
    U bits = std::bit_cast<U>(key);
    U mag = bits & ~sign;
    if (mag > exp_mask) return U(~U(0));  // NaN
    if (mag == 0) return sign;            // +-0
    return (bits & sign) ? U(~bits) : U(bits | sign);
  } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, bool_byte>) {
    return std::uint8_t(std::bit_cast<std::uint8_t>(key) != 0);  // the byte, not the bool's value
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return U(U(key) ^ (U(1) << (sizeof(U) * 8 - 1)));
  } else {
    return key;
  }
}

// The same for either order: the bitwise complement for descending, which is the exact reverse.
template <class T>
constexpr auto ordered_bits(T key, gpusort::order o) noexcept {
  const auto bits = ordered_bits(key);
  return o == gpusort::order::descending ? decltype(bits)(~bits) : bits;
}

template <class T>
struct key_less {
  gpusort::order order = gpusort::order::ascending;
  constexpr bool operator()(T a, T b) const noexcept {
    return ordered_bits(a, order) < ordered_bits(b, order);
  }
};

}  // namespace gpusort
