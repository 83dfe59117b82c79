#pragma once
// Sorting fixed-size binary records (1 to 1024 bytes each) by a key made of fields: the first field
// decides, ties go to the next, and records whose whole key is equal keep their input order (the
// sort is always stable). A field is one of the ten key types at a byte offset (little-endian, as
// stored), or K bytes compared as unsigned, lexicographically (bytesK); each field ascending or
// descending. The command line: gpusort sort IN -o OUT --record-size N --key OFFSET:TYPE[:desc],...
#include <cstddef>
#include <cstdint>
#include <span>

#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

struct RecordField {
  std::size_t offset = 0;      // first byte of the field in the record
  key_type type = key_type::u32;
  std::size_t bytes = 0;       // 0: a key of `type`; else a bytesK field of this many bytes (type ignored)
  bool descending = false;
};

inline constexpr std::size_t kMaxRecordBytes = 1024;

// records: n records of record_bytes each, sorted in place. options: algorithm and the device
// budget apply to every pass; order and stable are set by the fields (always stable). Records of
// 1, 2, 4, 8 or 16 bytes with one field of at most 8 bytes move with their key in one sort; others
// are sorted as (key, index) pairs, one stable pass per field (per 8 bytes of a bytesK field), then
// gathered. SortReport: the sums over the passes; chunks = the number of passes.
SortReport sort_records(Context& ctx, void* records, std::size_t n, std::size_t record_bytes,
                        std::span<const RecordField> fields, const SortOptions& options = {});

}  // namespace gpusort
