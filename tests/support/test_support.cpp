#include "support/test_support.hpp"

#include <set>

namespace gpusort::test {

std::uint64_t fresh_seed() {
  static std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

Context& test_context() {
  static Context ctx;  // $GPUSORT_DEVICE or the best device
  return ctx;
}

std::vector<std::size_t> interesting_sizes(std::size_t tile, std::size_t max_n, std::uint64_t seed) {
  std::set<std::size_t> s = {0, 1, 2, 3, 5};
  for (std::size_t t : {tile, 2 * tile, 4 * tile}) {
    s.insert(t - 1);
    s.insert(t);
    s.insert(t + 1);
  }
  for (std::size_t p = 8; p <= max_n; p <<= 2) {
    s.insert(p - 1);
    s.insert(p + 1);
  }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 3; ++i) s.insert(1 + rng() % max_n);
  std::vector<std::size_t> out;
  for (auto n : s)
    if (n <= max_n) out.push_back(n);
  return out;
}

}  // namespace gpusort::test
