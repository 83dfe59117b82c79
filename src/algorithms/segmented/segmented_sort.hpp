#pragma once
// The segmented sorts' dispatcher (gpusort/segmented.hpp): runs the bin a plan chose
// (algo::Plan::segments, segmented_policy.hpp) on a job, and says what that bin will run and take.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/segmented/segmented_job.hpp"

namespace gpusort::algo {

// The one place a segmented bin is called from, as algo::run is for the 1-D drivers: the plan's
// bin sorts every segment of `job` between two recorded events. An out-of-place job's input
// (keys_in, values_in) is only read; an argsort's indices (values_are_positions) are made local
// to their segment. n <= 1: the input copied and a lone index made, no bin runs. job.ran says
// which bin sorted. Nothing is read back to the host by the dispatcher itself but for
// tiles_or_portable's one word, the longest segment's verdict (portable and per_row run the 1-D
// algorithms, whose radix path on some devices reads its digit histogram back); tiles, onesweep and
// binned read nothing back.
RunEvents run_segmented(const Plan& plan, SegmentedJob& job);

// What a segmented sort's SortReport::algorithm says: "segmented BIN/ALGORITHM" for the bins that
// run the plan's 1-D algorithm (portable, per-row, and tiles-or-portable before it has run),
// "segmented BIN" for the others; `ran` names the bin that sorted (SegmentedJob::ran), the plan's
// where not given.
std::string segmented_report_name(const Plan& plan);
std::string segmented_report_name(const Plan& plan, SegmentedBin ran);

// The device temporaries the plan's bin takes at most (its own and its 1-D sorts'), in bytes.
std::uint64_t segmented_temp_bytes(const Plan& plan, rt::Device& device);

// What the plan's bin will run, each step with the tuning it takes, in words (gpusort plan).
std::vector<std::string> segmented_plan_steps(const Plan& plan, rt::Device& device);

}  // namespace gpusort::algo
