#pragma once
// The top-k driver (gpusort/topk.hpp): radix selection of the k first keys of each uniform row
// (kernels/topk_select.cl), then, where a sorted top-k is asked for, the k of every row sorted by the
// segmented sort (rows of k, the indices as values; Plan::parts[0]). Nothing comes back to the host.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

struct TopkJob {
  rt::Device& device;
  rt::Buffer& keys;      // rows x row_length keys, only read
  rt::Buffer& out_keys;  // rows x k keys
  rt::Buffer* indices;   // rows x k indices of the plan's value_bytes (4 or 8); nullptr: keys alone
};

// The plan's selection (and sort) of `job` on the device's default queue between two recorded
// events. k == 0 or no rows: nothing runs.
RunEvents run_topk(const Plan& plan, TopkJob& job);

// The device temporaries the plan takes at most (the split rows' state and counts, the sort's), in bytes.
std::uint64_t topk_temp_bytes(const Plan& plan, rt::Device& device);

// What the plan will run, each step with the tuning it takes, in words (gpusort plan).
std::vector<std::string> topk_plan_steps(const Plan& plan, rt::Device& device);

// The report's algorithm: "topk radix-select", with "+ segmented BIN" where the k are sorted.
std::string topk_report_name(const Plan& plan);

}  // namespace gpusort::algo
