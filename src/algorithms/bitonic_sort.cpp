// Bitonic sort driver. Three launch plans (SortOptions::local_variant), same network, same result:
//   "fused" (default): one tile-sort launch, then for each stage k > TILE the global steps with
//       j >= TILE and one fused local launch for the steps j < TILE. Launch count: about
//       log2(n/TILE)^2 / 2 global steps plus log2(n/TILE) fused merges.
//   "fused2": as "fused", but the global steps go two at a time (j, j/2) through registers
//       (bitonic_global_step2), halving the global launches and their memory traffic.
//   "global": no fusion at all: every step (k, j) of the network is its own global launch, the
//       OpenCL cookbook's basic stage/sub-stage kernel; log2(n) (log2(n)+1) / 2 launches.
#include "algorithms/drivers.hpp"

namespace gpusort::algo {

// Work-items per group when SortOptions::work_group_size is 0 for the bitonic network's passes: a width every
// GPU runs well (not tuned per device; checked_group_size fits it to the device).
constexpr std::uint32_t kBitonicGroup = 256;

void bitonic_check_variants(const SortOptions& options) {
  const std::string& variant = options.local_variant;
  if (!variant.empty() && variant != "fused" && variant != "fused2" && variant != "global")
    throw Error(errc::invalid_argument, "SortOptions::local_variant '" + variant +
                                            "' is not a variant of algorithm 'bitonic' (valid: fused, fused2, global)");
}

void bitonic_sort(SortJob& job) {
  bitonic_check_variants(job.options);
  const std::string& variant = job.options.local_variant;
  if (job.n <= 1) return;
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, kBitonicGroup);
  const std::uint64_t tile = 2ull * group;
  auto defines = job.key_defines(group);
  rt::Program& program = job.program("bitonic.cl", defines);
  rt::Buffer& values = job.values_or_keys();
  const std::uint64_t n = job.n;
  const std::uint64_t padded = next_pow2(n);
  const std::uint64_t step_groups = ceil_div(padded / 2, group);

  if (variant == "global") {
    for (std::uint64_t k = 2; k <= padded; k <<= 1)
      for (std::uint64_t j = k >> 1; j >= 1; j >>= 1)
        job.device.launch(program.kernel("bitonic_global_step"), {step_groups, group},
                          {job.keys, values, n, k, j, job.flip_arg()});
    return;
  }
  const bool two_steps = variant == "fused2";
  const std::uint64_t quad_groups = ceil_div(padded / 4, group);

  job.device.launch(program.kernel("bitonic_sort_tiles"), {ceil_div(n, tile), group},
                    {job.keys, values, n, job.flip_arg()});
  for (std::uint64_t k = 2 * tile; k <= padded; k <<= 1) {
    std::uint64_t j = k >> 1;
    while (j >= tile) {
      if (two_steps && (j >> 1) >= tile) {
        job.device.launch(program.kernel("bitonic_global_step2"), {quad_groups, group},
                          {job.keys, values, n, k, j, job.flip_arg()});
        j >>= 2;
      } else {
        job.device.launch(program.kernel("bitonic_global_step"), {step_groups, group},
                          {job.keys, values, n, k, j, job.flip_arg()});
        j >>= 1;
      }
    }
    job.device.launch(program.kernel("bitonic_merge_tiles"), {ceil_div(n, tile), group},
                      {job.keys, values, n, job.flip_arg()});
  }
}

}  // namespace gpusort::algo
