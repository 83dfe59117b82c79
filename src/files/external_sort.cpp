#include "files/external_sort.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "api/out_of_core.hpp"
#include "api/run_splits.hpp"
#include "core/host_array.hpp"
#include "core/host_clock.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/multi_device.hpp"
#include "files/file_io.hpp"
#include "files/input_file.hpp"
#include "files/npy.hpp"

namespace gpusort::files {
namespace {

using Clock = core::host_clock;
using core::ms_since;

constexpr std::uint64_t kMinRun = 1024;

// An unnamed temporary file in dir: created, then unlinked at once, so it vanishes with the fd.
int temporary_file(const std::string& dir) {
  std::string name = (dir.empty() ? std::string("/tmp") : dir) + "/gpusort-run-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error(errc::io_error, "cannot create a temporary file in '" + (dir.empty() ? std::string("/tmp") : dir) +
                                    "' (SortFileRequest::temporary_directory): " + std::strerror(errno));
  ::unlink(name.c_str());
  return fd;
}

int open_input(const std::string& path, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io_error("open " + what + " " + display_name(path), errno);
  return fd;
}

struct Mapping {
  void* at = MAP_FAILED;
  std::size_t bytes = 0;
  ~Mapping() {
    if (at != MAP_FAILED) ::munmap(at, bytes);
  }
};

}  // namespace

// A run takes half the limit: the library may hold a second copy of it (its partition sort's
// scratch, when the run is larger than the device or several devices share it).
std::uint64_t least_memory_limit(std::size_t kb, std::size_t vb) { return 2 * kMinRun * (kb + vb); }

InputSize input_size(const std::string& path) {
  if (path == "-") return {};
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  return {true, std::uint64_t(st.st_size)};
}

ExternalRuns external_runs(std::uint64_t n, std::size_t kb, std::size_t vb, std::uint64_t memory_limit) {
  if (memory_limit < least_memory_limit(kb, vb))
    throw Error(errc::invalid_argument, "SortFileRequest::memory_limit must be at least " +
                                            std::to_string(least_memory_limit(kb, vb)) + " bytes (runs of " +
                                            std::to_string(kMinRun) + " elements)");
  const std::uint64_t max_run = memory_limit / 2 / (kb + vb);
  const std::uint64_t runs = std::max<std::uint64_t>(1, (n + max_run - 1) / max_run);
  if (runs > detail::kMaxChunks)
    throw Error(errc::invalid_argument, "SortFileRequest::memory_limit " + std::to_string(memory_limit) +
                                            " would cut " + std::to_string(n) + " elements into " +
                                            std::to_string(runs) + " runs, more than the " +
                                            std::to_string(detail::kMaxChunks) +
                                            " an external sort takes; raise SortFileRequest::memory_limit");
  return {std::max<std::uint64_t>(1, (n + runs - 1) / runs), runs};  // equal runs but the last
}

ExternalSortReport external_sort(const ExternalSortJob& job, SortFileProgress& progress) {
  const std::size_t kb = key_size(job.type), vb = job.value_bytes;
  const InputSize keys_size = input_size(job.keys_path);
  if (!keys_size.is_regular)
    throw Error(errc::invalid_argument,
                "input " + display_name(job.keys_path) +
                    " is larger than SortFileRequest::memory_limit allows, and only regular files can be sorted "
                    "externally (their size must be known); raise SortFileRequest::memory_limit");
  if (keys_size.bytes % kb != 0)
    throw Error(errc::invalid_argument, "input '" + job.keys_path + "' is " + std::to_string(keys_size.bytes) +
                                            " bytes, not a multiple of " + std::to_string(kb) + " (the size of " +
                                            std::string(key_type_name(job.type)) + ")");
  const std::uint64_t n = keys_size.bytes / kb;
  if (vb) {
    const InputSize values_size = input_size(job.values_path);
    if (!values_size.is_regular || values_size.bytes != n * vb)
      throw Error(errc::invalid_argument, "values file '" + job.values_path + "' must be a regular file of " +
                                              std::to_string(n) + " values of " + std::to_string(vb) +
                                              " bytes to be sorted externally");
  }
  ExternalSortReport report;
  report.elements = n;
  const ExternalRuns cut = job.runs;
  if (cut.run == 0 || std::max<std::uint64_t>(1, (n + cut.run - 1) / cut.run) != cut.count)
    throw Error(errc::io_error, "input '" + job.keys_path + "' changed size since its sort was planned");
  const std::uint64_t runs = cut.count, run = cut.run;
  report.runs = std::size_t(runs);

  const Fd keys_in(open_input(job.keys_path, "input"));
  const Fd values_in(vb ? open_input(job.values_path, "values") : -1);
  const Fd keys_runs(temporary_file(job.temporary_directory));
  const Fd values_runs(vb ? temporary_file(job.temporary_directory) : -1);
  core::HostArray buffer;
  try {
    buffer = core::make_host_array(std::size_t(run) * (kb + vb));
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "cannot allocate " + std::to_string(run * (kb + vb)) +
                                         " bytes of host memory for a run (lower SortFileRequest::memory_limit)");
  }
  unsigned char* keys = buffer.get();
  unsigned char* values = buffer.get() + run * kb;
  auto sort_buffer = [&](std::uint64_t count) {
    sort_host_multi(job.contexts, job.type, keys, std::size_t(count), vb ? values : nullptr, vb, job.options);
  };
  auto length = [&](std::uint64_t r) { return std::min(run, n - r * run); };

  // 1. Sorted runs.
  auto t = Clock::now();
  progress.phase("sorting runs", n * (kb + vb));
  for (std::uint64_t r = 0; r < runs; ++r) {
    const std::uint64_t len = length(r);
    read_at(keys_in.get(), keys, len * kb, r * run * kb, "input '" + job.keys_path + "'");
    if (vb) read_at(values_in.get(), values, len * vb, r * run * vb, "values '" + job.values_path + "'");
    sort_buffer(len);
    write_at(keys_runs.get(), keys, len * kb, r * run * kb, "a temporary run file");
    if (vb) write_at(values_runs.get(), values, len * vb, r * run * vb, "a temporary run file");
    progress.advance(len * (kb + vb));
  }
  report.runs_ms = ms_since(t);

  // 2. Where the ranks b * run split every run.
  t = Clock::now();
  Mapping map;
  map.bytes = std::size_t(n * kb);
  if (n > 0) {
    map.at = ::mmap(nullptr, map.bytes, PROT_READ, MAP_SHARED, keys_runs.get(), 0);
    if (map.at == MAP_FAILED) throw_io_error("map the temporary run file", errno);
  }
  detail::SortedRuns sorted{job.type, map.at, {}};
  for (std::uint64_t r = 0; r <= runs; ++r) sorted.offsets.push_back(std::size_t(std::min(n, r * run)));
  std::vector<std::vector<std::size_t>> starts(runs + 1);
  for (std::uint64_t b = 0; b <= runs; ++b) starts[b] = detail::split_at_rank(sorted, job.options.order, std::min(n, b * run));
  report.splits_ms = ms_since(t);

  // 3. Buckets, in order, appended to the outputs.
  t = Clock::now();
  if (!job.keys_npy_descr.empty()) {
    const auto header = make_npy_header(job.keys_npy_descr, std::size_t(n));
    job.keys_out->write(header.data(), header.size());
  }
  if (vb && !job.values_npy_descr.empty()) {
    const auto header = make_npy_header(job.values_npy_descr, std::size_t(n));
    job.values_out->write(header.data(), header.size());
  }
  progress.phase("sorting buckets", n * (kb + vb));
  for (std::uint64_t b = 0; b < runs; ++b) {
    std::uint64_t at = 0;
    for (std::uint64_t r = 0; r < runs; ++r) {
      const std::uint64_t from = starts[b][r], to = starts[b + 1][r];
      if (to == from) continue;
      read_at(keys_runs.get(), keys + at * kb, (to - from) * kb, from * kb, "a temporary run file");
      if (vb) read_at(values_runs.get(), values + at * vb, (to - from) * vb, from * vb, "a temporary run file");
      at += to - from;
    }
    sort_buffer(at);
    job.keys_out->write(keys, at * kb);
    if (vb) job.values_out->write(values, at * vb);
    progress.advance(at * (kb + vb));
  }
  report.buckets_ms = ms_since(t);
  return report;
}

}  // namespace gpusort::files
