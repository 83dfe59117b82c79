#pragma once
// Which algorithm serves a request: a small pure function of the request and the algorithm table.
// Each request is chosen for once, at its entry point; everything below it (chunks of an
// out-of-core sort, the buckets of a sort on several devices) receives the chosen Algorithm.
#include <cstdint>

#include "algorithms/algorithm.hpp"
#include "gpusort/device.hpp"
#include "gpusort/options.hpp"

namespace gpusort::algo {

// The algorithm that SortOptions::algorithm ("auto", empty or a name) and SortOptions::stable ask
// for on `device`, for a request of n elements (0: not known; "auto" then takes what serves every
// size on that device). Throws Error(invalid_argument) for an unknown name or a stable request to an
// algorithm that cannot be stable, Error(unsupported) for a stable "auto" request when no
// algorithm is stable.
const Algorithm& choose(const DeviceDescription& device, const SortOptions& options, std::uint64_t n = 0);

// Throws Error(unsupported) when n exceeds what `algorithm` accepts (Algorithm::max_n). Apart from
// choose() because one choice may serve several sizes (the buckets of a sort on several devices).
void check_size(const Algorithm& algorithm, std::uint64_t n);

}  // namespace gpusort::algo
