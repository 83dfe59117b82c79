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
#include "core/host_clock.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/multi_device.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/sort_file.hpp"
#include "npy.hpp"
#include "option_numbers.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "files/external_sort.hpp"
#include "files/streamed_file_sort.hpp"
#include "sort_args.hpp"
#include "sort_check.hpp"
#include "sort_indices.hpp"
#include "sort_inputs.hpp"
#include "sort_unique.hpp"
#include "runtime/program_cache.hpp"
#include "segmented_sort.hpp"
#include "topk_sort.hpp"

namespace gpusort::cli {
namespace {

using Clock = core::host_clock;
using core::ms_since;

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
  o.stable = a.stable || a.unique || !a.indices_out.empty();  // -u keeps the first of equal keys; indices are argsort's
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

// The keys output (none where --indices-out is given without -o) and, with values, the values
// output, and the indices output, opened now: an unwritable destination, or two names for one
// file, fail before any work.
struct Outputs {
  std::unique_ptr<OutputFile> keys, values, indices;
  std::vector<OutputFile*> all;
};
Outputs open_outputs(const SortArgs& a, bool with_values) {
  Outputs o;
  if (!a.output.empty()) {
    o.keys = std::make_unique<OutputFile>(a.output, "output");
    o.all.push_back(o.keys.get());
  }
  if (with_values) {
    o.values = std::make_unique<OutputFile>(a.values_out, "values output");
    o.all.push_back(o.values.get());
  }
  if (!a.indices_out.empty()) {
    o.indices = std::make_unique<OutputFile>(a.indices_out, "indices output");
    o.all.push_back(o.indices.get());
  }
  check_distinct(o.all);
  return o;
}

// Pointers to the contexts, as sort_host_multi takes them.
std::vector<Context*> pointers(std::vector<Context>& contexts) {
  std::vector<Context*> p;
  for (auto& c : contexts) p.push_back(&c);
  return p;
}

// What one sort did, for --verbose.
struct SortRun {
  std::optional<Outputs> outputs;
  std::vector<Context> contexts;
  SortReport report;
  bool streamed = false;
  unsigned host_threads = 0;  // copy threads the streamed sort was given under --memory-limit
  double read_ms = 0, write_ms = 0, commit_ms = 0, total_ms = 0;
  std::size_t n = 0;
  std::optional<std::size_t> unique_kept;  // -u: the keys kept of the n sorted
  bool indices = false;                     // --indices-out: int64 positions sorted along as values
  key_type type = key_type::u32;
  std::size_t value_bytes = 0;
};


// The command's own additions (several inputs, -u, --indices-out: reads_inputs_whole): the inputs
// read whole into host memory (several concatenated), sorted there through the device(s) (in
// chunks when larger than a device), and written out; -u and --indices-out are applied here
// (sort_unique.hpp, sort_indices.hpp). Every other sort is gpusort::sort_file's.
void sort_in_host_memory(const SortArgs& args, const SortOptions& options, std::optional<key_type> type,
                         const std::optional<ValueType>& value_type, FileFormat format, SortRun& run,
                         Progress& progress) {
  const auto t_read = Clock::now();
  progress.phase("reading", input_size(args.input).bytes);
  SortInputs in = load_sort_inputs(args, type, value_type, format);
  run.read_ms = ms_since(t_read);
  run.n = in.n;
  run.type = in.type;
  // With --indices-out the sort carries the positions; values given are gathered by them after.
  const bool with_indices = !args.indices_out.empty();
  core::HostArray indices = with_indices ? positions(in.n) : core::HostArray();
  run.value_bytes = in.value_bytes;
  run.indices = with_indices;
  progress.phase("sorting", in.data_bytes());

  if (!run.outputs) run.outputs = open_outputs(args, in.value_bytes != 0);
  // --device a,b,... sorts on several devices at once (gpusort/multi_device.hpp).
  if (run.contexts.empty()) run.contexts = open_contexts(args.device);
  const std::vector<Context*> context_ptrs = pointers(run.contexts);
  run.report = sort_host_multi(context_ptrs, in.type, in.keys(), run.n, with_indices ? indices.get() : in.values(),
                               with_indices ? sizeof(std::int64_t) : in.value_bytes, options);

  std::size_t n = run.n;
  const auto* index = reinterpret_cast<const std::int64_t*>(indices.get());
  if (args.unique) {
    std::vector<CarriedArray> carried;
    if (with_indices) carried.push_back({indices.get(), sizeof(std::int64_t)});
    else if (in.value_bytes) carried.push_back({in.values(), in.value_bytes});
    n = keep_first_of_equal_keys(in.type, in.keys(), n, carried);
    run.unique_kept = n;
  }
  const unsigned char* values = in.values();
  core::HostArray gathered;
  if (with_indices && in.value_bytes) {
    gathered = core::make_host_array(n * in.value_bytes + 1);
    gather_by_indices(in.values(), gathered.get(), n, in.value_bytes, index);
    values = gathered.get();
  }

  const auto t_write = Clock::now();
  progress.phase("writing", n * (key_size(in.type) + in.value_bytes + (with_indices ? sizeof(std::int64_t) : 0)));
  const Outputs& out = *run.outputs;
  if (out.keys)
    write_array(*out.keys, in.keys(), n, key_size(in.type), in.keys_npy || has_npy_extension(args.output),
                in.keys_descr);
  if (out.values)
    write_array(*out.values, values, n, in.value_bytes, in.values_npy || has_npy_extension(args.values_out),
                in.values_descr);
  if (out.indices)
    write_array(*out.indices, index, n, sizeof(std::int64_t), in.keys_npy || has_npy_extension(args.indices_out),
                kIndicesDescr);
  run.write_ms = ms_since(t_write);
}

void print_report(const SortArgs& args, const SortRun& run) {
  const SortReport& report = run.report;
  const auto& dev = run.contexts.front().device();
  std::fprintf(stderr, "gpusort: device:    %s (%s)\n", report.device.empty() ? dev.id.c_str() : report.device.c_str(),
               dev.name.c_str());
  std::fprintf(stderr, "gpusort: algorithm: %s%s, %s\n", report.algorithm.c_str(),
               args.algorithm == "auto" ? " (auto)" : "", args.descending ? "descending" : "ascending");
  std::fprintf(stderr, "gpusort: keys:      %zu x %s", run.n, std::string(key_type_name(run.type)).c_str());
  if (run.value_bytes) std::fprintf(stderr, " with %zu-byte values", run.value_bytes);
  if (run.indices) std::fprintf(stderr, ", int64 indices sorted along (--indices-out)");
  std::fprintf(stderr, "\n");
  if (run.unique_kept) std::fprintf(stderr, "gpusort: unique:    kept %zu of %zu keys (-u)\n", *run.unique_kept, run.n);
  if (run.streamed) {
    std::fprintf(stderr,
                 "gpusort: streamed through the device: read+upload %.3f ms, sort %.3f ms, download+write %.3f ms, "
                 "sync %.3f ms; %.3f ms in all\n",
                 report.upload_ms, report.sort_ms, report.download_ms, run.commit_ms, run.total_ms);
    if (run.host_threads)
      std::fprintf(stderr, "gpusort: --memory-limit: %u copy thread(s), %u MiB of pinned staging\n", run.host_threads,
                   unsigned(run.host_threads * (files::kStagingPerThread >> 20)));
  }
  else
    std::fprintf(stderr,
                 "gpusort: read %.3f ms, upload %.3f ms, sort %.3f ms, download %.3f ms, write %.3f ms, sync %.3f ms; "
                 "%.3f ms in all\n",
                 run.read_ms, report.upload_ms, report.sort_ms, report.download_ms, run.write_ms, run.commit_ms,
                 run.total_ms);
  if (run.contexts.size() > 1)
    std::fprintf(stderr, "gpusort: %zu devices, %zu chunks and buckets; host splits %.3f ms (times: slowest device)\n",
                 run.contexts.size(), report.chunks, report.split_ms);
  else if (report.chunks > 1)
    std::fprintf(stderr, "gpusort: larger than the device: %zu chunks and buckets, host splits %.3f ms\n",
                 report.chunks, report.split_ms);
  if (report.programs_compiled > 0)
    std::fprintf(stderr, "gpusort: note: the sort time includes compiling %llu kernel program(s) on first use; %s\n",
                 (unsigned long long)report.programs_compiled,
                 rt::program_cache_stats().stored > 0
                     ? "they are cached now, so a second run shows the sort alone"
                     : "they could not be cached, so every run compiles them (see gpusort cache info)");
  std::fprintf(stderr, "gpusort: sort rate: %s (device), %s (with transfers)\n", rate(run.n, report.sort_ms).c_str(),
               rate(run.n, report.upload_ms + report.sort_ms + report.download_ms).c_str());
}

}  // namespace

int run_sort(const SortArgs& given) {
  const SortArgs args = resolve_sort_args(given);  // several inputs, -o absent, -c (sort_args.hpp)
  // the K first of each row, or each row partitioned (topk_sort.hpp)
  if (!args.top.empty() || !args.partition.empty()) return run_topk_sort(args);
  if (args.check) return is_segmented_sort(args) ? run_segmented_check(args) : run_sort_check(args);
  check_arguments(args);
  // Rows or segments each sorted on their own, or an n-D .npy along an axis (segmented_sort.hpp).
  if (is_segmented_sort(args)) return run_segmented_sort(args, make_options(args));
  if (!args.record_size.empty()) return run_record_sort(args, make_options(args));
  if (!args.key.empty()) throw Error(errc::invalid_argument, "--key needs --record-size (it names fields of records)");
  const FileFormat format = parse_format_arg(args.format);
  const SortOptions options = make_options(args);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  std::optional<ValueType> value_type;
  if (!args.values_type.empty()) value_type = parse_value_type_arg(args.values_type, "--values-type");

  Progress progress(args.progress ? ProgressMode::on : args.no_progress ? ProgressMode::off : ProgressMode::automatic);
  const auto t_start = Clock::now();
  SortRun run;
  std::uint64_t limit = 0;
  if (!args.memory_limit.empty()) limit = parse_size_arg(args.memory_limit, "--memory-limit");
  if (reads_inputs_whole(args)) {
    if (limit) check_whole_inputs_fit(args, limit);
    sort_in_host_memory(args, options, type, value_type, format, run, progress);
    // Everything is on disk before either file replaces its target, and both do or neither.
    const auto t_commit = Clock::now();
    commit_together(run.outputs->all);
    run.commit_ms = ms_since(t_commit);
  } else {
    // The library plans the sort once and runs it: streamed through the device, in host memory,
    // or externally through runs under --memory-limit (gpusort/sort_file.hpp).
    // --device a,b,... sorts on several devices at once (gpusort/multi_device.hpp).
    run.contexts = open_contexts(args.device);
    const std::vector<Context*> context_ptrs = pointers(run.contexts);
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
    request.memory_limit = limit;
    request.temporary_directory = args.temporary_directory;
    request.progress = &progress;
    const SortFileReport file = sort_file(request);
    if (file.path == file_sort_path::external) {
      if (args.verbose)
        std::fprintf(stderr,
                     "gpusort: external sort of %llu elements (--memory-limit %llu bytes): %zu runs in %.3f ms, "
                     "splits %.3f ms, %zu buckets in %.3f ms (on %s)\n",
                     (unsigned long long)file.elements, (unsigned long long)limit, file.runs, file.runs_ms,
                     file.splits_ms, file.runs, file.buckets_ms, run.contexts.front().device().id.c_str());
      return 0;
    }
    run.report = file.sort;
    run.streamed = file.path == file_sort_path::streamed;
    run.host_threads = file.copy_threads;
    run.read_ms = file.read_ms;
    run.write_ms = file.write_ms;
    run.commit_ms = file.commit_ms;
    run.n = static_cast<std::size_t>(file.elements);
    run.type = file.type;
    run.value_bytes = file.value_bytes;
  }
  run.total_ms = ms_since(t_start);
  if (args.verbose) print_report(args, run);
  return 0;
}

}  // namespace gpusort::cli
