// The shapes, keys and host checks of `gpusort-bench segmented` (segmented_shapes.hpp).
#include "segmented_shapes.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "bench_common.hpp"

namespace bench {
namespace {

// Each segment of a power-law mix draws a weight u^(-1/alpha) - 1 (u uniform in (0, 1]: a Pareto tail
// that starts at 0); its length is its share of the keys. alpha 1.2, 2^16 segments of 2^26 keys: the
// longest about 2M keys, some 80 of 64Ki keys or more, a median near 200, a tenth at 23 or less and
// some 300 empty, so every bin of a dispatcher on length gets work.
constexpr double kPowerLawAlpha = 1.2;

bool whole(const std::string& t, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && end == t.data() + t.size() && !t.empty();
}

// A uniform double in (0, 1] from a counter.
double unit(std::uint64_t seed, std::uint64_t i) {
  return double((mix64(seed + i * 0x9E3779B97F4A7C15ull) >> 11) + 1) * 0x1p-53;
}

}  // namespace

std::string SegShape::name() const {
  switch (form) {
    case kind::rows:
      return std::to_string(segments) + "x" + std::to_string(length);
    case kind::powerlaw:
      return "powerlaw:" + std::to_string(segments) + ":" + std::to_string(length);
    case kind::tiny:
      return "tiny:" + std::to_string(segments) + ":" + std::to_string(length);
  }
  return "?";
}

std::vector<std::uint64_t> SegShape::offsets(std::uint64_t seed) const {
  std::vector<std::uint64_t> len(segments);
  if (form == kind::rows) {
    std::fill(len.begin(), len.end(), length);
  } else if (form == kind::tiny) {
    for (std::uint64_t s = 0; s < segments; ++s) len[s] = mix64(seed + s) % (length + 1);
  } else {
    std::vector<double> w(segments);
    double sum = 0;
    for (std::uint64_t s = 0; s < segments; ++s) sum += w[s] = std::pow(unit(seed, s), -1.0 / kPowerLawAlpha) - 1;
    std::uint64_t given = 0;
    for (std::uint64_t s = 0; s < segments; ++s)
      given += len[s] = static_cast<std::uint64_t>(w[s] / sum * double(length));
    for (std::uint64_t s = 0; given < length; s = (s + 1) % segments, ++given) ++len[s];  // the rounding's remainder
  }
  std::vector<std::uint64_t> off(segments + 1, 0);
  for (std::uint64_t s = 0; s < segments; ++s) off[s + 1] = off[s] + len[s];
  return off;
}

std::optional<SegShape> parse_seg_shape(const std::string& text) {
  SegShape s;
  if (text == "powerlaw") return SegShape{SegShape::kind::powerlaw, 1u << 16, 1u << 26};
  if (text == "tiny") return SegShape{SegShape::kind::tiny, 1u << 17, 64};
  for (const auto& [prefix, form] : {std::pair{std::string("powerlaw:"), SegShape::kind::powerlaw},
                                     std::pair{std::string("tiny:"), SegShape::kind::tiny}}) {
    if (text.rfind(prefix, 0) != 0) continue;
    const std::string rest = text.substr(prefix.size());
    const auto colon = rest.find(':');
    if (colon == std::string::npos || !whole(rest.substr(0, colon), s.segments) ||
        !whole(rest.substr(colon + 1), s.length) || s.segments == 0)
      return std::nullopt;
    if (form == SegShape::kind::powerlaw && s.length == 0) return std::nullopt;
    s.form = form;
    return s;
  }
  const auto x = text.find('x');
  if (x == std::string::npos || !whole(text.substr(0, x), s.segments) || !whole(text.substr(x + 1), s.length) ||
      s.segments == 0 || s.length == 0)
    return std::nullopt;
  return s;
}

std::vector<SegShape> default_seg_shapes() {
  std::vector<SegShape> out;
  for (const char* t : {"32x131072", "64x128256", "256x131072", "4096x32768", "16384x1024", "1048576x32", "4x16777216",
                        "powerlaw", "tiny"})
    out.push_back(*parse_seg_shape(t));
  return out;
}

std::vector<SegShape> quick_seg_shapes() {
  return {*parse_seg_shape("64x128256"), *parse_seg_shape("16384x1024"), *parse_seg_shape("tiny")};
}

std::vector<float> make_seg_keys(std::uint64_t n, const std::string& distribution, std::uint64_t seed) {
  if (distribution == "uniform") return make_keys<float>(n, dist::uniform, seed);
  std::vector<float> keys(n);
  parallel_chunks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i)  // Box-Muller, one of the pair
      keys[i] = static_cast<float>(std::sqrt(-2.0 * std::log(unit(seed, 2 * i))) *
                                   std::cos(6.283185307179586 * unit(seed, 2 * i + 1)));
  });
  return keys;
}

namespace {
// f(s) for every segment, on all hardware threads.
template <class F>
void each_segment(std::size_t segments, F&& f) {
  std::atomic<std::size_t> next{0};
  const unsigned t = std::max(1u, std::min(std::thread::hardware_concurrency(), 32u));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < t; ++i)
    threads.emplace_back([&] {
      for (std::size_t s; (s = next.fetch_add(1)) < segments;) f(s);
    });
  for (auto& th : threads) th.join();
}
}  // namespace

std::vector<float> host_sorted_segments(const std::vector<float>& keys, const std::vector<std::uint64_t>& offsets) {
  std::vector<float> out = keys;
  each_segment(offsets.size() - 1, [&](std::size_t s) {
    std::sort(out.begin() + std::ptrdiff_t(offsets[s]), out.begin() + std::ptrdiff_t(offsets[s + 1]),
              gpusort::key_less<float>{});
  });
  return out;
}

std::string check_segmented(const std::vector<float>& input, const std::vector<std::uint64_t>& offsets,
                            const std::vector<float>& reference, const std::vector<float>& keys, const void* indices,
                            std::size_t index_bytes, bool stable) {
  const std::size_t n = input.size();
  if (keys.size() != n || reference.size() != n)
    return "result has " + std::to_string(keys.size()) + " keys, not " + std::to_string(n);
  std::vector<unsigned char> named(indices ? n : 0, 0);
  std::mutex m;
  std::size_t first = n;
  std::string what;
  auto fail = [&](std::size_t i, std::size_t s, const std::string& why) {
    std::lock_guard lock(m);
    if (i < first) {
      first = i;
      what = why + " at " + std::to_string(i) + " (segment " + std::to_string(s) + ")";
    }
  };
  each_segment(offsets.size() - 1, [&](std::size_t s) {
    const std::uint64_t a = offsets[s], b = offsets[s + 1];
    for (std::uint64_t i = a; i < b; ++i) {
      // == : +0.0 and -0.0 are one key to CUB's radix sorts (either may come first), NaN never occurs.
      if (!(keys[i] == reference[i])) return fail(i, s, "keys differ from a host sort");
      if (!indices) continue;
      const std::uint64_t j = index_at(indices, index_bytes, i);
      if (j >= b - a) return fail(i, s, "index " + std::to_string(j) + " past the segment's end");
      if (std::memcmp(&keys[i], &input[a + j], sizeof(float)) != 0) return fail(i, s, "index names another key");
      if (named[a + j]++) return fail(i, s, "index " + std::to_string(j) + " given twice");
      if (stable && i > a && std::memcmp(&keys[i], &keys[i - 1], sizeof(float)) == 0 && j < index_at(indices, index_bytes, i - 1))
        return fail(i, s, "equal keys out of input order (not stable)");
    }
  });
  return what;
}

}  // namespace bench
