#pragma once
// The subcommands of the gpusort command. Each returns the process exit status and reports
// failures by throwing gpusort::Error (main.cpp turns that into one "gpusort: error:" line).
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpusort::cli {

struct SortArgs {
  std::string input;
  std::string output;
  std::string type;  // empty: from the .npy header
  bool descending = false;
  bool stable = false;
  std::string algorithm = "auto";
  std::string device;  // empty: $GPUSORT_DEVICE or the best device
  std::string values;
  std::string values_type;
  std::string values_out;
  std::size_t work_group_size = 0;
  std::size_t items_per_thread = 0;
  std::string local_variant;
  std::string merge_variant;
  int host_merge_levels = -1;
  std::uint64_t device_memory_limit = 0;  // bytes of device memory to use; 0 = automatic  // hybrid: top merge levels done on host threads (-1 = automatic)
  bool verbose = false;
};

struct GenArgs {
  std::string type;
  std::string count;  // decimal, or 2^K
  std::string dist = "uniform";
  std::uint64_t seed = 1;
  std::string output;
};

struct VerifyArgs {
  std::string file;
  std::string type;
  bool descending = false;
  bool quiet = false;
};

int run_devices(bool verbose);
int run_algorithms();
int run_sort(const SortArgs& args);
int run_gen(const GenArgs& args);
int run_verify(const VerifyArgs& args);

}  // namespace gpusort::cli
