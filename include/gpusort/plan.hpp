#pragma once
// What a sort will do, found without sorting anything: every entry point builds one SortRequest,
// and the planner turns it into one plan (algorithm, path, passes with their tuning rows,
// temporaries). `gpusort plan` prints the same, and `--verbose` / SortOptions::verbose prints it
// before a sort runs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpusort/context.hpp"
#include "gpusort/device.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/records.hpp"

namespace gpusort {

// Where a request's data lie, which decides the paths open to it and the options it may set.
enum class data_location {
  host,          // host memory: sort, sort_pairs, argsort, sort_host, streamed files
  device,        // device buffers gpusort made: sort_device, DeviceArray, temporary_storage_bytes
  caller_memory  // the caller's own device memory and stream or queue (gpusort/native.hpp)
};
const char* to_string(data_location where);  // "host", "device", "caller memory"

// One sort, as asked. Every entry point fills one and hands it to the planner, which validates it
// once (Error(invalid_argument) naming the field) before anything runs.
struct SortRequest {
  key_type type = key_type::u32;
  std::uint64_t n = 0;            // elements in all
  std::size_t value_bytes = 0;    // 0: keys alone; else 1, 2, 4, 8 or 16
  // argsort: the values are the keys' positions 0..n-1, made by the sort (value_bytes 4 or 8).
  bool positions = false;
  data_location where = data_location::host;
  // A segmented sort (gpusort/segmented.hpp): `rows` segments, each sorted on its own, either
  // uniform rows of row_length elements each (rows * row_length == n), or, where offset_bytes is 4
  // or 8, segments given by rows + 1 offsets of that width, which the planner never reads. The
  // defaults (rows 1, row_length 0, offset_bytes 0) are one array; segmented() tells them apart.
  // argsort's indices (positions) are then local to their segment.
  std::uint64_t rows = 1;
  std::uint64_t row_length = 0;
  std::size_t offset_bytes = 0;
  // A top-k (gpusort/topk.hpp) where `topk` is set: the k first keys of each uniform row (rows,
  // row_length; one row of n for a 1-D array) in the order (descending: the k largest), ties taken
  // by the lower position, written apart from the keys (the input is only read). topk_sorted: the
  // k in order; else in the order of their positions in the row. value_bytes is then the width of
  // the indices written with them (positions within the row; 0: keys alone, 4 or 8), `positions`
  // is not read. k from 0 to the row length.
  bool topk = false;
  std::uint64_t k = 0;
  bool topk_sorted = true;
  // A partition (gpusort/partition.hpp) where `partition` is set: each uniform row (rows,
  // row_length) rearranged as numpy.partition does, around its key of rank kth (0-based, ascending,
  // ranked as a stable sort of the row ranks them): the keys before that key, the keys equal to it,
  // then the rest, each run in position order; written apart from the keys (the input is only read).
  // value_bytes is the width of the positions written with them (0, 4 or 8), `positions` is not
  // read. select_kth: only each row's key of rank kth (and its position) is written. kth below the
  // row length (any where there are no keys, as numpy); options.order ascending.
  bool partition = false;
  std::uint64_t kth = 0;
  bool select_kth = false;
  // A record sort (gpusort/records.hpp): n records of record_bytes each (0: keys, not records),
  // ordered by record_fields, or by options.comparator where there are none; type, value_bytes
  // and positions are then not read.
  std::size_t record_bytes = 0;
  std::vector<RecordField> record_fields = {};
  // A distributed sort (gpusort/dist.hpp): the n elements shared among this many ranks, each
  // sorting its share as one plan says (0: not distributed).
  std::uint32_t ranks = 0;
  SortOptions options = {};

  bool segmented() const { return rows != 1 || row_length != 0 || offset_bytes != 0; }
};

// The plan of a request on one device, in words.
struct SortPlan {
  std::string algorithm;     // the name `gpusort algorithms` lists
  std::string path;          // "one piece", "chunks and buckets (N chunks)", "in place on the device", ...
                             // (record and distributed sorts: their own paths, each part's steps below;
                             // segmented sorts: "segments: R rows of L" or "segments: S by offsets", then where)
  std::string device;        // the device's id and name
  std::string device_class;  // the key the tuning rows are chosen by (DeviceDescription::device_class)
  // Each pass or kernel that will run, in order, with the tuning it takes; a choice the sort makes
  // only once it has read the data (radix: which passes a uniform digit lets it skip) says so.
  std::vector<std::string> steps;
  // Device temporaries the algorithm asks for, in bytes (temp_bytes_known false: it does not say).
  std::uint64_t temporary_bytes = 0;
  bool temp_bytes_known = false;
  // Device memory the data and temporaries take at once (an estimate for host requests' chunks).
  std::uint64_t device_bytes = 0;
  std::size_t chunks = 1;  // host requests larger than the device: chunks (and as many buckets)

  // The plan as lines of text, as `gpusort plan` prints it, each line after line_prefix.
  std::string text(const std::string& line_prefix = "") const;
};

// How a caller that makes its arrays in a library of its own (the Python package, with PyTorch or
// CuPy arrays) is best served on a device: tuning as data keyed by device class (device_class,
// gpusort/device.hpp), like the algorithms' rows, with a generic row for unknown devices.
struct ArrayLibraryTuning {
  std::string row;          // the row's name
  std::string measured_on;  // the device class its values were measured on
  // argsort of device arrays: sort 4-byte indices and widen them to 8 after the sort, for n from
  // narrow_indices_from[i] (keys of 1 << i bytes; 0: never) up to narrow_indices_max
  std::uint64_t narrow_indices_from[4] = {0, 0, 0, 0};
  std::uint64_t narrow_indices_max = 0;
  // device sorts of at least this many bytes of keys and values take their temporaries from the
  // caller's library's memory pool instead of gpusort's (0: never)
  std::uint64_t lend_temporaries_from = 0;
  // host arrays of fewer keys than this are sorted on the host, where a call costs less than the
  // device's round trip (0: never); a caller that names an algorithm or a device still gets it
  std::uint64_t host_sort_below = 0;
};
ArrayLibraryTuning array_library_tuning(const DeviceDescription& device);

// The plan of `request` on ctx's device. Throws what the sort itself would throw for a request it
// refuses (before it runs anything).
SortPlan plan(Context& ctx, const SortRequest& request);

}  // namespace gpusort
