#include "verify.hpp"

#include <cstring>

#include "format_key.hpp"
#include "gpusort/key_order.hpp"

namespace gpusort::cli {

std::optional<Unsorted> find_unsorted(key_type t, const void* keys, std::size_t n, bool descending, bool strict) {
  return visit_key_type(t, [&](auto tag) -> std::optional<Unsorted> {
    using T = decltype(tag);
    const auto* p = static_cast<const unsigned char*>(keys);
    auto load = [p](std::size_t i) {
      T v;
      std::memcpy(&v, p + i * sizeof(T), sizeof(T));
      return v;
    };
    if (n < 2) return std::nullopt;
    const gpusort::key_less<T> before{descending ? order::descending : order::ascending};
    T prev = load(0);
    for (std::size_t i = 1; i < n; ++i) {
      const T cur = load(i);
      if (strict ? !before(prev, cur) : before(cur, prev)) return Unsorted{i, format_key(cur), format_key(prev)};
      prev = cur;
    }
    return std::nullopt;
  });
}

}  // namespace gpusort::cli
