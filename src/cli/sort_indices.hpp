#pragma once
// gpusort sort --indices-out: the positions 0..n-1 (int64, as numpy's and torch's argsort give
// them) are sorted along with the keys as their values, stably, so that indices[i] is where
// sorted key i stood in the input (in the inputs concatenated). Values given with --values are
// then gathered by those positions on the host.
#include <cstddef>
#include <cstdint>

#include "core/host_array.hpp"

namespace gpusort::cli {

// The .npy dtype of the indices output.
inline constexpr const char* kIndicesDescr = "<i8";

// n int64 positions 0, 1, ..., n - 1.
core::HostArray positions(std::size_t n);

// out[i] = in[indices[i]] for items of item_size bytes; the indices are a permutation of 0..n-1.
void gather_by_indices(const void* in, void* out, std::size_t n, std::size_t item_size, const std::int64_t* indices);

}  // namespace gpusort::cli
