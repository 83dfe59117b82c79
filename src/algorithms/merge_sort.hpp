#pragma once
// The merge algorithm's building blocks, for the driver (merge_sort.cpp) and the benchmark.
//   merge = sort_tiles (one work-group sorts each tile of group_size*items keys in local memory)
//           + merge passes (pairs of sorted runs of width w become runs of 2w, until one run).
// Variants (SortOptions::local_variant / merge_variant, CLI --local / --merge):
//   local: blocked (default), merge, bitonic, rank, odd-even, bubble      -- all stable
//   merge: blocked (default), path, rank, half, cached, hashed            -- all stable
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace gpusort::algo::merge {

const std::vector<std::string>& local_variants();  // default first
const std::vector<std::string>& merge_variants();  // default first

// The name itself, or the default for an empty name; Error(invalid_argument) listing the valid
// names otherwise.
std::string checked_local_variant(const std::string& name);
std::string checked_merge_variant(const std::string& name);

// Keys per work-item each variant uses when SortOptions::items_per_thread is 0: its default for the
// key width, halved while a tile of group_size work-items would not fit the device's local memory.
std::uint32_t default_local_items(const rt::Device& device, const std::string& local_variant, key_type type,
                                  std::size_t value_bytes, std::uint32_t group_size);
std::uint32_t default_merge_items(const rt::Device& device, const std::string& merge_variant, key_type type,
                                  std::size_t value_bytes, std::uint32_t group_size);

// The "BLOCKED_VALUE_BATCH=B" define of a blocked merge pass (kernels/merge_blocked_tile.h): how many
// value loads a work-item issues together when it gathers the values: the device's MergeTuning row's
// (or the override's), halved to a divisor of `items`.
std::string blocked_value_batch_define(const DeviceDescription& desc, std::uint32_t items);

// Sorts, in place in job.keys / job.values, every tile [i*T, min((i+1)*T, n)) with
// T = group_size * items (both powers of two; group_size within the device limit), stably in
// job's order. job.options' variants are not read: the variant is the argument.
void sort_tiles(SortJob& job, const std::string& local_variant, std::uint32_t group_size, std::uint32_t items);
// The same, reading job.keys / job.values and writing the sorted tiles to dst (may be the job's own
// buffers; pass dst_keys again as dst_values when there are no values).
void sort_tiles_into(SortJob& job, const std::string& local_variant, std::uint32_t group_size, std::uint32_t items,
                     rt::Buffer& dst_keys, rt::Buffer& dst_values);

// One merge pass: src holds sorted runs of `width` keys (a power of two, at least group_size for
// cached/hashed); writes runs of 2*width to dst (distinct from src). Values are passed as the keys
// buffer when job has none. `items`: outputs per work-item (blocked, path) or cache size /
// group_size (cached, hashed); ignored by rank and half. `splits`: the blocked pass's table of one
// u64 per work-group (merge_sort allocates it once for all passes); nullptr or too small: the pass
// takes its own from job.temp().
void merge_pass(SortJob& job, const std::string& merge_variant, rt::Buffer& src_keys, rt::Buffer& src_values,
                rt::Buffer& dst_keys, rt::Buffer& dst_values, std::uint64_t width, std::uint32_t group_size,
                std::uint32_t items, rt::Buffer* splits = nullptr);

}  // namespace gpusort::algo::merge
