// gpusort's side of `gpusort-bench topk` (topk_ours.hpp).
#include "topk_ours.hpp"

#include <algorithm>
#include <span>

#include "bench_common.hpp"
#include "gpusort/topk.hpp"

namespace bench {

struct OursTopk::Impl {
  gpusort::Context& ctx;
  std::uint64_t rows = 1;
  gpusort::DeviceArray<float> keys;
  // Outputs, made for the largest k asked so far.
  std::uint64_t k = 0;
  gpusort::DeviceArray<float> values;
  gpusort::DeviceArray<std::int32_t> idx32;
  gpusort::DeviceArray<std::int64_t> idx64;

  Impl(gpusort::Context& c, const std::vector<float>& host, std::uint64_t r)
      : ctx(c), rows(r), keys(c, std::span<const float>(host)) {}

  void outputs_for(std::uint64_t want, std::size_t index_bytes) {
    if (k != want) {
      k = want;
      values = gpusort::DeviceArray<float>(ctx, rows * k);
      idx32 = {};
      idx64 = {};
    }
    if (index_bytes == 4 && idx32.size() != rows * k) idx32 = gpusort::DeviceArray<std::int32_t>(ctx, rows * k);
    if (index_bytes == 8 && idx64.size() != rows * k) idx64 = gpusort::DeviceArray<std::int64_t>(ctx, rows * k);
  }

  gpusort::SortReport call(std::uint64_t want, std::size_t index_bytes, bool sorted) {
    outputs_for(want, index_bytes);
    const gpusort::TopkOptions o{.rows = rows, .largest = true, .sorted = sorted};
    if (index_bytes == 4) return gpusort::topk(ctx, keys, k, values, idx32, o);
    if (index_bytes == 8) return gpusort::topk(ctx, keys, k, values, idx64, o);
    return gpusort::topk_keys(ctx, keys, k, values, o);
  }
};

OursTopk::OursTopk(gpusort::Context& ctx, const std::vector<float>& keys, std::uint64_t rows)
    : impl_(std::make_unique<Impl>(ctx, keys, rows)) {}
OursTopk::~OursTopk() = default;

void OursTopk::run_once(std::uint64_t k, std::size_t index_bytes, bool sorted, std::vector<float>& values,
                        std::vector<unsigned char>& indices) {
  Impl& m = *impl_;
  m.call(k, index_bytes, sorted);
  values.assign(m.rows * k, 0.0f);
  indices.assign(m.rows * k * index_bytes, 0);
  m.values.download(std::span<float>(values));
  if (index_bytes == 4) m.idx32.buffer().download(indices.data(), indices.size());
  if (index_bytes == 8) m.idx64.buffer().download(indices.data(), indices.size());
}

TopkRun OursTopk::time(std::uint64_t k, std::size_t index_bytes, bool sorted, int repeats) {
  TopkRun run;
  std::vector<double> times;
  for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up
    const gpusort::SortReport rep = impl_->call(k, index_bytes, sorted);
    run.algorithm = rep.algorithm;
    if (r >= 0) times.push_back(rep.sort_ms);
  }
  run.repeats = repeats;
  run.median_ms = median_of(times);
  run.min_ms = *std::min_element(times.begin(), times.end());
  return run;
}

}  // namespace bench
