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

namespace gpusort::cli {

int run_plan(const PlanArgs& args) {
  const SortArgs& s = args.sort;
  SortRequest request;
  request.type = parse_key_type_arg(s.type, "--type");
  request.n = parse_count_arg(args.count, "--count");
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
  // The paths above one device's plan: several ranks, each sorting its share; files larger than the
  // host memory limit, sorted through runs on disk. Each prints its own lines, then the plan of one
  // piece it sorts (a rank's share, a run).
  std::string outer;
  if (!args.ranks.empty()) {
    const std::uint64_t ranks = parse_unsigned_arg(args.ranks, "--ranks", 1, 1u << 20);
    request.n = (request.n + ranks - 1) / ranks;
    outer += "path: distributed over " + std::to_string(ranks) + " ranks (gpusort dist-sort): each rank sorts its "
             "share of up to " + std::to_string(request.n) + " elements as planned below, the ranks agree on "
             "exact splitters, exchange their slices all-to-all and merge what they receive\n";
  }
  Context ctx(s.device);
  std::optional<FileSortPlan> file;
  if (!s.memory_limit.empty()) {
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
