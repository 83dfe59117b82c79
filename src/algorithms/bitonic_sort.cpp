// Bitonic sort driver: one tile-sort launch, then for each stage k > TILE the global steps with
// j >= TILE and one fused local launch for the steps j < TILE. Launch count: about
// log2(n/TILE)^2 / 2 global steps plus log2(n/TILE) fused merges.
#include "algorithms/drivers.hpp"

namespace gpusort::algo {

void bitonic_sort(SortJob& job) {
  if (job.n <= 1) return;
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, 256);
  const std::uint64_t tile = 2ull * group;
  auto defines = job.key_defines();
  defines.push_back("GROUP_SIZE=" + std::to_string(group));
  rt::Program& program = job.device.program("bitonic.cl", defines);
  rt::Buffer& values = job.values_or_keys();
  const std::uint64_t n = job.n;

  job.device.launch(program.kernel("bitonic_sort_tiles"), {ceil_div(n, tile), group},
                    {job.keys, values, n, job.flip_arg()});
  const std::uint64_t padded = next_pow2(n);
  const std::uint64_t step_groups = ceil_div(padded / 2, group);
  for (std::uint64_t k = 2 * tile; k <= padded; k <<= 1) {
    for (std::uint64_t j = k >> 1; j >= tile; j >>= 1)
      job.device.launch(program.kernel("bitonic_global_step"), {step_groups, group},
                        {job.keys, values, n, k, j, job.flip_arg()});
    job.device.launch(program.kernel("bitonic_merge_tiles"), {ceil_div(n, tile), group},
                      {job.keys, values, n, job.flip_arg()});
  }
}

}  // namespace gpusort::algo
