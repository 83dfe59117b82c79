#pragma once
// Sorting host data: keys alone, or keys with values (pairs).
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"

namespace gpusort {

struct AlgorithmInfo {
  std::string name;         // the value of SortOptions::algorithm / --algorithm
  std::string description;  // one line
  bool can_be_stable = false;
  std::string complexity;   // how its work grows with n: "n log n", "n log^2 n", "n^2" or "n*k/8" (k-bit keys)
  std::string runs_on;      // where it works: "device", "device+host" (host threads finish) or "host"
  bool takes_comparator = false;  // SortOptions::comparator (a run-time order) is accepted
};
// Every algorithm gpusort offers, in the order `gpusort algorithms` prints them.
std::vector<AlgorithmInfo> algorithms();

// What a sort did; times are milliseconds measured with device events (sort) and host clocks
// (transfers, which include waiting for the device).
struct SortReport {
  std::string algorithm;
  std::string device;
  double upload_ms = 0;
  double sort_ms = 0;
  double download_ms = 0;
  // Host sorts: upload_ms/download_ms are the host time the copies were busy (through pinned
  // staging; in several steps they overlap each other and the sorts), sort_ms the device time of
  // the sorts. Larger than the device budget (SortOptions::device_memory_limit): sorted in
  // `chunks` chunks, then as many buckets cut at exact ranks (split_ms: the host time finding the
  // cuts); sort_ms is then the sum over both passes. 1 = sorted in one piece.
  std::size_t chunks = 1;
  double split_ms = 0;
  // Kernel programs this process compiled during the sort (first use on a device with an empty
  // program cache). Their compile time is inside sort_ms: run again for the sort alone.
  std::uint64_t programs_compiled = 0;
};

// Type-erased entry point for host memory. keys: n elements of `type`; values: n elements of
// value_bytes each, or nullptr with value_bytes == 0. An error before the results are copied back
// (arguments, memory, compiling, sorting) leaves keys and values unchanged. The copy back writes
// them directly (no host-side copy of the whole data, whose first touch would cost more than the
// sort): a failure during it (a device lost) can leave them partly overwritten, except in
// out-of-core sorts, which then restore every element (pairs together, order unspecified).
SortReport sort_host(Context& ctx, key_type type, void* keys, std::size_t n, void* values,
                     std::size_t value_bytes, const SortOptions& options = {});

template <sortable_key K>
SortReport sort(Context& ctx, std::span<K> keys, const SortOptions& options = {}) {
  static_assert(!std::is_const_v<K>, "gpusort::sort sorts in place: the keys must not be const (sort a copy)");
  return sort_host(ctx, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), nullptr, 0, options);
}

template <sortable_key K, class V>
SortReport sort_pairs(Context& ctx, std::span<K> keys, std::span<V> values, const SortOptions& options = {}) {
  static_assert(!std::is_const_v<K> && !std::is_const_v<V>,
                "gpusort::sort_pairs sorts in place: keys and values must not be const (sort copies)");
  static_assert(std::is_trivially_copyable_v<V>, "values are moved as bytes");
  if (keys.size() != values.size())
    throw Error(errc::invalid_argument, "sort_pairs: " + std::to_string(keys.size()) + " keys but " +
                                            std::to_string(values.size()) + " values");
  return sort_host(ctx, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), values.data(),
                   sizeof(V), options);
}

// Any contiguous range of keys: std::vector, std::array, a C array, a span of static extent, ...
template <class R>
concept host_key_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

template <host_key_range R>
SortReport sort(Context& ctx, R&& keys, const SortOptions& options = {}) {
  using K = std::remove_reference_t<std::ranges::range_reference_t<R>>;
  static_assert(!std::is_const_v<K>, "gpusort::sort sorts in place: the keys must not be const (sort a copy)");
  static_assert(sortable_key<K>, "gpusort::sort: keys must be integers of 1, 2, 4 or 8 bytes, bool, float, double, 16-bit floats (gpusort::half_bits, bfloat16_bits), std::complex<float> or std::complex<double>");
  return sort(ctx, std::span<K>(std::ranges::data(keys), std::ranges::size(keys)), options);
}

template <host_key_range RK, host_key_range RV>
SortReport sort_pairs(Context& ctx, RK&& keys, RV&& values, const SortOptions& options = {}) {
  using K = std::remove_reference_t<std::ranges::range_reference_t<RK>>;
  using V = std::remove_reference_t<std::ranges::range_reference_t<RV>>;
  static_assert(!std::is_const_v<K> && !std::is_const_v<V>,
                "gpusort::sort_pairs sorts in place: keys and values must not be const (sort copies)");
  static_assert(sortable_key<K>, "gpusort::sort_pairs: keys must be integers of 1, 2, 4 or 8 bytes, bool, float, double, 16-bit floats (gpusort::half_bits, bfloat16_bits), std::complex<float> or std::complex<double>");
  return sort_pairs(ctx, std::span<K>(std::ranges::data(keys), std::ranges::size(keys)),
                    std::span<V>(std::ranges::data(values), std::ranges::size(values)), options);
}

}  // namespace gpusort
