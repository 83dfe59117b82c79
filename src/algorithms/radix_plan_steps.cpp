// What radix will run for a shape, in words (gpusort plan): the path radix_policy.cpp chooses, each
// launch with its tile shape and switches, and the choices the driver makes only once it has read
// the keys' histogram.
#include <string>
#include <vector>

#include "algorithms/drivers.hpp"
#include "algorithms/radix_policy.hpp"

namespace gpusort::algo {
namespace {

std::string shape(std::uint32_t threads, std::uint64_t items) {
  return std::to_string(threads) + " threads x " + std::to_string(items) + " keys";
}

std::string onesweep_switches(const OnesweepPolicy& o) {
  std::string s = ", " + std::to_string(o.min_blocks) + " blocks per SM";
  auto flag = [&](bool on, const char* name) {
    if (on) s += std::string(", ") + name;
  };
  flag(o.split_stage, "values staged beside the keys");
  flag(o.recompute_digit, "digits recomputed at the scatter");
  flag(o.float_flag, "float sign flip unless -0/NaN");
  flag(o.packed_pairs, "pairs packed between the first and last pass");
  flag(o.uniform_count, "warp-uniform digits counted once");
  flag(o.overlap_passes, "passes launched as programmatic dependents");
  flag(o.early_trigger, "next pass triggered before the scatter");
  if (o.snapshot) s += ", look-back snapshot of " + std::to_string(o.snapshot);
  if (o.portion) s += ", launches of " + std::to_string(o.portion) + " keys";
  return s;
}

void onesweep_steps(const RadixPolicy& p, std::vector<std::string>& steps) {
  const OnesweepPolicy& o = p.onesweep;
  steps.push_back("radix_histogram_lanes: the " + std::to_string(p.passes) + " passes' digit histograms in one read (" +
                  std::to_string(o.hist_group) + " threads, " + std::to_string(o.hist_copies) + " counter copies)");
  if (p.n > o.no_skip_max_n)
    steps.push_back("histogram read back while the first pass runs: later passes whose digit is the same for "
                    "every key are skipped");
  const std::string pass = "radix_onesweep (" + shape(o.group, o.items) + " a tile" + onesweep_switches(o) + ")";
  const SegmentPolicy& seg = p.segments;
  if (seg.threads != 0) {
    steps.push_back("where no top digit holds more than " + std::to_string(seg.skew_percent) +
                    "% of an even share: 2 passes of " + pass + " by the top 16 bits, then radix_segment_tiles_" +
                    std::to_string(seg.threads) + "_" + std::to_string(seg.items) + " sorts each segment in shared memory (" +
                    "rank form " + std::to_string(seg.rank_form) + (seg.packed ? ", packed pairs" : "") +
                    (seg.interleaved ? ", interleaved pairs" : "") + ")");
    steps.push_back("otherwise: up to " + std::to_string(p.passes) + " passes of " + pass);
  } else {
    steps.push_back("up to " + std::to_string(p.passes) + " passes of " + pass);
  }
}

}  // namespace

std::vector<std::string> radix_plan_steps(const TempQuery& q) {
  checked_group_size(q.device, q.options.work_group_size, PortablePolicy{}.group);
  const RadixPolicy p = choose_radix_policy(q.device.description(), q.type, q.value_bytes, q.n, q.options);
  std::vector<std::string> steps;
  switch (p.path) {
    case RadixPath::single_tile:
      if (p.single_tile.bitonic_log2)
        steps.push_back("radix_small_bitonic: one block, a bitonic network over 2^" +
                        std::to_string(p.single_tile.bitonic_log2) + " elements");
      else
        steps.push_back("radix_single_tile: one block of " + shape(p.single_tile.threads, p.single_tile.items) +
                        ", every digit pass in shared memory");
      break;
    case RadixPath::single_group:
      steps.push_back("radix_single_group: one work-group of " + std::to_string(p.single_group.group) + ", " +
                      std::to_string(p.single_group.bits) + "-bit digits in local memory");
      break;
    case RadixPath::onesweep:
    case RadixPath::segments:
      onesweep_steps(p, steps);
      break;
    case RadixPath::portable_onesweep:
      steps.push_back("radix_histogram: every pass's digit histogram; passes whose digit is uniform are skipped");
      steps.push_back("up to " + std::to_string(p.passes) + " passes of radix_onesweep_portable (" +
                      shape(p.portable.group, p.portable.items) + " a tile, look-back window " +
                      std::to_string(p.portable_onesweep.lookback_window) + ")");
      break;
    case RadixPath::portable:
      steps.push_back("radix_histogram: every pass's digit histogram; passes whose digit is uniform are skipped");
      steps.push_back("up to " + std::to_string(p.passes) + " passes of radix_passes count + scan + scatter (" +
                      shape(p.portable.group, p.portable.items) + " a tile, " +
                      std::to_string(p.portable.groups_per_compute_unit) + " groups per compute unit)");
      break;
  }
  return steps;
}

}  // namespace gpusort::algo
