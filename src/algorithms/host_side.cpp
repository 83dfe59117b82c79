#include "algorithms/host_side.hpp"

#include <cstring>

#include "gpusort/key_order.hpp"

namespace gpusort::algo {
namespace {

template <class T>
void map_keys(const unsigned char* bytes, std::uint64_t n, order o, std::vector<std::uint64_t>& out) {
  for (std::uint64_t i = 0; i < n; ++i) {
    T k;
    std::memcpy(&k, bytes + i * sizeof(T), sizeof(T));
    out[i] = static_cast<std::uint64_t>(ordered_bits(k, o));
  }
}

}  // namespace

HostCopy download(SortJob& job) {
  HostCopy h;
  h.keys.resize(job.n * key_size(job.type));
  if (!h.keys.empty()) job.device.read(job.keys, 0, h.keys.data(), h.keys.size());
  if (job.values && job.value_bytes) {
    h.values.resize(job.n * job.value_bytes);
    if (!h.values.empty()) job.device.read(*job.values, 0, h.values.data(), h.values.size());
  }
  return h;
}

std::vector<std::uint64_t> ordered_keys(const SortJob& job, const HostCopy& host) {
  std::vector<std::uint64_t> out(job.n);
  const unsigned char* b = host.keys.data();
  visit_key_type(job.type, [&](auto tag) { map_keys<decltype(tag)>(b, job.n, job.options.order, out); });
  return out;
}

void upload_permuted(SortJob& job, const HostCopy& host, const std::vector<std::uint64_t>& perm) {
  auto gather = [&](const std::vector<unsigned char>& src, std::size_t width, rt::Buffer& dst) {
    std::vector<unsigned char> out(src.size());
    for (std::uint64_t i = 0; i < job.n; ++i) std::memcpy(&out[i * width], &src[perm[i] * width], width);
    if (!out.empty()) job.device.write(dst, 0, out.data(), out.size());
  };
  gather(host.keys, key_size(job.type), job.keys);
  if (job.values && job.value_bytes) gather(host.values, job.value_bytes, *job.values);
}

}  // namespace gpusort::algo
