#pragma once
// gpusort-bench internals shared by its source files: rows, data generation, verification, timing.
#include <algorithm>
#include <atomic>
#include <thread>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/key_generator.hpp"
#include "core/table_text.hpp"
#include "gpusort/gpusort.hpp"

namespace bench {

// One line of the CSV/JSON output. Empty numbers are NaN (written as empty cells / null).
struct Row {
  std::string mode;  // sweep, local, merge-pass, peer
  std::string algorithm;
  std::string variant;
  std::string key_type;
  std::string value_type;  // "" for keys only
  std::uint64_t n = 0;
  std::string distribution;
  std::string device;
  std::uint32_t work_group_size = 0;  // 0 = the algorithm's default
  int repeats = 0;
  double median_ms = NAN;
  double min_ms = NAN;
  double keys_per_s = NAN;
  double gb_per_s = NAN;
  double frac_of_copy_bw = NAN;
  double ratio_to_cub_radix = NAN;
  double ratio_to_cub_merge = NAN;
  double upload_ms = NAN;  // host -> device transfer of the input (reported, never in median_ms)
  std::string status = "ok";
};

// What measured the rows: gpusort::version() and the source tree's commit, in every CSV row.
struct Provenance {
  std::string version;
  std::string commit;
};

void write_csv(const std::string& path, const std::vector<Row>& rows, const Provenance& from);
void write_json(const std::string& path, const std::vector<Row>& rows, const std::string& meta_json);
// Fills frac_of_copy_bw and ratio_to_cub_* (against the faster num_items variant of each CUB peer) from the rows present.
void fill_derived(std::vector<Row>& rows, double copy_gb_per_s);
// The fields every benchmark's JSON meta begins with: mode, command line, date (UTC), gpusort's
// version and commit, and the device; each benchmark adds its own after them.
gpusort::core::JsonObject run_meta(const std::string& mode, const std::string& command_line,
                                   const gpusort::DeviceDescription& device);

// Entry i of an index array of 4- or 8-byte entries (as a result's indices come back).
inline std::uint64_t index_at(const void* indices, std::size_t index_bytes, std::uint64_t i) {
  const unsigned char* at = static_cast<const unsigned char*>(indices) + index_bytes * i;
  if (index_bytes == 4) {
    std::uint32_t v;
    std::memcpy(&v, at, 4);
    return v;
  }
  std::uint64_t v;
  std::memcpy(&v, at, 8);
  return v;
}

inline double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

using clock_type = std::chrono::steady_clock;
inline double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

// --- data ---------------------------------------------------------------------------------
// Inputs come from the shared generator (core/key_generator.hpp), as for `gpusort gen` and the tests.
using dist = gpusort::core::Dist;
// The benchmark's distributions (organ-pipe and specials are correctness cases, not timed ones).
inline constexpr dist all_dists[] = {dist::uniform, dist::entropy, dist::sorted, dist::reverse, dist::few_unique,
                                     dist::all_equal};
inline std::string dist_name(dist d) { return gpusort::core::distribution_name(d); }
bool parse_dist(const std::string& s, dist& out);

template <class K>
std::vector<K> make_keys(std::size_t n, dist d, std::uint64_t seed) {
  std::vector<K> v(n);
  gpusort::core::generate_keys(v.data(), n, gpusort::core::Distribution{d}, seed);
  return v;
}

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Runs f(begin, end) over [0, n) in chunks on all hardware threads (the checks below are O(n) and
// at 2^28 keys would otherwise cost more than the sorts they check).
template <class F>
void parallel_chunks(std::size_t n, F&& f) {
  unsigned t = std::max(1u, std::min(std::thread::hardware_concurrency(), 32u));
  if (n < (std::size_t(1) << 18) || t == 1) {
    f(std::size_t(0), n);
    return;
  }
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < t; ++i) threads.emplace_back([&, i] { f(n * i / t, n * (i + 1) / t); });
  for (auto& th : threads) th.join();
}

// An order-independent fingerprint of a multiset of keys (by bits; -0.0 and +0.0 differ, which
// is right: a sort moves keys, it never rewrites them).
template <class K>
std::uint64_t multiset_hash(const std::vector<K>& v) {
  std::atomic<std::uint64_t> a{0}, b{0};
  parallel_chunks(v.size(), [&](std::size_t lo, std::size_t hi) {
    std::uint64_t la = 0, lb = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      std::uint64_t x = 0;
      std::memcpy(&x, &v[i], sizeof(K));
      la += mix64(x + 1);
      lb += mix64(x * 0x9E3779B97F4A7C15ull + 7);
    }
    a += la;
    b += lb;
  });
  return a.load() ^ (b.load() << 1);
}

// Checks a sorted result: keys in order (gpusort::key_less), and either the same multiset of keys
// (keys only) or, with values = original index, each key carried with its own value and the values
// a permutation of 0..n-1 (all in range, and the multiset hash of 0..n-1). With tile != 0 only the
// order within each tile of that many keys is checked. Returns "" when right, else what is wrong.
template <class K, class V>
std::string verify_sorted(const std::vector<K>& input, std::uint64_t input_hash, const std::vector<K>& keys,
                          const std::vector<V>* values, std::size_t tile = 0) {
  const std::size_t n = keys.size();
  gpusort::key_less<K> less{};
  std::atomic<std::size_t> unsorted{n}, separated{n};
  parallel_chunks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = std::max<std::size_t>(lo, 1); i < hi; ++i) {
      if (tile && i % tile == 0) continue;
      if (less(keys[i], keys[i - 1])) {
        unsorted = i;
        return;
      }
    }
  });
  if (unsorted != n) return "not sorted at " + std::to_string(unsorted.load());
  if constexpr (std::is_arithmetic_v<V>) {
    if (values) {
      std::atomic<std::uint64_t> a{0}, b{0};
      parallel_chunks(n, [&](std::size_t lo, std::size_t hi) {
        std::uint64_t la = 0, lb = 0;
        for (std::size_t i = lo; i < hi; ++i) {
          std::uint64_t idx = static_cast<std::uint64_t>((*values)[i]);
          if (idx >= n || std::memcmp(&keys[i], &input[idx], sizeof(K)) != 0) {
            separated = i;
            return;
          }
          la += mix64(idx + 1);
          lb += mix64(idx * 0x9E3779B97F4A7C15ull + 7);
        }
        a += la;
        b += lb;
      });
      if (separated != n) return "key and value separated at " + std::to_string(separated.load());
      std::atomic<std::uint64_t> ea{0}, eb{0};  // the same hash of 0..n-1
      parallel_chunks(n, [&](std::size_t lo, std::size_t hi) {
        std::uint64_t la = 0, lb = 0;
        for (std::uint64_t i = lo; i < hi; ++i) {
          la += mix64(i + 1);
          lb += mix64(i * 0x9E3779B97F4A7C15ull + 7);
        }
        ea += la;
        eb += lb;
      });
      if ((a.load() ^ (b.load() << 1)) != (ea.load() ^ (eb.load() << 1))) return "values are not a permutation of 0..n-1";
      return "";
    }
  }
  if (multiset_hash(keys) != input_hash) return "keys are not a permutation of the input";
  return "";
}

}  // namespace bench
