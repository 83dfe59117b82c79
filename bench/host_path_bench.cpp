// gpusort-host-bench: host data sorted through the device, against the link's floor measured in
// the same run (docs/PERFORMANCE.md, "Host data").
//  - floor: pinned copy rates, up and down, of one large pinned buffer (the device's own best);
//    a case's floor is its bytes up / up rate + bytes down / down rate;
//  - cases: gpusort::sort / sort_pairs of a std::vector (host span in, host span out), in one
//    piece or through a device budget (out-of-core), the median of repeats on fresh copies of one
//    random input; every result is checked (sorted, same multiset, pairs kept together).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "core/host_array.hpp"
#include "core/parallel_for.hpp"
#include "gpusort/gpusort.hpp"
#include "runtime/device.hpp"

namespace {

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::size_t threads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void parallel_copy(void* dst, const void* src, std::size_t bytes) {
  gpusort::core::parallel_for(bytes, threads(), [&](std::size_t, std::size_t b, std::size_t e) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, e - b);
  });
}

// n u32 in huge-page host memory, first touched by all threads (a std::vector's zero fill would
// fault 16 GiB in on one thread: minutes on a virtual machine).
struct U32Array {
  gpusort::core::HostArray bytes;
  std::size_t n = 0;
  explicit U32Array(std::size_t count) : bytes(gpusort::core::make_host_array(std::max<std::size_t>(1, count * 4))), n(count) {
    gpusort::core::parallel_for(n * 4, threads(), [&](std::size_t, std::size_t b, std::size_t e) {
      std::memset(bytes.get() + b, 0, e - b);
    });
  }
  std::uint32_t* data() const { return reinterpret_cast<std::uint32_t*>(bytes.get()); }
  std::uint32_t& operator[](std::size_t i) const { return data()[i]; }
  std::size_t size() const { return n; }
  std::span<std::uint32_t> span() const { return {data(), n}; }
};

struct Rates {
  double up_gbs = 0, down_gbs = 0;
};

// Pinned copy rates of `bytes` in one piece, median of 5 each way.
Rates pinned_rates(gpusort::rt::Device& dev, std::size_t bytes) {
  auto host = dev.alloc_host(bytes);
  std::memset(host->data(), 1, bytes);
  auto buf = dev.alloc(bytes);
  std::vector<double> up, down;
  for (int r = 0; r < 6; ++r) {
    auto t0 = clock_type::now();
    dev.write(*buf, 0, host->data(), bytes);
    if (r) up.push_back(ms_since(t0));
    t0 = clock_type::now();
    dev.read(*buf, 0, host->data(), bytes);
    if (r) down.push_back(ms_since(t0));
  }
  return {bytes / median(up) / 1e6, bytes / median(down) / 1e6};
}

struct Case {
  bool pairs = false;
  int log2 = 28;
  std::uint64_t budget = 0;  // SortOptions::device_memory_limit; 0 = the device's default
};

// keys: u32; values (pairs): u32 = hash of the key, so pairs torn apart show.
std::uint32_t value_of(std::uint32_t k) { return std::uint32_t(splitmix(k)); }

bool check(const U32Array& keys, const U32Array* values, std::uint64_t sum,
           std::uint64_t xsum) {
  const std::size_t n = keys.size(), t = threads();
  std::vector<int> ok(t, 1);
  std::vector<std::uint64_t> s(t), x(t);
  // Each thread sums into locals and stores once: neighbouring slots of s and x share cache lines,
  // and updating them per element from 16 threads took seconds per 2^28 keys.
  gpusort::core::parallel_for(n, t, [&](std::size_t p, std::size_t b, std::size_t e) {
    int good = 1;
    std::uint64_t sum = 0, xsum = 0;
    for (std::size_t i = b; i < e; ++i) {
      if (i + 1 < n && keys[i] > keys[i + 1]) good = 0;
      if (values && (*values)[i] != value_of(keys[i])) good = 0;
      sum += keys[i];
      xsum += splitmix(keys[i]);
    }
    ok[p] = good, s[p] = sum, x[p] = xsum;
  });
  std::uint64_t ts = 0, tx = 0;
  for (std::size_t p = 0; p < t; ++p) {
    if (!ok[p]) return false;
    ts += s[p];
    tx += x[p];
  }
  return ts == sum && tx == xsum;
}

bool run_case(gpusort::Context& ctx, const Case& c, const Rates& rates, int repeats, unsigned host_threads,
              bool verbose) {
  const std::size_t n = std::size_t(1) << c.log2;
  // The setup's own time is printed: on some virtual machines first touching tens of GiB of fresh
  // memory took minutes, and a case must show where its time went.
  const auto t_setup = clock_type::now();
  U32Array input(n);
  const double input_ms = ms_since(t_setup);
  gpusort::core::parallel_for(n, threads(), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) input[i] = std::uint32_t(splitmix(i * 0x2545F4914F6CDD1Dull + c.log2));
  });
  std::vector<std::uint64_t> sums(threads()), xsums(threads());
  gpusort::core::parallel_for(n, threads(), [&](std::size_t p, std::size_t b, std::size_t e) {
    std::uint64_t sum = 0, xsum = 0;  // locals: see check()
    for (std::size_t i = b; i < e; ++i) sum += input[i], xsum += splitmix(input[i]);
    sums[p] = sum, xsums[p] = xsum;
  });
  std::uint64_t sum = 0, xsum = 0;
  for (std::size_t p = 0; p < sums.size(); ++p) sum += sums[p], xsum += xsums[p];
  U32Array keys(n), values(c.pairs ? n : 0), input_values(c.pairs ? n : 0);
  if (c.pairs)
    gpusort::core::parallel_for(n, threads(), [&](std::size_t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) input_values[i] = value_of(input[i]);
    });
  std::printf("# setup of 2^%d %s: input array %.0f ms, all arrays %.0f ms\n", c.log2, c.pairs ? "pairs" : "keys",
              input_ms, ms_since(t_setup));
  std::fflush(stdout);
  gpusort::SortOptions opt;
  opt.device_memory_limit = c.budget;
  opt.host_threads = host_threads;
  opt.verbose = verbose;
  std::vector<double> ms, up, sort, down, split;
  std::size_t chunks = 1;
  bool all_ok = true;
  for (int r = 0; r <= repeats; ++r) {  // r = 0 warms up (compiles, pins the staging slots)
    parallel_copy(keys.data(), input.data(), n * 4);
    if (c.pairs) parallel_copy(values.data(), input_values.data(), n * 4);
    const auto t0 = clock_type::now();
    gpusort::SortReport rep = c.pairs ? gpusort::sort_pairs(ctx, keys.span(), values.span(), opt)
                                      : gpusort::sort(ctx, keys.span(), opt);
    const double t = ms_since(t0);
    all_ok = all_ok && check(keys, c.pairs ? &values : nullptr, sum, xsum);
    if (r == 0) continue;
    ms.push_back(t);
    up.push_back(rep.upload_ms);
    sort.push_back(rep.sort_ms);
    down.push_back(rep.download_ms);
    split.push_back(rep.split_ms);
    chunks = rep.chunks;
  }
  const double bytes = double(n) * (c.pairs ? 8 : 4);
  const double passes = chunks > 1 ? 2 : 1;
  const double floor_ms = passes * (bytes / (rates.up_gbs * 1e6) + bytes / (rates.down_gbs * 1e6));
  const double t = median(ms);
  std::printf("%-6s 2^%-2d %-10s %6zu %10.2f %10.2f %6.2fx %8.2f %8.2f %8.2f %8.2f  %s\n", c.pairs ? "pairs" : "keys",
              c.log2, c.budget ? (c.budget % (1ull << 30) ? std::to_string(c.budget >> 20) + "MiB" : std::to_string(c.budget >> 30) + "GiB").c_str() : "default", chunks, t, floor_ms,
              t / floor_ms, median(up), median(sort), median(down), median(split), all_ok ? "ok" : "WRONG");
  std::fflush(stdout);
  return all_ok;
}

// One --case: keys:28 | pairs:31 | keys:32:4G | keys:24:64M (the last field: the device budget).
std::optional<Case> parse_case(const std::string& text) {
  const auto bad = [] { return std::nullopt; };
  Case c;
  const auto p1 = text.find(':');
  const std::string what = text.substr(0, p1);
  if (p1 == std::string::npos || (what != "keys" && what != "pairs")) return bad();
  c.pairs = what == "pairs";
  const auto p2 = text.find(':', p1 + 1);
  const std::string log2 = text.substr(p1 + 1, p2 == std::string::npos ? std::string::npos : p2 - p1 - 1);
  const auto [end, ec] = std::from_chars(log2.data(), log2.data() + log2.size(), c.log2);
  if (ec != std::errc() || end != log2.data() + log2.size() || c.log2 < 1 || c.log2 > 40) return bad();
  if (p2 != std::string::npos) {
    const std::string b = text.substr(p2 + 1);
    std::uint64_t amount = 0;
    const auto [bend, bec] = std::from_chars(b.data(), b.data() + b.size(), amount);
    const std::size_t digits = static_cast<std::size_t>(bend - b.data());
    if (bec != std::errc() || digits == 0 || digits + 1 != b.size() || (b.back() != 'M' && b.back() != 'G') ||
        amount == 0 || amount > (std::uint64_t(1) << 20))
      return bad();
    c.budget = amount << (b.back() == 'M' ? 20 : 30);
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device;
  int repeats = 5;
  unsigned host_threads = 0;
  bool verbose = false;
  std::size_t floor_mib = 1024;
  std::vector<Case> cases;
  CLI::App app{"gpusort-host-bench: host data sorted through the device, against the pinned-copy floor measured in "
               "the same run",
               "gpusort-host-bench"};
  bench::keep_last_values(app);
  app.add_option("--device", device, "cuda:N or opencl:P:D (default: $GPUSORT_DEVICE or the best device)");
  app.add_option("--repeats", repeats, "Timed repeats per case, median reported after a warm-up")
      ->check(bench::whole_number(1, 1000))->capture_default_str();
  app.add_option("--threads", host_threads, "SortOptions::host_threads (0: the library's default)")
      ->check(bench::whole_number(0, 1 << 20))->capture_default_str();
  app.add_flag("--verbose", verbose, "Print each sort's phases");
  app.add_option("--floor-mib", floor_mib, "MiB of the pinned copies that measure the floor")
      ->check(bench::whole_number(1, std::uint64_t(1) << 20))->capture_default_str();
  std::vector<std::string> case_texts;
  const CLI::Validator case_form(
      [](std::string& text) -> std::string {
        return parse_case(text) ? "" : "'" + text + "' is not keys|pairs:LOG2[:BUDGET] (LOG2 1..40, BUDGET e.g. 4G or 64M)";
      },
      "CASE");
  app.add_option("--case", case_texts,
         "keys|pairs:LOG2[:BUDGET], repeatable: u32 keys or u32/u32 pairs, 2^LOG2 of them, through a device budget "
         "(G or M; default: the device's own); default keys:24")
      ->check(case_form)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  if (const auto rc = bench::parse_command_line(app, argc, argv)) return *rc;
  for (const std::string& text : case_texts) cases.push_back(*parse_case(text));
  if (cases.empty()) cases = {{false, 24, 0}};
  try {
    gpusort::Context ctx(device);
    gpusort::rt::Device& dev = ctx.runtime_device();
    const Rates rates = pinned_rates(dev, floor_mib << 20);
    std::printf("# gpusort-host-bench on %s (%s), %zu host threads, version %s\n", ctx.device().id.c_str(),
                ctx.device().name.c_str(), threads(), std::string(gpusort::version()).c_str());
    std::printf("# pinned copies of %zu MiB: up %.1f GB/s, down %.1f GB/s (median of 5); floor = bytes / rate each way, "
                "twice for out-of-core\n",
                floor_mib, rates.up_gbs, rates.down_gbs);
    std::printf("# %-4s %-4s %-10s %6s %10s %10s %7s %8s %8s %8s %8s  %s\n", "what", "n", "budget", "chunks",
                "median_ms", "floor_ms", "ratio", "up_ms", "sort_ms", "down_ms", "split_ms", "check");
    bool all_ok = true;
    for (const Case& c : cases) all_ok = run_case(ctx, c, rates, repeats, host_threads, verbose) && all_ok;
    if (!all_ok) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusort-host-bench: %s\n", e.what());
    return 1;
  }
}
