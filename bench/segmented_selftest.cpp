// Self-test of `gpusort-bench segmented`'s shapes and result check (CTest bench_segmented_selftest):
// the shapes must hold what --help says, and the check must accept a right segmented sort and
// argsort and catch each kind of wrong one.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "bench_common.hpp"
#include "segmented_shapes.hpp"

using namespace bench;

namespace {

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

// The stable argsort of every segment on the host, by an independent route (pairs of key and
// index, std::stable_sort), and its keys.
template <class I>
void host_argsort(const std::vector<float>& in, const std::vector<std::uint64_t>& off, std::vector<float>& keys,
                  std::vector<I>& idx) {
  keys.resize(in.size());
  idx.resize(in.size());
  for (std::size_t s = 0; s + 1 < off.size(); ++s) {
    std::vector<std::pair<float, I>> p;
    for (std::uint64_t i = off[s]; i < off[s + 1]; ++i) p.push_back({in[i], static_cast<I>(i - off[s])});
    std::stable_sort(p.begin(), p.end(), [](auto a, auto b) { return gpusort::key_less<float>{}(a.first, b.first); });
    for (std::size_t j = 0; j < p.size(); ++j) keys[off[s] + j] = p[j].first, idx[off[s] + j] = p[j].second;
  }
}

template <class I>
void check_shape(const SegShape& shape, const std::string& dist_name) {
  const std::string label = shape.name() + " " + dist_name + " i" + std::to_string(8 * sizeof(I));
  const auto off = shape.offsets(7);
  const std::uint64_t n = off.back();
  auto in = make_seg_keys(n, dist_name, 11);
  if (n > 8) in[n / 2] = in[n / 2 + 1] = in[n / 2 + 2];  // equal keys: stability is checked
  const auto ref = host_sorted_segments(in, off);
  std::vector<float> keys;
  std::vector<I> idx;
  host_argsort(in, off, keys, idx);
  const std::size_t ib = sizeof(I);
  expect(check_segmented(in, off, ref, keys, idx.data(), ib, true).empty(), label + ": right argsort accepted");
  expect(check_segmented(in, off, ref, keys, nullptr, 0, false).empty(), label + ": right keys accepted");
  if (n < 8) return;
  // The wrong results, each found.
  auto k = keys;
  std::swap(k[0], k[n - 1]);
  expect(!check_segmented(in, off, ref, k, nullptr, 0, false).empty() || k[0] == k[n - 1],
         label + ": keys moved across segments");
  auto i2 = idx;
  for (std::size_t s = 0; s + 1 < off.size(); ++s)
    if (off[s + 1] - off[s] >= 2) {  // a segment's first two indices exchanged: the keys no longer match them
      const auto a = off[s];
      if (keys[a] == keys[a + 1]) continue;
      std::swap(i2[a], i2[a + 1]);
      break;
    }
  expect(!check_segmented(in, off, ref, keys, i2.data(), ib, false).empty(), label + ": index naming another key");
  auto i3 = idx;
  i3[n - 1] = static_cast<I>(n);  // past every segment's end
  expect(!check_segmented(in, off, ref, keys, i3.data(), ib, false).empty(), label + ": index past the end");
  // Equal keys: their indices out of order pass an unstable check and fail a stable one.
  bool tie_found = false;
  for (std::size_t s = 0; s + 1 < off.size() && !tie_found; ++s)
    for (std::uint64_t i = off[s] + 1; i < off[s + 1] && !tie_found; ++i)
      if (keys[i] == keys[i - 1]) {
        tie_found = true;
        auto i4 = idx;
        std::swap(i4[i], i4[i - 1]);
        expect(check_segmented(in, off, ref, keys, i4.data(), ib, false).empty(), label + ": unstable ties accepted");
        expect(!check_segmented(in, off, ref, keys, i4.data(), ib, true).empty(), label + ": instability caught");
        auto i5 = idx;  // both equal keys named by one index: each names a key equal to its own
        i5[i] = i5[i - 1];
        expect(!check_segmented(in, off, ref, keys, i5.data(), ib, false).empty(),
               label + ": index given twice caught");
      }
  auto k5 = keys;
  k5[n / 3] = std::nextafter(k5[n / 3], 1e30f);
  expect(!check_segmented(in, off, ref, k5, nullptr, 0, false).empty(), label + ": a changed key caught");
}

}  // namespace

int main() {
  // The shapes of --help.
  for (const auto& s : default_seg_shapes()) {
    const auto off = s.offsets(1);
    expect(off.size() == s.segments + 1 && off.front() == 0, s.name() + ": offsets from 0, one per segment + 1");
    expect(std::is_sorted(off.begin(), off.end()), s.name() + ": offsets non-decreasing");
    if (s.form == SegShape::kind::rows) expect(off.back() == s.segments * s.length, s.name() + ": rows x length keys");
    if (s.form == SegShape::kind::powerlaw) {
      expect(s.segments == 1u << 16 && off.back() == std::uint64_t(1) << 26, "powerlaw: 2^16 segments, 2^26 keys");
      std::uint64_t longest = 0, empty = 0;
      for (std::size_t i = 0; i + 1 < off.size(); ++i) {
        longest = std::max(longest, off[i + 1] - off[i]);
        empty += off[i + 1] == off[i];
      }
      expect(longest > (std::uint64_t(1) << 20) && empty > 0, "powerlaw: huge and empty segments both");
    }
    if (s.form == SegShape::kind::tiny) {
      expect(s.segments == 1u << 17, "tiny: 2^17 rows");
      bool in_range = true;
      for (std::size_t i = 0; i + 1 < off.size(); ++i) in_range = in_range && off[i + 1] - off[i] <= 64;
      expect(in_range, "tiny: rows of 0-64 keys");
    }
  }
  expect(!parse_seg_shape("3x0") && !parse_seg_shape("x5") && !parse_seg_shape("tiny:4") &&
             !parse_seg_shape("powerlaw:0:9"),
         "bad shapes refused");
  expect(parse_seg_shape("64x128256") && parse_seg_shape("64x128256")->name() == "64x128256", "RxL named as given");
  // The check.
  for (const char* d : {"normal", "uniform"})
    for (const char* t : {"5x1000", "powerlaw:40:30000", "tiny:300:64", "1x4097"}) {
      check_shape<std::uint32_t>(*parse_seg_shape(t), d);
      check_shape<std::uint64_t>(*parse_seg_shape(t), d);
    }
  std::printf("%s\n", failures ? "bench segmented self-test FAILED" : "bench segmented self-test passed");
  return failures ? 1 : 0;
}
