#pragma once
// How a top-k request (SortRequest::topk, gpusort/topk.hpp) runs, decided from the request alone:
// tuning as data, one row per class of devices (device_class, gpusort/device.hpp), the first match
// winning, a generic row last, as the other tables keep theirs. Internal.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpusort/device.hpp"
#include "gpusort/plan.hpp"

namespace gpusort::algo {

struct TopkTuning {
  const char* name;          // the row's name
  const char* device_class;  // the classes it serves: a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;   // the device class(es) its values were measured on ("" none)
  const char* note;          // what the row is, in one line
  std::uint32_t group;       // work-items per group (a power of two, 64..1024)
  // Rows of at least this many keys are cut among several groups (each about group_keys keys)
  // where there are fewer rows than groups to fill the device (groups_per_compute_unit each).
  std::uint64_t split_min_length;
  std::uint64_t group_keys;
  std::uint32_t groups_per_compute_unit;
  // Split rows: a round's tied keys move to a candidate buffer once they are at most 1 / this of
  // the row (0: never before the row settles); the later rounds read only them.
  std::uint32_t candidate_divisor;
  // Rows in one group: a row's tied keys move to local memory once they fit (kernels/topk_select.cl
  // TK_LOCAL_CANDIDATES, shared by the group's rows), and the later passes read only them.
  bool local_candidates;
  // Rows that would be cut among groups are cut into parts instead where k is small: each part of at
  // least group_keys and at least part_k_ratio x k keys gets a group of its own that selects the
  // part's k in one launch (topk_rows), and a second top-k selects each row's k among its parts'.
  // Taken where the parts fill at least half the device. 0: never.
  std::uint32_t part_k_ratio;
  // Parts only where each row's candidates (parts x k) fit one group's row (group_keys) or are at most
  // 1/part_candidates_divisor of the row, so that the candidates' own top-k is cheap; 0: no limit.
  std::uint32_t part_candidates_divisor;
  // Histogram copies a group counts into (kernels/topk_select.cl TK_HIST_COPIES_MAX at most, shared by
  // the rows of a group), so that clustered digits do not queue a warp's atomics on a few bins.
  std::uint32_t hist_copies;
  // NVIDIA GPUs: rows of at most this many keys (1024 at most: kernels/topk_warp_rows.cl holds 32 per
  // lane) take a warp each, the row in registers, with no group barrier (topk_warp_rows); 0: never.
  std::uint32_t warp_max_length;
  // Rows cut among groups of at least sample_min_length keys, k small against them (the candidates
  // a sample of sample_keys keys lets through at most 1/4 of the candidate buffer): a sample's
  // threshold keeps the candidates in one read before the rounds (kernels/topk_sample.cl). 0: never.
  std::uint64_t sample_min_length;
  std::uint32_t sample_keys;
};

std::span<const TopkTuning> topk_tuning_rows();
const TopkTuning& topk_tuning_for(const DeviceDescription& desc);

// What the planner decided for a top-k request (algo::Plan::topk).
struct TopkChoice {
  const TopkTuning* row = nullptr;
  std::uint32_t group = 256;
  // 1: one group per row, every pass in one launch (topk_rows); more: that many groups per row and a
  // launch per step, the threshold kept on the device between them.
  std::uint32_t groups_per_row = 1;
  // groups_per_row 1: rows per group (1 to 8), each with group / rows_per_group work-items (at
  // least 32, about 8 keys each a pass): short rows share a group instead of idling most of one.
  std::uint32_t rows_per_group = 1;
  std::uint64_t chunk = 0;   // keys per group where groups_per_row > 1 (a multiple of group)
  std::uint32_t passes = 0;  // digit passes at most (key bits / 8); fewer run where a bucket settles k
  std::uint64_t candidate_cap = 0;  // groups_per_row > 1: the candidates a row's buffer holds (row / divisor)
  bool local_candidates = false;    // groups_per_row 1: TopkTuning::local_candidates
  // More than 1: each row is cut into this many parts of part_length keys (the last takes the rest),
  // each part's k selected by a group of its own (topk_rows, groups_per_row 1, one part a group), then
  // the row's k among its parts' by a top-k of rows of row_parts x k candidates (Plan::parts[0]).
  std::uint64_t row_parts = 1;
  std::uint64_t part_length = 0;
  std::uint32_t hist_copies = 1;  // TopkTuning::hist_copies
  // Not 0: each row takes a warp of its own (topk_warp_rows), this many keys per lane (a power of two,
  // 4 to 32); group / 32 rows a group.
  std::uint32_t warp_items = 0;
  // The warp form writes each row's k in order (a sorted top-k of k at most 128): no sort follows.
  bool warp_sorts = false;
  // NVIDIA GPUs: topk_select.cl's sub-group scans in warp shuffles (TK_WARP_SCAN), two barriers a scan.
  bool warp_scan = false;
  // Not 0 (rows cut among groups, a top-k): each row's sample of this many keys, its key of rank
  // sample_rank in the top-k's order the threshold of one filtering read that keeps at most
  // sample_cap keys a row as the rounds' candidates (topk_sample.hpp).
  std::uint64_t sample_keys = 0;
  std::uint64_t sample_rank = 0;
  std::uint64_t sample_cap = 0;
};

// The choice for a validated top-k request on `device`.
TopkChoice choose_topk(const DeviceDescription& device, const SortRequest& request);

// Tests and gpusort-bench only: a set field replaces the choice.
struct TopkPolicyOverride {
  std::optional<std::uint32_t> groups_per_row;  // 1 or more (at most one group per `group` keys of a row)
  std::optional<std::uint32_t> group;           // work-items per group: a power of two, 64..1024
  std::optional<std::uint32_t> candidate_divisor;  // TopkTuning::candidate_divisor (1: from the first round)
  std::optional<bool> local_candidates;            // TopkTuning::local_candidates
  // Parts per row (TopkChoice::row_parts): 0 never, 1 the tuning's rule, 2 or more that many (taken
  // only where each part has at least 2k keys). Unset: the tuning's rule, unless groups_per_row is set.
  std::optional<std::uint64_t> row_parts;
  std::optional<std::uint32_t> hist_copies;  // TopkTuning::hist_copies (1 to 8)
  // TopkTuning::warp_max_length (0 to 1024; 0: never), taken on NVIDIA GPUs only
  std::optional<std::uint32_t> warp_max_length;
  std::optional<bool> warp_scan;  // TopkChoice::warp_scan (0: the steps through local memory), NVIDIA only
  // TopkTuning::sample_keys (0: never); set, it is taken wherever rows are cut among groups (rows of
  // at least twice as many keys), whatever sample_min_length and the candidates' limit say
  std::optional<std::uint32_t> sample_keys;
  std::optional<std::uint64_t> sample_rank;  // TopkChoice::sample_rank (1 or more)
};
// The override in "name=N,..." form (gpusort-bench topk --topk-policy): groups_per_row, group,
// candidate_divisor, local_candidates (0 or 1), row_parts, hist_copies, warp_max_length, warp_scan
// (0 or 1), sample_keys, sample_rank. Error(invalid_argument) for anything else.
TopkPolicyOverride parse_topk_policy_override(std::string_view spec);
// The process-wide override (none by default). Not synchronised: set it before running.
void set_topk_policy_override(const TopkPolicyOverride& o);

}  // namespace gpusort::algo
