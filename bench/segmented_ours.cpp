// gpusort's side of `gpusort-bench segmented` (segmented_ours.hpp).
#include "segmented_ours.hpp"

#include <algorithm>
#include <limits>
#include <span>

#include "bench_common.hpp"
#include "gpusort/segmented.hpp"
#include "runtime/device.hpp"

namespace bench {

struct OursShape::Impl {
  gpusort::Context& ctx;
  gpusort::rt::Device& dev;
  bool cuda = false;
  std::size_t n = 0;
  std::uint64_t count = 0, row_length = 0;
  const std::vector<float>& host_keys;
  std::vector<std::uint64_t> off64;
  std::vector<std::uint32_t> off32;  // empty when n does not fit
  gpusort::DeviceBuffer pristine, work, out_keys, out_idx, dev_off32, dev_off64;
  std::unique_ptr<gpusort::rt::Queue> queue;  // CUDA: the caller's stream

  Impl(gpusort::Context& c, const std::vector<float>& keys, const std::vector<std::uint64_t>& offsets,
       std::uint64_t rows)
      : ctx(c), dev(c.runtime_device()), host_keys(keys), off64(offsets) {
    cuda = ctx.device().backend == "cuda";
    n = keys.size();
    count = offsets.size() - 1;
    row_length = rows;
    if (n <= std::numeric_limits<std::uint32_t>::max()) off32.assign(offsets.begin(), offsets.end());
    pristine = gpusort::DeviceBuffer(ctx, n * 4);
    work = gpusort::DeviceBuffer(ctx, n * 4);
    pristine.upload(keys.data(), n * 4);
    if (cuda) {
      out_keys = gpusort::DeviceBuffer(ctx, n * 4);
      out_idx = gpusort::DeviceBuffer(ctx, n * 8);
      dev_off64 = gpusort::DeviceBuffer(ctx, off64.size() * 8);
      dev_off64.upload(off64.data(), off64.size() * 8);
      if (!off32.empty()) {
        dev_off32 = gpusort::DeviceBuffer(ctx, off32.size() * 4);
        dev_off32.upload(off32.data(), off32.size() * 4);
      }
      queue = dev.create_queue();
    }
  }

  gpusort::Segments segments(const std::string& variant) const {
    if (variant == "rows") return gpusort::Segments::rows(count, row_length);
    const bool narrow = variant == "offsets<u32>";
    if (cuda) {
      const gpusort::DeviceBuffer& b = narrow ? dev_off32 : dev_off64;
      return gpusort::Segments::device_offsets(
          gpusort::CudaView{static_cast<std::uintptr_t>(dev.cuda_address(b.runtime_buffer()))}, count, narrow ? 4 : 8);
    }
    if (narrow) return gpusort::Segments::offsets(std::span<const std::uint32_t>(off32));
    return gpusort::Segments::offsets(std::span<const std::uint64_t>(off64));
  }

  gpusort::CudaView view(const gpusort::DeviceBuffer& b) const {
    return gpusort::CudaView{static_cast<std::uintptr_t>(dev.cuda_address(b.runtime_buffer()))};
  }

  // CUDA: one out-of-place sort of `work` on the caller's stream, bracketed by events there.
  double native_sort(const std::string& variant, std::size_t index_bytes, std::string& algorithm) {
    dev.copy(pristine.runtime_buffer(), 0, work.runtime_buffer(), 0, n * 4, queue.get());
    const gpusort::NativeQueue stream = gpusort::CudaStream{dev.cuda_stream(queue.get())};
    const gpusort::Segments seg = segments(variant);
    auto start = dev.record(queue.get());
    gpusort::Completion done =
        index_bytes ? gpusort::argsort_segments_native_async(ctx, gpusort::key_type::f32, view(work), view(out_keys), n,
                                                             view(out_idx), index_bytes, seg, stream)
                    : gpusort::sort_segments_native_async(ctx, gpusort::key_type::f32, view(work), view(out_keys), n,
                                                          std::nullopt, std::nullopt, 0, seg, stream);
    algorithm = done.algorithm();
    auto stop = dev.record(queue.get());
    stop->wait();
    return stop->elapsed_ms_since(*start);
  }

  // Elsewhere: keys alone sorted in place on the device, indices through host memory.
  double device_sort(const std::string& variant, std::size_t index_bytes, std::string& algorithm,
                     std::vector<float>* keys_back, std::vector<unsigned char>* idx_back) {
    const gpusort::Segments seg = segments(variant);
    gpusort::SortReport rep;
    if (index_bytes == 0) {
      dev.copy(pristine.runtime_buffer(), 0, work.runtime_buffer(), 0, n * 4);
      dev.finish();
      rep = gpusort::sort_segments_device(ctx, gpusort::key_type::f32, work, n, nullptr, 0, seg);
      if (keys_back) work.download(keys_back->data(), n * 4);
    } else {
      std::vector<float> sorted(n);
      std::vector<unsigned char> idx(n * index_bytes);
      rep = gpusort::argsort_segments_host(ctx, gpusort::key_type::f32, host_keys.data(), n, sorted.data(), idx.data(),
                                           index_bytes, seg);
      if (keys_back) *keys_back = std::move(sorted);
      if (idx_back) *idx_back = std::move(idx);
    }
    algorithm = rep.algorithm;
    return rep.sort_ms;
  }
};

OursShape::OursShape(gpusort::Context& ctx, const std::vector<float>& keys, const std::vector<std::uint64_t>& offsets,
                     std::uint64_t row_length)
    : impl_(std::make_unique<Impl>(ctx, keys, offsets, row_length)) {}
OursShape::~OursShape() = default;

std::vector<std::string> OursShape::variants() const {
  std::vector<std::string> v;
  if (impl_->row_length) v.push_back("rows");
  if (!impl_->off32.empty()) v.push_back("offsets<u32>");
  v.push_back("offsets<u64>");
  return v;
}

std::string OursShape::entry(std::size_t index_bytes) const {
  if (impl_->cuda) return index_bytes ? "gpusort::argsort_segments_native" : "gpusort::sort_segments_native";
  return index_bytes ? "gpusort::argsort_segments_host" : "gpusort::sort_segments_device";
}

void OursShape::run_once(const std::string& variant, std::size_t index_bytes, std::vector<float>& out_keys,
                         std::vector<unsigned char>& out_indices) {
  Impl& m = *impl_;
  std::string algorithm;
  out_keys.assign(m.n, 0.0f);
  out_indices.assign(m.n * index_bytes, 0);
  if (!m.cuda) {
    m.device_sort(variant, index_bytes, algorithm, &out_keys, &out_indices);
    return;
  }
  m.native_sort(variant, index_bytes, algorithm);
  m.out_keys.download(out_keys.data(), m.n * 4);
  if (index_bytes) m.out_idx.download(out_indices.data(), m.n * index_bytes);
}

OursRun OursShape::time(const std::string& variant, std::size_t index_bytes, int repeats) {
  Impl& m = *impl_;
  OursRun run;
  std::vector<double> times;
  for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up
    const double ms = m.cuda ? m.native_sort(variant, index_bytes, run.algorithm)
                             : m.device_sort(variant, index_bytes, run.algorithm, nullptr, nullptr);
    if (r >= 0) times.push_back(ms);
  }
  run.repeats = repeats;
  run.median_ms = median_of(times);
  run.min_ms = *std::min_element(times.begin(), times.end());
  return run;
}

}  // namespace bench
