#include "sort_unique.hpp"

#include <cstring>

#include "gpusort/key_order.hpp"

namespace gpusort::cli {

std::size_t keep_first_of_equal_keys(key_type type, void* keys, std::size_t n, std::span<const CarriedArray> carried) {
  if (n < 2) return n;
  return visit_key_type(type, [&](auto tag) -> std::size_t {
    using T = decltype(tag);
    auto* p = static_cast<unsigned char*>(keys);
    auto bits = [p](std::size_t i) {
      T v;
      std::memcpy(&v, p + i * sizeof(T), sizeof(T));
      return ordered_bits(v);  // equal bits: equal in either order
    };
    std::size_t kept = 1;
    auto last = bits(0);
    for (std::size_t i = 1; i < n; ++i) {
      const auto b = bits(i);
      if (b == last) continue;
      last = b;
      if (kept != i) {
        std::memcpy(p + kept * sizeof(T), p + i * sizeof(T), sizeof(T));
        for (const CarriedArray& c : carried) {
          auto* d = static_cast<unsigned char*>(c.data);
          std::memcpy(d + kept * c.item_size, d + i * c.item_size, c.item_size);
        }
      }
      ++kept;
    }
    return kept;
  });
}

}  // namespace gpusort::cli
