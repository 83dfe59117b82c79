// The binned bin's short segments on CUDA (segmented_warp_segments.hpp).
#include "algorithms/segmented/segmented_warp_segments.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/segmented/segmented_policy.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kBlock = 256;      // threads per block: 8 warps
constexpr std::uint32_t kMaxLength = 128;  // the kernel's networks: 4 keys per lane at most

// The segments each warp takes (WS_WARP_SEGMENTS): the tuning row's, or the override's.
std::uint32_t per_warp(const DeviceDescription& desc) {
  return std::clamp<std::uint32_t>(segmented_policy_override().segments_per_warp.value_or(
                                       segmented_tuning_for(desc).binned_warp_segments_per_warp),
                                   1, 32);
}

}  // namespace

std::uint32_t segmented_warp_segments_max(const DeviceDescription& desc) {
  if (desc.backend != "cuda") return 0;
  const std::uint64_t length = segmented_policy_override().warp_segments_max.value_or(
      segmented_tuning_for(desc).binned_warp_max_length);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(length, kMaxLength));
}

void segmented_warp_segments_sort(SegmentedJob& job, std::uint32_t max_length) {
  SortJob& sort = job.sort;
  const SegmentShape& seg = job.segments;
  if (max_length == 0 || max_length > kMaxLength)
    throw Error(errc::invalid_argument, "segmented warp segments: segments of 1 to " + std::to_string(kMaxLength) +
                                            " keys, not " + std::to_string(max_length));
  if (seg.uniform() || (seg.offset_bytes != 4 && seg.offset_bytes != 8))
    throw Error(errc::invalid_argument, "segmented warp segments: segments by offsets of 4 or 8 bytes");
  const bool positions = sort.values_are_positions;
  if (positions && sort.value_bytes != 4 && sort.value_bytes != 8)
    throw Error(errc::invalid_argument, "segmented warp segments: argsort indices are 4 or 8 bytes, not " +
                                            std::to_string(sort.value_bytes));
  if (sort.n == 0 || seg.count == 0) return;
  const SegmentedBuffers b = segmented_buffers(sort);
  const std::uint32_t each = per_warp(sort.device.description());
  std::vector<std::string> defines = sort.key_defines();
  defines.push_back("WS_WARP_SEGMENTS=" + std::to_string(each));
  sort.device.launch(sort.device.program("segmented_warp_segments.cl", defines).kernel("segmented_warp_segments"),
                     {ceil_div(seg.count, std::uint64_t(each) * (kBlock / 32)), kBlock, 0},
                     {b.keys_in, b.keys_out, b.values_in, b.values_out, *seg.offsets,
                      std::uint64_t(seg.offsets_byte_offset / seg.offset_bytes),
                      std::uint32_t(seg.offset_bytes == 8 ? 1 : 0), seg.count, max_length,
                      std::uint32_t(positions ? 1 : 0), sort.flip_arg()});
}

std::string segmented_warp_segments_plan_step(const DeviceDescription& desc, std::uint64_t count,
                                              std::uint32_t max_length) {
  const std::uint32_t each = per_warp(desc);
  return "segmented_warp_segments.cl segmented_warp_segments: " +
         std::to_string(ceil_div(count, std::uint64_t(each) * (kBlock / 32))) + " blocks of " + std::to_string(kBlock) +
         " threads, " + std::to_string(each) + " segments per warp, those of 1 to " +
         std::to_string(max_length) +
         " keys sorted by size class in bitonic networks in registers (up to 4 keys per lane, several segments at "
         "once), 0 bytes of shared memory; the tiles leave these segments alone";
}

}  // namespace gpusort::algo
