// Batcher's odd-even merge sort on the host (the OpenCL cookbook's two C forms), for any n:
//   "batcher-recursive": sort halves, then merge by unshuffle / merge halves / shuffle / one rank of
//       comparators (i, i+1) for odd i;
//   "batcher-iterative": the same network as loops over phase p, distance k and offset j.
// Keys come to the host, the network runs over an index array padded to a power of two with
// virtual +infinity entries (indices >= n; comparators only ever move the smaller key down, so an
// entry >= n never moves below a real key), and the permuted keys and values go back. Not stable.
#include <vector>

#include "algorithms/drivers.hpp"
#include "algorithms/host_side.hpp"

namespace gpusort::algo {
namespace {

struct Network {
  const std::vector<std::uint64_t>& ok;
  std::uint64_t n;
  std::vector<std::uint64_t> a;    // indices; entries >= n are +infinity
  std::vector<std::uint64_t> aux;  // shuffle scratch

  bool before(std::uint64_t x, std::uint64_t y) const { return x < n && (y >= n || ok[x] < ok[y]); }
  void cmpx(std::uint64_t i, std::uint64_t j) {
    if (before(a[j], a[i])) std::swap(a[i], a[j]);
  }

  // [l, r] of even length: evens to the lower half, odds to the upper half, and back.
  void unshuffle(std::uint64_t l, std::uint64_t r) {
    const std::uint64_t half = (r - l + 1) / 2;
    for (std::uint64_t t = 0; t < half; ++t) {
      aux[l + t] = a[l + 2 * t];
      aux[l + half + t] = a[l + 2 * t + 1];
    }
    std::copy(aux.begin() + l, aux.begin() + r + 1, a.begin() + l);
  }
  void shuffle(std::uint64_t l, std::uint64_t r) {
    const std::uint64_t half = (r - l + 1) / 2;
    for (std::uint64_t t = 0; t < half; ++t) {
      aux[l + 2 * t] = a[l + t];
      aux[l + 2 * t + 1] = a[l + half + t];
    }
    std::copy(aux.begin() + l, aux.begin() + r + 1, a.begin() + l);
  }
  // Merges the sorted halves of [l, r] (a power-of-two length).
  void merge(std::uint64_t l, std::uint64_t r) {
    if (r == l + 1) cmpx(l, r);
    if (r < l + 2) return;
    const std::uint64_t m = l + (r - l) / 2;
    unshuffle(l, r);
    merge(l, m);
    merge(m + 1, r);
    shuffle(l, r);
    for (std::uint64_t i = l + 1; i < r; i += 2) cmpx(i, i + 1);
  }
  void sort_recursive(std::uint64_t l, std::uint64_t r) {
    if (r <= l) return;
    const std::uint64_t m = l + (r - l) / 2;
    // halves made of +infinity only are sorted already: skip them (this is what keeps padding cheap)
    sort_recursive(l, m);
    if (m + 1 < n) sort_recursive(m + 1, r);
    if (m + 1 < n) merge(l, r);
  }
  void sort_iterative() {
    const std::uint64_t size = a.size();
    for (std::uint64_t p = 1; p < size; p += p)
      for (std::uint64_t k = p; k > 0; k /= 2)
        for (std::uint64_t j = k % p; j + k < n; j += k + k)
          for (std::uint64_t i = 0; i < k && j + i + k < n; ++i)
            if ((j + i) / (p + p) == (j + i + k) / (p + p)) cmpx(j + i, j + i + k);
  }
};

void batcher_sort(SortJob& job, bool recursive) {
  if (job.n <= 1) return;
  HostCopy host = download(job);
  std::vector<std::uint64_t> ok = ordered_keys(job, host);
  Network net{ok, job.n, {}, {}};
  const std::uint64_t size = next_pow2(job.n);
  net.a.resize(recursive ? size : job.n);
  for (std::uint64_t i = 0; i < net.a.size(); ++i) net.a[i] = i;
  if (recursive) {
    net.aux.resize(size);
    net.sort_recursive(0, size - 1);
  } else {
    net.sort_iterative();
  }
  net.a.resize(job.n);
  upload_permuted(job, host, net.a);
}

}  // namespace

void batcher_recursive_sort(SortJob& job) { batcher_sort(job, true); }
void batcher_iterative_sort(SortJob& job) { batcher_sort(job, false); }

}  // namespace gpusort::algo
