// Merging sorted runs of any lengths (algorithms/merge_uneven_runs.hpp): the pass plan on the host,
// the passes on the device (kernels/merge_uneven_runs.cl).
#include "algorithms/merge_uneven_runs.hpp"

#include <algorithm>
#include <string>

#include "algorithms/merge_sort.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

constexpr const char* kKernelFile = "merge_uneven_runs.cl";
constexpr std::uint32_t kGroupSize = 256;  // the merge sort's pass group for every key width
constexpr std::size_t kPairWords = 6;  // {a start, a length, b start, b length, output start, first group}

// One pass: its pair table (kPairWords per pair plus a closing row whose last word is the number
// of groups) and its groups.
struct UnevenPass {
  std::vector<std::uint64_t> table;
  std::uint32_t pairs = 0;
  std::uint64_t groups = 0;
};

// Passes until one run is left; `runs` are the non-empty runs. The first pass reads them where they
// are and writes them packed; later passes read packed runs.
std::vector<UnevenPass> plan_passes(std::vector<SourceRun> runs, std::uint64_t tile) {
  std::vector<UnevenPass> passes;
  while (runs.size() > 1) {
    UnevenPass pass;
    std::vector<SourceRun> next;
    std::uint64_t out = 0;
    for (std::size_t a = 0; a < runs.size(); a += 2) {
      const SourceRun b = a + 1 < runs.size() ? runs[a + 1] : SourceRun{runs[a].start + runs[a].length, 0};
      pass.table.insert(pass.table.end(), {runs[a].start, runs[a].length, b.start, b.length, out, pass.groups});
      pass.groups += ceil_div(runs[a].length + b.length, tile);
      next.push_back({out, runs[a].length + b.length});
      out += runs[a].length + b.length;
    }
    pass.table.insert(pass.table.end(), {0, 0, 0, 0, 0, pass.groups});
    pass.pairs = std::uint32_t(ceil_div(runs.size(), 2));
    runs = std::move(next);
    passes.push_back(std::move(pass));
  }
  return passes;
}

std::vector<SourceRun> non_empty(const std::vector<SourceRun>& runs, std::uint64_t n) {
  std::vector<SourceRun> out;
  std::uint64_t total = 0, end = 0;
  for (const SourceRun& r : runs) {
    if (r.start < end || r.start + r.length < r.start)
      throw Error(errc::invalid_argument, "merge_uneven_runs: runs must come in order without overlapping");
    end = r.start + r.length;
    total += r.length;
    if (r.length) out.push_back(r);
  }
  if (total != n) throw Error(errc::invalid_argument, "merge_uneven_runs: the runs hold " + std::to_string(total) +
                                                          " elements, not n = " + std::to_string(n));
  return out;
}

}  // namespace

std::uint64_t merge_uneven_runs_temp_bytes(const rt::Device& device, key_type type, std::size_t value_bytes,
                                           std::uint64_t n, std::size_t runs) {
  const std::uint64_t tile =
      std::uint64_t(kGroupSize) * merge::default_merge_items(device, "blocked", type, value_bytes, kGroupSize);
  std::uint64_t bytes = 0, passes = 0;
  for (std::uint64_t r = runs; r > 1; r = ceil_div(r, 2), ++passes)
    bytes += temp_request_bytes((ceil_div(r, 2) + 1) * kPairWords * 8);  // the pass's table
  if (passes == 0) return 0;
  bytes += temp_request_bytes((ceil_div(n, tile) + ceil_div(runs, 2)) * 8);  // splits: groups of the widest pass
  if (passes >= 2) bytes += temp_request_bytes(n * key_size(type)) + (value_bytes ? temp_request_bytes(n * value_bytes) : 0);
  return bytes;
}

void merge_uneven_runs(SortJob& job, const std::vector<SourceRun>& runs, rt::Buffer& dst_keys,
                       rt::Buffer& dst_values) {
  const std::size_t kb = key_size(job.type), vb = job.value_bytes;
  const std::uint32_t items = merge::default_merge_items(job.device, "blocked", job.type, vb, kGroupSize);
  const std::vector<SourceRun> present = non_empty(runs, job.n);
  const std::vector<UnevenPass> passes = plan_passes(present, std::uint64_t(kGroupSize) * items);
  if (passes.empty()) {  // one run (or none): already merged
    if (job.n > 0) {
      job.device.copy(job.keys, present[0].start * kb, dst_keys, 0, job.n * kb);
      if (vb) job.device.copy(*job.values, present[0].start * vb, dst_values, 0, job.n * vb);
    }
    return;
  }
  // Everything allocated and uploaded before the first pass, so a failure leaves the runs as they were.
  std::vector<rt::BufferPtr> tables;
  std::uint64_t most_groups = 0;
  for (const UnevenPass& p : passes) {
    tables.push_back(job.temp(p.table.size() * 8));
    most_groups = std::max(most_groups, p.groups);
  }
  rt::BufferPtr splits = job.temp(std::max<std::uint64_t>(1, most_groups) * 8);
  rt::BufferPtr tmp_keys, tmp_values;
  if (passes.size() >= 2) {
    tmp_keys = job.temp(job.n * kb);
    if (vb) tmp_values = job.temp(job.n * vb);
  }
  for (std::size_t i = 0; i < passes.size(); ++i)
    job.device.write(*tables[i], 0, passes[i].table.data(), passes[i].table.size() * 8);

  auto defines = job.key_defines(kGroupSize);
  defines.push_back("ITEMS=" + std::to_string(items));
  defines.push_back(merge::blocked_value_batch_define(job.device.description(), items));
  rt::Program& program = job.device.program(kKernelFile, defines);
  rt::Kernel& partition = program.kernel("merge_uneven_partition");
  rt::Kernel& merge = program.kernel("merge_uneven_pass");
  // Pass i reads X_i and writes X_(i+1): X_0 is the job's buffers, the last is dst, and the ones
  // between alternate between the temporary and the job's buffers.
  auto keys_of = [&](std::size_t i) -> rt::Buffer& {
    if (i == passes.size()) return dst_keys;
    return i % 2 ? *tmp_keys : job.keys;
  };
  auto values_of = [&](std::size_t i) -> rt::Buffer& {
    if (!vb) return keys_of(i);
    if (i == passes.size()) return dst_values;
    return i % 2 ? *tmp_values : *job.values;
  };
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const UnevenPass& p = passes[i];
    job.device.launch(partition, {ceil_div(p.groups, kGroupSize), kGroupSize},
                      {keys_of(i), *splits, *tables[i], p.pairs, p.groups, job.flip_arg()});
    job.device.launch(merge, {p.groups, kGroupSize},
                      {keys_of(i), values_of(i), keys_of(i + 1), values_of(i + 1), *tables[i], p.pairs,
                       job.flip_arg(), *splits});
  }
}

}  // namespace gpusort::algo
