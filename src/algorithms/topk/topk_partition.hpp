#pragma once
// The partition driver (gpusort/partition.hpp): numpy's partition of each uniform row around its key
// of rank kth, by the top-k's radix selection of the kth + 1 smallest with an exact threshold, then
// one three-way scatter of the row (kernels/topk_select.cl). Nothing comes back to the host.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

struct PartitionJob {
  rt::Device& device;
  rt::Buffer& keys;      // rows x row_length keys, only read
  rt::Buffer* out_keys;  // rows x row_length keys (select_kth: rows); nullptr: positions alone
  rt::Buffer* indices;   // as many positions of the plan's value_bytes (4 or 8); nullptr: keys alone
};

// The plan's selection and scatter of `job` on the device's default queue between two recorded
// events. No rows, or rows of no keys: nothing runs.
RunEvents run_partition(const Plan& plan, PartitionJob& job);

// The device temporaries the plan takes at most (the split rows' state and counts), in bytes.
std::uint64_t partition_temp_bytes(const Plan& plan);

// What the plan will run, each step with the tuning it takes, in words (gpusort plan).
std::vector<std::string> partition_plan_steps(const Plan& plan);

// The report's algorithm: "partition radix-select", or "select_kth radix-select".
std::string partition_report_name(const Plan& plan);

}  // namespace gpusort::algo
