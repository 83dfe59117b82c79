// gpusort sort: read keys (and values), sort them on a device, write them out.
// The inputs are only read; file outputs appear only once complete and together (keys and values),
// so a failed run leaves existing files as they were (output_file.hpp).
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <memory>
#include <optional>
#include <vector>

#include "array_file.hpp"
#include "commands.hpp"
#include "record_sort.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/multi_device.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/sort_file.hpp"
#include "option_numbers.hpp"
#include "progress.hpp"
#include "files/streamed_file_sort.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::cli {
namespace {

void check_arguments(const SortArgs& a) {
  const bool with_values = !a.values.empty();
  if (with_values && a.values_out.empty())
    throw Error(errc::invalid_argument, "--values needs --values-out (where the permuted values go)");
  if (!with_values && !a.values_out.empty())
    throw Error(errc::invalid_argument, "--values-out given without --values");
  if (!with_values && !a.values_type.empty())
    throw Error(errc::invalid_argument, "--values-type given without --values");
  if (with_values && a.input == "-" && a.values == "-")
    throw Error(errc::invalid_argument, "the input and --values cannot both be standard input ('-')");
  if (a.progress && a.no_progress) throw Error(errc::invalid_argument, "--progress and --no-progress contradict each other");
  if (!a.temporary_directory.empty() && a.memory_limit.empty())
    throw Error(errc::invalid_argument, "--temporary-directory is used only with --memory-limit (external sorts)");
}

}  // namespace

// --comparator TEXT, or @FILE: the body from a file (multi-line bodies, no shell quoting).
std::string comparator_text(const std::string& arg) {
  if (arg.empty() || arg[0] != '@') return arg;
  std::ifstream in(arg.substr(1), std::ios::binary);
  if (!in) throw Error(errc::io_error, "--comparator: cannot read '" + arg.substr(1) + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw Error(errc::invalid_argument, "--comparator: '" + arg.substr(1) + "' is empty");
  return text.str();
}

SortOptions make_options(const SortArgs& a) {
  SortOptions o;
  o.order = a.descending ? order::descending : order::ascending;
  o.stable = a.stable;
  o.algorithm = a.algorithm.empty() ? "auto" : a.algorithm;
  // Broad syntax and range checks here; the library checks each value against the algorithm and
  // the device (its errors name SortOptions fields, which main.cpp turns into these flags).
  if (!a.work_group_size.empty())
    o.work_group_size = parse_unsigned_arg(a.work_group_size, "--wg", 0, 1u << 16, "0 = the algorithm's default");
  if (!a.items_per_thread.empty())
    o.items_per_thread =
        parse_unsigned_arg(a.items_per_thread, "--items-per-thread", 0, 1u << 16, "0 = the algorithm's default");
  o.local_variant = a.local_variant;
  o.merge_variant = a.merge_variant;
  o.comparator = comparator_text(a.comparator);
  if (!a.host_merge_levels.empty())
    o.host_merge_levels =
        static_cast<int>(parse_signed_arg(a.host_merge_levels, "--host-levels", -1, 64, "-1 = automatic"));
  if (!a.device_memory_limit.empty()) o.device_memory_limit = parse_size_arg(a.device_memory_limit, "--device-memory-limit");
  if (!a.threads.empty())
    o.host_threads = static_cast<unsigned>(parse_unsigned_arg(a.threads, "--threads", 0, 64, "0 = automatic"));
  o.verbose = a.verbose;
  return o;
}

namespace {

std::string rate(std::size_t n, double ms) {
  char buf[64];
  if (ms <= 0) return "n/a";
  const double per_s = double(n) / (ms / 1000.0);
  if (per_s >= 1e9)
    std::snprintf(buf, sizeof buf, "%.3g Gkeys/s", per_s / 1e9);
  else if (per_s >= 1e6)
    std::snprintf(buf, sizeof buf, "%.3g Mkeys/s", per_s / 1e6);
  else if (per_s >= 1e3)
    std::snprintf(buf, sizeof buf, "%.3g Kkeys/s", per_s / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f keys/s", per_s);
  return buf;
}

// --device a,b,...: one context per id (several sort at once: gpusort/multi_device.hpp).
std::vector<Context> open_contexts(const std::string& ids) {
  std::vector<Context> contexts;
  for (std::size_t start = 0;;) {
    const std::size_t comma = ids.find(',', start);
    contexts.emplace_back(ids.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return contexts;
}

// Pointers to the contexts, as sort_host_multi takes them.
std::vector<Context*> pointers(std::vector<Context>& contexts) {
  std::vector<Context*> p;
  for (auto& c : contexts) p.push_back(&c);
  return p;
}

// --verbose: what the sort did (gpusort::sort_file's report).
void print_report(const SortArgs& args, const std::vector<Context>& contexts, const SortFileReport& run) {
  const SortReport& report = run.sort;
  const auto& dev = contexts.front().device();
  std::fprintf(stderr, "gpusort: device:    %s (%s)\n", report.device.empty() ? dev.id.c_str() : report.device.c_str(),
               dev.name.c_str());
  std::fprintf(stderr, "gpusort: algorithm: %s%s, %s\n", report.algorithm.c_str(),
               args.algorithm == "auto" ? " (auto)" : "", args.descending ? "descending" : "ascending");
  std::fprintf(stderr, "gpusort: keys:      %llu x %s", (unsigned long long)run.elements,
               std::string(key_type_name(run.type)).c_str());
  if (run.value_bytes) std::fprintf(stderr, " with %zu-byte values", run.value_bytes);
  std::fprintf(stderr, "\n");
  if (run.path == file_sort_path::streamed) {
    std::fprintf(stderr,
                 "gpusort: streamed through the device: read+upload %.3f ms, sort %.3f ms, download+write %.3f ms, "
                 "sync %.3f ms; %.3f ms in all\n",
                 report.upload_ms, report.sort_ms, report.download_ms, run.commit_ms, run.total_ms);
    if (run.copy_threads)
      std::fprintf(stderr, "gpusort: --memory-limit: %u copy thread(s), %u MiB of pinned staging\n", run.copy_threads,
                   unsigned(run.copy_threads * (files::kStagingPerThread >> 20)));
  }
  else
    std::fprintf(stderr,
                 "gpusort: read %.3f ms, upload %.3f ms, sort %.3f ms, download %.3f ms, write %.3f ms, sync %.3f ms; "
                 "%.3f ms in all\n",
                 run.read_ms, report.upload_ms, report.sort_ms, report.download_ms, run.write_ms, run.commit_ms,
                 run.total_ms);
  if (contexts.size() > 1)
    std::fprintf(stderr, "gpusort: %zu devices, %zu chunks and buckets; host splits %.3f ms (times: slowest device)\n",
                 contexts.size(), report.chunks, report.split_ms);
  else if (report.chunks > 1)
    std::fprintf(stderr, "gpusort: larger than the device: %zu chunks and buckets, host splits %.3f ms\n",
                 report.chunks, report.split_ms);
  if (report.programs_compiled > 0)
    std::fprintf(stderr, "gpusort: note: the sort time includes compiling %llu kernel program(s) on first use; %s\n",
                 (unsigned long long)report.programs_compiled,
                 rt::program_cache_stats().stored > 0
                     ? "they are cached now, so a second run shows the sort alone"
                     : "they could not be cached, so every run compiles them (see gpusort cache info)");
  const auto n = static_cast<std::size_t>(run.elements);
  std::fprintf(stderr, "gpusort: sort rate: %s (device), %s (with transfers)\n", rate(n, report.sort_ms).c_str(),
               rate(n, report.upload_ms + report.sort_ms + report.download_ms).c_str());
}

}  // namespace

int run_sort(const SortArgs& args) {
  check_arguments(args);
  if (!args.record_size.empty()) return run_record_sort(args, make_options(args));
  if (!args.key.empty()) throw Error(errc::invalid_argument, "--key needs --record-size (it names fields of records)");
  const FileFormat format = parse_format_arg(args.format);
  const SortOptions options = make_options(args);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  if (!args.values_type.empty()) (void)parse_value_type_arg(args.values_type, "--values-type");  // before any device

  Progress progress(args.progress ? ProgressMode::on : args.no_progress ? ProgressMode::off : ProgressMode::automatic);
  // --device a,b,... sorts on several devices at once (gpusort/multi_device.hpp).
  std::vector<Context> contexts = open_contexts(args.device);
  const std::vector<Context*> context_ptrs = pointers(contexts);
  // The library plans the sort once and runs it: streamed through the device, in host memory, or
  // externally through runs under --memory-limit (gpusort/sort_file.hpp).
  SortFileRequest request;
  request.keys = args.input;
  request.output = args.output;
  request.values = args.values;
  request.values_output = args.values_out;
  request.format = format;
  request.type = type;
  request.values_type = args.values_type;
  request.contexts = context_ptrs;
  request.options = options;
  if (!args.memory_limit.empty()) request.memory_limit = parse_size_arg(args.memory_limit, "--memory-limit");
  request.temporary_directory = args.temporary_directory;
  request.progress = &progress;
  const SortFileReport run = sort_file(request);
  if (!args.verbose) return 0;
  if (run.path == file_sort_path::external)
    std::fprintf(stderr,
                 "gpusort: external sort of %llu elements (--memory-limit %llu bytes): %zu runs in %.3f ms, splits %.3f "
                 "ms, %zu buckets in %.3f ms (on %s)\n",
                 (unsigned long long)run.elements, (unsigned long long)request.memory_limit, run.runs, run.runs_ms,
                 run.splits_ms, run.runs, run.buckets_ms, contexts.front().device().id.c_str());
  else
    print_report(args, contexts, run);
  return 0;
}

}  // namespace gpusort::cli
