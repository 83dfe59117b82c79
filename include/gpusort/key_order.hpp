#pragma once
// The order gpusort sorts by, on the host: the same rules the kernels apply (kernels/keys.h).
//  - integers: their natural order;
//  - floats: -0.0 == +0.0; NaN (any payload) is greater than every number and equal to every NaN;
//  - descending is the exact reverse of ascending, so a stable descending sort keeps equal keys
//    in input order.
// Useful to verify results: std::is_sorted(v.begin(), v.end(), gpusort::key_less<T>{order}).
#include <bit>
#include <cstdint>
#include <type_traits>

#include "gpusort/options.hpp"

namespace gpusort {

// Maps a key to an unsigned integer whose natural order is the ascending sort order.
template <class T>
constexpr auto ordered_bits(T key) noexcept {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
    constexpr U exp_mask = sizeof(T) == 4 ? U(0x7F800000u) : U(0x7FF0000000000000ull);
    U bits = std::bit_cast<U>(key);
    U mag = bits & ~sign;
    if (mag > exp_mask) return U(~U(0));  // NaN
    if (mag == 0) return sign;            // +-0
    return (bits & sign) ? U(~bits) : U(bits | sign);
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
