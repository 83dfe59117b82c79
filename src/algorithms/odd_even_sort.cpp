// Odd-even transposition sort ("odd-even"): block odd-even transposition over blocks of
// B = work-group-size keys. Phase p sorts, in local memory, every window of two neighbouring blocks
// starting at (p odd ? B : 0) (kernels/odd_even.cl); ceil(n/B) phases sort any input (phase 0 also
// sorts every block). O(n^2 / B) comparisons per work-item in all: the registry caps n.
#include "algorithms/drivers.hpp"

namespace gpusort::algo {

// Work-items per group when SortOptions::work_group_size is 0 for the odd-even passes: a width every
// GPU runs well (not tuned per device; checked_group_size fits it to the device).
constexpr std::uint32_t kOddEvenGroup = 256;

void odd_even_sort(SortJob& job) {
  if (job.n <= 1) return;
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, kOddEvenGroup);
  auto defines = job.key_defines(group);
  rt::Program& program = job.program("odd_even.cl", defines);
  rt::Kernel& window = program.kernel("odd_even_window");
  const std::uint64_t block = group, phases = ceil_div(job.n, block);
  for (std::uint64_t p = 0; p < phases; ++p) {
    const std::uint64_t offset = (p & 1) ? block : 0;
    if (offset >= job.n) continue;
    job.device.launch(window, {ceil_div(job.n - offset, 2 * block), group},
                      {job.keys, job.values_or_keys(), job.n, offset, job.flip_arg()});
  }
}

}  // namespace gpusort::algo
