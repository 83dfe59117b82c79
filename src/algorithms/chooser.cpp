#include "algorithms/chooser.hpp"

#include "algorithms/radix_policy.hpp"

namespace gpusort::algo {
namespace {

std::string all_names() {
  std::string s;
  for (const auto& a : registry()) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

std::string stable_names() {
  std::string s;
  for (const auto& a : registry())
    if (a.can_be_stable) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

// Preference for "auto", best first; the first one present that fits the request wins.
constexpr const char* auto_preference_unstable[] = {"radix", "merge", "bitonic"};
constexpr const char* auto_preference_stable[] = {"radix", "merge", "section-merge"};
// Other GPUs without the CUDA backend sort radix keys with the portable onesweep passes
// (radix_onesweep_portable.cl; NVIDIA's too until commit 477f4a7, where these figures come from).
// When the merge sort was put first there it outran them for keys
// (NVIDIA OpenCL, H200, 2026-11-26, commit f08e573: 2^28 u32 radix 26.3 ms, merge 15.3). Since commit
// f226d15 (warp votes on NVIDIA GPUs; one call, H200) radix is faster at 2^28 for u32, u32/u32, u64
// and u64/u64 (12.9 / 16.9 / 26.0 / 43.4 ms against merge's 16.1 / 28.1 / 29.0 / 46.7), but slower
// for 64-bit keys at 2^24 and below; other vendors' GPUs rank with the split rounds (never measured
// there). So merge stays first on them. Both orders are stable.
constexpr const char* auto_preference_opencl_gpu[] = {"merge", "radix", "section-merge"};

// NVIDIA's GPUs under OpenCL run radix_onesweep.cl, CUDA's onesweep pass, below 2^30 keys
// (radix_policy.cpp). H200, 2026-11-26, one call, radix / merge ms (u32, u32/u32, u64, u64/u64):
// 2^16 0.094 / 0.092, 0.094 / 0.092, 0.144 / 0.109, 0.149 / 0.118; 2^20 0.122 / 0.161, 0.128 / 0.166,
// 0.162 / 0.177, 0.227 / 0.203; 2^24 0.488 / 0.991, 0.674 / 1.550, 1.24 / 1.81, 2.21 / 3.16; 2^28 6.87 /
// 15.7, 10.5 / 27.5, 16.7 / 29.1, 32.0 / 46.7. So radix from 2^20 keys; below, and from 2^30 (where
// radix takes its count + scan + scatter passes there), the merge sort.
constexpr std::uint64_t kNvidiaOpenclRadixFrom = std::uint64_t(1) << 20;

bool opencl_gpu(const DeviceDescription& device) { return device.is_gpu && device.backend != "cuda"; }
bool nvidia_opencl_radix_size(const DeviceDescription& device, std::uint64_t n) {
  return n >= kNvidiaOpenclRadixFrom && onesweep_on_nvidia_opencl(device, n);
}

}  // namespace

const Algorithm& choose(const DeviceDescription& device, const SortOptions& options, std::uint64_t n) {
  const Algorithm* chosen = nullptr;
  if ((options.algorithm.empty() || options.algorithm == "auto") && !options.comparator.empty()) {
    chosen = find("merge");  // the algorithm that takes a run-time order
    if (!chosen) throw Error(errc::unsupported, "SortOptions::comparator needs the merge algorithm, absent from this build");
  } else if (options.algorithm.empty() || options.algorithm == "auto") {
    if (opencl_gpu(device) && !nvidia_opencl_radix_size(device, n)) {
      for (const char* name : auto_preference_opencl_gpu)
        if ((chosen = find(name))) break;
      if (!chosen) throw Error(errc::unsupported, "this build has none of merge, radix, section-merge");
    } else if (options.stable) {
      for (const char* name : auto_preference_stable)
        if ((chosen = find(name))) break;
      if (!chosen)
        throw Error(errc::unsupported, "a stable sort was requested but this build has no stable algorithm yet");
    } else {
      for (const char* name : auto_preference_unstable)
        if ((chosen = find(name))) break;
    }
  } else {
    chosen = find(options.algorithm);
    if (!chosen)
      throw Error(errc::invalid_argument, "unknown algorithm '" + options.algorithm + "' (known: " + all_names() + ")");
  }
  if (options.stable && !chosen->can_be_stable)
    throw Error(errc::invalid_argument, "algorithm '" + chosen->name + "' cannot sort stably; drop SortOptions::stable or "
                                        "choose a stable algorithm with SortOptions::algorithm (stable: " +
                                            stable_names() + ")");
  return *chosen;
}

void check_size(const Algorithm& algorithm, std::uint64_t n) {
  if (algorithm.max_n != 0 && n > algorithm.max_n)
    throw Error(errc::unsupported, "algorithm '" + algorithm.name + "' is O(n^2) and accepts at most " +
                                       std::to_string(algorithm.max_n) + " keys (got " + std::to_string(n) + "); use " +
                                       algorithm.too_large_hint + " instead");
}

}  // namespace gpusort::algo
