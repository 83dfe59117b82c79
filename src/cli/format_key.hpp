#pragma once
// Keys as a human reads them, for the command's messages (gpusort verify).
#include <cstdio>
#include <string>
#include <type_traits>

namespace gpusort::cli {

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
