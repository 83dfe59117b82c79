// The segmented sorts' dispatcher (segmented_sort.hpp). A bin is wired in here in three places:
// run_bin, segmented_temp_bytes and segmented_plan_steps; segmented_policy.cpp decides when the
// planner chooses it.
#include "algorithms/segmented/segmented_sort.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "algorithms/positions.hpp"
#include "algorithms/segmented/segmented_binned.hpp"
#include "algorithms/segmented/segmented_bins.hpp"
#include "algorithms/segmented/segmented_complex128.hpp"
#include "algorithms/segmented/segmented_onesweep.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kFitsGroup = 256;

Error not_built_in(SegmentedBin bin) {
  return Error(errc::unsupported, std::string("the segmented bin '") + to_string(bin) + "' is not built in");
}

// The tiles-or-portable bin's test: whether every segment holds at most `window` keys. Offsets:
// kernels/segmented_fits.cl sets a word on the device where one is longer, and that one word is read
// back (the host waits for the offsets' upload and the kernel, not for the sort).
bool segments_fit_window(SegmentedJob& job, std::uint64_t window) {
  SortJob& sort = job.sort;
  const SegmentShape& seg = job.segments;
  if (window == 0) return false;
  if (seg.uniform()) return (seg.row_length != 0 ? seg.row_length : ceil_div(sort.n, seg.count)) <= window;
  if (seg.offset_bytes != 4 && seg.offset_bytes != 8)
    throw Error(errc::invalid_argument,
                "segmented sort: offsets are 4 or 8 bytes, not " + std::to_string(seg.offset_bytes));
  if (seg.offsets_byte_offset % seg.offset_bytes != 0)
    throw Error(errc::invalid_argument, "segment offsets must start at a multiple of their width in their buffer");
  rt::Device& device = sort.device;
  const rt::BufferPtr longer = sort.temp(sizeof(std::uint32_t));
  device.fill_bytes(*longer, 0, 0, sizeof(std::uint32_t));
  const std::uint32_t group = default_group_size(device, kFitsGroup);
  rt::Program& program = device.program("segmented_fits.cl", {"OFFSET_BYTES=" + std::to_string(seg.offset_bytes)});
  device.launch(program.kernel("segments_longer_than"), {ceil_div(seg.count, group), group, 0},
                {*seg.offsets, std::uint64_t(seg.offsets_byte_offset / seg.offset_bytes), seg.count, window, *longer});
  std::uint32_t word = 1;
  device.read(*longer, 0, &word, sizeof word);
  return word == 0;
}

SegmentedBin tiles_or_portable(SegmentedJob& job) {
  const SortJob& sort = job.sort;
  const std::uint64_t window =
      segmented_tiles_window(sort.device, sort.type, sort.value_bytes, sort.values_are_positions);
  return segments_fit_window(job, window) ? SegmentedBin::tiles : SegmentedBin::portable;
}

void run_chosen_bin(const Plan& plan, SegmentedJob& job) {
  SegmentedBin bin = plan.segments.bin;
  if (bin == SegmentedBin::tiles_or_portable) bin = tiles_or_portable(job);
  job.ran = bin;
  switch (bin) {
    case SegmentedBin::portable: return segmented_portable(job, plan);
    case SegmentedBin::per_row: return segmented_per_row(job, plan);
    case SegmentedBin::tiles: return segmented_tiles_sort(job);
    case SegmentedBin::onesweep: return segmented_onesweep_sort(job);
    case SegmentedBin::binned: return segmented_binned_sort(job);
    case SegmentedBin::tiles_or_portable: break;
  }
  throw not_built_in(bin);
}

// The plan's bin; where the plan narrows an argsort's 8-byte indices, the bin sorts 4-byte positions
// into a temporary (a job like the caller's but for its values), widened into the caller's after.
void run_bin(const Plan& plan, SegmentedJob& job) {
  SortJob& sort = job.sort;
  if (!plan.segments.narrow_positions || !sort.values_are_positions || sort.value_bytes != 8 || !sort.values)
    return run_chosen_bin(plan, job);
  rt::BufferPtr narrow = sort.temp(sort.n * sizeof(std::uint32_t));
  SortJob narrowed = sort;
  narrowed.value_bytes = sizeof(std::uint32_t);
  narrowed.values = narrow.get();
  narrowed.values_in = nullptr;  // positions: made, not read
  SegmentedJob inner{narrowed, job.segments};
  run_chosen_bin(plan, inner);
  sort.temp_used = narrowed.temp_used;
  job.ran = inner.ran;
  if (narrowed.values_are_positions)
    throw std::logic_error(std::string("segmented bin ") + to_string(inner.ran) + " left an argsort's positions unmade");
  widen_positions(sort.device, *narrow, *sort.values, sort.n);
  sort.values_are_positions = false;
}

}  // namespace

RunEvents run_segmented(const Plan& plan, SegmentedJob& job) {
  SortJob& sort = job.sort;
  RunEvents events;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  events.start = sort.device.record();
  job.ran = plan.segments.bin;
  if (sort.n <= 1) {
    if (sort.values_are_positions) fill_job_positions(sort);  // a lone element is 0 in its segment
    copy_input_to_output(sort);
  } else if (sort.type == key_type::c128) {
    segmented_complex128_sort(job, plan);  // two word passes by the plan's part, each through a bin
  } else {
    run_bin(plan, job);
    if (sort.values_are_positions)
      throw std::logic_error(std::string("segmented bin ") + to_string(job.ran) +
                             " left an argsort's positions unmade");
  }
  events.stop = sort.device.record();
  events.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  return events;
}

std::string segmented_report_name(const Plan& plan, SegmentedBin ran) {
  std::string name = std::string("segmented ") + to_string(ran);
  if (ran == SegmentedBin::portable || ran == SegmentedBin::per_row || ran == SegmentedBin::tiles_or_portable)
    name += "/" + plan.algorithm->name;
  return name;
}

std::string segmented_report_name(const Plan& plan) { return segmented_report_name(plan, plan.segments.bin); }

std::uint64_t segmented_temp_bytes(const Plan& plan, rt::Device& device) {
  if (plan.request.type == key_type::c128) return segmented_complex128_temp_bytes(plan, device);
  if (plan.segments.narrow_positions) {  // the bin's temporaries for 4-byte positions, and those positions
    Plan narrowed = plan;
    narrowed.request.value_bytes = sizeof(std::uint32_t);
    narrowed.segments.narrow_positions = false;
    return segmented_temp_bytes(narrowed, device) + temp_request_bytes(plan.request.n * sizeof(std::uint32_t));
  }
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
    case SegmentedBin::tiles_or_portable:
      // the tile bin takes none; the verdict's word is held while portable runs
      return segmented_portable_temp_bytes(plan, device) + temp_request_bytes(sizeof(std::uint32_t));
    case SegmentedBin::binned: {
      const SortRequest& r = plan.request;
      return segmented_binned_temp_bytes(device.description(), r.type, r.value_bytes, r.positions, r.n, r.rows,
                                         r.options);
    }
  }
  throw not_built_in(plan.segments.bin);
}

std::vector<std::string> segmented_plan_steps(const Plan& plan, rt::Device& device) {
  if (plan.request.type == key_type::c128) return segmented_complex128_steps(plan, device);
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
      const std::size_t vb = plan.segments.narrow_positions ? sizeof(std::uint32_t) : r.value_bytes;
      steps = segmented_onesweep_plan_steps(device.description(), r.type, vb, r.rows, r.row_length, r.options);
      break;
    }
    case SegmentedBin::tiles_or_portable: {
      const SortRequest& r = plan.request;
      const std::uint64_t window = segmented_tiles_window(device, r.type, r.value_bytes, r.positions);
      steps.push_back("the longest segment read back (one word): tiles if it fits a " + std::to_string(window) +
                      "-key window, else portable (segmented_fits.cl, segments_longer_than over the " +
                      std::to_string(r.rows) + " segments)");
      for (const std::string& s :
           segmented_tiles_plan_steps(device.description(), r.type, r.value_bytes, r.positions, r.n, r.rows,
                                      r.offset_bytes == 0 ? r.row_length : 0))
        steps.push_back("tiles: " + s);
      for (const std::string& s : segmented_portable_steps(plan, device)) steps.push_back("else portable: " + s);
      break;
    }
    case SegmentedBin::binned: {
      const SortRequest& r = plan.request;
      steps = segmented_binned_plan_steps(device.description(), r.type, r.value_bytes, r.positions, r.n, r.rows,
                                          r.options);
      break;
    }
  }
  if (plan.segments.narrow_positions)
    steps.push_back("indices: 4-byte positions through the bin, widened to 8 bytes after it (positions.cl "
                    "widen_positions)");
  const SegmentedTuning& row = *plan.segments.row;
  steps.insert(steps.begin(), std::string("bin: ") + to_string(plan.segments.bin) + " (segmented row " + row.name +
                                  ": " + row.note + ")");
  return steps;
}

}  // namespace gpusort::algo
