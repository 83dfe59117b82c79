// Where a small radix sort's time goes on the host (lab/notes/radix-tuning.md, fifteenth round): the
// host cost of each step of radix_sort's single-tile path (2000 calls each), and the device time
// from a start event for the whole driver against a bare launch of the same kernel.
// Built with -DGPUSORT_BUILD_LAB=ON (lab/CMakeLists.txt; it reaches into src/).
// Usage: radix-host-path-probe [n (4096)] [device (cuda:0)] [bitonic]   (CUDA devices: the radix
// single tile, with the bitonic network of integer keys switched off; "bitonic": the network instead)
// The per-step loops do not wait for the device, so a step faster than the kernel (launch, the
// driver as a whole) reads as the kernel's time once the queue is full.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "algorithms/drivers.hpp"
#include "algorithms/radix_policy.hpp"
#include "gpusort/context.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace {
using clk = std::chrono::steady_clock;
double us_since(clk::time_point t) { return std::chrono::duration<double, std::micro>(clk::now() - t).count(); }
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  using namespace gpusort;
  const std::uint64_t n = argc > 1 ? std::stoull(argv[1]) : 4096;
  const char* device_id = argc > 2 ? argv[2] : "cuda:0";
  const bool bitonic = argc > 3 && std::string(argv[3]) == "bitonic";
  // the driver below runs under the same override as the policy the probe times
  const algo::ScopedRadixPolicyOverride path(bitonic ? algo::RadixPolicyOverride{} : algo::RadixPolicyOverride{.bitonic_max = 0});
  Context ctx(device_id);
  rt::Device& dev = ctx.runtime_device();
  SortOptions opt;
  opt.algorithm = "radix";
  const algo::RadixPolicy p = algo::choose_radix_policy(dev.description(), key_type::u32, 0, n, opt);
  if (p.path != algo::RadixPath::single_tile || bitonic != (p.single_tile.bitonic_log2 != 0)) {
    std::fprintf(stderr, "radix-host-path-probe: %llu u32 keys on %s do not take the %s\n", (unsigned long long)n,
                 device_id, bitonic ? "bitonic network" : "single tile");
    return 2;
  }
  std::vector<std::uint32_t> input(n);
  std::mt19937 gen(1);
  for (auto& x : input) x = gen();
  auto keys = dev.alloc(n * 4);
  dev.write(*keys, 0, input.data(), n * 4);
  algo::SortJob job{dev, key_type::u32, n, 0, *keys, nullptr, opt, nullptr};
  for (int i = 0; i < 20; ++i) algo::radix_sort(job);  // programs built, caches warm
  dev.finish();

  constexpr int kCalls = 2000;
  auto timed = [&](auto&& step) {
    const auto t = clk::now();
    for (int i = 0; i < kCalls; ++i) step();
    const double us = us_since(t) / kCalls;
    dev.finish();
    return us;
  };
  const double driver = timed([&] { algo::radix_sort(job); });
  const double policy = timed([&] { (void)algo::choose_radix_policy(dev.description(), key_type::u32, 0, n, opt); });
  std::vector<std::string> defines;
  const double define_list = timed([&] { defines = algo::to_defines(p, p.path); });
  rt::Program* program = nullptr;
  const double lookup = timed([&] { program = &dev.program(algo::radix_program_file(p.path), defines); });
  const std::string name = bitonic ? "radix_small_bitonic_" + std::to_string(p.single_tile.bitonic_log2)
                                   : "radix_single_tile_" + std::to_string(p.single_tile.threads) + "_" +
                                         std::to_string(p.single_tile.items);
  rt::Kernel* kernel = nullptr;
  const double kernel_lookup = timed([&] { kernel = &program->kernel(name); });
  const rt::Launch launch{1, p.single_tile.threads, algo::single_tile_local_bytes(p.single_tile, 4, 0)};
  auto bare_launch = [&] { dev.launch(*kernel, launch, {*keys, *keys, *keys, *keys, static_cast<std::uint32_t>(n), std::uint32_t(0), std::uint32_t(0)}); };
  const double launch_us = timed(bare_launch);
  const double record = timed([&] { (void)dev.record(); });
  std::printf("%llu u32 keys on %s, %s: host us per call: driver %.2f | policy %.2f, -D list %.2f, program lookup %.2f, "
              "kernel lookup %.2f, launch %.2f, event %.2f\n",
              (unsigned long long)n, device_id, name.c_str(), driver, policy, define_list, lookup, kernel_lookup,
              launch_us, record);

  // Device time from a start event on an idle device (as gpusort-bench times a sort).
  std::vector<double> whole, bare, back_to_back;
  auto event_us = [&](auto&& work, int times) {
    dev.write(*keys, 0, input.data(), n * 4);
    dev.finish();
    auto start = dev.record();
    for (int i = 0; i < times; ++i) work();
    auto stop = dev.record();
    return stop->elapsed_ms_since(*start) * 1e3 / times;
  };
  for (int r = 0; r < 41; ++r) {
    whole.push_back(event_us([&] { algo::radix_sort(job); }, 1));
    bare.push_back(event_us(bare_launch, 1));
    back_to_back.push_back(event_us(bare_launch, 10));
  }
  std::printf("device us from the start event (median of 41): driver %.2f, bare launch %.2f, back-to-back launches %.2f each\n",
              median(whole), median(bare), median(back_to_back));
  return 0;
}
