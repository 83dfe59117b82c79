#pragma once
// The library's key order on the host, for `gpusort verify`, `gpusort gen` and tests:
//   - integers: their natural order;
//   - floats: -0.0 == +0.0, every NaN is greater than everything else and all NaNs are equal;
//   - descending is the exact reverse of ascending (NaNs first).
// Mirrors ordered_key() in kernels/keys.h: each key maps to an unsigned integer whose natural
// order is the sort order. The map is not injective (both zeros, all NaNs), so it is only ever
// used to compare, never to store.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "gpusort/key_type.hpp"

namespace gpusort::cli {

template <class T>
using ordered_t = std::conditional_t<(sizeof(T) == 8), std::uint64_t, std::uint32_t>;

template <class T>
constexpr ordered_t<T> ordered_key(T k) noexcept {
  using O = ordered_t<T>;
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
    constexpr U exp_mask = sizeof(T) == 8 ? U(0x7FF0000000000000ull) : U(0x7F800000u);
    const U bits = std::bit_cast<U>(k);
    const U mag = bits & ~sign;
    if (mag > exp_mask) return ~O(0);  // NaN: greatest
    if (mag == 0) return sign;         // -0.0 and +0.0: equal
    if (bits & sign) return ~bits;     // negative: reverse magnitude order, below zero
    return bits | sign;                // positive: above zero
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return O(U(U(k) ^ (U(1) << (sizeof(T) * 8 - 1))));
  } else {
    return O(k);
  }
}

// a strictly before b in the requested order.
template <class T>
constexpr bool key_before(T a, T b, bool descending) noexcept {
  return descending ? ordered_key(b) < ordered_key(a) : ordered_key(a) < ordered_key(b);
}

template <class T>
struct KeyLess {
  bool descending = false;
  constexpr bool operator()(T a, T b) const noexcept { return key_before(a, b, descending); }
};

// Calls f(T{}) with the C++ type of a key type.
template <class F>
decltype(auto) with_key_type(key_type t, F&& f) {
  switch (t) {
    case key_type::u8: return f(std::uint8_t{});
    case key_type::u16: return f(std::uint16_t{});
    case key_type::u32: return f(std::uint32_t{});
    case key_type::u64: return f(std::uint64_t{});
    case key_type::i8: return f(std::int8_t{});
    case key_type::i16: return f(std::int16_t{});
    case key_type::i32: return f(std::int32_t{});
    case key_type::i64: return f(std::int64_t{});
    case key_type::f32: return f(float{});
    case key_type::f64: return f(double{});
  }
  return f(std::uint8_t{});  // unreachable for valid enumerators
}

// A key as a human reads it (for messages).
template <class T>
std::string format_key(T k) {
  char buf[64];
  if constexpr (std::is_same_v<T, float>)
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
