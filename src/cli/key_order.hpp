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
