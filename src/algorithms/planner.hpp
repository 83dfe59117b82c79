#pragma once
// The planner: a request (gpusort/plan.hpp) in, one plan out. Every entry point builds one
// SortRequest and calls make_plan once; the layers below take the plan as it is and never choose
// again. make_plan validates every field of the request (the one place that does:
// algorithms/request_checks.hpp holds its checks) before anything runs, so a refused request
// costs nothing and leaves the caller's data unchanged.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/host_sizing.hpp"
#include "algorithms/order_check.hpp"
#include "algorithms/records/record_passes.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "algorithms/topk/topk_policy.hpp"
#include "gpusort/plan.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

// How the data reach the algorithm.
enum class Path {
  nothing_to_do,  // n <= 1: sorted already
  one_piece,      // host data: uploaded, sorted and downloaded in one step (api/sort_pipeline.hpp)
  partitioned,    // host data larger than the device allows: chunks, then buckets (api/out_of_core.hpp)
  on_device,      // the data are on the device already: sorted where they lie
  // record sorts too large for the device: keys made and records gathered on the host, each pass a
  // sort of host memory (Plan::parts)
  host_passes,
  distributed,    // over SortRequest::ranks ranks, each sorting its share (Plan::parts[0]), then exchanging
};
const char* to_string(Path path);

// A record sort's passes (algorithms/records/record_passes.hpp) as planned.
struct RecordsPlan {
  std::vector<detail::RecordPass> passes;  // least significant first; empty: by options.comparator
  bool move_with_key = false;              // one pass, the records the values of its keys
  std::size_t index_bytes = 0;             // a record index's bytes, where the records do not move with their key
  detail::RecordValues values;             // complex128 keys' values or argsort positions (none for records)
};

struct Plan {
  SortRequest request;
  // The one algorithm of the request: every pass of a record sort, every rank's sorts, every chunk.
  const Algorithm* algorithm = nullptr;
  Path path = Path::nothing_to_do;
  // Host requests: the device bytes they may use and the largest buffer they may plan for
  // (algorithms/host_sizing.hpp), and the chunks of a partitioned one.
  std::uint64_t budget = 0;
  std::uint64_t max_buffer = 0;
  detail::ChunkPlan chunks;
  RecordsPlan records;  // record sorts (SortRequest::record_bytes) only
  // Segmented sorts (SortRequest::segmented()) only: the bin and its tuning row; `algorithm` is the
  // one its 1-D sorts take (SegmentedChoice::sort_n elements each).
  SegmentedChoice segments;
  // Top-k requests (SortRequest::topk) only: how the selection runs; a sorted top-k's sort of the k
  // of every row is parts[0] (a segmented sort of rows of k on the device), `algorithm` its 1-D sorts'.
  TopkChoice topk;
  // The sorts this one is made of, planned here with its algorithm: a record sort's host passes
  // (Path::host_passes, one per pass), the share one rank sorts (Path::distributed, parts[0]), the
  // sort of a sorted top-k's selection (parts[0]), or a top-k cut into parts' top-k of the
  // candidates (parts[0], TopkChoice::row_parts).
  std::vector<Plan> parts;
  bool part = false;  // one of another plan's parts: printed with that plan, not alone

  const SortOptions& options() const { return request.options; }
};

// Validates `request` and plans it on `device`. Throws Error(invalid_argument) naming the field of
// a bad request, Error(unsupported) for what no algorithm of this build serves.
Plan make_plan(const SortRequest& request, rt::Device& device);
// The same for a host request sorted on several devices at once (gpusort/multi_device.hpp): one
// algorithm, checked against every device, and the partition sort's path.
Plan make_plan(const SortRequest& request, std::span<rt::Device* const> devices);

// A distributed plan's share for a rank holding n elements: parts[0] where n is the share it was
// planned for, else the same request of n elements with the plan's algorithm (only the path may
// differ). Error(unsupported) where n exceeds what the algorithm takes.
Plan share_plan(const Plan& distributed, std::uint64_t n, rt::Device& device);

// The plan in words (gpusort::plan, `gpusort plan`, and what SortOptions::verbose prints first).
SortPlan describe(const Plan& plan, rt::Device& device);

// SortOptions::verbose: prints describe(plan) to stderr, one "gpusort: plan: " line each (not for
// a part of another plan, printed with it).
void print_if_verbose(const Plan& plan, rt::Device& device);

}  // namespace gpusort::algo
