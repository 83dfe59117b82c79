// Checks of SortOptions against the chosen algorithm and the device (algorithms/request_checks.hpp).
#include "algorithms/request_checks.hpp"

#include <iterator>

#include "algorithms/chooser.hpp"
#include "algorithms/host_sizing.hpp"
#include "algorithms/records/record_passes.hpp"

namespace gpusort::detail {
namespace {

// An algorithm-specific field: its name, which algorithms read it, and whether a request set it.
struct Field {
  const char* name;
  bool algo::OptionUse::*used;
  bool (*is_set)(const SortOptions&);
};

constexpr Field kFields[] = {
    {"work_group_size", &algo::OptionUse::work_group_size, [](const SortOptions& o) { return o.work_group_size != 0; }},
    {"items_per_thread", &algo::OptionUse::items_per_thread, [](const SortOptions& o) { return o.items_per_thread != 0; }},
    {"local_variant", &algo::OptionUse::local_variant, [](const SortOptions& o) { return !o.local_variant.empty(); }},
    {"merge_variant", &algo::OptionUse::merge_variant, [](const SortOptions& o) { return !o.merge_variant.empty(); }},
    {"host_merge_levels", &algo::OptionUse::host_merge_levels,
     [](const SortOptions& o) { return o.host_merge_levels != -1; }},
};

// "merge, radix, ...": the algorithms that read an option (OptionUse's flag), for the error messages.
std::string users_of(bool algo::OptionUse::*used) {
  std::string s;
  for (const auto& a : algo::registry())
    if (a.options.*used) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

void check_items_per_thread(std::size_t items, const algo::Algorithm& algorithm) {
  const algo::OptionUse& use = algorithm.options;
  if (items == 0) return;
  const bool power_of_two = (items & (items - 1)) == 0;
  if (items > use.max_items_per_thread || (use.items_power_of_two && !power_of_two))
    throw Error(errc::invalid_argument, std::string("SortOptions::items_per_thread must be 0 (the algorithm's default) or ") +
                                            (use.items_power_of_two ? "a power of two " : "") + "from 1 to " +
                                            std::to_string(use.max_items_per_thread) + " for algorithm '" +
                                            algorithm.name + "' (got " + std::to_string(items) + ")");
}

// A top-k's or partition's rows: rows x row_length is n (what names the request in the error).
void check_rows_hold_n(const SortRequest& r, const char* what) {
  if (r.n > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "n is too large");
  const bool holds_n =
      r.rows == 0 || r.row_length == 0 ? r.n == 0 : r.n % r.rows == 0 && r.n / r.rows == r.row_length;
  if (!holds_n)
    throw Error(errc::invalid_argument, std::to_string(r.rows) + " rows of " + std::to_string(r.row_length) +
                                            " elements are not the " + std::to_string(r.n) + " elements of the " +
                                            what + " (rows x row length must be n)");
}

}  // namespace

void check_request(const SortRequest& r) {
  if (r.partition) {
    check_partition(r);
    if (r.where != data_location::host) check_no_host_options(r.options);
    return;
  }
  if (r.kth != 0 || r.select_kth)
    throw Error(errc::invalid_argument, "SortRequest::kth and select_kth are a partition's: set SortRequest::partition "
                                        "too (got kth = " + std::to_string(r.kth) + ")");
  if (r.topk) {
    check_topk(r);
    if (r.where != data_location::host) check_no_host_options(r.options);
    return;
  }
  if (r.k != 0)
    throw Error(errc::invalid_argument, "SortRequest::k is the k of a top-k: set SortRequest::topk too (got k = " +
                                            std::to_string(r.k) + ")");
  const bool records = r.record_bytes != 0 || !r.record_fields.empty();
  if (records) {
    check_record_order(r.record_bytes, r.record_fields, r.options);
  } else {
    check_key_type(r.type);
    if (is_complex(r.type) && !r.options.comparator.empty())
      throw Error(errc::unsupported, "SortOptions::comparator is not supported for complex keys (" +
                                         std::string(key_type_name(r.type)) + "): they sort in numpy's order");
    if (r.type == key_type::c128 && r.ranks != 0)
      throw Error(errc::unsupported, "complex128 (c128) keys are not sorted distributed yet (complex64 keys are)");
    if (r.positions) check_argsort_indices(r.segmented() ? 0 : r.n, r.value_bytes);  // segments: check_segments
    if (r.value_bytes != 0 && !is_supported_value_size(r.value_bytes))
      throw Error(errc::invalid_argument, "values of " + std::to_string(r.value_bytes) +
                                              " bytes are not supported (1, 2, 4, 8 or 16)");
  }
  if (r.n > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "n is too large");
  if (r.segmented()) check_segments(r);
  if (r.ranks != 0) {
    if (records || r.positions)
      throw Error(errc::unsupported, "a distributed sort sorts keys and values: no records, no argsort");
    if (!r.options.comparator.empty())
      throw Error(errc::unsupported, "dist::sort: SortOptions::comparator is not supported (the cuts use the natural order)");
  }
  if (r.where != data_location::host)
    check_no_host_options(r.options);
  else if (!records)  // a record sort's limit depends on its passes: the planner checks it with them
    check_device_memory_limit(r.options, key_size(r.type), r.value_bytes);
}

void check_segments(const SortRequest& r) {
  const std::string rows = std::to_string(r.rows), n = std::to_string(r.n);
  if (r.record_bytes != 0 || !r.record_fields.empty() || r.ranks != 0)
    throw Error(errc::unsupported, "a segmented sort sorts keys (and values): no records, no distributed sort");
  if (r.offset_bytes != 0) {
    if (r.offset_bytes != 4 && r.offset_bytes != 8)
      throw Error(errc::invalid_argument, "segment offsets are 4 or 8 bytes wide, not " + std::to_string(r.offset_bytes));
    if (r.row_length != 0)
      throw Error(errc::invalid_argument, "segments are uniform rows (SortRequest::row_length) or given by offsets "
                                          "(SortRequest::offset_bytes), not both");
    if (r.offset_bytes == 4 && r.n > UINT32_MAX)
      throw Error(errc::invalid_argument, n + " elements need 8-byte segment offsets");
    if (r.rows == 0 && r.n != 0)
      throw Error(errc::invalid_argument, "0 segments hold no elements, not " + n);
    if (r.rows > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "too many segments: " + rows);
  } else {
    // rows * row_length == n, without overflow
    const bool holds_n = r.rows == 0 || r.row_length == 0 ? r.n == 0
                                                          : r.n % r.rows == 0 && r.n / r.rows == r.row_length;
    if (!holds_n)
      throw Error(errc::invalid_argument, rows + " rows of " + std::to_string(r.row_length) + " elements are not the " +
                                              n + " elements of the sort (rows x row length must be n)");
  }
  // argsort's indices are local to their segment: 4 bytes where no segment can be longer than 2^32
  if (r.positions && r.value_bytes == 4) {
    const std::uint64_t longest = r.offset_bytes != 0 ? r.n : r.row_length;
    if (longest > std::uint64_t(UINT32_MAX) + 1)
      throw Error(errc::invalid_argument, "argsort: segments of up to " + std::to_string(longest) +
                                              " keys need 64-bit indices");
  }
}

void check_topk(const SortRequest& r) {
  if (r.record_bytes != 0 || !r.record_fields.empty() || r.ranks != 0)
    throw Error(errc::unsupported, "a top-k takes keys in rows or segments: no records, no distributed sort");
  const bool offsets = r.offset_bytes != 0;
  if (offsets && r.offset_bytes != 4 && r.offset_bytes != 8)
    throw Error(errc::invalid_argument, "segment offsets are 4 or 8 bytes wide, not " + std::to_string(r.offset_bytes));
  if (offsets && r.n > UINT32_MAX)  // the selection counts a segment's keys in 32 bits
    throw Error(errc::unsupported, "top-k of segments: up to 2^32 - 1 keys in all (got " + std::to_string(r.n) + ")");
  check_key_type(r.type);
  if (r.type == key_type::c128) throw Error(errc::unsupported, "a top-k of complex128 (c128) keys is not supported yet");
  if (r.positions) throw Error(errc::invalid_argument, "a top-k makes its indices itself: SortRequest::positions is not read");
  if (r.value_bytes != 0 && r.value_bytes != 4 && r.value_bytes != 8)
    throw Error(errc::invalid_argument, "a top-k's indices are 4 or 8 bytes wide (0: keys alone), not " +
                                            std::to_string(r.value_bytes));
  if (!r.options.comparator.empty())
    throw Error(errc::unsupported, "SortOptions::comparator: a top-k selects by the keys' natural order");
  if (offsets) return;  // a segment shorter than k gives all its keys (the rest of its k slots padded)
  check_rows_hold_n(r, "top-k");
  if (r.k > r.row_length)
    throw Error(errc::invalid_argument, "k = " + std::to_string(r.k) + " is more than the row length " +
                                            std::to_string(r.row_length));
  if (r.row_length > UINT32_MAX)  // the selection counts a row's keys in 32 bits
    throw Error(errc::unsupported, "top-k: rows of up to 2^32 - 1 keys (got " + std::to_string(r.row_length) + ")");
}

void check_partition(const SortRequest& r) {
  if (r.topk || r.k != 0)
    throw Error(errc::invalid_argument, "a request is a top-k (SortRequest::topk, k) or a partition, not both");
  if (r.record_bytes != 0 || !r.record_fields.empty() || r.ranks != 0 || r.offset_bytes != 0)
    throw Error(errc::unsupported, "a partition takes keys in uniform rows: no records, no distributed sort, no offsets");
  check_key_type(r.type);
  if (r.type == key_type::c128)
    throw Error(errc::unsupported, "a partition of complex128 (c128) keys is not supported yet");
  if (r.positions)
    throw Error(errc::invalid_argument, "a partition makes its positions itself: SortRequest::positions is not read");
  if (r.value_bytes != 0 && r.value_bytes != 4 && r.value_bytes != 8)
    throw Error(errc::invalid_argument, "a partition's positions are 4 or 8 bytes wide (0: keys alone), not " +
                                            std::to_string(r.value_bytes));
  if (!r.options.comparator.empty())
    throw Error(errc::unsupported, "SortOptions::comparator: a partition ranks by the keys' natural order");
  if (r.options.order != order::ascending)
    throw Error(errc::unsupported, "a partition ranks ascending, as numpy.partition (for the kth largest, partition "
                                   "around rank row length - 1 - kth)");
  check_rows_hold_n(r, "partition");
  if (r.n != 0 && r.kth >= r.row_length)
    throw Error(errc::invalid_argument, "kth = " + std::to_string(r.kth) + " is outside rows of " +
                                            std::to_string(r.row_length) + " keys (0 up to the row length - 1)");
  if (r.row_length > UINT32_MAX)  // the selection counts a row's keys in 32 bits
    throw Error(errc::unsupported, "partition: rows of up to 2^32 - 1 keys (got " + std::to_string(r.row_length) + ")");
}

void check_key_type(key_type type) {
  if (static_cast<unsigned>(type) >= std::size(all_key_types))
    throw Error(errc::invalid_argument, "key type " + std::to_string(static_cast<int>(type)) +
                                            " is none of the key types (u8 ... f64, f16, bf16, bool, c64, c128)");
}

const algo::Algorithm& checked_algorithm(const DeviceDescription& device, std::uint64_t n, const SortOptions& options) {
  const algo::Algorithm& algorithm = algo::choose(device, options, n);
  algo::check_size(algorithm, n);
  check_options(options, algorithm, device);
  return algorithm;
}

void check_options(const SortOptions& options, const algo::Algorithm& algorithm, const DeviceDescription& device) {
  // "auto" may pick any algorithm, and a shape or variant means something different to each.
  const bool automatic = options.algorithm.empty() || options.algorithm == "auto";
  for (const Field& f : kFields) {
    if (!f.is_set(options)) continue;
    const std::string field = std::string("SortOptions::") + f.name;
    if (automatic)
      throw Error(errc::invalid_argument, field + " is algorithm-specific: choose an algorithm with "
                                                  "SortOptions::algorithm (it is used by: " + users_of(f.used) + ")");
    if (!(algorithm.options.*f.used))
      throw Error(errc::invalid_argument, field + " is not used by algorithm '" + algorithm.name +
                                              "' (it is used by: " + users_of(f.used) + ")");
  }
  if (options.comparator.size() > kMaxComparatorBytes)
    throw Error(errc::invalid_argument, "SortOptions::comparator is " + std::to_string(options.comparator.size()) +
                                            " bytes long; at most " + std::to_string(kMaxComparatorBytes) +
                                            " are accepted (the kernel compilers are not made for larger bodies)");
  if (!options.comparator.empty() && !algorithm.options.comparator)
    throw Error(errc::invalid_argument, "SortOptions::comparator (a run-time order) is not taken by algorithm '" +
                                            algorithm.name + "' (it is taken by: " + users_of(&algo::OptionUse::comparator) + ")");
  algo::check_work_group_size(options.work_group_size, device.max_work_group_size);
  check_items_per_thread(options.items_per_thread, algorithm);
  if (options.host_merge_levels < -1 || options.host_merge_levels > algo::kMaxHostMergeLevels)
    throw Error(errc::invalid_argument, "SortOptions::host_merge_levels must be -1 (automatic) or from 0 to " +
                                            std::to_string(algo::kMaxHostMergeLevels) + " (got " +
                                            std::to_string(options.host_merge_levels) + ")");
  if (options.host_threads > kMaxHostThreads)
    throw Error(errc::invalid_argument, "SortOptions::host_threads must be 0 (automatic) or from 1 to " +
                                            std::to_string(kMaxHostThreads) + " (got " +
                                            std::to_string(options.host_threads) + ")");
  if (algorithm.check_variants) algorithm.check_variants(options);
}

void check_device_memory_limit(const SortOptions& options, std::size_t key_bytes, std::size_t value_bytes) {
  const std::uint64_t least = pipeline_bytes(kMinChunk, key_bytes, value_bytes);
  if (options.device_memory_limit != 0 && options.device_memory_limit < least)
    throw Error(errc::invalid_argument,
                "SortOptions::device_memory_limit must be 0 (70% of the device's memory) or at least " +
                    std::to_string(least) + " bytes for keys of " + std::to_string(key_bytes) + " bytes" +
                    (value_bytes ? " with values of " + std::to_string(value_bytes) + " bytes" : std::string()) +
                    ", what sorting in chunks of " + std::to_string(kMinChunk) + " elements needs (got " +
                    std::to_string(options.device_memory_limit) + ")");
}

void check_no_host_options(const SortOptions& options) {
  if (options.device_memory_limit != 0)
    throw Error(errc::invalid_argument,
                "SortOptions::device_memory_limit applies only to sorts of host memory; keys already in device "
                "memory are sorted in place, so it must be 0 (got " +
                    std::to_string(options.device_memory_limit) + ")");
  if (options.host_threads != 0)
    throw Error(errc::invalid_argument,
                "SortOptions::host_threads applies only to sorts of host memory; keys already in device memory "
                "need no host threads (got " + std::to_string(options.host_threads) + ")");
}

void check_argsort_indices(std::size_t n, std::size_t index_bytes) {
  if (index_bytes != 4 && index_bytes != 8)
    throw Error(errc::invalid_argument, "argsort: indices must be 4 or 8 bytes wide, not " + std::to_string(index_bytes));
  if (n > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "argsort: n is too large");
  if (index_bytes == 4 && n > std::size_t(UINT32_MAX) + 1)
    throw Error(errc::invalid_argument, "argsort: " + std::to_string(n) + " keys need 64-bit indices");
}

}  // namespace gpusort::detail
