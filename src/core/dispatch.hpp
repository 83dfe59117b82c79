#pragma once
// Which algorithm serves a request: a small pure function of the request and the algorithm table.
#include <cstdint>
#include <string>

#include "algorithms/algorithm.hpp"

namespace gpusort::core {

struct SortRequest {
  key_type type;
  std::uint64_t n;
  std::size_t value_bytes;
  bool stable;
  std::string algorithm;  // "auto" or a name
  bool device_is_gpu;
};

// Throws Error(invalid_argument) for an unknown name or a stable request to an algorithm that
// cannot be stable, Error(unsupported) when n exceeds what the algorithm accepts.
const algo::Algorithm& choose_algorithm(const SortRequest& request);

}  // namespace gpusort::core
