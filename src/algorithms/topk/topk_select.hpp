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
  rt::Buffer& keys;      // rows x row_length keys (or the segments' n), only read
  rt::Buffer& out_keys;  // rows x k keys
  rt::Buffer* indices;   // rows x k indices of the plan's value_bytes (4 or 8); nullptr: keys alone
  // Segments by offsets (the plan's request.offset_bytes != 0): rows + 1 offsets of that width on the
  // device. Segment s's min(k, length) selected keys go to out_keys[s * k ...], its other slots are
  // padded (keys with all bits zero, indices with all bits one).
  rt::Buffer* offsets = nullptr;
};

// A top-k of segments by offsets, sorted: the width of the sort's offsets (each segment's selected
// keys and its padding a segment of their own): 4 bytes where rows x k fits 32 bits, else 8.
std::size_t topk_sort_offset_bytes(const SortRequest& request);

// The plan's selection (and sort) of `job` on the device's default queue between two recorded
// events. k == 0 or no rows: nothing runs.
RunEvents run_topk(const Plan& plan, TopkJob& job);

// The device temporaries the plan takes at most (the split rows' state and counts, the sort's), in bytes.
std::uint64_t topk_temp_bytes(const Plan& plan, rt::Device& device);

// What the plan will run, each step with the tuning it takes, in words (gpusort plan).
std::vector<std::string> topk_plan_steps(const Plan& plan, rt::Device& device);

// The report's algorithm: "topk radix-select", with "+ segmented BIN" where the k are sorted.
std::string topk_report_name(const Plan& plan);

// Shared with the partition driver (topk_partition.hpp), which runs the same selection.

// A top-k program (kernels/topk_select.cl, or `file` of the same defines) of a key type, as the choice
// specialises it (group size, the scans in warp shuffles).
rt::Program& topk_program(rt::Device& device, key_type type, const TopkChoice& choice,
                          const char* file = "topk_select.cl");
// The kernels' okey_t flip for the order: all ones for the largest, as wide as okey_t.
rt::Arg topk_flip_arg(key_type type, bool largest);

// Rows cut among groups (TopkChoice::groups_per_row > 1): the rounds' device temporaries (each
// row's threshold state, its histogram, each group's digit counts and running count, two buffers of
// candidates) and, for a partition, each group's counts of keys before the threshold and tied.
struct TopkSplitState {
  rt::BufferPtr state, hist, group_hist, running, cand_keys, cand_pos, counts;
};
// Where a top-k's rounds write the selected keys (rows x k) and their indices (index_bytes 0: none).
struct TopkSplitOutput {
  rt::Buffer& keys;
  rt::Buffer& indices;
  std::uint32_t index_bytes;
};
// Narrows every row's threshold of its k first keys in rounds (topk_round_init, then per digit pass
// topk_round_histogram, topk_round_pick and topk_round_filter); nothing comes back to the host. Where
// the plan takes a sample (TopkChoice::sample_keys, a top-k only), the rounds start from the
// candidates its threshold kept (topk_sample.hpp).
// out: the top-k's selected keys are written as the rounds settle them. exact (a partition, out
// null): the passes run until the threshold ties only keys equal to the one of rank k, then
// topk_count counts each group's keys before it and tied.
TopkSplitState topk_split_threshold(const Plan& plan, rt::Device& device, rt::Buffer& keys, std::uint64_t k,
                                    bool largest, bool exact, const TopkSplitOutput* out);
// The rounds' steps in words (gpusort plan), `digits` saying how the threshold narrows.
std::vector<std::string> topk_round_steps(const Plan& plan, const std::string& digits);
// The bytes topk_split_threshold takes (0 where rows are not split).
std::uint64_t topk_split_temp_bytes(const Plan& plan);

}  // namespace gpusort::algo
