#pragma once
// The checks of a request (gpusort/plan.hpp), run by the planner (algorithms/planner.hpp) once
// before anything runs (so a bad request costs nothing and leaves the caller's data unchanged). Errors are Error(invalid_argument)
// and name the field exactly as `SortOptions::<field>` with its valid values, so that a front end
// can replace that text with its own spelling of the option.
#include <cstddef>
#include <cstdint>

#include "algorithms/algorithm.hpp"
#include "gpusort/device.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/plan.hpp"

namespace gpusort::detail {

// The request's own fields, before an algorithm is chosen: key type, value width, n, positions
// (check_argsort_indices), a record sort's size and order (check_record_order), what a distributed
// sort cannot take, a segmented sort's shape (check_segments), a top-k's (check_topk), a
// partition's (check_partition), and the host-only options by where the data lie
// (check_device_memory_limit, check_no_host_options).
void check_request(const SortRequest& request);

// A segmented request's shape (SortRequest::rows, row_length, offset_bytes): uniform rows that hold
// exactly n elements, or offsets of 4 or 8 bytes (4 only below 2^32 elements); 4-byte argsort
// indices only where no segment can be longer than 2^32; no records, no ranks.
void check_segments(const SortRequest& request);

// A top-k's request (SortRequest::topk): keys in uniform rows (rows x row_length == n), k up to the
// row length, rows of fewer than 2^32 keys, indices of 0 (none), 4 or 8 bytes, no comparator, no
// records, ranks or offsets.
void check_topk(const SortRequest& request);

// A partition's request (SortRequest::partition): keys in uniform rows (rows x row_length == n), kth
// below the row length where there are keys, ascending, rows of fewer than 2^32 keys, positions of 0
// (none), 4 or 8 bytes, no comparator, no top-k fields, no records, ranks or offsets.
void check_partition(const SortRequest& request);

// A key_type of the type-erased entry points is one of its ten enumerators (a cast integer may be
// anything): errc::invalid_argument otherwise.
void check_key_type(key_type type);

// The one choice of a request of n elements: the algorithm that serves it (algo::choose), checked
// against its size limit (algo::check_size) and then its options (check_options).
const algo::Algorithm& checked_algorithm(const DeviceDescription& device, std::uint64_t n, const SortOptions& options);

// The algorithm-specific fields (work_group_size, items_per_thread, local_variant, merge_variant,
// host_merge_levels):
//  - with SortOptions::algorithm "auto" (or empty) every one must keep its default;
//  - a field `algorithm` does not read (Algorithm::options) must keep its default;
//  - the rest must be in range: work_group_size 0 or a power of two up to the device's limit,
//    items_per_thread 0 or within the algorithm's range, host_merge_levels -1..64, and the
//    variant names the algorithm knows (Algorithm::check_variants).
void check_options(const SortOptions& options, const algo::Algorithm& algorithm, const DeviceDescription& device);

// Host sorts (sort_host and what calls it): device_memory_limit is 0 or at least what the chunk
// pipeline's smallest chunk of these elements needs (out_of_core.hpp, pipeline_bytes(kMinChunk)).
// SortOptions::host_threads' largest value.
inline constexpr unsigned kMaxHostThreads = 64;  // 64 x 2 directions x 2 slots x 8 MiB = 2 GiB pinned
// The longest SortOptions::comparator accepted, in bytes: far above any order written by hand,
// and it keeps the compilers' time and stack in bounds (runtime/large_stack.hpp).
inline constexpr std::size_t kMaxComparatorBytes = 16 * 1024;

void check_device_memory_limit(const SortOptions& options, std::size_t key_bytes, std::size_t value_bytes);
// Device sorts (sort_device, temporary_storage_bytes): the data is already on the device, so
// device_memory_limit has nothing to limit and host_threads nothing to copy: both must be 0.
void check_no_host_options(const SortOptions& options);

// argsort's indices (argsort_host, argsort_native): 4 or 8 bytes wide, and 8 where n keys need it.
void check_argsort_indices(std::size_t n, std::size_t index_bytes);

}  // namespace gpusort::detail
