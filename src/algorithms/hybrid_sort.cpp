// Hybrid CPU+GPU merge sort ("hybrid", Locicero's hybrid): the device sorts sections and merges them
// (section-merge passes) up to run width W; the keys then come to the host, whose threads merge the
// last K levels (std::thread; each level's pair merges are cut by merge-path partitioning into at
// least as many pieces as there are threads), and the result goes back to the device.
// K = SortOptions::host_merge_levels, or "host-levels=K" in merge_variant, or automatic:
// floor(log2(hardware threads)), at least 1 -- the levels at which the run count has fallen to
// about the thread count, where the device's per-level launch overhead is no longer amortised and
// the host can still give every thread a whole pair. Clamped to the levels there are.
#include <algorithm>
#include <thread>
#include <utility>

#include "algorithms/drivers.hpp"
#include "algorithms/host_side.hpp"
#include "algorithms/section_merge.hpp"
#include "core/merge_path.hpp"
#include "core/parallel_for.hpp"

namespace gpusort::algo {
namespace {

struct Entry {
  std::uint64_t key;    // ordered key
  std::uint64_t index;  // original position
};

// K of merge_variant "host-levels=K" (0..64, digits only), or -1 when merge_variant is empty.
int variant_host_levels(const std::string& variant) {
  if (variant.empty()) return -1;
  const std::string prefix = "host-levels=";
  const std::string digits = variant.rfind(prefix, 0) == 0 ? variant.substr(prefix.size()) : std::string();
  int k = 0;
  bool ok = !digits.empty() && digits.size() <= 2;  // two digits: no overflow, 0..99 before the range check
  for (std::size_t i = 0; ok && i < digits.size(); ++i) {
    ok = digits[i] >= '0' && digits[i] <= '9';
    k = k * 10 + (digits[i] - '0');
  }
  if (!ok || k > kMaxHostMergeLevels)
    throw Error(errc::invalid_argument, "SortOptions::merge_variant of algorithm 'hybrid' must be 'host-levels=K' with K "
                                        "from 0 to " + std::to_string(kMaxHostMergeLevels) + " (got '" + variant + "')");
  return k;
}

int requested_host_levels(const SortOptions& o) {
  if (o.host_merge_levels >= 0) return o.host_merge_levels;
  return variant_host_levels(o.merge_variant);
}

bool entry_less(const Entry& x, const Entry& y) { return x.key < y.key; }

struct Task {
  const Entry *a, *b;
  std::uint64_t la, lb;
  Entry* out;
};

// The tasks are equal pieces by construction (merge-path splits), so a static split suffices.
void run_tasks(const std::vector<Task>& tasks, unsigned threads) {
  core::parallel_for(tasks.size(), std::min<std::size_t>(threads, tasks.size()),
                     [&](std::size_t, std::size_t begin, std::size_t end) {
                       for (std::size_t t = begin; t < end; ++t) {
                         const Task& k = tasks[t];
                         std::merge(k.a, k.a + k.la, k.b, k.b + k.lb, k.out, entry_less);
                       }
                     });
}

// One host level: runs of `width` entries merged pairwise from src to dst.
void host_merge_level(const std::vector<Entry>& src, std::vector<Entry>& dst, std::uint64_t width, unsigned threads) {
  const std::uint64_t n = src.size(), pairs = ceil_div(n, 2 * width);
  const std::uint64_t parts = std::max<std::uint64_t>(1, ceil_div(threads, pairs));
  std::vector<Task> tasks;
  for (std::uint64_t p = 0; p < pairs; ++p) {
    const std::uint64_t start = p * 2 * width, mid = std::min(start + width, n), end = std::min(start + 2 * width, n);
    const Entry *a = src.data() + start, *b = src.data() + mid;
    const std::uint64_t la = mid - start, lb = end - mid, total = la + lb;
    std::uint64_t prev_d = 0, prev_i = 0;
    for (std::uint64_t q = 1; q <= parts; ++q) {
      const std::uint64_t d = total * q / parts;
      const std::uint64_t i = core::merge_path_split(a, la, b, lb, d, entry_less);
      if (d > prev_d)
        tasks.push_back({a + prev_i, b + (prev_d - prev_i), i - prev_i, (d - i) - (prev_d - prev_i), dst.data() + start + prev_d});
      prev_d = d;
      prev_i = i;
    }
  }
  run_tasks(tasks, threads);
}

// Merge levels in all, and how many of them the host does.
std::pair<int, int> split_levels(const SortOptions& options, std::uint64_t n, unsigned threads) {
  const int requested = requested_host_levels(options);
  int levels = 0;
  for (std::uint64_t w = section_length(options); w < n; w *= 2) ++levels;
  int host_levels = requested;
  if (host_levels < 0) {
    host_levels = 1;
    while ((2u << host_levels) <= threads) ++host_levels;
  }
  return {levels, std::min(host_levels, levels)};
}

unsigned host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

void hybrid_check_variants(const SortOptions& options) {
  variant_host_levels(options.merge_variant);
  if (!options.merge_variant.empty() && options.host_merge_levels != -1)
    throw Error(errc::invalid_argument, "algorithm 'hybrid' takes its host merge levels from SortOptions::host_merge_levels "
                                        "or from SortOptions::merge_variant 'host-levels=K', not both");
}

std::uint64_t hybrid_temp_bytes(const TempQuery& q) {
  const auto [levels, host_levels] = split_levels(q.options, q.n, host_threads());
  if (q.n <= 1) return 0;
  return section_merge_temp_bytes(q, levels - host_levels);
}

void hybrid_sort(SortJob& job) {
  hybrid_check_variants(job.options);  // a bad variant is an error even for n <= 1
  if (job.n <= 1) return;
  const std::uint64_t section = section_length(job);
  const unsigned threads = host_threads();
  const auto [levels, host_levels] = split_levels(job.options, job.n, threads);
  const std::uint64_t width = section_merge_passes(job, section, levels - host_levels);
  if (host_levels == 0) return;

  HostCopy host = download(job);
  std::vector<std::uint64_t> ok = ordered_keys(job, host);
  std::vector<Entry> src(job.n), dst(job.n);
  for (std::uint64_t i = 0; i < job.n; ++i) src[i] = {ok[i], i};
  for (std::uint64_t w = width; w < job.n; w *= 2) {
    host_merge_level(src, dst, w, threads);
    std::swap(src, dst);
  }
  for (std::uint64_t i = 0; i < job.n; ++i) ok[i] = src[i].index;
  upload_permuted(job, host, ok);
}

}  // namespace gpusort::algo
