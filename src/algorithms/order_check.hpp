#pragma once
// The check of every sort by a run-time order (SortOptions::comparator, a record order). Such an
// order must be a strict weak order; one that is not (`a < b` over floats holding NaN, `a <= b`,
// `return 1;`) makes comparison sorts disagree with themselves: the kernels clamp what they compute
// (kernels/keys.h, order_clamp_u64), so they stay in bounds, but keys can be lost, duplicated or
// left out of order. algo::run checks each such sort once, whatever the entry point: an
// order-independent fingerprint of the (key, value) pairs before and after, and the adjacent keys
// after it under the order (kernels/order_check.cl). On a mismatch it restores the output buffers
// as they were before the sort and throws Error(invalid_argument) naming the likely cause. Sorts by
// the natural order are not checked.
#include <cstddef>
#include <cstdint>

#include "algorithms/algorithm.hpp"

namespace gpusort::algo {

// Whether the job sorts by a run-time order.
bool has_run_time_order(const SortJob& job);

// What the check takes of the temporaries (SortJob::temp) of a sort with options.comparator set, at
// most: the copy of the output and the partial sums; 0 without a comparator.
std::uint64_t order_check_temp_bytes(key_type type, std::uint64_t n, std::size_t value_bytes,
                                     const SortOptions& options);

// The device temporaries `algorithm` asks for in a sort of q's shape: its own (Algorithm::temp_bytes,
// which must be set), and with a run-time order the check's (above). What
// temporary_storage_bytes reports and what caller storage must hold.
std::uint64_t sort_temp_bytes(const Algorithm& algorithm, const TempQuery& q);

// Before a pass that scatters keys from src_keys into dst_keys (each to a position it computes):
// under an order that is not a strict weak order two keys can take one slot and leave another
// unwritten. A record order's comparator reads the records through the keys (their addresses), so
// for one, dst_keys first gets src_keys' keys: every slot then holds a record's address, whatever
// the pass leaves, and the next pass's comparisons read records only. Nothing for other orders
// (their comparators read the keys alone; the check reports what was lost).
void seed_scatter_destination(const SortJob& job, const rt::Buffer& src_keys, rt::Buffer& dst_keys);

class OrderCheck {
 public:
  // Before anything writes the job's output: a copy of it (keys, values), unless
  // job.output_is_scratch, and the buffers of the partial sums.
  explicit OrderCheck(SortJob& job);
  // Once job.keys / job.values hold the input: its fingerprint.
  void before_sort();
  // After the sort (waits for it): the output's fingerprint and order; on a mismatch, the output
  // restored and Error(invalid_argument).
  void after_sort();
  // The output as it was before the sort (where a copy was kept); waits for it. For an error path.
  void restore();

 private:
  SortJob& job_;
  std::uint32_t group_size_;
  std::uint64_t groups_;
  rt::BufferPtr saved_keys_, saved_values_, before_, after_;
  bool before_taken_ = false;
};

}  // namespace gpusort::algo
