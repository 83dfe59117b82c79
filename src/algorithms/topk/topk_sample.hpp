#pragma once
// Long rows cut among groups, k small against them: a sample's threshold keeps each row's candidates
// in one read, before the rounds (kernels/topk_sample.cl; TopkChoice::sample_keys). Internal.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/topk/topk_select.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

// After topk_round_init: draws each row's sample, finds its key of rank TopkChoice::sample_rank
// (topk_partition_rows), keeps every key of the row at or before it and, where they number k to
// TopkChoice::sample_cap, puts them in position order in the rounds' candidate buffer A and points
// the row's state at them (a row whose sample missed keeps the row as its source). Nothing comes
// back to the host.
void topk_sample_candidates(const Plan& plan, rt::Device& device, rt::Buffer& keys, const TopkSplitState& split,
                            bool largest);

// The bytes topk_sample_candidates takes (0 where the plan takes no sample).
std::uint64_t topk_sample_temp_bytes(const Plan& plan);

// Its steps in words (gpusort plan).
std::vector<std::string> topk_sample_steps(const Plan& plan);

}  // namespace gpusort::algo
