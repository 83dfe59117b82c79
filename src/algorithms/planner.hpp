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
#include "gpusort/plan.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

// How the data reach the algorithm.
enum class Path {
  nothing_to_do,  // n <= 1: sorted already
  one_piece,      // host data: uploaded, sorted and downloaded in one step (api/sort_pipeline.hpp)
  partitioned,    // host data larger than the device allows: chunks, then buckets (api/out_of_core.hpp)
  on_device,      // the data are on the device already: sorted where they lie
};
const char* to_string(Path path);

struct Plan {
  SortRequest request;
  const Algorithm* algorithm = nullptr;
  Path path = Path::nothing_to_do;
  // Host requests: the device bytes they may use and the largest buffer they may plan for
  // (algorithms/host_sizing.hpp), and the chunks of a partitioned one.
  std::uint64_t budget = 0;
  std::uint64_t max_buffer = 0;
  detail::ChunkPlan chunks;

  const SortOptions& options() const { return request.options; }
};

// Validates `request` and plans it on `device`. Throws Error(invalid_argument) naming the field of
// a bad request, Error(unsupported) for what no algorithm of this build serves.
Plan make_plan(const SortRequest& request, rt::Device& device);
// The same for a host request sorted on several devices at once (gpusort/multi_device.hpp): one
// algorithm, checked against every device, and the partition sort's path.
Plan make_plan(const SortRequest& request, std::span<rt::Device* const> devices);

// The device temporaries `algorithm` asks for in a sort of q's shape: its own (Algorithm::temp_bytes,
// which must be set), and with a run-time order the check's (algorithms/order_check.hpp). What
// temporary_storage_bytes reports and what caller storage must hold.
std::uint64_t sort_temp_bytes(const Algorithm& algorithm, const TempQuery& q);

// The plan in words (gpusort::plan, `gpusort plan`, and what SortOptions::verbose prints first).
SortPlan describe(const Plan& plan, rt::Device& device);

// SortOptions::verbose: prints describe(plan) to stderr, one "gpusort: plan: " line each.
void print_if_verbose(const Plan& plan, rt::Device& device);

}  // namespace gpusort::algo
