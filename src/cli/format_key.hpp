#pragma once
// Keys as a human reads them, for the command's messages (gpusort verify).
#include <bit>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "gpusort/key_type.hpp"

namespace gpusort::cli {

// The value of a 16-bit float (exact: every f16 and bf16 value is a float).
inline float float_value(bfloat16_bits k) { return std::bit_cast<float>(std::uint32_t(k.bits) << 16); }
inline float float_value(half_bits k) {
  const std::uint32_t sign = std::uint32_t(k.bits & 0x8000u) << 16, e = (k.bits >> 10) & 0x1Fu;
  std::uint32_t m = k.bits & 0x3FFu, fe = 113;
  if (e == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | m << 13);  // inf and NaN
  if (e != 0) return std::bit_cast<float>(sign | (e + 112) << 23 | m << 13);
  if (m == 0) return std::bit_cast<float>(sign);
  while ((m & 0x400u) == 0) m <<= 1, --fe;  // subnormal: normalised
  return std::bit_cast<float>(sign | fe << 23 | (m & 0x3FFu) << 13);
}

// A key as a human reads it (for messages); 16-bit floats with the digits that tell them apart.
template <class T>
std::string format_key(T k) {
  char buf[64];
  if constexpr (std::is_same_v<T, half_bits>)
    std::snprintf(buf, sizeof buf, "%.5g", double(float_value(k)));
  else if constexpr (std::is_same_v<T, bfloat16_bits>)
    std::snprintf(buf, sizeof buf, "%.4g", double(float_value(k)));
  else if constexpr (std::is_same_v<T, bool_byte>)
    return k.byte == 0 ? "false" : k.byte == 1 ? "true" : "true (byte " + std::to_string(k.byte) + ")";
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    std::snprintf(buf, sizeof buf, "(%.9g%+.9gj)", double(k.real()), double(k.imag()));
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    std::snprintf(buf, sizeof buf, "(%.17g%+.17gj)", k.real(), k.imag());
  else if constexpr (std::is_same_v<T, float>)
    std::snprintf(buf, sizeof buf, "%.9g", double(k));
  else if constexpr (std::is_same_v<T, double>)
    std::snprintf(buf, sizeof buf, "%.17g", k);
  else if constexpr (std::is_signed_v<T>)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(k));
  else
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(k));
  return buf;
}

}  // namespace gpusort::cli
