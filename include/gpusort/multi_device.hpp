#pragma once
// Sorting host data on several devices at once (one Context per device, one process), with the
// machinery of out-of-core sorts: the data are cut into chunks that the devices sort concurrently
// (device d takes chunks d, d + D, ...); the host finds where exact ranks split the sorted chunks
// (a bisection per split, no pass over the data); each device then sorts its buckets (one slice of
// every chunk each) and writes them to their final place. Buckets hold equal numbers of elements
// whatever the duplicates, so the devices stay balanced, and a stable request stays stable.
// docs/DESIGN-NOTES.md, "Out-of-core host sorts".
#include <cstddef>
#include <span>
#include <type_traits>

#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

// contexts: at least one, each used by one host thread during the call (they may share a device).
// Errors as for sort_host (gpusort/sort.hpp). SortReport: the devices joined by '+';
// sort_ms/upload_ms/download_ms of the slowest device in each pass, summed over both; split_ms =
// host time finding the splits; chunks = number of chunks (and of buckets).
SortReport sort_host_multi(std::span<Context* const> contexts, key_type type, void* keys, std::size_t n,
                           void* values, std::size_t value_bytes, const SortOptions& options = {});

template <sortable_key K>
SortReport sort(std::span<Context* const> contexts, std::span<K> keys, const SortOptions& options = {}) {
  return sort_host_multi(contexts, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), nullptr, 0,
                         options);
}

template <sortable_key K, class V>
SortReport sort_pairs(std::span<Context* const> contexts, std::span<K> keys, std::span<V> values,
                      const SortOptions& options = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "values are moved as bytes");
  if (keys.size() != values.size())
    throw Error(errc::invalid_argument, "sort_pairs: " + std::to_string(keys.size()) + " keys but " +
                                            std::to_string(values.size()) + " values");
  return sort_host_multi(contexts, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), values.data(),
                         sizeof(V), options);
}

}  // namespace gpusort
