#pragma once
// gpusort sort -u: of each run of equal keys in sorted data, only the first is kept, like GNU
// sort -u and the first occurrence numpy.unique returns. Equal is the library's order
// (gpusort/key_order.hpp): -0.0 equals +0.0 and every NaN equals every NaN. After a stable sort the
// first of a run is the first of those keys in the input, and the arrays carried along (values,
// indices) keep that element's entries.
#include <cstddef>
#include <span>

#include "gpusort/key_type.hpp"

namespace gpusort::cli {

struct CarriedArray {
  void* data;
  std::size_t item_size;
};

// Compacts keys[0, n) (sorted, either order) and each carried array in place to the first element
// of each run of equal keys; returns how many are kept. Neither array need be aligned.
std::size_t keep_first_of_equal_keys(key_type type, void* keys, std::size_t n, std::span<const CarriedArray> carried);

}  // namespace gpusort::cli
