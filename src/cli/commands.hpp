#pragma once
// The subcommands of the gpusort command. Each returns the process exit status and reports
// failures by throwing gpusort::Error (main.cpp turns that into one "gpusort: error:" line).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpusort/options.hpp"

namespace gpusort::cli {

struct SortArgs {
  std::string input;   // the first of `inputs` (resolve_sort_args)
  std::string output;  // empty: standard output, or no keys output where --indices-out is given
  std::vector<std::string> inputs;        // every input, concatenated in this order
  std::vector<std::string> values_files;  // --values, one per input in the same order (values: the first)
  std::string indices_out;                // --indices-out: argsort's int64 positions; empty: none
  std::string top;                        // --top K: the K first keys of each row (topk_sort.hpp); empty: a sort
  std::string partition;                  // --partition KTH: each row partitioned around rank KTH (topk_sort.hpp)
  bool check = false;                     // -c: only check that the inputs are in order
  bool check_quietly = false;             // -C: the same, printing nothing
  bool unique = false;                    // -u: keep the first of each run of equal keys
  std::string type;  // empty: from the .npy header
  bool descending = false;
  bool stable = false;
  std::string algorithm = "auto";
  std::string device;  // empty: $GPUSORT_DEVICE or the best device
  std::string values;
  std::string values_type;
  std::string values_out;
  // Numeric options stay text until run_sort parses them strictly (option_numbers.hpp); empty = not given.
  std::string work_group_size;
  std::string items_per_thread;
  std::string local_variant;
  std::string merge_variant;
  std::string comparator;           // a run-time order: the body itself, or @FILE (SortOptions::comparator)
  std::string host_merge_levels;    // hybrid: top merge levels done on host threads
  std::string device_memory_limit;  // bytes of device memory to use, with an optional unit
  std::string threads;              // host threads per copy direction (SortOptions::host_threads)
  std::string format;               // auto, raw or npy: how the inputs are read
  std::string memory_limit;         // host bytes for keys and values; larger inputs sort externally
  std::string temporary_directory;  // where external sorts keep their runs; empty: $TMPDIR or /tmp
  std::string record_size;          // bytes per record: sort records by --key fields (record_sort.hpp)
  std::string key;                  // OFFSET:TYPE[:desc][,...]
  // Segmented sorts (segmented_sort.hpp): each row or segment sorted on its own.
  std::string axis;        // an n-D .npy input sorted along this axis (negative from the end); empty: the last
  std::string row_length;  // a raw (or 1-D) input cut into rows of this many keys
  std::string segments;    // a raw (or 1-D) input cut at the offsets in this file
  bool progress = false;            // --progress: draw the progress line even off a terminal
  bool no_progress = false;         // --no-progress: never draw it
  bool verbose = false;
};

struct GenArgs {
  std::string type;
  std::string count;  // decimal, or 2^K
  std::string dist = "uniform";
  std::string seed = "1";
  std::string output;
};

struct VerifyArgs {
  std::string file;
  std::string type;
  std::string format;
  bool descending = false;
  bool quiet = false;
};

// gpusort plan: what a sort of this shape would run, printed without sorting anything.
struct PlanArgs {
  SortArgs sort;      // the order, algorithm, device and tuning options, as `gpusort sort` takes them
  std::string count;  // elements: decimal, or 2^K
  std::string where = "host";  // host (a file or host array) or device (data already on the device)
  std::string indices;         // argsort: the indices' width, 4 or 8 (the values then are positions)
  std::string ranks;           // the distributed sort over this many ranks (gpusort dist-sort)
  std::string rows;            // a segmented sort: this many rows of count / rows keys each
  std::string segments;        // a segmented sort: this many segments of any lengths (given by offsets)
  std::string top;             // a top-k: the k first (-r: largest) of each row (--rows) or of all
  bool unsorted = false;       // a top-k's k as the selection settles them, not sorted
  std::string partition;       // a partition: each row (--rows) or all around its key of this rank
};

// The SortOptions of a sort's arguments (sort_command.cpp), and --comparator's text (@FILE read).
SortOptions make_options(const SortArgs& args);
std::string comparator_text(const std::string& arg);

int run_devices(bool verbose);
int run_plan(const PlanArgs& args);
int run_algorithms();
int run_sort(const SortArgs& args);
int run_gen(const GenArgs& args);
int run_verify(const VerifyArgs& args);

}  // namespace gpusort::cli
