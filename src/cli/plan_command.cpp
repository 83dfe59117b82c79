// gpusort plan: the plan of a sort (gpusort/plan.hpp) for a type, count, values, order and device,
// printed without sorting anything.
#include <cstdio>
#include <optional>

#include "array_file.hpp"
#include "commands.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/sort_file.hpp"
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

// --rows R or --segments S: a segmented sort's request (gpusort/segmented.hpp), as gpusort sort
// makes it: uniform rows (--axis, --row-length), or segments by offsets (--segments, which the
// command passes as u64).
void plan_segments(const PlanArgs& args, SortRequest& request) {
  if (!args.rows.empty() && !args.segments.empty())
    throw Error(errc::invalid_argument, "--rows and --segments exclude each other: give one");
  const char* flag = args.rows.empty() ? "--segments" : "--rows";
  if (request.record_bytes)
    throw Error(errc::invalid_argument, std::string(flag) + " plans a segmented sort of keys: not with --record-size");
  if (!args.ranks.empty() || !args.sort.memory_limit.empty())
    throw Error(errc::invalid_argument, std::string(flag) + " plans a segmented sort, which reads its input whole: "
                                                            "not with --ranks or -S");
  if (!args.rows.empty()) {
    request.rows = parse_unsigned_arg(args.rows, "--rows", 0, ~std::uint64_t(0), "rows of --count / --rows keys");
    if (request.rows == 0 ? request.n != 0 : request.n % request.rows != 0)
      throw Error(errc::invalid_argument, "--rows " + args.rows + " does not divide --count " +
                                              std::to_string(request.n) + " into rows of one length");
    request.row_length = request.rows ? request.n / request.rows : 0;
  } else {
    request.rows = parse_unsigned_arg(args.segments, "--segments", 0, ~std::uint64_t(0), "segments of any lengths");
    request.offset_bytes = sizeof(std::uint64_t);
  }
}

// --rows R of a top-k or a partition: R uniform rows of --count / R keys (one row without).
void uniform_rows(const PlanArgs& args, SortRequest& request) {
  request.rows = args.rows.empty() ? 1 : parse_unsigned_arg(args.rows, "--rows", 0, ~std::uint64_t(0), "rows of --count / --rows keys");
  if (request.rows == 0 ? request.n != 0 : request.n % request.rows != 0)
    throw Error(errc::invalid_argument, "--rows " + args.rows + " does not divide --count " +
                                            std::to_string(request.n) + " into rows of one length");
  request.row_length = request.rows ? request.n / request.rows : 0;
}

// --top K: a top-k's request (gpusort/topk.hpp): the K first of each of --rows rows (one row of
// --count without), --indices their width, -r the largest.
void plan_topk(const PlanArgs& args, SortRequest& request) {
  if (!args.segments.empty() || !args.ranks.empty() || !args.sort.memory_limit.empty() || request.record_bytes ||
      !args.sort.values_type.empty())
    throw Error(errc::invalid_argument, "--top plans a top-k of keys in rows: not with --segments, --ranks, -S, "
                                        "--record-size or --values");
  request.topk = true;
  request.topk_sorted = !args.unsorted;
  request.positions = false;  // --indices: the width of the indices the top-k writes
  uniform_rows(args, request);
  request.k = parse_unsigned_arg(args.top, "--top", 0, request.row_length, "keys of each row (0 up to the row length)");
}

// --partition KTH: a partition's request (gpusort/partition.hpp): each of --rows rows (one row of
// --count without) around its key of rank KTH, --indices the width of the positions written.
void plan_partition(const PlanArgs& args, SortRequest& request) {
  if (!args.top.empty() || !args.segments.empty() || !args.ranks.empty() || !args.sort.memory_limit.empty() ||
      request.record_bytes || !args.sort.values_type.empty())
    throw Error(errc::invalid_argument, "--partition plans a partition of keys in rows: not with --top, --segments, "
                                        "--ranks, -S, --record-size or --values");
  request.partition = true;
  request.positions = false;  // --indices: the width of the positions the partition writes
  uniform_rows(args, request);
  request.kth = parse_unsigned_arg(args.partition, "--partition", 0,
                                   request.row_length ? request.row_length - 1 : ~std::uint64_t(0),
                                   "the rank of the key placed (0 up to the row length - 1)");
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
  if (args.unsorted && args.top.empty()) throw Error(errc::invalid_argument, "--unsorted applies to --top");
  if (!args.partition.empty())
    plan_partition(args, request);
  else if (!args.top.empty())
    plan_topk(args, request);
  else if (!args.rows.empty() || !args.segments.empty())
    plan_segments(args, request);
  // The paths above one device's plan: several ranks, each sorting its share; files larger than the
  // host memory limit, sorted through runs on disk. Each prints its own lines, then the plan of one
  // piece it sorts (a rank's share, a run).
  std::string outer;
  if (!args.ranks.empty()) {  // the distributed sort's plan, as each rank makes it (gpusort dist-sort)
    if (!s.memory_limit.empty()) throw Error(errc::invalid_argument, "--ranks and -S exclude each other");
    request.ranks = std::uint32_t(parse_unsigned_arg(args.ranks, "--ranks", 1, 1u << 20));
  }
  Context ctx(s.device);
  std::optional<FileSortPlan> file;
  if (!s.memory_limit.empty() && request.record_bytes == 0) {
    // A file sort under a host memory limit: its path as gpusort sort (gpusort::sort_file) plans
    // it, from the same planning function, for regular files of this shape.
    Context* one[] = {&ctx};
    const FileSortShape shape{.type = request.type, .n = request.n, .value_bytes = request.value_bytes};
    file = plan_sort_file(one, shape, request.options, parse_size_arg(s.memory_limit, "--memory-limit"));
    if (request.positions && file->path == file_sort_path::external)
      throw Error(errc::invalid_argument, "--indices: an external sort writes no indices");
    outer += "path: " + file->description + "\n";
  }
  // The plan of one piece, indented under the path above it where there is one.
  std::fputs(outer.c_str(), stdout);
  const SortPlan piece = file && !request.positions ? file->piece : plan(ctx, request);
  std::fputs(piece.text(outer.empty() ? "" : "  ").c_str(), stdout);
  return 0;
}

}  // namespace gpusort::cli
