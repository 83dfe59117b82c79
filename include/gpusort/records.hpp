#pragma once
// Sorting fixed-size binary records (1 to 1024 bytes each) by a key made of fields: the first field
// decides, ties go to the next, and records whose whole key is equal keep their input order (the
// sort is always stable). A field is one of the ten key types at a byte offset (little-endian, as
// stored), or K bytes compared as unsigned, lexicographically (bytesK); each field ascending or
// descending. The command line: gpusort sort IN -o OUT --record-size N --key OFFSET:TYPE[:desc],...
//
// Or by an order given at run time: SortOptions::comparator (with no fields) is the body of
// `int before(GLOBAL const u8* a, GLOBAL const u8* b)` in the kernel dialect, a and b pointing at
// two records' first bytes, true when record a sorts strictly before record b (a strict weak
// order; checked as a key comparator is, gpusort/options.hpp). It reads fields with gs_u8/u16/u32/u64(r, offset), gs_i8..gs_i64, gs_f32, gs_f64 (where
// the device has fp64) and gs_bytes_cmp(a, b, offset, bytes) (memcmp's sign), all little-endian at
// any alignment (kernels/record_fields.h). Example, an i32 at offset 8 descending, then 4 bytes at
// offset 0: "int x = gs_i32(a, 8), y = gs_i32(b, 8); if (x != y) return x > y; return
// gs_bytes_cmp(a, b, 0, 4) < 0;". Offsets must stay inside the record (the readers do not check:
// past its end they read the next record, or past the buffer). Compiled and cached like a key
// comparator; a compile error names the body's own lines. The sort is stable; order::descending
// reverses the order; the stable comparison sorts take it (merge by default; bitonic is not
// stable). It sorts the records' device addresses (8 bytes each) with the comparator reading the
// records through them, then gathers, so the records must fit the device (else
// Error(unsupported)). On OpenCL this relies on the sort's kernels reading the records buffer
// through those addresses without it being one of their arguments: NVIDIA's and PoCL's OpenCL
// allow it for a context of one device, the standard does not promise it.
// Command line: --record-size N --comparator BODY (or @FILE) instead of --key.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gpusort/context.hpp"
#include "gpusort/device_array.hpp"
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

// records: n records of record_bytes each in host memory, sorted in place. options: algorithm
// and the device budget apply to every pass; order and stable are set by the fields (always
// stable; with a comparator instead, SortOptions::order applies); fields and a comparator together
// are refused (Error(invalid_argument)). Records of 1, 2,
// 4, 8 or 16 bytes with one field of at most 8 bytes move with their key
// in one sort; others are sorted as (key, index) pairs, one stable pass per field (per 8 bytes of
// a bytesK field), then gathered.
//  - When the records, a second copy of them and the sorts' temporaries fit the device budget
//    (SortOptions::device_memory_limit, else 70% of the device's memory), everything runs on the
//    device: the records go up once through pinned staging and come down once, sorted; the
//    caller's records are written only after the sort has succeeded. SortReport: upload_ms and
//    download_ms the two copies, sort_ms the device time of the whole.
//  - Larger record sets: keys are made and records gathered on the host, each pass a host sort
//    (in chunks through the device when it is larger than the budget). SortReport: the sums over
//    the passes.
// chunks = the number of passes (1 for a comparator; 0 when n <= 1, nothing to sort).
SortReport sort_records(Context& ctx, void* records, std::size_t n, std::size_t record_bytes,
                        std::span<const RecordField> fields, const SortOptions& options = {});

// The same for records already in device memory (at least n * record_bytes bytes of `records`),
// sorted in place on the device: each pass's keys made there by a kernel, the records gathered
// there. It allocates temporaries from the device's pool (keys, index, the sorts' own, and for
// multi-pass sorts a second copy of the records to gather into, copied back) and returns when the
// records are sorted. device_memory_limit and
// host_threads must be 0, as for sort_device. SortReport::sort_ms: the device time of the whole.
SortReport sort_records_device(Context& ctx, DeviceBuffer& records, std::size_t n, std::size_t record_bytes,
                               std::span<const RecordField> fields, const SortOptions& options = {});

// Out of place: the n records of `in` sorted into `out` (in unchanged; the two must not overlap).
// The gather writes straight into `out`, so this form needs no second copy of the records and no
// copy back: the form to use when the caller has an output buffer anyway.
SortReport sort_records_device(Context& ctx, const DeviceBuffer& in, DeviceBuffer& out, std::size_t n,
                               std::size_t record_bytes, std::span<const RecordField> fields,
                               const SortOptions& options = {});

}  // namespace gpusort
