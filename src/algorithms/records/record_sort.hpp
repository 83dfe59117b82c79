#pragma once
// Record sorts on the device (kernels/records.cl), the algorithm family of gpusort/records.hpp: the records stay in one device buffer; each
// pass makes its keys from them by the current index order and sorts (key, index) pairs on the
// device; one gather then moves the records. The host form uploads the records through pinned
// staging first and downloads them last; it is taken whenever the records and the sort's
// temporaries fit the device budget. `passes` empty: the records are ordered by a run-time
// comparator, options.comparator (rt::register_record_order), whose sort of the records' addresses
// replaces the passes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/records/record_passes.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// The device memory a device record sort of n records takes besides the records themselves
// (keys, index, the sorts' temporaries, the gather's second copy of the records).
std::uint64_t records_device_extra_bytes(rt::Device& device, std::uint64_t n, std::size_t record_bytes,
                                         const std::vector<RecordPass>& passes, const SortOptions& options);

// Whether the host form fits the device: the records in one buffer and everything within
// the budget (SortOptions::device_memory_limit, else 70% of the device's memory).
bool records_fit_device(rt::Device& device, std::uint64_t n, std::size_t record_bytes,
                        const std::vector<RecordPass>& passes, const SortOptions& options);

// Sorts n records of record_bytes each from `in` into `out` (device memory; the same buffer: in
// place), and returns when they are sorted; options.stable must be set. The options are checked
// (the passes' algorithm) even when n <= 1. SortReport::sort_ms:
// device time of the whole (key making, sorts, gather); chunks: the number of sort passes.
SortReport sort_records_on_device(rt::Device& device, rt::Buffer& in, rt::Buffer& out, std::uint64_t n,
                                  std::size_t record_bytes, const std::vector<RecordPass>& passes,
                                  const SortOptions& options);

// Bytes of a record index for n records: 4 below 2^32 records, else 8 (8 always while the test
// switch below is on).
std::size_t record_index_bytes(std::uint64_t n);

// Tests: u64 record indices for any n (the form of 2^32 records and more), on or off.
void set_records_wide_index_for_testing(bool wide);

}  // namespace gpusort::detail
