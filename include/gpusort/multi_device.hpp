#pragma once
// Sorting host data on several devices at once (one Context per device, one process): a sample
// sort. Splitters taken from a sample of the keys cut the key range into one bucket per device;
// the keys (and values) are partitioned stably on the host; every device sorts its bucket
// concurrently (through the same path as gpusort::sort, out-of-core included); the sorted buckets
// laid end to end are the result, so no merge is needed. Equal keys always share a bucket, so a
// stable request stays stable. Skewed data (many equal keys) can load one device more than others.
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
// On any error the caller's keys and values are unchanged. SortReport: the devices joined by '+',
// sort_ms/upload_ms/download_ms of the slowest device, merge_ms = host partitioning time,
// chunks = number of buckets.
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
