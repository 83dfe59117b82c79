// The segmented sorts' dispatcher (segmented_sort.hpp). A bin is wired in here in three places:
// run_bin, segmented_temp_bytes and segmented_plan_steps; segmented_policy.cpp decides when the
// planner chooses it.
#include "algorithms/segmented/segmented_sort.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "algorithms/segmented/segmented_bins.hpp"
#include "algorithms/segmented/segmented_onesweep.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::algo {
namespace {

Error not_built_in(SegmentedBin bin) {
  return Error(errc::unsupported, std::string("the segmented bin '") + to_string(bin) + "' is not built in");
}

void run_bin(const Plan& plan, SegmentedJob& job) {
  switch (plan.segments.bin) {
    case SegmentedBin::portable: return segmented_portable(job, plan);
    case SegmentedBin::per_row: return segmented_per_row(job, plan);
    case SegmentedBin::tiles: return segmented_tiles_sort(job);
    case SegmentedBin::onesweep: return segmented_onesweep_sort(job);
  }
  throw not_built_in(plan.segments.bin);
}

}  // namespace

RunEvents run_segmented(const Plan& plan, SegmentedJob& job) {
  SortJob& sort = job.sort;
  RunEvents events;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  events.start = sort.device.record();
  if (sort.n <= 1) {
    if (sort.values_are_positions) fill_job_positions(sort);  // a lone element is 0 in its segment
    copy_input_to_output(sort);
  } else {
    run_bin(plan, job);
    if (sort.values_are_positions)
      throw std::logic_error(std::string("segmented bin ") + to_string(plan.segments.bin) +
                             " left an argsort's positions unmade");
  }
  events.stop = sort.device.record();
  events.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  return events;
}

std::string segmented_report_name(const Plan& plan) {
  const SegmentedBin bin = plan.segments.bin;
  std::string name = std::string("segmented ") + to_string(bin);
  if (bin == SegmentedBin::portable || bin == SegmentedBin::per_row) name += "/" + plan.algorithm->name;
  return name;
}

std::uint64_t segmented_temp_bytes(const Plan& plan, rt::Device& device) {
  switch (plan.segments.bin) {
    case SegmentedBin::portable: return segmented_portable_temp_bytes(plan, device);
    case SegmentedBin::per_row: return segmented_per_row_temp_bytes(plan, device);
    case SegmentedBin::tiles: return 0;  // in local memory only
    case SegmentedBin::onesweep: {
      // packed pairs or not is decided from the buffers' alignment when the sort runs: the larger
      const SortRequest& r = plan.request;
      const DeviceDescription& desc = device.description();
      std::uint64_t bytes = 0;
      for (bool unpacked : {false, true})
        bytes = std::max(bytes, segmented_onesweep_temp_bytes(choose_segmented_onesweep_policy(
                                    desc, r.type, r.value_bytes, r.rows, r.row_length, r.options, unpacked)));
      return bytes;
    }
  }
  throw not_built_in(plan.segments.bin);
}

std::vector<std::string> segmented_plan_steps(const Plan& plan, rt::Device& device) {
  std::vector<std::string> steps;
  switch (plan.segments.bin) {
    case SegmentedBin::portable: steps = segmented_portable_steps(plan, device); break;
    case SegmentedBin::per_row: steps = segmented_per_row_steps(plan, device); break;
    case SegmentedBin::tiles: {
      const SortRequest& r = plan.request;
      steps = segmented_tiles_plan_steps(device.description(), r.type, r.value_bytes, r.positions, r.n, r.rows,
                                         r.offset_bytes == 0 ? r.row_length : 0);
      break;
    }
    case SegmentedBin::onesweep: {
      const SortRequest& r = plan.request;
      steps = segmented_onesweep_plan_steps(device.description(), r.type, r.value_bytes, r.rows, r.row_length,
                                            r.options);
      break;
    }
  }
  const SegmentedTuning& row = *plan.segments.row;
  steps.insert(steps.begin(), std::string("bin: ") + to_string(plan.segments.bin) + " (segmented row " + row.name +
                                  ": " + row.note + ")");
  return steps;
}

}  // namespace gpusort::algo
