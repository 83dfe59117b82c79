// The shapes, keys, reference and checks of `gpusort-bench topk` (topk_shapes.hpp).
#include "topk_shapes.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>

#include "bench_common.hpp"
#include "support/topk_reference_positions.hpp"

namespace bench {
namespace {

bool whole(const std::string& t, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && end == t.data() + t.size() && !t.empty();
}

// A uniform double in (0, 1] from a counter.
double unit(std::uint64_t seed, std::uint64_t i) {
  return double((mix64(seed + i * 0x9E3779B97F4A7C15ull) >> 11) + 1) * 0x1p-53;
}

// issue 53's k for its shapes; 50 for others.
std::vector<std::uint64_t> default_ks(const TopkShape& s) {
  if (s.one_d) return {10, 1000, 100000};
  if ((s.rows == 64 && s.length == 128256) || (s.rows == 4096 && s.length == 32768)) return {50, 1024};
  return {50};
}

// f(r) for every row r, on all hardware threads.
template <class F>
void each_row(std::uint64_t rows, F&& f) {
  std::atomic<std::uint64_t> next{0};
  const unsigned t = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 32u));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < std::min<std::uint64_t>(t, rows); ++i)
    threads.emplace_back([&] {
      for (std::uint64_t r; (r = next.fetch_add(1)) < rows;) f(r);
    });
  for (auto& th : threads) th.join();
}

}  // namespace

std::string TopkShape::name() const {
  if (!label.empty()) return label;
  if (one_d) return "1d:" + std::to_string(std::countr_zero(length));
  return std::to_string(rows) + "x" + std::to_string(length);
}

std::uint64_t TopkShape::max_k() const { return ks.empty() ? 0 : *std::max_element(ks.begin(), ks.end()); }

std::optional<TopkShape> parse_topk_shape(const std::string& text) {
  TopkShape s;
  std::string body = text, k_text;
  if (text.rfind("1d:", 0) == 0) {
    const auto colon = text.find(':', 3);
    body = text.substr(0, colon);
    if (colon != std::string::npos) k_text = text.substr(colon + 1);
    std::uint64_t e = 0;
    if (!whole(body.substr(3), e) || e == 0 || e > 34) return std::nullopt;
    s.one_d = true;
    s.length = std::uint64_t(1) << e;
  } else {
    const auto colon = text.find(':');
    body = text.substr(0, colon);
    if (colon != std::string::npos) k_text = text.substr(colon + 1);
    if (body == "small") {
      s.rows = 3;
      s.length = 5000;
      s.label = "small";
    } else {
      const auto x = body.find('x');
      if (x == std::string::npos || !whole(body.substr(0, x), s.rows) || !whole(body.substr(x + 1), s.length) ||
          s.rows == 0 || s.length == 0)
        return std::nullopt;
    }
  }
  if (k_text.empty() && text.back() != ':') {
    s.ks = default_ks(s);
  } else {
    std::stringstream ss(k_text);
    for (std::string t; std::getline(ss, t, '/');) {
      std::uint64_t k = 0;
      if (!whole(t, k)) return std::nullopt;
      s.ks.push_back(k);
    }
    if (s.ks.empty()) return std::nullopt;
  }
  for (std::uint64_t k : s.ks)
    if (k == 0 || k > s.length) return std::nullopt;
  return s;
}

std::vector<TopkShape> default_topk_shapes() {
  std::vector<TopkShape> out;
  for (const char* t : {"64x128256", "256x131072", "4096x32768", "16384x1024", "1d:28", "1d:24"})
    out.push_back(*parse_topk_shape(t));
  return out;
}

bool is_topk_dist(const std::string& name) { return name == "normal" || name == "uniform" || name == "bits"; }

std::vector<float> make_topk_keys(std::uint64_t n, const std::string& distribution, std::uint64_t seed) {
  std::vector<float> keys(n);
  parallel_chunks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      if (distribution == "normal") {  // Box-Muller, one of the pair
        keys[i] = static_cast<float>(std::sqrt(-2.0 * std::log(unit(seed, 2 * i))) *
                                     std::cos(6.283185307179586 * unit(seed, 2 * i + 1)));
      } else if (distribution == "uniform") {  // 24 random bits u: 2u / 2^24 - 1, exact in f32
        keys[i] = static_cast<float>(std::int64_t(mix64(seed + i * 0x9E3779B97F4A7C15ull) >> 40) - (1 << 23)) *
                  0x1p-23f;
      } else {
        const std::uint32_t b = static_cast<std::uint32_t>(mix64(seed + i * 0x9E3779B97F4A7C15ull) >> 32);
        float f;
        std::memcpy(&f, &b, 4);
        keys[i] = std::isfinite(f) ? f : 0.0f;
      }
    }
  });
  return keys;
}

std::vector<std::uint64_t> topk_reference_rows(const std::vector<float>& keys, std::uint64_t rows, std::uint64_t k) {
  const std::uint64_t length = keys.size() / rows;
  std::vector<std::uint64_t> out(rows * k);
  const gpusort::key_less<float> before{gpusort::order::descending};
  each_row(rows, [&](std::uint64_t r) {
    const float* row = keys.data() + r * length;
    // The row's k-th key in the order; the stable order's first k lie among the keys not after it,
    // and keep their relative order there, so the reference over those alone gives the same positions.
    std::vector<float> copy(row, row + length);
    std::nth_element(copy.begin(), copy.begin() + std::ptrdiff_t(k - 1), copy.end(), before);
    const float kth = copy[k - 1];
    std::vector<float> candidates;
    std::vector<std::uint64_t> where;
    for (std::uint64_t i = 0; i < length; ++i)
      if (!before(kth, row[i])) {
        candidates.push_back(row[i]);
        where.push_back(i);
      }
    const std::vector<std::uint64_t> p = gpusort::test::topk_reference(candidates, candidates.size(), 0, k, true);
    for (std::uint64_t j = 0; j < k; ++j) out[r * k + j] = where[p[j]];
  });
  return out;
}

std::string check_topk(const std::vector<float>& keys, std::uint64_t rows, const std::vector<std::uint64_t>& reference,
                       std::uint64_t ref_k, std::uint64_t k, const std::vector<float>& values, const void* indices,
                       std::size_t index_bytes, bool exact, bool sorted) {
  const std::uint64_t length = keys.size() / rows;
  if (values.size() != rows * k)
    return "result has " + std::to_string(values.size()) + " keys, not " + std::to_string(rows * k);
  const gpusort::key_less<float> before{gpusort::order::descending};
  auto bits_less = [](float a, float b) { return std::memcmp(&a, &b, 4) < 0; };
  auto same_bits = [](float a, float b) { return std::memcmp(&a, &b, 4) == 0; };
  std::mutex m;
  std::uint64_t first_row = rows;
  std::string what;
  each_row(rows, [&](std::uint64_t r) {
    auto fail = [&](std::uint64_t j, const std::string& why) {
      std::lock_guard lock(m);
      if (r < first_row) {
        first_row = r;
        what = why + " (row " + std::to_string(r) + ", place " + std::to_string(j) + ")";
      }
    };
    const float* row = keys.data() + r * length;
    const std::uint64_t* ref = reference.data() + r * ref_k;
    const float* got = values.data() + r * k;
    std::vector<std::uint64_t> idx;
    if (indices) {
      std::vector<bool> named(length, false);
      for (std::uint64_t j = 0; j < k; ++j) {
        const std::uint64_t p = index_at(indices, index_bytes, r * k + j);
        if (p >= length) return fail(j, "index " + std::to_string(p) + " outside the row");
        if (!same_bits(got[j], row[p])) return fail(j, "value is not the key at index " + std::to_string(p));
        if (named[p]) return fail(j, "index " + std::to_string(p) + " given twice");
        named[p] = true;
        idx.push_back(p);
      }
    }
    if (exact && indices) {
      std::vector<std::uint64_t> want(ref, ref + k);
      if (!sorted) {
        std::sort(want.begin(), want.end());
        std::sort(idx.begin(), idx.end());
      }
      for (std::uint64_t j = 0; j < k; ++j)
        if (idx[j] != want[j])
          return fail(j, sorted ? "index " + std::to_string(idx[j]) + ", reference " + std::to_string(want[j])
                                : "the positions differ from the reference's (as sets)");
      return;
    }
    std::vector<float> want(k), have(got, got + k);
    for (std::uint64_t j = 0; j < k; ++j) want[j] = row[ref[j]];
    if (exact) {  // keys alone: the reference's bits, in its order where sorted
      if (!sorted) {
        std::sort(want.begin(), want.end(), bits_less);
        std::sort(have.begin(), have.end(), bits_less);
      }
      for (std::uint64_t j = 0; j < k; ++j)
        if (!same_bits(want[j], have[j])) return fail(j, "key bits differ from the reference's");
      return;
    }
    // Any k best: equal keys (-0 and +0 alike) may stand for each other.
    std::sort(have.begin(), have.end(), before);
    for (std::uint64_t j = 0; j < k; ++j)
      if (before(want[j], have[j]) || before(have[j], want[j])) return fail(j, "keys differ from the reference's");
  });
  return what;
}

}  // namespace bench
