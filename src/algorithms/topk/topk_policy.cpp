// The top-k choice (topk_policy.hpp).
#include "algorithms/topk/topk_policy.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/algorithm.hpp"
#include "algorithms/radix_tuning.hpp"
#include "core/override_list.hpp"
#include "gpusort/errors.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {
namespace {

// A group reads a row a few times (one read per digit pass that runs, one to collect); long rows are
// split where rows are too few to fill the device, and their rounds move the tied keys to candidates
// once they are at most a sixteenth of the row (writing them then costs at most an eighth of a read of
// 4-byte keys, and every later round reads only them). Rows in one group do the same in local memory:
// once a row's tied keys fit, they are read once more and the later passes read only them. Rows that
// would be split are cut into parts instead where k is small (every part's k in one launch, then the
// k among the parts'). Groups may count into copies of the histogram, so that a warp's keys of one
// clustered digit do not queue on one bin (the CPU's 4 only so that its tests run the fold).
//
// CUDA, measured (H100, 2026-12-07, commit 577450a, f32 keys, k largest, sorted; gpusort-bench topk
// against --topk-policy row_parts=0,hist_copies=1): parts took 64 x 128256 from 0.192 / 0.227 ms
// (k = 50 / 1024) to 0.098 / 0.132 and 256 x 131072 from 0.503 to 0.258, and 1-D with k = 10 from
// 2.25 to 1.75 (2^28) and 0.177 to 0.155 (2^24); but 1-D with k = 1000 from 2.18 to 2.46 (2^28) and
// 0.204 to 0.263 (2^24), where the candidates (16 M and 1 M in one row) needed rounds or parts of
// their own: hence the candidates' limit. Eight histogram copies against one, where rows fill the
// device and parts do not apply: 4096 x 32768 0.821 against 0.809, 16384 x 1024 0.319 against 0.295:
// one copy on CUDA (the parts' shapes were not timed with copies apart). A warp per row of up to 1024
// keys, with the group scans in shuffles (H100, cd4f39e, against warp_max_length=0,warp_scan=0 on the
// same device): 16384 x 1024 from 0.297 ms to 0.091, 64 x 128256 (k = 50: its parts' candidates) from
// 0.097 to 0.080, 4096 x 32768 from 0.825 / 1.111 to 0.781 / 1.078 (k = 50 / 1024). The sample's
// threshold (one read where the rounds take two or more) from 2^24 keys is chosen by that count of
// reads and launches, not yet timed: at 2^24 the rounds and parts took 0.14-0.24 ms, about six reads
// of the keys, where the sample's eighteen launches should cost less; below, its launches weigh more.
constexpr TopkTuning kRows[] = {
    {.name = "cuda",
     .device_class = "cuda",
     .measured_on = "cuda:sm_90:H100 (parts, candidates' limit, copies, warp rows)",
     .note = "256 work-items; rows of up to 1024 keys a warp each; rows from 32K keys split "
             "into groups of 16K where rows are too few to fill the device, or cut into parts where k is "
             "small; one histogram a row; rows from 16M keys through a sample's threshold (not timed)",
     .group = 256,
     .split_min_length = 32768,
     .group_keys = 16384,
     .groups_per_compute_unit = 4,
     .candidate_divisor = 16,
     .local_candidates = true,
     .part_k_ratio = 16,
     .part_candidates_divisor = 256,
     .hist_copies = 1,
     .warp_max_length = 1024,
     .sample_min_length = 1u << 24,
     .sample_keys = 4096},
    {.name = "cpu",
     .device_class = "cpu",
     .measured_on = "",
     .note = "PoCL on the CPU: 64 work-items, rows from 64K keys split (not measured)",
     .group = 64,
     .split_min_length = 65536,
     .group_keys = 65536,
     .groups_per_compute_unit = 1,
     .candidate_divisor = 16,
     .local_candidates = true,
     .part_k_ratio = 16,
     .part_candidates_divisor = 0,
     .hist_copies = 4,
     .warp_max_length = 0,
     .sample_min_length = 65536,
     .sample_keys = 1024},
    {.name = "gpu-generic",
     .device_class = "",
     .measured_on = "",
     .note = "256 work-items, rows from 32K keys split into groups of 16K where rows are too few to fill "
             "the device (not measured)",
     .group = 256,
     .split_min_length = 32768,
     .group_keys = 16384,
     .groups_per_compute_unit = 4,
     .candidate_divisor = 16,
     .local_candidates = true,
     .part_k_ratio = 16,
     .part_candidates_divisor = 0,
     .hist_copies = 8,
     .warp_max_length = 0,
     .sample_min_length = 1u << 24,
     .sample_keys = 4096},
};

TopkPolicyOverride g_override;

constexpr std::uint64_t kMaxRowsPerGroup = 8;  // the kernel's TK_MAX_ROWS_PER_GROUP
constexpr std::uint64_t kMinRowWorkItems = 32;
constexpr std::uint32_t kMaxHistCopies = 8;  // the kernel's TK_HIST_COPIES_MAX
constexpr std::uint64_t kWarpMaxLength = 1024;  // topk_warp_rows.cl: 32 keys per lane at most
constexpr std::uint64_t kWarpMinItems = 4;     // fewer keys per lane would add programs for little
constexpr std::uint64_t kWarpSortMaxK = 128;   // topk_warp_rows.cl TKW_SORT_MAX

// Rows cut among groups, a top-k whose k is small against them: a sample's threshold. Of
// sample_keys keys drawn across a row, m = k x sample_keys / length are expected among the row's k
// first; the sample's key of rank m + 3 sqrt(m) + 3 then lies beyond the row's k-th key but for a
// Poisson tail three standard deviations and three keys out (about 1e-3 for large m, 3e-5 at
// m = 1.5, far less below: a miss costs a read of the row, never a wrong result), and
// the keys at or before it number about rank x length / sample_keys. Taken where those are at most
// a quarter of the candidate buffer, so the rounds after read a few times k keys instead of the row.
void choose_sample(TopkChoice& c, const SortRequest& r, std::uint64_t length) {
  const std::uint64_t sample = g_override.sample_keys.value_or(c.row->sample_keys);
  const bool forced = g_override.sample_keys.has_value();
  if (c.groups_per_row <= 1 || r.partition || sample == 0 || c.candidate_cap == 0 || length < 2 * sample ||
      length >= (std::uint64_t(1) << 32) || (!forced && length < c.row->sample_min_length))
    return;
  const double m = double(r.k) * double(sample) / double(length);
  const auto rank = std::clamp<std::uint64_t>(
      g_override.sample_rank.value_or(std::uint64_t(std::ceil(m + 3 * std::sqrt(m) + 3))), 1, sample);
  const std::uint64_t expected = ceil_div(rank * length, sample);
  if (!forced && 4 * expected > c.candidate_cap) return;
  c.sample_keys = sample;
  c.sample_rank = rank;
  c.sample_cap = std::min(c.candidate_cap, 4 * expected);
}

}  // namespace

std::span<const TopkTuning> topk_tuning_rows() { return kRows; }

const TopkTuning& topk_tuning_for(const DeviceDescription& desc) {
  return tuning_row_for(std::span<const TopkTuning>(kRows), desc);
}

void set_topk_policy_override(const TopkPolicyOverride& o) { g_override = o; }

TopkChoice choose_topk(const DeviceDescription& device, const SortRequest& r) {
  TopkChoice c;
  c.row = &topk_tuning_for(device);
  c.group = g_override.group.value_or(c.row->group);
  while (c.group > 64 && c.group > device.max_work_group_size) c.group >>= 1;
  c.passes = static_cast<std::uint32_t>(key_size(r.type));
  c.hist_copies = std::clamp<std::uint32_t>(g_override.hist_copies.value_or(c.row->hist_copies), 1, kMaxHistCopies);
  c.warp_scan = rt::nvidia_gpu(device) && c.group % 32 == 0 && g_override.warp_scan.value_or(true);
  if (r.offset_bytes != 0) {  // segments by offsets: lengths unknown to the host, a group each
    c.local_candidates = g_override.local_candidates.value_or(c.row->local_candidates);
    return c;
  }
  const std::uint64_t length = r.row_length, rows = r.rows;
  const std::uint64_t fill = std::uint64_t(std::max(1u, device.compute_units)) * c.row->groups_per_compute_unit;
  std::uint64_t split = 1;
  if (length >= c.row->split_min_length && rows < fill)
    split = std::min(ceil_div(fill, rows), ceil_div(length, c.row->group_keys));
  if (g_override.groups_per_row) split = *g_override.groups_per_row;
  split = std::clamp<std::uint64_t>(split, 1, std::max<std::uint64_t>(1, ceil_div(length, c.group)));
  c.groups_per_row = static_cast<std::uint32_t>(split);
  if (split > 1) c.chunk = ceil_div(ceil_div(length, split), c.group) * c.group;
  if (c.chunk) c.groups_per_row = static_cast<std::uint32_t>(ceil_div(length, c.chunk));  // no empty group
  const std::uint32_t divisor = g_override.candidate_divisor.value_or(c.row->candidate_divisor);
  if (c.groups_per_row > 1 && divisor != 0) c.candidate_cap = ceil_div(length, divisor);
  choose_sample(c, r, length);
  // Parts instead of rounds where k is small against the row: one launch selects every part's k.
  const std::uint64_t parts_rule = g_override.row_parts.value_or(g_override.groups_per_row ? 0 : 1);
  if ((c.groups_per_row > 1 || parts_rule >= 2) && !r.partition && parts_rule != 0 && c.sample_keys == 0 &&
      length < (std::uint64_t(1) << 32)) {
    std::uint64_t parts = parts_rule;
    if (parts_rule == 1) {
      const std::uint64_t part = std::max<std::uint64_t>(c.row->group_keys, std::uint64_t(c.row->part_k_ratio) * r.k);
      parts = c.row->part_k_ratio == 0 ? 0 : length / part;
      if (rows * parts * 2 < fill) parts = 0;
      const std::uint32_t limit = c.row->part_candidates_divisor;  // the candidates' top-k stays cheap
      if (limit != 0 && parts * r.k > std::max<std::uint64_t>(c.row->group_keys, length / limit)) parts = 0;
    }
    // at least 2k keys a part: the candidates' own top-k (rows of parts x k) is never cut again by a
    // forced count, and a tuned cut shrinks each row part_k_ratio-fold
    if (parts >= 2 && length / parts >= 2 * std::max<std::uint64_t>(r.k, 1)) {
      c.row_parts = parts;
      c.part_length = length / parts;
      c.groups_per_row = 1;
      c.chunk = 0;
      c.candidate_cap = 0;
    }
  }
  c.local_candidates = c.groups_per_row == 1 && g_override.local_candidates.value_or(c.row->local_candidates);
  // Short rows on NVIDIA GPUs: a warp each, with no group barrier (the passes' scans are shuffles)
  const std::uint64_t warp_max =
      std::min<std::uint64_t>(g_override.warp_max_length.value_or(c.row->warp_max_length), kWarpMaxLength);
  if (c.groups_per_row == 1 && c.row_parts == 1 && !r.partition && rt::nvidia_gpu(device) && c.group % 32 == 0 &&
      length >= 1 && length <= warp_max) {
    c.warp_items = static_cast<std::uint32_t>(std::max(kWarpMinItems, next_pow2(ceil_div(length, 32))));
    c.local_candidates = false;
    c.rows_per_group = c.group / 32;
    c.warp_sorts = r.topk_sorted && r.k > 1 && r.k <= kWarpSortMaxK;
    return c;
  }
  if (c.row_parts > 1) {
    c.rows_per_group = 1;  // parts of one row differ in length by the rest: a group each
  } else if (c.groups_per_row == 1) {
    const std::uint64_t width = std::clamp<std::uint64_t>(next_pow2(ceil_div(std::max<std::uint64_t>(length, 1), 8)),
                                                          kMinRowWorkItems, c.group);
    c.rows_per_group = static_cast<std::uint32_t>(std::min<std::uint64_t>(kMaxRowsPerGroup, c.group / width));
  }
  return c;
}

TopkPolicyOverride parse_topk_policy_override(std::string_view spec) {
  TopkPolicyOverride o;
  core::for_each_override(spec, "top-k policy", [&](std::string_view name, std::uint64_t v, std::string_view text) {
    const auto bad = [&](const char* why) {
      return Error(errc::invalid_argument, "top-k policy: '" + std::string(text) + "': " + why);
    };
    if (name == "groups_per_row") {
      if (v == 0 || v > 0xFFFFFFFFu) throw bad("1 or more");
      o.groups_per_row = static_cast<std::uint32_t>(v);
    } else if (name == "group") {
      if (v < 64 || v > 1024 || (v & (v - 1)) != 0) throw bad("a power of two from 64 to 1024");
      o.group = static_cast<std::uint32_t>(v);
    } else if (name == "candidate_divisor") {
      if (v > 0xFFFFFFFFu) throw bad("too large");
      o.candidate_divisor = static_cast<std::uint32_t>(v);
    } else if (name == "local_candidates") {
      if (v > 1) throw bad("0 or 1");
      o.local_candidates = v == 1;
    } else if (name == "row_parts") {
      o.row_parts = v;
    } else if (name == "warp_max_length") {
      if (v > kWarpMaxLength) throw bad("0 to 1024");
      o.warp_max_length = static_cast<std::uint32_t>(v);
    } else if (name == "warp_scan") {
      if (v > 1) throw bad("0 or 1");
      o.warp_scan = v == 1;
    } else if (name == "sample_keys") {
      if (v > 0xFFFFFFFFu) throw bad("too large");
      o.sample_keys = static_cast<std::uint32_t>(v);
    } else if (name == "sample_rank") {
      if (v == 0) throw bad("1 or more");
      o.sample_rank = v;
    } else if (name == "hist_copies") {
      if (v < 1 || v > kMaxHistCopies) throw bad("1 to 8");
      o.hist_copies = static_cast<std::uint32_t>(v);
    } else {
      throw bad("unknown name (src/algorithms/topk/topk_policy.hpp, TopkPolicyOverride)");
    }
  });
  return o;
}

}  // namespace gpusort::algo
