// gpusort sort: read keys (and values), sort them on a device, write them out atomically.
// The input files are only read; outputs appear only once complete, so a failed run leaves
// existing files as they were.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>
#include <sys/stat.h>

#include "array_file.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/multi_device.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "npy.hpp"

namespace gpusort::cli {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// True if both names refer to the same existing file, or are the same string.
bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

void check_arguments(const SortArgs& a) {
  const bool with_values = !a.values.empty();
  if (with_values && a.values_out.empty())
    throw Error(errc::invalid_argument, "--values needs --values-out (where the permuted values go)");
  if (!with_values && !a.values_out.empty())
    throw Error(errc::invalid_argument, "--values-out given without --values");
  if (!with_values && !a.values_type.empty())
    throw Error(errc::invalid_argument, "--values-type given without --values");
  if (with_values && same_file(a.output, a.values_out))
    throw Error(errc::invalid_argument, "--output and --values-out name the same file '" + a.output + "'");
}

SortOptions make_options(const SortArgs& a) {
  SortOptions o;
  o.order = a.descending ? order::descending : order::ascending;
  o.stable = a.stable;
  o.algorithm = a.algorithm.empty() ? "auto" : a.algorithm;
  o.work_group_size = a.work_group_size;
  o.items_per_thread = a.items_per_thread;
  o.local_variant = a.local_variant;
  o.merge_variant = a.merge_variant;
  o.host_merge_levels = a.host_merge_levels;
  o.device_memory_limit = a.device_memory_limit;
  o.verbose = a.verbose;
  return o;
}

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

}  // namespace

int run_sort(const SortArgs& args) {
  check_arguments(args);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  std::optional<ValueType> value_type;
  if (!args.values_type.empty()) value_type = parse_value_type_arg(args.values_type, "--values-type");

  const auto t_read = Clock::now();
  KeyFile keys = load_keys(args.input, type);
  std::optional<ArrayFile> values;
  if (!args.values.empty()) {
    values = load_values(args.values, value_type);
    if (values->count != keys.file.count)
      throw Error(errc::invalid_argument, "values file '" + args.values + "' holds " + std::to_string(values->count) +
                                              " elements but input '" + args.input + "' holds " +
                                              std::to_string(keys.file.count) + " keys");
  }
  const double read_ms = ms_since(t_read);
  const std::size_t n = keys.file.count;

  // Create the outputs' temporary files now: an unwritable destination fails before the sort.
  AtomicOutput out(args.output, "output");
  std::unique_ptr<AtomicOutput> values_out;
  if (values) values_out = std::make_unique<AtomicOutput>(args.values_out, "values output");

  // --device a,b,... sorts on several devices at once (sample sort, gpusort/multi_device.hpp).
  std::vector<Context> contexts;
  for (std::size_t start = 0;;) {
    const std::size_t comma = args.device.find(',', start);
    contexts.emplace_back(args.device.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::vector<Context*> context_ptrs;
  for (auto& c : contexts) context_ptrs.push_back(&c);
  Context& ctx = contexts.front();
  const SortOptions options = make_options(args);
  const SortReport report =
      sort_host_multi(context_ptrs, keys.type, keys.file.data(), n, values ? values->data() : nullptr,
                      values ? values->item_size : 0, options);

  const auto t_write = Clock::now();
  write_array(out, keys.file.data(), n, keys.file.item_size, keys.file.npy || has_npy_extension(args.output),
              keys.file.npy ? keys.file.descr : descr_of(keys.type));
  if (values)
    write_array(*values_out, values->data(), n, values->item_size, values->npy || has_npy_extension(args.values_out),
                values->descr);
  // Everything is on disk before either file replaces its target.
  out.finish();
  if (values_out) values_out->finish();
  out.commit();
  if (values_out) values_out->commit();
  const double write_ms = ms_since(t_write);

  if (args.verbose) {
    const auto& dev = ctx.device();
    std::fprintf(stderr, "gpusort: device:    %s (%s)\n", report.device.empty() ? dev.id.c_str() : report.device.c_str(),
                 dev.name.c_str());
    std::fprintf(stderr, "gpusort: algorithm: %s%s, %s\n", report.algorithm.c_str(),
                 args.algorithm == "auto" ? " (auto)" : "", args.descending ? "descending" : "ascending");
    std::fprintf(stderr, "gpusort: keys:      %zu x %s", n, std::string(key_type_name(keys.type)).c_str());
    if (values) std::fprintf(stderr, " with %zu-byte values", values->item_size);
    std::fprintf(stderr, "\n");
    std::fprintf(stderr, "gpusort: read %.3f ms, upload %.3f ms, sort %.3f ms, download %.3f ms, write %.3f ms\n",
                 read_ms, report.upload_ms, report.sort_ms, report.download_ms, write_ms);
    if (contexts.size() > 1)
      std::fprintf(stderr, "gpusort: %zu devices, one bucket each; host partition %.3f ms (sort time: slowest device)\n",
                   report.chunks, report.merge_ms);
    else if (report.chunks > 1)
      std::fprintf(stderr, "gpusort: larger than the device: %zu chunks, host merge %.3f ms\n", report.chunks, report.merge_ms);
    if (report.programs_compiled > 0)
      std::fprintf(stderr,
                   "gpusort: note: the sort time includes compiling %llu kernel program(s) on first use; they are "
                   "cached now, so a second run shows the sort alone\n",
                   (unsigned long long)report.programs_compiled);
    std::fprintf(stderr, "gpusort: sort rate: %s (device), %s (with transfers)\n", rate(n, report.sort_ms).c_str(),
                 rate(n, report.upload_ms + report.sort_ms + report.download_ms).c_str());
  }
  return 0;
}

}  // namespace gpusort::cli
