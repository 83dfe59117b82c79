#pragma once
// How a record sort (gpusort/records.hpp) turns its key fields into sort passes, shared by the
// device path (algorithms/records/record_sort.cpp) and the host path (api/records.cpp): least significant
// field first, each pass a stable sort of (field key, record index) pairs, so earlier passes break
// the ties of later ones. A bytesK field becomes ceil(K / 8) passes of up to 8 bytes each, each
// packed big-endian into the narrowest unsigned type that holds it (u8, u16, u32 or u64; zero bytes
// pad it on the right) so that unsigned order is lexicographic order and a short piece (the last
// 2 bytes of a 10-byte key) moves no more bytes through its sort than it needs. A c128 field
// (complex128) becomes two u64 passes, the low then the high word of its order-isomorphic 128-bit
// image (gpusort/key_order.hpp, complex128_high_word and complex128_low_word): no kernel sorts
// 128-bit keys, and two stable passes order the pairs of words lexicographically.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "algorithms/request_checks.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_order.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/records.hpp"

namespace gpusort::detail {

// What travels with complex128 keys sorted as records (the c128 request's value_bytes and
// positions): values, gathered by the sorted record index after the passes, or an argsort's
// positions, which are that index itself (its width then the indices' width). Record sorts of
// their own (gpusort/records.hpp) carry none.
struct RecordValues {
  std::size_t bytes = 0;  // 0: none; else 1, 2, 4, 8 or 16 (positions: 4 or 8)
  bool positions = false;
};

// Which word of a c128 field's image a pass sorts by.
enum class complex128_word : std::uint8_t { none, high, low };

struct RecordPass {
  std::size_t offset;  // first byte of the pass's bytes in the record
  key_type type;       // the key sorted (u8, u16, u32 or u64 for a piece of a bytesK field)
  std::size_t bytes;   // bytes read from the record: key_size(type), or 1..8 for a piece
  bool packed;         // a piece of a bytesK field
  bool descending;
  complex128_word word = complex128_word::none;  // a c128 field's image word (type u64, 16 bytes read)
};

// The record size, and the order: key fields, or a run-time comparator (SortOptions::comparator
// non-empty), one or the other.
inline void check_record_order(std::size_t record_bytes, std::span<const RecordField> fields,
                               const SortOptions& options) {
  const bool comparator = !options.comparator.empty();
  if (record_bytes == 0 || record_bytes > kMaxRecordBytes)
    throw Error(errc::invalid_argument, "record size must be 1 to " + std::to_string(kMaxRecordBytes) + " bytes (got " +
                                            std::to_string(record_bytes) + ")");
  if (comparator && !fields.empty())
    throw Error(errc::invalid_argument,
                "records are ordered by key fields or by a comparator (SortOptions::comparator), not both");
  if (!comparator && fields.empty())
    throw Error(errc::invalid_argument, "records need at least one key field or a comparator (SortOptions::comparator)");
  for (const RecordField& f : fields) {
    if (!f.bytes) check_key_type(f.type);
    const std::size_t size = f.bytes ? f.bytes : key_size(f.type);
    if (f.offset >= record_bytes || size > record_bytes - f.offset)
      throw Error(errc::invalid_argument, "a key field of " + std::to_string(size) + " bytes at offset " +
                                              std::to_string(f.offset) + " does not fit a record of " +
                                              std::to_string(record_bytes) + " bytes");
  }
}

// The passes, least significant first.
inline std::vector<RecordPass> record_passes(std::span<const RecordField> fields) {
  std::vector<RecordPass> out;
  for (std::size_t i = fields.size(); i-- > 0;) {
    const RecordField& f = fields[i];
    if (!f.bytes && f.type == key_type::c128) {
      out.push_back({f.offset, key_type::u64, 16, false, f.descending, complex128_word::low});
      out.push_back({f.offset, key_type::u64, 16, false, f.descending, complex128_word::high});
      continue;
    }
    if (!f.bytes) {
      out.push_back({f.offset, f.type, key_size(f.type), false, f.descending});
      continue;
    }
    const std::size_t pieces = (f.bytes + 7) / 8;
    for (std::size_t p = pieces; p-- > 0;) {
      const std::size_t bytes = std::min<std::size_t>(8, f.bytes - 8 * p);
      const key_type type = bytes <= 1 ? key_type::u8 : bytes <= 2 ? key_type::u16 : bytes <= 4 ? key_type::u32 : key_type::u64;
      out.push_back({f.offset + 8 * p, type, bytes, true, f.descending});
    }
  }
  return out;
}

// The pass's key of one record, in `out` (key_size(pass.type) bytes); kernels/records.cl's
// records_make_keys does the same on the device.
inline void record_key(const RecordPass& pass, const unsigned char* record, unsigned char* out) {
  if (pass.word != complex128_word::none) {
    std::complex<double> key;
    std::memcpy(&key, record + pass.offset, sizeof key);
    const std::uint64_t re = ordered_bits(key.real()), im = ordered_bits(key.imag());
    const std::uint64_t v = pass.word == complex128_word::high ? complex128_high_word(re, im) : complex128_low_word(re, im);
    std::memcpy(out, &v, 8);
    return;
  }
  if (!pass.packed) {
    std::memcpy(out, record + pass.offset, pass.bytes);
    return;
  }
  const std::size_t width = key_size(pass.type);
  std::uint64_t v = 0;
  for (std::size_t b = 0; b < width; ++b) v = (v << 8) | (b < pass.bytes ? record[pass.offset + b] : 0u);
  std::memcpy(out, &v, width);  // the low `width` bytes of v on a little-endian host
}

// complex128 keys (SortRequest::type c128) are sorted as what they are to the device, 16-byte
// records with one c128 field: the planner plans this request in their place, with the keys'
// values or argsort positions as the records' RecordValues.
inline SortRequest complex128_keys_as_records(const SortRequest& keys) {
  SortRequest r = keys;
  r.record_bytes = key_size(key_type::c128);
  r.record_fields = {RecordField{.offset = 0, .type = key_type::c128, .descending = keys.options.order == order::descending}};
  return r;
}
inline bool sorts_complex128_keys(const SortRequest& r) {
  return r.record_bytes == 0 && r.record_fields.empty() && r.type == key_type::c128;
}

// Small records with a one-pass key travel as the values of their keys: one sort, no gather.
inline bool records_move_with_key(const std::vector<RecordPass>& passes, std::size_t record_bytes) {
  return passes.size() == 1 && is_supported_value_size(record_bytes);
}

}  // namespace gpusort::detail
