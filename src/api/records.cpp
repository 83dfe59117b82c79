// Records sorted by fields (gpusort/records.hpp): least significant field first, each pass a
// stable sort of (field key, record index) pairs, so earlier passes break the ties of later ones;
// then one gather of the records by the final index order.
#include "gpusort/records.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "core/host_array.hpp"
#include "core/parallel_for.hpp"

namespace gpusort {
namespace {

// One sort pass: `bytes` bytes at `offset` read as a key of `type` (a plain field), or up to 8
// bytes of a bytesK field packed big-endian into a u64 (unsigned order = lexicographic order).
struct Pass {
  std::size_t offset;
  key_type type;
  std::size_t bytes;
  bool packed;  // a piece of a bytesK field
  bool descending;
};

void check_fields(std::size_t record_bytes, std::span<const RecordField> fields) {
  if (record_bytes == 0 || record_bytes > kMaxRecordBytes)
    throw Error(errc::invalid_argument, "record size must be 1 to " + std::to_string(kMaxRecordBytes) + " bytes (got " +
                                            std::to_string(record_bytes) + ")");
  if (fields.empty()) throw Error(errc::invalid_argument, "records need at least one key field");
  for (const RecordField& f : fields) {
    const std::size_t size = f.bytes ? f.bytes : key_size(f.type);
    if (f.offset >= record_bytes || size > record_bytes - f.offset)
      throw Error(errc::invalid_argument, "a key field of " + std::to_string(size) + " bytes at offset " +
                                              std::to_string(f.offset) + " does not fit a record of " +
                                              std::to_string(record_bytes) + " bytes");
  }
}

// The passes, least significant first.
std::vector<Pass> passes_of(std::span<const RecordField> fields) {
  std::vector<Pass> out;
  for (std::size_t i = fields.size(); i-- > 0;) {
    const RecordField& f = fields[i];
    if (!f.bytes) {
      out.push_back({f.offset, f.type, key_size(f.type), false, f.descending});
      continue;
    }
    const std::size_t pieces = (f.bytes + 7) / 8;
    for (std::size_t p = pieces; p-- > 0;)
      out.push_back({f.offset + 8 * p, key_type::u64, std::min<std::size_t>(8, f.bytes - 8 * p), true, f.descending});
  }
  return out;
}

// The pass's key of one record, in `out` (key_size(pass.type) bytes).
inline void key_of(const Pass& pass, const unsigned char* record, unsigned char* out) {
  if (!pass.packed) {
    std::memcpy(out, record + pass.offset, pass.bytes);
    return;
  }
  std::uint64_t v = 0;
  for (std::size_t b = 0; b < 8; ++b) v = (v << 8) | (b < pass.bytes ? record[pass.offset + b] : 0u);
  std::memcpy(out, &v, 8);
}

std::size_t threads_for(std::size_t n) { return core::threads_for(n, std::size_t(1) << 18); }

void add(SortReport& total, const SortReport& r) {
  total.algorithm = r.algorithm;
  total.device = r.device;
  total.upload_ms += r.upload_ms;
  total.sort_ms += r.sort_ms;
  total.download_ms += r.download_ms;
  total.programs_compiled += r.programs_compiled;
}

// (key, index) passes with index type I, then the gather.
template <class I>
SortReport sort_by_index(Context& ctx, unsigned char* records, std::size_t n, std::size_t rb,
                         const std::vector<Pass>& passes, SortOptions options) {
  SortReport total;
  total.chunks = passes.size();
  std::vector<I> index(n);
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) index[i] = I(i);
  });
  core::HostArray keys = core::make_host_array(std::max<std::size_t>(1, n * 8));
  for (const Pass& pass : passes) {
    const std::size_t kb = key_size(pass.type);
    core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) key_of(pass, records + std::size_t(index[i]) * rb, keys.get() + i * kb);
    });
    options.order = pass.descending ? order::descending : order::ascending;
    add(total, sort_host(ctx, pass.type, keys.get(), n, index.data(), sizeof(I), options));
  }
  core::HostArray sorted = core::make_host_array(std::max<std::size_t>(1, n * rb));
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) std::memcpy(sorted.get() + i * rb, records + std::size_t(index[i]) * rb, rb);
  });
  std::memcpy(records, sorted.get(), n * rb);
  return total;
}

}  // namespace

SortReport sort_records(Context& ctx, void* records, std::size_t n, std::size_t record_bytes,
                        std::span<const RecordField> fields, const SortOptions& options) {
  check_fields(record_bytes, fields);
  if (n > 0 && !records) throw Error(errc::invalid_argument, "records is null");
  SortOptions o = options;
  o.stable = true;  // the passes rely on it
  const std::vector<Pass> passes = passes_of(fields);
  auto* bytes = static_cast<unsigned char*>(records);
  if (n <= 1) return SortReport{};
  // Small records with a one-pass key travel as the values of their keys: one sort, no gather.
  if (passes.size() == 1 && is_supported_value_size(record_bytes)) {
    const Pass& pass = passes[0];
    const std::size_t kb = key_size(pass.type);
    core::HostArray keys = core::make_host_array(n * kb);
    core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) key_of(pass, bytes + i * record_bytes, keys.get() + i * kb);
    });
    o.order = pass.descending ? order::descending : order::ascending;
    return sort_host(ctx, pass.type, keys.get(), n, bytes, record_bytes, o);
  }
  if (n <= std::size_t(UINT32_MAX)) return sort_by_index<std::uint32_t>(ctx, bytes, n, record_bytes, passes, o);
  return sort_by_index<std::uint64_t>(ctx, bytes, n, record_bytes, passes, o);
}

}  // namespace gpusort
