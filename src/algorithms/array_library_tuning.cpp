// Tuning for callers that make arrays in a library of their own (gpusort/plan.hpp,
// array_library_tuning): rows keyed by device class, the first match winning, a generic row last.
#include <array>
#include <string>

#include "gpusort/plan.hpp"

namespace gpusort {
namespace {

struct Row {
  const char* name;
  const char* device_class;  // a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;
  std::array<std::uint64_t, 4> narrow_from;  // by key bytes 1, 2, 4, 8; 0: never
  std::uint64_t narrow_max;
  std::uint64_t lend_from;
  std::uint64_t host_below;
};

constexpr std::uint64_t kNever = 0;

// Hopper (H100, H200): int32 indices widened after the sort win from 2^22 keys of up to 4 bytes and
// 2^24 of 8 (below, within the measurements' spread or the widening loses; 1- and 2-byte keys take
// the 4-byte threshold, not measured); lending temporaries from the caller's pool saves gpusort's
// pool an allocation and a free per sort above 64 MiB (about a millisecond at 2^28 keys).
// lab/notes/performance-2026-11-21-to-28.md, "Python: argsort with 4-byte indices".
// Host arrays below 2^12 keys are sorted on the host: a host sort through the device took 153 us
// for 10 keys on an H100 (2026-12-06), about what numpy's stable sort takes for 2^12 random float32
// keys on one Xeon core (17 us at 1000, ~200 us at 4096; an estimate, not a measured crossover).
constexpr Row kRows[] = {
    {"hopper", "cuda:sm_90:", "cuda:sm_90:H200", {std::uint64_t(1) << 22, std::uint64_t(1) << 22,
                                                  std::uint64_t(1) << 22, std::uint64_t(1) << 24},
     std::uint64_t(1) << 31, std::uint64_t(64) << 20, std::uint64_t(1) << 12},
    // Elsewhere: 8-byte indices throughout (the widening pays only where it was measured to), and
    // the same lending rule, which saves allocations wherever a pool serves. The host threshold as
    // Hopper's: PoCL on a 2-core Xeon sorted 1000 float32 keys in 176 us against numpy's 17 and
    // broke even near 2^12 (2026-12-06); a device behind PCIe pays at least Hopper's round trip.
    {"generic", "", "-", {kNever, kNever, kNever, kNever}, 0, std::uint64_t(64) << 20, std::uint64_t(1) << 12},
};

bool matches(const char* row_class, const std::string& device) {
  const std::string c = row_class;
  if (c.empty()) return true;
  return c.back() == ':' ? device.compare(0, c.size(), c) == 0 : device == c;
}

}  // namespace

ArrayLibraryTuning array_library_tuning(const DeviceDescription& device) {
  const std::string cls = device_class(device);
  for (const Row& r : kRows) {
    if (!matches(r.device_class, cls)) continue;
    ArrayLibraryTuning t;
    t.row = r.name;
    t.measured_on = r.measured_on;
    for (std::size_t i = 0; i < 4; ++i) t.narrow_indices_from[i] = r.narrow_from[i];
    t.narrow_indices_max = r.narrow_max;
    t.lend_temporaries_from = r.lend_from;
    t.host_sort_below = r.host_below;
    return t;
  }
  return {};
}

}  // namespace gpusort
