#pragma once
// The library's key order on the host, for `gpusort verify`, `gpusort gen` and tests:
//   - integers: their natural order;
//   - floats: -0.0 == +0.0, every NaN is greater than everything else and all NaNs are equal;
//   - descending is the exact reverse of ascending (NaNs first).
#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "gpusort/key_order.hpp"
#include "gpusort/key_type.hpp"

namespace gpusort::cli {

// The order itself lives in the public header gpusort/key_order.hpp (one definition for the
// library's users, the CLI and the tests); these are the CLI's names for it.
template <class T>
constexpr auto ordered_key(T k) noexcept {
  return gpusort::ordered_bits(k);
}

// a strictly before b in the requested order.
template <class T>
constexpr bool key_before(T a, T b, bool descending) noexcept {
  return gpusort::key_less<T>{descending ? order::descending : order::ascending}(a, b);
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
