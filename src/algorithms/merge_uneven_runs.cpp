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
constexpr std::size_t kPairWords = 4;      // {start, a_len, b_len, first group} per pair


// One pass: its pair table (kPairWords per pair plus the closing group count) and its groups.
struct UnevenPass {
  std::vector<std::uint64_t> table;
  std::uint32_t pairs = 0;
  std::uint64_t groups = 0;
};

// Passes until one run is left; `starts` are the non-empty runs' starts, then n.
std::vector<UnevenPass> plan_passes(std::vector<std::uint64_t> starts, std::uint64_t tile) {
  std::vector<UnevenPass> passes;
  while (starts.size() > 2) {
    UnevenPass pass;
    std::vector<std::uint64_t> next;
    const std::size_t runs = starts.size() - 1;
    for (std::size_t a = 0; a < runs; a += 2) {
      const std::uint64_t start = starts[a], a_len = starts[a + 1] - start;
      const std::uint64_t b_len = a + 1 < runs ? starts[a + 2] - starts[a + 1] : 0;
      pass.table.insert(pass.table.end(), {start, a_len, b_len, pass.groups});
      pass.groups += ceil_div(a_len + b_len, tile);
      next.push_back(start);
    }
    pass.table.insert(pass.table.end(), {0, 0, 0, pass.groups});
    pass.pairs = std::uint32_t(ceil_div(runs, 2));
    next.push_back(starts.back());
    starts = std::move(next);
    passes.push_back(std::move(pass));
  }
  return passes;
}

std::vector<std::uint64_t> non_empty_starts(const std::vector<std::uint64_t>& run_starts, std::uint64_t n) {
  if (run_starts.size() < 2 || run_starts.front() != 0 || run_starts.back() != n ||
      !std::is_sorted(run_starts.begin(), run_starts.end()))
    throw Error(errc::invalid_argument, "merge_uneven_runs: run starts must rise from 0 to n");
  std::vector<std::uint64_t> starts;
  for (std::size_t i = 0; i + 1 < run_starts.size(); ++i)
    if (run_starts[i + 1] > run_starts[i]) starts.push_back(run_starts[i]);
  starts.push_back(n);
  return starts;
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

void merge_uneven_runs(SortJob& job, const std::vector<std::uint64_t>& run_starts, rt::Buffer& dst_keys,
                       rt::Buffer& dst_values) {
  const std::size_t kb = key_size(job.type), vb = job.value_bytes;
  const std::uint32_t items = merge::default_merge_items(job.device, "blocked", job.type, vb, kGroupSize);
  const std::vector<UnevenPass> passes =
      plan_passes(non_empty_starts(run_starts, job.n), std::uint64_t(kGroupSize) * items);
  if (passes.empty()) {  // one run (or none): already merged
    if (job.n > 0) {
      job.device.copy(job.keys, 0, dst_keys, 0, job.n * kb);
      if (vb) job.device.copy(*job.values, 0, dst_values, 0, job.n * vb);
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
