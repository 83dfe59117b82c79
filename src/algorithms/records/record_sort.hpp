#pragma once
// Record sorts on the device (kernels/records.cl), the algorithm family of gpusort/records.hpp: the records stay in one device buffer; each
// pass makes its keys from them by the current index order and sorts (key, index) pairs on the
// device; one gather then moves the records. The host form uploads the records through pinned
// staging first and downloads them last; it is taken whenever the records and the sort's
// temporaries fit the device budget. No passes: the records are ordered by a run-time
// comparator, options.comparator (rt::register_record_order), whose sort of the records' addresses
// replaces the passes. Every sort takes the plan's algorithm (algorithms/planner.hpp): nothing here
// chooses one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/records/record_passes.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// The device memory a device record sort of n records takes besides the records themselves and
// the values of complex128 keys (RecordsPlan::values): keys, index, the sorts' temporaries, the
// gathers' second copies of the records and values; each sort by `algorithm` (the plan's).
std::uint64_t records_device_extra_bytes(rt::Device& device, std::uint64_t n, std::size_t record_bytes,
                                         const algo::RecordsPlan& rec, const algo::Algorithm& algorithm,
                                         const SortOptions& options);

// Whether the host form fits the device: the records (and values) in one buffer each and
// everything within the budget (SortOptions::device_memory_limit, else 70% of the device's memory).
bool records_fit_device(rt::Device& device, std::uint64_t n, std::size_t record_bytes, const algo::RecordsPlan& rec,
                        const algo::Algorithm& algorithm, const SortOptions& options);

// The device buffers of one record sort. The records of `in` are sorted into `out` (the same
// buffer: in place; null: not written, for an argsort of complex128 keys, whose indices are all it
// wants). Complex128 keys' values (RecordsPlan::values, not positions) are gathered from values_in
// into values (the same buffer: in place); an argsort's positions are written into values.
struct RecordBuffers {
  rt::Buffer& in;
  rt::Buffer* out;
  rt::Buffer* values_in = nullptr;
  rt::Buffer* values = nullptr;
};

// The record sort of `plan` (a record sort's, algorithms/planner.hpp; Path::one_piece or
// on_device) on n records, every sort by the plan's algorithm. Returns when they are sorted.
// SortReport::sort_ms: device time of the whole (key making, sorts, gathers); chunks: the number of
// sort passes.
SortReport sort_records_on_device(rt::Device& device, const algo::Plan& plan, const RecordBuffers& buffers);
// The records of `in` into `out`, nothing else.
SortReport sort_records_on_device(rt::Device& device, const algo::Plan& plan, rt::Buffer& in, rt::Buffer& out);
// The same, enqueued: returns the events around it without waiting for them (a sort of the
// caller's memory on its queue, gpusort/native.hpp). A gather in place may still wait inside.
algo::RunEvents enqueue_records_on_device(rt::Device& device, const algo::Plan& plan, const RecordBuffers& buffers);

// A pass in words: "u32 at byte 8, descending", "8 bytes at byte 0 as u64, ascending" (a piece of
// a bytesK field).
std::string record_pass_name(const RecordPass& pass);

// What sort_records_on_device runs for `plan`, in words (the plan's steps): the key making, each
// pass with the algorithm's own steps, the gather.
std::vector<std::string> record_device_steps(const algo::Plan& plan, rt::Device& device);

// Bytes of a record index for n records: 4 below 2^32 records, else 8 (8 always while the test
// switch below is on).
std::size_t record_index_bytes(std::uint64_t n);

// Tests: u64 record indices for any n (the form of 2^32 records and more), on or off.
void set_records_wide_index_for_testing(bool wide);

}  // namespace gpusort::detail
