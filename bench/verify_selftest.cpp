// Self-test of gpusort-bench's generators and result checks (CTest bench_verify_selftest): the
// checks must accept right results and catch each kind of wrong one.
#include <cstdio>

#include "bench_common.hpp"

using namespace bench;

int main() {
  int failures = 0;
  auto expect = [&](bool ok, const char* what, std::size_t n) {
    if (!ok) {
      std::printf("FAIL: %s (n=%zu)\n", what, n);
      ++failures;
    }
  };
  for (std::size_t n : {std::size_t(1000), std::size_t(1) << 20}) {
    auto in = make_keys<std::uint32_t>(n, dist::uniform, 1);
    const auto h = multiset_hash(in);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = {in[i], std::uint32_t(i)};
    std::stable_sort(p.begin(), p.end(), [](auto a, auto b) { return a.first < b.first; });
    std::vector<std::uint32_t> k(n), v(n);
    for (std::size_t i = 0; i < n; ++i) k[i] = p[i].first, v[i] = p[i].second;
    using U = std::uint32_t;
    expect(verify_sorted(in, h, k, &v).empty(), "sorted pairs accepted", n);
    expect(verify_sorted<U, U>(in, h, k, nullptr).empty(), "sorted keys accepted", n);
    auto k2 = k;
    k2[5] = k2[4];
    expect(!verify_sorted<U, U>(in, h, k2, nullptr).empty(), "duplicated key caught", n);
    auto v2 = v;
    std::swap(v2[10], v2[11]);
    expect(!verify_sorted(in, h, k, &v2).empty(), "separated value caught", n);
    auto k3 = k;
    std::swap(k3[n / 2], k3[n / 2 + 1]);
    expect(!verify_sorted<U, U>(in, h, k3, nullptr).empty() || k3[n / 2] == k3[n / 2 + 1], "disorder caught", n);
    for (dist d : all_dists) {
      auto f = make_keys<float>(n, d, 3);
      auto u = make_keys<std::uint64_t>(n, d, 3);
      expect(std::all_of(f.begin(), f.end(), [](float x) { return std::isfinite(x); }), "finite floats", n);
      if (d == dist::sorted) expect(std::is_sorted(f.begin(), f.end(), gpusort::key_less<float>{}), "sorted f32", n);
      if (d == dist::reverse) expect(std::is_sorted(u.rbegin(), u.rend()), "reverse u64", n);
      auto s = f;
      std::sort(s.begin(), s.end(), gpusort::key_less<float>{});
      expect(verify_sorted<float, U>(f, multiset_hash(f), s, nullptr).empty(), "sorted f32 accepted", n);
    }
  }
  std::printf("%s\n", failures ? "bench verify self-test FAILED" : "bench verify self-test passed");
  return failures ? 1 : 0;
}
