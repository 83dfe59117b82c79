// gpusort plan: the plan of a sort (gpusort/plan.hpp) for a type, count, values, order and device,
// printed without sorting anything.
#include <cstdio>

#include "array_file.hpp"
#include "commands.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/plan.hpp"
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
  Context ctx(s.device);
  std::fputs(plan(ctx, request).text().c_str(), stdout);
  return 0;
}

}  // namespace gpusort::cli
