// The partition driver (topk_partition.hpp).
#include "algorithms/topk/topk_partition.hpp"

#include "algorithms/topk/topk_select.hpp"
#include "gpusort/errors.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::algo {

RunEvents run_partition(const Plan& plan, PartitionJob& job) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  rt::Device& dev = job.device;
  if ((r.value_bytes != 0) != (job.indices != nullptr))
    throw Error(errc::invalid_argument, "partition: position bytes and a positions buffer must be given together");
  if (!job.out_keys && !job.indices) throw Error(errc::invalid_argument, "partition: neither keys nor positions out");
  RunEvents events;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  events.start = dev.record();
  if (r.rows != 0 && r.row_length != 0) {
    rt::Program& program = topk_program(dev, r.type, c);
    // a buffer that is not written stands in for the one not asked for
    rt::Buffer& out_keys = job.out_keys ? *job.out_keys : *job.indices;
    rt::Buffer& indices = job.indices ? *job.indices : *job.out_keys;
    const std::uint32_t write_keys = job.out_keys ? 1 : 0, index_bytes = std::uint32_t(r.value_bytes),
                        kth_only = r.select_kth ? 1 : 0;
    if (c.groups_per_row > 1) {
      const TopkSplitState split = topk_split_threshold(plan, dev, job.keys, r.kth + 1, false, true, nullptr);
      dev.launch(program.kernel("topk_partition_scatter"), {r.rows * c.groups_per_row, c.group, 0},
                 {job.keys, *split.state, *split.counts, out_keys, indices, r.row_length, r.kth, c.groups_per_row,
                  c.chunk, write_keys, index_bytes, kth_only});
    } else {
      dev.launch(program.kernel("topk_partition_rows"), {ceil_div(r.rows, c.rows_per_group), c.group, 0},
                 {job.keys, out_keys, indices, r.rows, r.row_length, r.kth, write_keys, index_bytes, kth_only,
                  c.rows_per_group, c.hist_copies});
    }
  }
  events.stop = dev.record();
  events.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  return events;
}

std::uint64_t partition_temp_bytes(const Plan& plan) { return topk_split_temp_bytes(plan); }

std::vector<std::string> partition_plan_steps(const Plan& plan) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  if (r.rows == 0 || r.row_length == 0) return {"no keys: nothing runs"};
  const TopkTuning& t = *c.row;
  std::vector<std::string> lines;
  lines.push_back(std::string("tuning row ") + t.name + " (measured on " + (*t.measured_on ? t.measured_on : "nothing yet") +
                  "): " + t.note);
  const std::string digits = "up to " + std::to_string(c.passes) + " 8-bit digit passes of the ordered key from the "
                             "top, the threshold of the " + std::to_string(r.kth + 1) +
                             " smallest narrowed until it ties only keys equal to the one of rank kth = " +
                             std::to_string(r.kth);
  const std::string what = r.select_kth
                               ? "each row's key of rank kth alone"
                               : "each row in three runs, each in position order: the keys before the threshold, "
                                 "those equal to it, the rest";
  const std::string positions =
      r.value_bytes ? " (with " + std::to_string(r.value_bytes) + "-byte positions)" : "";
  if (c.groups_per_row == 1) {
    lines.push_back("topk_select.cl topk_partition_rows: " + std::to_string(ceil_div(r.rows, c.rows_per_group)) +
                    " groups of " + std::to_string(c.group) + " work-items, " +
                    (c.rows_per_group == 1 ? std::string("one row") : std::to_string(c.rows_per_group) + " rows") +
                    " of " + std::to_string(r.row_length) + " keys each (" +
                    std::to_string(c.group / c.rows_per_group) + " work-items a row): " + digits + ", then " + what +
                    positions);
  } else {
    for (const std::string& line : topk_round_steps(plan, digits)) lines.push_back(line);
    lines.push_back("topk_select.cl topk_count + topk_partition_scatter: each group's keys before the threshold and "
                    "tied counted, then " + what + positions);
  }
  return lines;
}

std::string partition_report_name(const Plan& plan) {
  return plan.request.select_kth ? "select_kth radix-select" : "partition radix-select";
}

}  // namespace gpusort::algo
