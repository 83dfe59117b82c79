// Radix sort throughput on one device, for tuning runs: u32, f32, u32/u32, u64 and u64/u64 at 2^LOG2N
// uniform keys (device-resident, median of 5 after one warm-up, each result checked), and on CUDA
// devices the onesweep tile shapes (items per thread) of each type. Not a benchmark of record: the
// peers and the method are gpusort-bench's (docs/PERFORMANCE.md).
//
//   radix-probe [--device ID] [--policy K=V,...] [--caller-temporaries] [--skip-items] [--verbose] LOG2N
//
// --policy: a radix policy override for the whole run (the fields of algo::RadixPolicyOverride,
// src/algorithms/radix_policy.hpp; gpusort-bench takes the same string as --radix-policy).
// --caller-temporaries: temporary storage allocated once by the caller, outside the timed sorts (as
// CUB's peer does), so the time excludes the driver's own allocations.
// --skip-items: leave out the tile-shape runs (for policy variants).
// --verbose: the last timed sort of each type prints its phases.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/radix_policy.hpp"
#include "gpusort/gpusort.hpp"

namespace {

using namespace gpusort;

struct ProbeArgs {
  std::string device;
  std::string policy;
  bool caller_temporaries = false;
  bool skip_items = false;
  bool verbose = false;
  int log2n = -1;
};

constexpr const char* kUsage =
    "usage: radix-probe [--device ID] [--policy K=V,...] [--caller-temporaries] [--skip-items] [--verbose] LOG2N\n";

std::optional<ProbeArgs> parse_args(int argc, char** argv) {
  ProbeArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(errc::invalid_argument, std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return std::nullopt;
    } else if (arg == "--device") {
      a.device = value();
    } else if (arg == "--policy") {
      a.policy = value();
    } else if (arg == "--caller-temporaries") {
      a.caller_temporaries = true;
    } else if (arg == "--skip-items") {
      a.skip_items = true;
    } else if (arg == "--verbose") {
      a.verbose = true;
    } else if (!arg.empty() && arg[0] != '-' && a.log2n < 0) {
      int v = -1;
      const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), v);
      if (ec != std::errc() || end != arg.data() + arg.size() || v < 1 || v > 40)
        throw Error(errc::invalid_argument, "LOG2N must be an integer from 1 to 40, not '" + std::string(arg) + "'");
      a.log2n = v;
    } else {
      throw Error(errc::invalid_argument, "unexpected argument '" + std::string(arg) + "'");
    }
  }
  if (a.log2n < 0) throw Error(errc::invalid_argument, "LOG2N is missing");
  return a;
}

double median_after_warmup(std::vector<double> ms) {  // ms[0] is the warm-up
  std::sort(ms.begin() + 1, ms.end());
  return ms[1 + (ms.size() - 1) / 2];
}

class Probe {
 public:
  Probe(Context& ctx, const ProbeArgs& args) : ctx_(ctx), args_(args), n_(std::size_t(1) << args.log2n) {}

  // One type at the policy's own tile shape.
  template <class K>
  void run(std::size_t value_bytes, const char* what) {
    const std::vector<K> host = random_keys<K>();
    DeviceArray<K> keys(ctx_, std::span<const K>(host));
    DeviceBuffer values;
    if (value_bytes) values = DeviceBuffer(ctx_, n_ * value_bytes);
    DeviceBuffer temp;
    if (args_.caller_temporaries)
      temp = DeviceBuffer(ctx_, temporary_storage_bytes(ctx_, key_type_of<K>::value, n_, value_bytes,
                                                        {.algorithm = "radix"}));
    std::vector<double> ms;
    for (int rep = 0; rep < 6; ++rep) {
      keys.upload(host);
      const SortOptions o{.algorithm = "radix", .verbose = rep == 5 && args_.verbose};
      DeviceBuffer* v = value_bytes ? &values : nullptr;
      const SortReport r = args_.caller_temporaries
                               ? sort_device(ctx_, key_type_of<K>::value, keys.buffer(), n_, v, value_bytes, o, temp)
                               : sort_device(ctx_, key_type_of<K>::value, keys.buffer(), n_, v, value_bytes, o);
      ms.push_back(r.sort_ms);
    }
    const double med = median_after_warmup(ms);
    std::printf("radix probe %s n=2^%d: %.3f ms, %.2f Gkeys/s (%s)\n", what, args_.log2n, med, n_ / med / 1e6,
                ctx_.device().name.c_str());
    check_sorted(keys, what);
  }

  // The onesweep tile shapes of one type (CUDA devices).
  template <class K>
  void run_items(std::size_t value_bytes, const char* what, std::initializer_list<std::size_t> items) {
    const std::vector<K> host = random_keys<K>();
    DeviceArray<K> keys(ctx_, std::span<const K>(host));
    DeviceBuffer values;
    if (value_bytes) values = DeviceBuffer(ctx_, n_ * value_bytes);
    for (const std::size_t it : items) {
      std::vector<double> ms;
      for (int rep = 0; rep < 6; ++rep) {
        keys.upload(host);
        ms.push_back(sort_device(ctx_, key_type_of<K>::value, keys.buffer(), n_, value_bytes ? &values : nullptr,
                                 value_bytes, {.algorithm = "radix", .items_per_thread = it})
                         .sort_ms);
      }
      const double med = median_after_warmup(ms);
      std::printf("radix probe %s items=%zu n=2^%d: %.3f ms, %.2f Gkeys/s\n", what, it, args_.log2n, med,
                  n_ / med / 1e6);
      check_sorted(keys, what);
    }
  }

  bool failed() const { return failed_; }

 private:
  template <class K>
  std::vector<K> random_keys() {
    std::vector<K> host(n_);
    for (auto& x : host) x = static_cast<K>(rng_());
    return host;
  }

  template <class K>
  void check_sorted(DeviceArray<K>& keys, const char* what) {
    std::vector<K> back(n_);
    keys.download(back);
    if (!std::is_sorted(back.begin(), back.end(), key_less<K>{})) {
      std::printf("radix probe %s n=2^%d: FAILED, the output is not sorted\n", what, args_.log2n);
      failed_ = true;
    }
  }

  Context& ctx_;
  const ProbeArgs& args_;
  const std::size_t n_;
  std::mt19937_64 rng_{1};
  bool failed_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::optional<ProbeArgs> args = parse_args(argc, argv);
    if (!args) return 0;
    const algo::ScopedRadixPolicyOverride variant(algo::parse_radix_policy_override(args->policy));
    Context ctx(args->device);
    Probe probe(ctx, *args);
    probe.run<std::uint32_t>(0, "u32 keys");
    probe.run<float>(0, "f32 keys");
    if (ctx.device().backend == "cuda" && !args->skip_items) {
      probe.run_items<std::uint32_t>(0, "u32 keys", {24, 28, 32});
      probe.run_items<std::uint32_t>(4, "u32/u32 pairs", {16, 20, 24, 28, 32});
      probe.run_items<std::uint64_t>(0, "u64 keys", {12, 16, 20, 24});
      probe.run_items<std::uint64_t>(8, "u64/u64 pairs", {12, 16, 20});
    }
    probe.run<std::uint32_t>(4, "u32/u32 pairs");
    probe.run<std::uint64_t>(0, "u64 keys");
    probe.run<std::uint64_t>(8, "u64/u64 pairs");
    return probe.failed() ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "radix-probe: error: %s\n", e.what());
    return 2;
  }
}
