#pragma once
// Checking that keys are in the library's order (gpusort/key_order.hpp).
#include <cstddef>
#include <optional>
#include <string>

#include "gpusort/key_type.hpp"

namespace gpusort::cli {

struct Unsorted {
  std::size_t index = 0;  // the first element that belongs before its predecessor (or, strict, equals it)
  std::string key;        // keys[index], formatted
  std::string previous;   // keys[index - 1], formatted
};

// The first place where keys[i] comes strictly before keys[i - 1] in the order (strict: or is equal
// to it, as for gpusort sort -c -u); nullopt if sorted. `keys` need not be aligned.
std::optional<Unsorted> find_unsorted(key_type t, const void* keys, std::size_t n, bool descending,
                                      bool strict = false);

}  // namespace gpusort::cli
