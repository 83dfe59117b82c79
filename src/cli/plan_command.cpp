// gpusort plan: the plan of a sort (gpusort/plan.hpp) for a type, count, values, order and device,
// printed without sorting anything.
#include <cstdio>

#include "array_file.hpp"
#include "commands.hpp"
#include "external_sort.hpp"
#include "gpusort/streamed.hpp"
#include "streamed_file_sort.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/plan.hpp"
#include "option_numbers.hpp"
#include "record_sort.hpp"

namespace gpusort::cli {
namespace {

// --record-size with --key fields or a --comparator: a record sort's request, as gpusort sort makes it.
void plan_records(const PlanArgs& args, SortRequest& request) {
  const SortArgs& s = args.sort;
  if (!s.type.empty() || !s.values_type.empty() || !args.indices.empty())
    throw Error(errc::invalid_argument, "--record-size plans records: no --type, --values or --indices");
  if (!s.comparator.empty() && !s.key.empty())
    throw Error(errc::invalid_argument, "--record-size takes --key or --comparator, not both");
  if (s.descending && s.comparator.empty())
    throw Error(errc::invalid_argument, "--descending applies to a record --comparator; give :desc per --key field");
  request.record_bytes = parse_unsigned_arg(s.record_size, "--record-size", 1, kMaxRecordBytes, "bytes per record");
  if (s.comparator.empty()) request.record_fields = parse_key_fields(s.key, request.record_bytes);
}

}  // namespace

int run_plan(const PlanArgs& args) {
  const SortArgs& s = args.sort;
  SortRequest request;
  request.n = parse_count_arg(args.count, "--count");
  if (!s.record_size.empty()) {
    plan_records(args, request);
  } else {
    if (!s.key.empty()) throw Error(errc::invalid_argument, "--key needs --record-size (it names fields of records)");
    if (s.type.empty()) throw Error(errc::invalid_argument, "--type is required (or --record-size for records)");
    request.type = parse_key_type_arg(s.type, "--type");
  }
  if (!s.values_type.empty()) request.value_bytes = parse_value_type_arg(s.values_type, "--values").size;
  if (!args.indices.empty()) {
    if (request.value_bytes)
      throw Error(errc::invalid_argument, "--indices and --values exclude each other (argsort's values are the indices)");
    request.value_bytes = parse_unsigned_arg(args.indices, "--indices", 4, 8, "the indices' bytes: 4 or 8");
    request.positions = true;
  }
  if (args.where == "host")
    request.where = data_location::host;
  else if (args.where == "device")
    request.where = data_location::device;
  else
    throw Error(errc::invalid_argument, "--where must be host or device (got '" + args.where + "')");
  request.options = make_options(s);
  request.options.verbose = false;
  const std::size_t element_bytes = key_size(request.type) + request.value_bytes;
  // The paths above one device's plan: several ranks, each sorting its share; files larger than the
  // host memory limit, sorted through runs on disk. Each prints its own lines, then the plan of one
  // piece it sorts (a rank's share, a run).
  std::string outer;
  if (!args.ranks.empty()) {  // the distributed sort's plan, as each rank makes it (gpusort dist-sort)
    if (!s.memory_limit.empty()) throw Error(errc::invalid_argument, "--ranks and -S exclude each other");
    request.ranks = std::uint32_t(parse_unsigned_arg(args.ranks, "--ranks", 1, 1u << 20));
  }
  Context ctx(s.device);
  if (!s.memory_limit.empty() && request.record_bytes == 0) {
    const std::uint64_t limit = parse_size_arg(s.memory_limit, "--memory-limit");
    // As gpusort sort decides: a regular file larger than the limit streams through a GPU it fits
    // (the limit holding the pinned staging), else it is sorted externally.
    const bool streams = ctx.device().is_gpu && limit >= kStagingPerThread + kStreamedHeads &&
                         fits_streamed(ctx, request.type, request.n, request.value_bytes, request.options);
    if (request.n * element_bytes > limit && streams) {
      outer += "path: streamed through the device (a regular file larger than --memory-limit that fits the "
               "device): read into pinned staging while it uploads, written from it while it downloads\n";
    } else if (request.n * element_bytes > limit) {
      if (request.positions) throw Error(errc::invalid_argument, "--indices: an external sort writes no indices");
      const ExternalRuns cut = external_runs(request.n, key_size(request.type), request.value_bytes, limit);
      outer += "path: external (larger than --memory-limit): " + std::to_string(cut.count) + " runs of up to " +
               std::to_string(cut.run) + " elements, each sorted as planned below and written to the temporary "
               "directory; then as many buckets cut at exact ranks, each read back, sorted and appended to the "
               "output\n";
      request.n = cut.run;
    }
  }
  // The plan of one piece, indented under the path above it where there is one.
  std::fputs(outer.c_str(), stdout);
  std::fputs(plan(ctx, request).text(outer.empty() ? "" : "  ").c_str(), stdout);
  return 0;
}

}  // namespace gpusort::cli
