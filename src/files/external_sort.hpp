#pragma once
// A file sort larger than its memory limit (gpusort/sort_file.hpp): an external sort that holds at most
// the limit in host memory, with the partition design of the library's out-of-core sorts
// (api/out_of_core.hpp) on files instead of memory:
//  1. runs: the input is read in equal runs of at most half the limit (the library may hold a second
//     copy of a run while sorting it); each is sorted (on the devices,
//     through gpusort's host sort) and written to a temporary file in the temporary directory;
//  2. splits: the runs file is mapped and bisected for the ranks b * R (api/run_splits.hpp), so
//     bucket b is one slice of each run, R elements in all, whatever the duplicates;
//  3. buckets: each bucket's slices are read back, sorted, and appended to the output.
// Every byte is read twice and written twice (input, runs, runs, output); nothing is merged on
// the host. Inputs must be raw files whose size stat() reports (regular files). The temporary
// files are unlinked as soon as they are created, so nothing is left behind on any exit.
#include <cstdint>
#include <span>
#include <string>

#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "files/output_file.hpp"
#include "gpusort/sort_file.hpp"

namespace gpusort::files {

// How an external sort cuts n elements under memory_limit: runs of `run` elements (the last one
// shorter), `count` of them, each half the limit at most (the library may hold a second copy of a
// run). Error(invalid_argument) below least_memory_limit or above detail::kMaxChunks runs.
struct ExternalRuns {
  std::uint64_t run = 0;
  std::uint64_t count = 0;
};

struct ExternalSortJob {
  std::span<Context* const> contexts;
  key_type type = key_type::u32;
  SortOptions options;
  std::string keys_path;
  std::string values_path;  // empty: keys only
  std::size_t value_bytes = 0;
  ExternalRuns runs;               // as planned (files/file_sort_plan.hpp): external_runs of the input
  std::string temporary_directory;
  OutputFile* keys_out = nullptr;
  OutputFile* values_out = nullptr;
  std::string keys_npy_descr;  // non-empty: write a .npy header with this dtype first
  std::string values_npy_descr;
};

struct ExternalSortReport {
  std::uint64_t elements = 0;
  std::size_t runs = 0;
  double runs_ms = 0, splits_ms = 0, buckets_ms = 0;
};

// The least --memory-limit for keys of key_bytes with values of value_bytes (runs of 1024 elements,
// twice).
std::uint64_t least_memory_limit(std::size_t key_bytes, std::size_t value_bytes);

ExternalRuns external_runs(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes, std::uint64_t memory_limit);

// The size of a raw input file, or nullopt-like 0 with is_regular = false for anything whose size
// is not known in advance (standard input, pipes).
struct InputSize {
  bool is_regular = false;
  std::uint64_t bytes = 0;
};
InputSize input_size(const std::string& path);

ExternalSortReport external_sort(const ExternalSortJob& job, SortFileProgress& progress);

}  // namespace gpusort::files
