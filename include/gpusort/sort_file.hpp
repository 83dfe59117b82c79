#pragma once
// Sorting files: a keys file (raw little-endian elements, or a one-dimensional .npy array), with an
// optional values file permuted alongside, into output files. The outputs appear only once
// complete and on disk, both together or neither: each is written to a temporary file beside its
// target and renamed onto it (a hard-linked target is rewritten in place, keeping its links; an
// existing target keeps its mode, owner, extended attributes and ACL). On any error nothing is
// left behind: no temporary file, and every target as it was.
//
// The sort is planned once (plan_sort_file), and the plan chooses how it runs:
// - streamed: regular input files on one device, when they fit it, go through pinned staging
//   straight between the files and the device (read while uploading, written while
//   downloading), with no host copy of the data (gpusort/streamed.hpp);
// - in memory: the inputs are read whole, sorted through the device(s) (in chunks and buckets if
//   larger than a device: gpusort/multi_device.hpp) and written out;
// - external: regular raw files larger than memory_limit are sorted in runs that go to temporary
//   files in temporary_directory, then in buckets cut at exact ranks, appended to the output; at
//   most memory_limit bytes of keys and values are held in host memory. The temporary files are
//   unlinked as soon as they are made.
// Under a memory limit, files stream only through a GPU (a CPU device's buffers are host memory,
// which the limit would not bound) that they fit, where the limit holds the pinned staging of one
// copy thread (the copy threads are cut to fit); files larger than the limit that cannot stream are
// sorted externally, smaller ones read whole. Standard input and pipes, whose size is not known in
// advance, are always read whole.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

// How an input is read: recognised by its first bytes (the .npy magic, else raw), or forced.
enum class file_format { automatic, raw, npy };

enum class file_sort_path { in_memory, streamed, external };
const char* to_string(file_sort_path path);  // "in memory", "streamed", "external"

// Told how far a file sort has come: a phase ("reading", "sorting runs", ...) of total_bytes, then
// the bytes done in it. advance may be called from several threads at once.
class SortFileProgress {
 public:
  virtual void phase(std::string name, std::uint64_t total_bytes) = 0;
  virtual void advance(std::uint64_t bytes) = 0;

 protected:
  ~SortFileProgress() = default;
};

struct SortFileRequest {
  std::string keys = {};    // the keys file; "-": standard input
  std::string output = {};  // where the sorted keys go; "-": standard output. A name ending in .npy gets a .npy header
  std::string values = {};         // empty: keys alone; else a file of one value per key
  std::string values_output = {};  // where the permuted values go (with values only)
  file_format format = file_format::automatic;
  std::optional<key_type> type = {};  // raw keys need it; a .npy file carries its own (which must agree)
  // Raw values need it: a key type's name (its width) or bytesN for N in 1, 2, 4, 8, 16; a .npy
  // values file carries its own width (which must agree).
  std::string values_type = {};
  // At least one; several sort at once (gpusort/multi_device.hpp), never streamed.
  std::span<Context* const> contexts = {};
  SortOptions options = {};
  std::uint64_t memory_limit = 0;   // host bytes of keys and values held at once; 0: no limit
  std::string temporary_directory = {};  // the external sort's runs; empty: $TMPDIR, else /tmp
  SortFileProgress* progress = nullptr;
};

// What sort_file found and did.
struct SortFileReport {
  file_sort_path path = file_sort_path::in_memory;
  std::uint64_t elements = 0;
  key_type type = key_type::u32;
  std::size_t value_bytes = 0;
  SortReport sort = {};  // the device sort (in memory, streamed); external: the algorithm and device
  unsigned copy_threads = 0;  // streamed under memory_limit: the host copy threads its staging allows
  std::size_t runs = 0;       // external: runs (and as many buckets)
  double runs_ms = 0, splits_ms = 0, buckets_ms = 0;  // external
  double read_ms = 0, write_ms = 0;  // in memory: reading the inputs whole, writing the outputs
  double commit_ms = 0, total_ms = 0;
};

// Errors as gpusort::Error: invalid_argument for a bad request or input (naming the file),
// io_error for a file that cannot be read or written, unsupported for what no path serves (a
// comparator or a .npy input larger than memory_limit), and what the sort itself throws.
SortFileReport sort_file(const SortFileRequest& request);

// A file sort's shape, for planning it without the files (gpusort plan): what sort_file finds in
// them.
struct FileSortShape {
  key_type type = key_type::u32;
  std::uint64_t n = 0;
  std::size_t value_bytes = 0;
  std::uint64_t input_bytes = 0;  // the inputs' bytes on disk, headers included (0: n elements' bytes)
  bool sizes_known = true;        // regular files; false: standard input or a pipe, read whole
  bool streamable = true;         // regular non-empty inputs, and outputs that are files (not streams)
};

struct FileSortPlan {
  file_sort_path path = file_sort_path::in_memory;
  std::string description = {};  // the path in one line
  // The device sort: of all the elements (in memory, streamed), or of one run (external).
  SortPlan piece = {};
  unsigned copy_threads = 0;      // streamed under a memory limit
  std::uint64_t runs = 0;         // external: runs of up to run_elements elements
  std::uint64_t run_elements = 0;
};

// The plan sort_file makes for files of this shape (the one planning function both use).
FileSortPlan plan_sort_file(std::span<Context* const> contexts, const FileSortShape& shape,
                            const SortOptions& options, std::uint64_t memory_limit);

}  // namespace gpusort
