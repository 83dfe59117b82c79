#pragma once
// The distributed sort's one tuning value and its override seam (gpusort-dist-bench --dist-policy,
// tests; no environment knobs). Not keyed by device: every rank of one sort must use the same value
// (ExchangePlan), and ranks may run on devices of different classes.
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpusort::dist {

// The exchange's copies start at multiples of this many elements on both sides (ExchangePlan:
// senders start at a multiple and send a short lead-in that the receiver skips). NCCL moved
// slices received one element off at about half the rate of aligned ones (4 x H200, 2026-11-26,
// lab/notes/dist-exchange-alignment.md); 256 elements is at least 256 bytes for every element size.
constexpr std::uint64_t kRecvAlign = 256;

struct DistPolicyOverride {
  std::optional<std::uint64_t> recv_align;  // a power of two from 1 to 4096; the same on every rank
};
// The process-wide override (none by default). Not synchronised: set it before sorting.
void set_dist_policy_override(const DistPolicyOverride& o);
const DistPolicyOverride& dist_policy_override();
// "recv_align=64": gpusort-dist-bench --dist-policy. Throws Error(invalid_argument) on an unknown
// name or a bad value.
DistPolicyOverride parse_dist_policy_override(std::string_view spec);

}  // namespace gpusort::dist
