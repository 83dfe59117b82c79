// Radix sort of small inputs by one work-group (issue 5: n <= 2^16 latency). radix_sort() takes
// this path when the policy says so (radix_policy.cpp: RadixPath::single_group): one launch of
// kernels/radix_single_group.cl sorts the keys (and values) in local memory and writes them back in
// place; no fills, no temporaries, no read-backs (the multi-pass paths need a fill, a histogram
// launch and one to three launches per pass, which is most of a 4096-key sort's time on a GPU).
//
// Capacity (SingleGroupPolicy::max_n): the largest n whose buffers fit the device's local memory (two
// of keys, two of values, the counters and the scan scratch: single_group_local_bytes), capped at
// 4096 keys. Explicit work-group size or items-per-thread options ask for the tiled multi-pass
// path's shape, so they disable this one.
#include <cstdio>
#include <memory>

#include "algorithms/drivers.hpp"
#include "algorithms/radix_policy.hpp"

namespace gpusort::algo {
namespace {

SingleGroupPolicy policy(const rt::Device& dev, key_type type, std::size_t value_bytes, const SortOptions& options) {
  return choose_single_group_policy(dev.description(), type, value_bytes, options);
}

}  // namespace

std::uint64_t radix_single_group_capacity(const rt::Device& dev, key_type type, std::size_t value_bytes,
                                          const SortOptions& options) {
  return policy(dev, type, value_bytes, options).max_n;
}

bool radix_single_group_fits(const SortJob& job) {
  return job.n > 1 && job.n <= radix_single_group_capacity(job.device, job.type, job.value_bytes, job.options);
}

void radix_single_group_sort(SortJob& job) {
  if (job.n <= 1) return;
  rt::Device& dev = job.device;
  RadixPolicy p;
  p.type = job.type, p.value_bytes = job.value_bytes, p.n = job.n;
  p.single_group = policy(dev, job.type, job.value_bytes, job.options);
  const std::uint32_t group = p.single_group.group;
  rt::Program& prog = dev.program(radix_program_file(RadixPath::single_group), to_defines(p, RadixPath::single_group));
  const std::uint64_t slots = single_group_slots(job.n);
  const std::uint64_t bytes = single_group_local_bytes(job.n, key_size(job.type), job.value_bytes, group);
  if (bytes > dev.description().local_memory_bytes)  // radix_single_group_fits was not asked first
    throw Error(errc::invalid_argument,
                "radix: " + std::to_string(job.n) + " keys do not fit one work-group's local memory");
  std::unique_ptr<rt::Event> start = job.options.verbose ? dev.record() : nullptr;
  dev.launch(prog.kernel("radix_single_group"), {1, group, static_cast<std::size_t>(bytes)},
             {job.keys, job.values_or_keys(), static_cast<std::uint32_t>(job.n), job.flip_arg(),
              static_cast<std::uint32_t>(slots)});
  if (start) {
    std::unique_ptr<rt::Event> stop = dev.record();
    stop->wait();
    std::fprintf(stderr, "radix: single work-group path (%u work-items, %llu bytes of local memory) %8.3f ms\n", group,
                 static_cast<unsigned long long>(bytes), stop->elapsed_ms_since(*start));
  }
}

}  // namespace gpusort::algo
