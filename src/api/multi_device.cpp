// Sample sort across several contexts: sample -> splitters -> stable host partition -> one
// concurrent host sort per bucket (all by the request's one chosen algorithm) -> buckets end to
// end. See gpusort/multi_device.hpp.
#include "gpusort/multi_device.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include "algorithms/chooser.hpp"
#include "api/host_sort.hpp"
#include "api/option_checks.hpp"
#include "core/parallel_for.hpp"
#include "gpusort/key_order.hpp"

namespace gpusort {
namespace {

using clock_type = std::chrono::steady_clock;

// Host threads for the partition: one per hardware thread, each with at least 1M elements.
std::size_t partition_threads(std::size_t n) { return core::threads_for(n, std::size_t(1) << 20); }

// The key as an unsigned integer whose natural order is the requested order.
template <class K>
std::uint64_t rank_bits(K key, bool descending) {
  return ordered_bits(key, descending ? order::descending : order::ascending);
}

// Bucket index of every key: the number of splitters strictly before it, so equal keys share a
// bucket. Splitters are sample quantiles (a deterministic strided sample, sorted).
template <class K>
std::vector<std::uint32_t> bucket_of_keys(const K* keys, std::size_t n, std::size_t buckets, bool descending) {
  const std::size_t sample_size = std::min<std::size_t>(n, 256 * buckets);
  std::vector<std::uint64_t> sample(sample_size);
  for (std::size_t i = 0; i < sample_size; ++i) sample[i] = rank_bits(keys[i * n / sample_size], descending);
  std::sort(sample.begin(), sample.end());
  std::vector<std::uint64_t> splitters;
  for (std::size_t b = 1; b < buckets; ++b) splitters.push_back(sample[b * sample_size / buckets]);
  std::vector<std::uint32_t> bucket(n);
  core::parallel_for(n, partition_threads(n), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t r = rank_bits(keys[i], descending);
      bucket[i] = std::uint32_t(std::upper_bound(splitters.begin(), splitters.end(), r) - splitters.begin());
    }
  });
  return bucket;
}

std::vector<std::uint32_t> bucket_of(key_type type, const void* keys, std::size_t n, std::size_t buckets, bool desc) {
  return visit_key_type(type, [&](auto tag) {
    return bucket_of_keys(static_cast<const decltype(tag)*>(keys), n, buckets, desc);
  });
}

}  // namespace

SortReport sort_host_multi(std::span<Context* const> contexts, key_type type, void* keys, std::size_t n, void* values,
                           std::size_t value_bytes, const SortOptions& options) {
  if (contexts.empty()) throw Error(errc::invalid_argument, "sort on several devices: no context given");
  for (Context* c : contexts)
    if (!c) throw Error(errc::invalid_argument, "sort on several devices: a context is null");
  if (contexts.size() == 1 || n < 2 * contexts.size()) return sort_host(*contexts[0], type, keys, n, values, value_bytes, options);
  if (value_bytes != 0 && !is_supported_value_size(value_bytes))
    throw Error(errc::invalid_argument, "values of " + std::to_string(value_bytes) + " bytes are not supported (1, 2, 4, 8 or 16)");
  if ((value_bytes != 0) != (values != nullptr)) throw Error(errc::invalid_argument, "values and value size must be given together");
  // The one choice, and the options against every device, before the partition; each bucket is
  // checked against the algorithm's size limit once its size is known.
  const algo::Algorithm& algorithm = algo::choose(options);
  for (Context* c : contexts) detail::check_options(options, algorithm, c->device());
  detail::check_device_memory_limit(options, key_size(type), value_bytes);

  const std::size_t buckets = contexts.size(), kb = key_size(type);
  const bool descending = options.order == order::descending;
  const auto t0 = clock_type::now();
  // Partition into scratch copies (stable: input order kept inside each bucket); the caller's
  // arrays are written only once every device has succeeded.
  std::vector<unsigned char> part_keys, part_values;
  std::vector<std::uint32_t> bucket;
  try {
    part_keys.resize(n * kb);
    part_values.resize(n * value_bytes);
    bucket = bucket_of(type, keys, n, buckets, descending);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "sort on several devices: cannot allocate host scratch for " + std::to_string(n) + " keys");
  }
  // Stable parallel scatter: thread t owns input range t; its keys of bucket b go after those of
  // threads < t in bucket b, so input order is kept inside every bucket.
  const std::size_t parts = partition_threads(n);
  std::vector<std::vector<std::size_t>> count(parts, std::vector<std::size_t>(buckets, 0));
  core::parallel_for(n, parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    auto& c = count[part];
    for (std::size_t i = begin; i < end; ++i) ++c[bucket[i]];
  });
  std::vector<std::size_t> offset(buckets + 1, 0);
  for (std::size_t b = 0; b < buckets; ++b) {
    std::size_t at = offset[b];
    for (std::size_t t = 0; t < parts; ++t) {
      const std::size_t c = count[t][b];
      count[t][b] = at;  // becomes thread t's next output position in bucket b
      at += c;
    }
    offset[b + 1] = at;
  }
  const auto* in_k = static_cast<const unsigned char*>(keys);
  const auto* in_v = static_cast<const unsigned char*>(values);
  core::parallel_for(n, parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    auto& next = count[part];
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t to = next[bucket[i]]++;
      std::memcpy(&part_keys[to * kb], in_k + i * kb, kb);
      if (value_bytes) std::memcpy(&part_values[to * value_bytes], in_v + i * value_bytes, value_bytes);
    }
  });
  const double partition_ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();

  // One host thread per device sorts its bucket.
  std::vector<SortReport> reports(buckets);
  std::vector<std::exception_ptr> errors(buckets);
  std::vector<std::thread> threads;
  for (std::size_t b = 0; b < buckets; ++b) {
    threads.emplace_back([&, b] {
      try {
        const std::size_t count = offset[b + 1] - offset[b];
        algo::check_size(algorithm, count);
        reports[b] = detail::sort_host_with(contexts[b]->runtime_device(), algorithm, type,
                                            part_keys.data() + offset[b] * kb, count,
                                            value_bytes ? part_values.data() + offset[b] * value_bytes : nullptr,
                                            value_bytes, options);
      } catch (...) {
        errors[b] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  std::memcpy(keys, part_keys.data(), n * kb);
  if (value_bytes) std::memcpy(values, part_values.data(), n * value_bytes);

  SortReport report;
  report.chunks = buckets;
  report.merge_ms = partition_ms;
  for (std::size_t b = 0; b < buckets; ++b) {
    const SortReport& r = reports[b];
    report.device += (b ? "+" : "") + contexts[b]->device().id;
    if (report.algorithm.empty()) report.algorithm = r.algorithm;
    report.sort_ms = std::max(report.sort_ms, r.sort_ms);
    report.programs_compiled += r.programs_compiled;
    report.upload_ms = std::max(report.upload_ms, r.upload_ms);
    report.download_ms = std::max(report.download_ms, r.download_ms);
  }
  return report;
}

}  // namespace gpusort
