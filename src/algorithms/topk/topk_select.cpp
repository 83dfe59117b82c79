// The top-k driver (topk_select.hpp).
#include "algorithms/topk/topk_select.hpp"

#include <algorithm>
#include <cstdio>

#include "algorithms/segmented/segmented_sort.hpp"
#include "algorithms/topk/topk_sample.hpp"
#include "gpusort/errors.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint64_t kRadix = 256;
constexpr std::uint64_t kStateWords = 9;  // the kernel's TK_SPLIT_STATE_WORDS
constexpr std::uint64_t kLocalCandidates = 1024;  // the kernel's TK_LOCAL_CANDIDATES

bool largest(const Plan& plan) { return plan.options().order == order::descending; }

// What every top-k program is specialised by: the key type and the group size.
std::vector<std::string> topk_defines(key_type type, const TopkChoice& choice) {
  std::vector<std::string> defines = key_defines_for(type, 0);
  defines.push_back("GROUP_SIZE=" + std::to_string(choice.group));
  return defines;
}

// The split rows' device temporaries, in bytes: the rounds' (state, histograms, running counts, two
// candidate buffers of keys and u32 positions) and, for a partition, each group's counts.
struct SplitTemps {
  std::uint64_t state, hist, group_hist, running, cand_keys, cand_pos, counts;
};
SplitTemps split_temps(const Plan& plan) {
  const SortRequest& r = plan.request;
  const std::uint64_t groups = r.rows * plan.topk.groups_per_row;
  const std::uint64_t candidates = 2 * r.rows * std::max<std::uint64_t>(plan.topk.candidate_cap, 1);
  return {r.rows * kStateWords * 8,   r.rows * kRadix * 4,
          groups * kRadix * 4,        groups * 8,
          candidates * key_size(r.type), candidates * 4,
          r.partition ? groups * 2 * 4 : 0};
}

void select_split(const Plan& plan, TopkJob& job) {
  rt::Buffer& indices = job.indices ? *job.indices : job.out_keys;  // not written without indices
  const TopkSplitOutput out{job.out_keys, indices, std::uint32_t(plan.request.value_bytes)};
  topk_split_threshold(plan, job.device, job.keys, plan.request.k, largest(plan), false, &out);
}

// Rows cut into parts (TopkChoice::row_parts): the candidates' keys and positions (rows x parts x k)
// and, where indices are asked for, the u32 places among them that the candidates' top-k selects.
struct PartsTemps {
  std::uint64_t cand_keys, cand_pos, places;
};
PartsTemps parts_temps(const Plan& plan) {
  const SortRequest& r = plan.request;
  const std::uint64_t candidates = r.rows * plan.topk.row_parts * r.k;
  return {candidates * key_size(r.type), candidates * 4, r.value_bytes ? r.rows * r.k * 4 : 0};
}

void select_and_sort(const Plan& plan, TopkJob& job);

// Where topk_rows finds segments by offsets and writes the sort's offsets (none: null, width 0).
struct RowsSegments {
  rt::Buffer* offsets = nullptr;
  std::uint32_t offset_bytes = 0;
  rt::Buffer* sort_offsets = nullptr;
  std::uint32_t sort_offset_bytes = 0;
};

// topk_rows over rows (parts 1), over every part of every row (parts > 1, a group a part) or over
// segments by offsets (a group a segment).
void launch_rows(const Plan& plan, rt::Device& dev, rt::Buffer& keys, rt::Buffer& out_keys, rt::Buffer& indices,
                 std::uint32_t index_bytes, std::uint64_t groups, std::uint32_t rows_per_group,
                 const RowsSegments& segments = {}) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  // without offsets the kernel reads neither buffer: the keys stand in
  rt::Buffer& offsets = segments.offsets ? *segments.offsets : keys;
  rt::Buffer& sort_offsets = segments.sort_offsets ? *segments.sort_offsets : out_keys;
  dev.launch(topk_program(dev, r.type, c).kernel("topk_rows"), {groups, c.group, 0},
             {keys, out_keys, indices, r.rows, r.row_length, r.k, index_bytes, topk_flip_arg(r.type, largest(plan)),
              rows_per_group, std::uint32_t(c.local_candidates), c.row_parts, c.part_length, c.hist_copies, offsets,
              segments.offset_bytes, sort_offsets, segments.sort_offset_bytes});
}

bool sorts_selected(const Plan& plan) { return !plan.parts.empty() && plan.request.k > 1; }

// Every part's k in one launch, then the row's k among them (Plan::parts[0], itself a top-k, sorted
// where this one is), then the places among the candidates mapped to positions in the row.
void select_parts(const Plan& plan, TopkJob& job) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  rt::Device& dev = job.device;
  const PartsTemps bytes = parts_temps(plan);
  rt::BufferPool& pool = dev.temp_pool();
  const rt::BufferPtr cand_keys = pool.get(bytes.cand_keys), cand_pos = pool.get(bytes.cand_pos);
  const rt::BufferPtr places = bytes.places ? pool.get(bytes.places) : nullptr;
  launch_rows(plan, dev, job.keys, *cand_keys, *cand_pos, 4, r.rows * c.row_parts, 1);
  TopkJob among{dev, *cand_keys, job.out_keys, places.get()};
  select_and_sort(plan.parts[0], among);
  if (places) {
    const std::uint64_t items = r.rows * r.k;
    dev.launch(topk_program(dev, r.type, c).kernel("topk_map_positions"), {ceil_div(items, c.group), c.group, 0},
               {*places, *cand_pos, *job.indices, r.rows, r.k, c.row_parts * r.k, std::uint32_t(r.value_bytes)});
  }
}

void select_and_sort(const Plan& plan, TopkJob& job) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  rt::Device& dev = job.device;
  if (r.k == 0 || r.rows == 0) return;
  if (c.row_parts > 1) {
    select_parts(plan, job);
    return;
  }
  rt::Buffer& indices = job.indices ? *job.indices : job.out_keys;  // not written without indices
  rt::BufferPtr sort_offsets;
  if (r.offset_bytes != 0) {  // segments: a group each, the sort's offsets written by the same launch
    if (!job.offsets) throw Error(errc::invalid_argument, "top-k of segments: no offsets on the device");
    RowsSegments segments{job.offsets, std::uint32_t(r.offset_bytes)};
    if (sorts_selected(plan)) {
      segments.sort_offset_bytes = std::uint32_t(topk_sort_offset_bytes(r));
      sort_offsets = dev.temp_pool().get((2 * r.rows + 1) * segments.sort_offset_bytes);
      segments.sort_offsets = sort_offsets.get();
    }
    launch_rows(plan, dev, job.keys, job.out_keys, indices, std::uint32_t(r.value_bytes), r.rows, 1, segments);
  } else if (c.groups_per_row > 1) {
    select_split(plan, job);
  } else if (c.warp_items != 0) {
    std::vector<std::string> defines = topk_defines(r.type, c);
    defines.push_back("TKW_ITEMS=" + std::to_string(c.warp_items));
    dev.launch(dev.program("topk_warp_rows.cl", defines).kernel("topk_warp_rows"),
               {ceil_div(r.rows, c.rows_per_group), c.group, 0},
               {job.keys, job.out_keys, indices, r.rows, r.row_length, r.k, std::uint32_t(r.value_bytes),
                topk_flip_arg(r.type, largest(plan)), std::uint32_t(c.warp_sorts)});
  } else {
    launch_rows(plan, dev, job.keys, job.out_keys, indices, std::uint32_t(r.value_bytes),
                ceil_div(r.rows, c.rows_per_group), c.rows_per_group);
  }
  if (sorts_selected(plan)) {  // sorted: every row's k by the segmented sort, stable
    const Plan& sort = plan.parts[0];
    SortJob sort_job{dev, r.type, r.rows * r.k, r.value_bytes, job.out_keys, job.indices, sort.options()};
    SegmentShape shape{.count = r.rows, .row_length = r.k};
    if (sort_offsets) shape = {.count = 2 * r.rows, .offsets = sort_offsets.get(), .offset_bytes = topk_sort_offset_bytes(r)};
    SegmentedJob segmented{sort_job, shape};
    run_segmented(sort, segmented);
  }
}

}  // namespace

std::size_t topk_sort_offset_bytes(const SortRequest& request) {
  return request.rows * request.k < (std::uint64_t(1) << 32) ? 4 : 8;
}

rt::Program& topk_program(rt::Device& device, key_type type, const TopkChoice& choice, const char* file) {
  std::vector<std::string> defines = topk_defines(type, choice);
  if (choice.warp_scan) defines.push_back("TK_WARP_SCAN=1");
  return device.program(file, defines);
}

rt::Arg topk_flip_arg(key_type type, bool largest) {
  if (key_size(type) == 8) return rt::Arg(largest ? ~std::uint64_t(0) : std::uint64_t(0));
  return rt::Arg(largest ? ~std::uint32_t(0) : std::uint32_t(0));
}

TopkSplitState topk_split_threshold(const Plan& plan, rt::Device& dev, rt::Buffer& keys, std::uint64_t k,
                                    bool largest, bool exact, const TopkSplitOutput* out) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  const SplitTemps bytes = split_temps(plan);
  rt::BufferPool& pool = dev.temp_pool();
  TopkSplitState split{pool.get(bytes.state),      pool.get(bytes.hist),     pool.get(bytes.group_hist),
                       pool.get(bytes.running),    pool.get(bytes.cand_keys), pool.get(bytes.cand_pos),
                       exact ? pool.get(bytes.counts) : nullptr};
  rt::Program& program = topk_program(dev, r.type, c);
  const rt::Arg flip = topk_flip_arg(r.type, largest);
  const std::uint32_t exact_arg = exact ? 1 : 0, write_selected = out ? 1 : 0;
  const std::uint64_t groups = r.rows * c.groups_per_row, cap = c.candidate_cap;
  // without an output (a partition) the filter writes no selected keys: these stand in, unwritten
  rt::Buffer& out_keys = out ? out->keys : *split.cand_keys;
  rt::Buffer& indices = out ? out->indices : *split.cand_pos;
  const std::uint32_t index_bytes = out ? out->index_bytes : 0;
  const std::uint64_t init_items = std::max(r.rows * kRadix, groups);
  dev.launch(program.kernel("topk_round_init"), {ceil_div(init_items, c.group), c.group, 0},
             {*split.state, *split.hist, *split.running, r.rows, r.row_length, k, exact_arg, c.groups_per_row});
  if (c.sample_keys != 0 && !exact) topk_sample_candidates(plan, dev, keys, split, largest);
  for (std::uint32_t pass = 0; pass < c.passes; ++pass) {
    dev.launch(program.kernel("topk_round_histogram"), {groups, c.group, 0},
               {keys, *split.cand_keys, *split.state, *split.hist, *split.group_hist, *split.running, r.rows,
                r.row_length, c.groups_per_row, c.chunk, cap, flip, pass, c.hist_copies});
    dev.launch(program.kernel("topk_round_pick"), {ceil_div(r.rows, c.group), c.group, 0},
               {*split.state, *split.hist, r.rows, k, cap, pass, exact_arg});
    dev.launch(program.kernel("topk_round_filter"), {groups, c.group, 0},
               {keys, *split.cand_keys, *split.cand_pos, *split.state, *split.group_hist, *split.running, out_keys,
                indices, r.rows, r.row_length, k, c.groups_per_row, c.chunk, cap, index_bytes, flip, pass,
                write_selected});
  }
  if (exact)
    dev.launch(program.kernel("topk_count"), {groups, c.group, 0},
               {keys, *split.state, *split.counts, r.row_length, c.groups_per_row, c.chunk, flip});
  return split;
}

std::uint64_t topk_split_temp_bytes(const Plan& plan) {
  if (plan.topk.groups_per_row <= 1) return 0;
  const SplitTemps t = split_temps(plan);
  std::uint64_t bytes = 0;
  for (std::uint64_t b : {t.state, t.hist, t.group_hist, t.running, t.cand_keys, t.cand_pos, t.counts})
    if (b) bytes += temp_request_bytes(b);
  return bytes + topk_sample_temp_bytes(plan);
}

RunEvents run_topk(const Plan& plan, TopkJob& job) {
  const SortRequest& r = plan.request;
  rt::Device& dev = job.device;
  if (r.value_bytes != 0 && job.indices == nullptr)
    throw Error(errc::invalid_argument, "top-k: index bytes given without an indices buffer");
  RunEvents events;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  events.start = dev.record();
  select_and_sort(plan, job);
  events.stop = dev.record();
  events.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  return events;
}

std::uint64_t topk_temp_bytes(const Plan& plan, rt::Device& device) {
  if (plan.topk.row_parts > 1) {
    const PartsTemps t = parts_temps(plan);
    std::uint64_t bytes = temp_request_bytes(t.cand_keys) + temp_request_bytes(t.cand_pos);
    if (t.places) bytes += temp_request_bytes(t.places);
    return bytes + topk_temp_bytes(plan.parts[0], device);
  }
  std::uint64_t bytes = topk_split_temp_bytes(plan);
  if (!plan.parts.empty()) bytes += segmented_temp_bytes(plan.parts[0], device);
  if (plan.request.offset_bytes && sorts_selected(plan))
    bytes += temp_request_bytes((2 * plan.request.rows + 1) * topk_sort_offset_bytes(plan.request));
  return bytes;
}

std::vector<std::string> topk_plan_steps(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  std::vector<std::string> lines;
  if (r.k == 0 || r.rows == 0) return {"k = 0: nothing runs"};
  const TopkTuning& t = *c.row;
  lines.push_back(std::string("tuning row ") + t.name + " (measured on " + (*t.measured_on ? t.measured_on : "nothing yet") +
                  "): " + t.note + (c.warp_scan && !c.warp_items ? "; the group scans in warp shuffles" : ""));
  const std::string digits = "up to " + std::to_string(c.passes) + " 8-bit digit passes of the ordered key " +
                             (largest(plan) ? "(flipped: the largest) " : "") +
                             "from the top, stopping once the bucket of the k-th key holds exactly the keys still "
                             "missing";
  const std::string what = r.value_bytes ? " with " + std::to_string(r.value_bytes) + "-byte indices" : ", keys alone";
  if (c.row_parts > 1) {
    lines.push_back("each row cut into " + std::to_string(c.row_parts) +
                    " parts of " + std::to_string(c.part_length) + " keys (the last takes the rest), each part's k a "
                    "row of its own");
    lines.push_back("topk_select.cl topk_rows: " + std::to_string(r.rows * c.row_parts) + " groups of " +
                    std::to_string(c.group) + " work-items, one part each: " + digits + "; the k = " +
                    std::to_string(r.k) + " of each part written as the row's candidates (" +
                    std::to_string(c.row_parts * r.k) + " a row) with their positions (ties by lower position)");
    for (const std::string& step : topk_plan_steps(plan.parts[0], device))
      lines.push_back("the row's k among its candidates: " + step);
    if (r.value_bytes)
      lines.push_back("topk_select.cl topk_map_positions: each selected candidate's place turned into its position "
                      "in the row (" + std::to_string(r.value_bytes) + "-byte indices)");
    return lines;
  }
  if (r.offset_bytes != 0) {
    lines.push_back("topk_select.cl topk_rows: " + std::to_string(r.rows) + " groups of " + std::to_string(c.group) +
                    " work-items, one segment each (its start and length read from the " +
                    std::to_string(r.offset_bytes) + "-byte offsets on the device): " + digits +
                    "; the min(k, length) selected of segment s written at s x " + std::to_string(r.k) + what +
                    " (ties by lower position, indices within the segment), its other slots padded (keys all bits "
                    "zero, indices all bits one)" +
                    (sorts_selected(plan) ? "; the sort's offsets written too (each segment's selected keys and its "
                                            "padding a segment of their own)"
                                          : ""));
  } else if (c.warp_items != 0) {
    lines.push_back("topk_warp_rows.cl topk_warp_rows: " + std::to_string(ceil_div(r.rows, c.rows_per_group)) +
                    " groups of " + std::to_string(c.group) + " threads, a warp per row of " +
                    std::to_string(r.row_length) + " keys held in registers (" + std::to_string(c.warp_items) +
                    " a lane): " + digits + ", each pass's histogram the warp's own and its scan in shuffles (no "
                    "group barrier); the k = " + std::to_string(r.k) + " selected" + what +
                    (c.warp_sorts ? " put in local memory, each lane's place from two ballots per item, then "
                                    "each written at its rank among them by (key, position): sorted, stable"
                                  : " written in position order, each lane's place from two ballots per item"));
  } else if (c.groups_per_row == 1) {
    lines.push_back("topk_select.cl topk_rows: " + std::to_string(ceil_div(r.rows, c.rows_per_group)) +
                    " groups of " + std::to_string(c.group) + " work-items, " +
                    (c.rows_per_group == 1 ? std::string("one row") : std::to_string(c.rows_per_group) + " rows") +
                    " of " + std::to_string(r.row_length) + " keys each (" +
                    std::to_string(c.group / c.rows_per_group) + " work-items a row): " + digits +
                    (c.local_candidates
                         ? "; once a row's tied keys are at most " +
                               std::to_string(kLocalCandidates / c.rows_per_group) +
                               ", one more read of the row writes the keys before the threshold and moves the "
                               "tied ones to local memory, and the later passes and the collection read only "
                               "them; else"
                         : ";") +
                    " one collection read of the row writes the k = " + std::to_string(r.k) + " selected" + what +
                    " (ties by lower position)");
  } else {
    for (const std::string& line : topk_round_steps(plan, digits)) lines.push_back(line);
    lines.push_back("topk_select.cl topk_round_filter, as the row settles: the k = " + std::to_string(r.k) +
                    " selected written out" + what + ", each filtering round's keys before the threshold in "
                    "position order, then the ties taken (ties by lower position)");
  }
  if (sorts_selected(plan)) {
    const std::string what_sorted = r.offset_bytes ? "sort each segment's selected keys"
                                                   : "sort " + std::to_string(r.rows) + " rows of " + std::to_string(r.k);
    for (const std::string& step : segmented_plan_steps(plan.parts[0], device))
      lines.push_back(what_sorted + " (stable): " + step);
  } else if (!c.warp_sorts) {
    lines.push_back(r.topk_sorted ? "k = 1: sorted as selected"
                                  : "unsorted: the k of each row as the selection settles them (the keys before the "
                                    "threshold of each filtering read in position order, then the ties taken)");
  }
  return lines;
}

std::vector<std::string> topk_round_steps(const Plan& plan, const std::string& digits) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  const std::string filter =
      c.candidate_cap ? "the round's tied keys move to a candidate buffer once they are at most " +
                            std::to_string(c.candidate_cap) + " (1/" + std::to_string(c.row->candidate_divisor) +
                            " of the row), and later rounds read only them"
                      : "the row itself read in every round (no candidate buffer)";
  std::vector<std::string> lines{"topk_select.cl topk_round_init: the state of " + std::to_string(r.rows) + " rows"};
  if (c.sample_keys != 0 && !r.partition)
    for (const std::string& step : topk_sample_steps(plan)) lines.push_back(step);
  lines.push_back("topk_select.cl topk_round_histogram + topk_round_pick + topk_round_filter per digit pass (" +
              std::to_string(c.passes) + " rounds; a settled row returns at once): " +
              std::to_string(c.groups_per_row) + " groups of " + std::to_string(c.group) +
              " work-items per row of " + std::to_string(r.row_length) + " keys, " + std::to_string(c.chunk) +
              " keys each, each group's digit counts kept and added into the row's histogram; " + digits + "; " +
              filter + "; the threshold stays on the device");
  return lines;
}

std::string topk_report_name(const Plan& plan) {
  if (plan.topk.row_parts > 1) return "topk parts + " + topk_report_name(plan.parts[0]);
  std::string name = plan.topk.warp_items ? "topk warp radix-select" : "topk radix-select";
  if (sorts_selected(plan)) name += " + " + segmented_report_name(plan.parts[0]);
  return name;
}

}  // namespace gpusort::algo
