#pragma once
// gpusort-records-bench's inputs and its judge: random records, and the order std::stable_sort
// gives them on the host with the fields' comparator, against which every sorted output is checked.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/key_generator.hpp"
#include "core/parallel_for.hpp"
#include "gpusort/key_order.hpp"
#include "gpusort/records.hpp"

namespace bench::records {

inline std::size_t host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

inline void parallel_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
  gpusort::core::parallel_for(bytes, host_threads(), [&](std::size_t, std::size_t b, std::size_t e) {
    std::memcpy(dst + b, src + b, e - b);
  });
}

// Every byte random: record i holds words i*W .. i*W+W-1 of one SplitMix64 stream (W = 8-byte words
// per record), so the records are made on all threads and are the same for a seed on any machine.
// few_unique: then the key fields of every record are copied from one of 16 random records, so
// equal keys are common and the sorts' stability is checked too.
inline void make_records(unsigned char* out, std::size_t n, std::size_t rb, std::span<const gpusort::RecordField> fields,
                         bool few_unique, std::uint64_t seed) {
  const std::size_t words = (rb + 7) / 8;
  const std::uint64_t base = gpusort::core::SplitMix64{seed ^ 0x7265636F72647300ull}.next();
  auto fill = [&](unsigned char* rec, std::uint64_t stream_at) {
    gpusort::core::SplitMix64 rng{base + stream_at * words * 0x9E3779B97F4A7C15ull};
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t v = rng.next();
      std::memcpy(rec + 8 * w, &v, std::min<std::size_t>(8, rb - 8 * w));
    }
  };
  gpusort::core::parallel_for(n, host_threads(), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) fill(out + i * rb, i);
  });
  if (!few_unique) return;
  std::vector<unsigned char> set(16 * rb);
  for (std::size_t s = 0; s < 16; ++s) fill(&set[s * rb], n + s);  // further along the same stream
  gpusort::core::parallel_for(n, host_threads(), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const unsigned char* from = &set[gpusort::core::SplitMix64{base ^ i}.next() % 16 * rb];
      for (const gpusort::RecordField& f : fields)
        std::memcpy(out + i * rb + f.offset, from + f.offset, f.bytes ? f.bytes : gpusort::key_size(f.type));
    }
  });
}

// -1, 0, 1: record a against record b under field f, in the field's direction (the rules of
// gpusort/records.hpp: bytesK as unsigned bytes, typed fields by gpusort::key_less).
inline int compare_field(const gpusort::RecordField& f, const unsigned char* a, const unsigned char* b) {
  int c = 0;
  if (f.bytes) {
    c = std::memcmp(a + f.offset, b + f.offset, f.bytes);
    c = c < 0 ? -1 : c > 0 ? 1 : 0;
  } else {
    c = gpusort::visit_key_type(f.type, [&](auto tag) {
      using K = decltype(tag);
      K x, y;
      std::memcpy(&x, a + f.offset, sizeof(K));
      std::memcpy(&y, b + f.offset, sizeof(K));
      const gpusort::key_less<K> less{};
      return less(x, y) ? -1 : less(y, x) ? 1 : 0;
    });
  }
  return f.descending ? -c : c;
}

// The record order std::stable_sort gives: stable sorts of equal slices on all threads, then
// rounds of std::merge of neighbouring slices (which takes the left slice's element on ties, so
// the result is exactly the single-threaded std::stable_sort's).
inline std::vector<std::uint32_t> reference_order(const unsigned char* recs, std::size_t n, std::size_t rb,
                                                  std::span<const gpusort::RecordField> fields) {
  auto less = [&](std::uint32_t x, std::uint32_t y) {
    for (const gpusort::RecordField& f : fields)
      if (int c = compare_field(f, recs + std::size_t(x) * rb, recs + std::size_t(y) * rb)) return c < 0;
    return false;
  };
  std::vector<std::uint32_t> order(n), merged(n);
  std::iota(order.begin(), order.end(), std::uint32_t(0));
  std::size_t parts = 1;
  while (parts * 2 <= host_threads() && n / (parts * 2) >= (std::size_t(1) << 12)) parts *= 2;
  using gpusort::core::part_begin;
  gpusort::core::parallel_for(parts, parts, [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t p = b; p < e; ++p)
      std::stable_sort(order.begin() + part_begin(n, parts, p), order.begin() + part_begin(n, parts, p + 1), less);
  });
  for (std::size_t width = 1; width < parts; width *= 2) {
    const std::size_t merges = parts / (2 * width);
    gpusort::core::parallel_for(merges, merges, [&](std::size_t, std::size_t b, std::size_t e) {
      for (std::size_t m = b; m < e; ++m) {
        const std::size_t lo = part_begin(n, parts, 2 * width * m), mid = part_begin(n, parts, 2 * width * m + width),
                          hi = part_begin(n, parts, 2 * width * (m + 1));
        std::merge(order.begin() + lo, order.begin() + mid, order.begin() + mid, order.begin() + hi,
                   merged.begin() + lo, less);
      }
    });
    order.swap(merged);
  }
  return order;
}

// "" when out holds input's records in the reference order, byte for byte; else the first
// record that differs.
inline std::string check_sorted(const unsigned char* out, const unsigned char* input, std::size_t rb,
                                const std::vector<std::uint32_t>& order) {
  const std::size_t n = order.size();
  std::vector<std::size_t> first_bad(host_threads(), n);
  gpusort::core::parallel_for(n, host_threads(), [&](std::size_t t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      if (std::memcmp(out + i * rb, input + std::size_t(order[i]) * rb, rb) != 0) {
        first_bad[t] = i;
        return;
      }
  });
  const std::size_t bad = *std::min_element(first_bad.begin(), first_bad.end());
  return bad == n ? "" : "record " + std::to_string(bad) + " differs from std::stable_sort's";
}

// The key fields as a run-time record comparator (SortOptions::comparator over two records), for
// timing the comparator form on the same order; "" when a field is a float (whose NaN order the
// comparator would have to spell out).
inline std::string comparator_for(std::span<const gpusort::RecordField> fields) {
  std::string body;
  for (const gpusort::RecordField& f : fields) {
    const std::string off = std::to_string(f.offset);
    const char* first = f.descending ? ">" : "<";
    if (f.bytes) {
      body += "{ const int c = gs_bytes_cmp(a, b, " + off + ", " + std::to_string(f.bytes) + "); if (c != 0) return c " +
              first + " 0; }\n";
      continue;
    }
    if (gpusort::is_float(f.type)) return "";
    const std::string read = "gs_" + std::string(gpusort::key_type_name(f.type));
    body += "if (" + read + "(a, " + off + ") != " + read + "(b, " + off + ")) return " + read + "(a, " + off + ") " +
            first + " " + read + "(b, " + off + ");\n";
  }
  return body + "return 0;";
}

}  // namespace bench::records
