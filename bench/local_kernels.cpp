// The seeds' tables: local tile kernels and merge passes, timed with device events.
#include "local_kernels.hpp"

#include <algorithm>

#include "algorithms/algorithm.hpp"
#include "algorithms/merge_sort.hpp"
#include "bench_common.hpp"

namespace bench {
namespace m = gpusort::algo::merge;

std::vector<std::string> local_kernel_names() {
  // The seeds' order (Bainville: selection/rank, merge, bitonic; Locicero: odd-even, bubble).
  std::vector<std::string> out;
  for (const char* k : {"rank", "merge", "bitonic", "odd-even", "bubble"})
    if (std::find(m::local_variants().begin(), m::local_variants().end(), k) != m::local_variants().end())
      out.push_back(k);
  for (const auto& k : m::local_variants())
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  return out;
}

LocalRun run_local_kernel(gpusort::rt::Device& dev, const std::string& kernel, std::uint32_t wg,
                          gpusort::key_type type, std::uint64_t n, gpusort::rt::Buffer& keys,
                          gpusort::rt::Buffer* values, std::size_t value_bytes) {
  static const gpusort::SortOptions options{};
  gpusort::algo::SortJob job{dev, type, n, value_bytes, keys, values, options};
  LocalRun r;
  r.items = 1;
  r.tile = wg;
  auto e0 = dev.record();
  m::sort_tiles(job, kernel, wg, r.items);
  auto e1 = dev.record();
  e1->wait();
  r.ms = e1->elapsed_ms_since(*e0);
  return r;
}

std::vector<std::string> merge_variant_names() {
  std::vector<std::string> out;
  for (const char* k : {"rank", "half", "cached", "hashed", "path"})
    if (std::find(m::merge_variants().begin(), m::merge_variants().end(), k) != m::merge_variants().end())
      out.push_back(k);
  for (const auto& k : m::merge_variants())
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  return out;
}

std::vector<MergePassRun> run_merge_passes(
    gpusort::rt::Device& dev, const std::string& variant, gpusort::key_type type, std::uint64_t n,
    gpusort::rt::Buffer& src_keys, gpusort::rt::Buffer& src_values, std::size_t value_bytes, int repeats,
    const std::function<std::string(gpusort::rt::Buffer&, gpusort::rt::Buffer&)>& verify) {
  static const gpusort::SortOptions options{};
  const std::size_t kb = n * gpusort::key_size(type), vb = n * std::max<std::size_t>(value_bytes, 1);
  auto ak = dev.alloc(kb), av = dev.alloc(vb), bk = dev.alloc(kb), bv = dev.alloc(vb);
  gpusort::algo::SortJob job{dev, type, n, value_bytes, src_keys, value_bytes ? &src_values : nullptr, options};
  const std::uint32_t group = gpusort::algo::default_group_size(dev, 256);
  const std::string local = m::local_variants().front();
  const std::uint32_t local_items = m::default_local_items(dev, local, type, value_bytes, group);
  const std::uint32_t items = m::default_merge_items(dev, variant, type, value_bytes, group);
  const std::uint64_t tile = std::uint64_t(group) * local_items;
  m::sort_tiles_into(job, local, group, local_items, *ak, value_bytes ? *av : *ak);
  dev.finish();
  gpusort::rt::Buffer* sk = ak.get();
  gpusort::rt::Buffer* sv = av.get();
  gpusort::rt::Buffer* dk = bk.get();
  gpusort::rt::Buffer* dv = bv.get();
  std::vector<MergePassRun> out;
  for (std::uint64_t w = tile; w < n; w <<= 1) {
    MergePassRun p;
    p.width = w;
    p.group = group;
    std::vector<double> t;
    for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up (compiles); src is left unchanged
      auto e0 = dev.record();
      m::merge_pass(job, variant, *sk, value_bytes ? *sv : *sk, *dk, value_bytes ? *dv : *dk, w, group, items);
      auto e1 = dev.record();
      e1->wait();
      if (r >= 0) t.push_back(e1->elapsed_ms_since(*e0));
    }
    p.ms = median_of(t);
    out.push_back(p);
    std::swap(sk, dk);
    std::swap(sv, dv);
  }
  std::string bad = verify(*sk, value_bytes ? *sv : *sk);
  if (!bad.empty())
    for (auto& p : out) p.status = "FAILED verify (final result): " + bad;
  return out;
}

}  // namespace bench
