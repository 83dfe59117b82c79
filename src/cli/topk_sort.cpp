#include "topk_sort.hpp"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "array_file.hpp"
#include "axis_transpose.hpp"
#include "core/host_array.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/partition.hpp"
#include "gpusort/topk.hpp"
#include "npy.hpp"
#include "option_numbers.hpp"
#include "output_file.hpp"
#include "segment_cut.hpp"
#include "sort_indices.hpp"

namespace gpusort::cli {
namespace {

[[noreturn]] void usage(const std::string& message) { throw Error(errc::invalid_argument, message); }

void check_topk_arguments(const SortArgs& a) {
  const bool partition = !a.partition.empty();
  const std::string flag = partition ? "--partition" : "--top";
  if (partition && !a.top.empty()) usage("--top and --partition exclude each other: give one");
  if (partition && a.descending) usage("--partition ranks ascending, as numpy.partition: not with -r");
  const char* refused = a.check               ? "-c"
                        : a.unique            ? "-u"
                        : !a.values.empty()   ? "--values"
                        : !a.segments.empty() ? "--segments"
                        : !a.record_size.empty() ? "--record-size"
                        : !a.comparator.empty()  ? "--comparator"
                                                 : nullptr;
  if (refused)
    usage(flag + (partition ? " partitions each row around one rank" : " selects the K first keys of each row") +
          ": not with " + refused);
  if (a.inputs.size() > 1) usage(flag + " takes one input (" + std::to_string(a.inputs.size()) + " were given)");
  if (a.device.find(',') != std::string::npos) usage(flag + " runs on one device: give one --device id");
}

}  // namespace

int run_topk_sort(const SortArgs& args) {
  check_topk_arguments(args);
  const FileFormat format = parse_format_arg(args.format);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  KeyFile keys = load_keys(args.input, type, format, "input", npy_shapes::any);
  if (keys.file.npy && keys.file.fortran_order && keys.file.shape.size() >= 2)
    usage("--top: input " + display_name(args.input) + " is a Fortran-ordered .npy array; write it C-ordered");
  const std::size_t n = keys.file.count, key_bytes = key_size(keys.type);
  const bool many_dims = keys.file.npy && keys.file.shape.size() >= 2;
  // rows: --row-length, or an n-D .npy's --axis; else the whole input is one row
  const AxisSplit split = many_dims || !args.row_length.empty() || !args.axis.empty()
                              ? cut_input(args, keys, format).split
                              : AxisSplit{1, n, 1};
  // --partition KTH: every key of each row comes out (k = the row length), partitioned around rank KTH
  const bool partition = !args.partition.empty();
  const auto length = static_cast<std::int64_t>(split.length);
  const std::int64_t kth =
      !partition ? 0
      : n == 0   ? parse_signed_arg(args.partition, "--partition", INT64_MIN, INT64_MAX)
                 : parse_signed_arg(args.partition, "--partition", -length, length - 1,
                                    "the rank placed in each row; negative from the row's end");
  const std::uint64_t k = partition ? split.length
                                    : parse_unsigned_arg(args.top, "--top", 0, split.length,
                                                         "keys of each row (0 up to its length)");
  const std::uint64_t rows = split.rows(), selected = rows * k;

  std::unique_ptr<OutputFile> keys_out, indices_out;
  std::vector<OutputFile*> outputs;
  if (!args.output.empty()) outputs.push_back((keys_out = std::make_unique<OutputFile>(args.output, "output")).get());
  if (!args.indices_out.empty())
    outputs.push_back((indices_out = std::make_unique<OutputFile>(args.indices_out, "indices output")).get());
  check_distinct(outputs);

  // The axis made the last (a copy where it is not), k of each row selected, and moved back.
  AxisLastView work(keys.file.data(), n, key_bytes, split);
  core::HostArray values = host_array(selected * key_bytes, "the top-k");
  core::HostArray index = host_array(selected * sizeof(std::int64_t), "the top-k's indices");
  Context ctx(args.device);
  const SortReport report =
      partition ? partition_host(ctx, keys.type, work.get(), n, kth, values.get(), index.get(), sizeof(std::int64_t),
                                 {.rows = rows, .verbose = args.verbose})
                : topk_host(ctx, keys.type, work.get(), n, k, values.get(), index.get(), sizeof(std::int64_t),
                            {.rows = rows, .largest = args.descending, .sorted = true, .verbose = args.verbose});
  const AxisSplit out_split{split.outer, static_cast<std::size_t>(k), split.inner};
  const auto moved_back = [&](core::HostArray& a, std::size_t item) {
    if (split.inner == 1 || selected == 0) return std::move(a);
    core::HostArray back = host_array(selected * item, "the top-k");
    move_last_axis_back(a.get(), back.get(), out_split, item);
    return back;
  };
  values = moved_back(values, key_bytes);
  index = moved_back(index, sizeof(std::int64_t));

  // A .npy input's outputs keep its shape with the axis's length k; a raw input's are 1-D.
  std::vector<std::size_t> shape{static_cast<std::size_t>(selected)};
  if (many_dims) {
    shape = keys.file.shape;
    const std::size_t dims = shape.size();
    shape[args.axis.empty() ? dims - 1 : parse_axis_arg(args.axis, dims)] = static_cast<std::size_t>(k);
  }
  const auto write = [&](OutputFile& out, const void* data, std::size_t item, bool npy, const std::string& descr) {
    if (npy) {
      const auto header = make_npy_header(descr, shape, false);
      out.write(header.data(), header.size());
    }
    out.write(data, selected * item);
  };
  if (keys_out)
    write(*keys_out, values.get(), key_bytes, keys.file.npy || has_npy_extension(args.output),
          keys.file.npy ? keys.file.descr : descr_of(keys.type));
  if (indices_out)
    write(*indices_out, index.get(), sizeof(std::int64_t), keys.file.npy || has_npy_extension(args.indices_out),
          kIndicesDescr);
  commit_together(outputs);
  if (args.verbose && partition)
    std::fprintf(stderr, "gpusort: %s: %llu rows of %zu keys around rank %lld, %.3f ms device time\n",
                 report.algorithm.c_str(), (unsigned long long)rows, split.length, (long long)kth, report.sort_ms);
  else if (args.verbose)
    std::fprintf(stderr, "gpusort: %s: the %llu %s of %llu rows of %zu keys, %.3f ms device time\n",
                 report.algorithm.c_str(), (unsigned long long)k, args.descending ? "largest" : "smallest",
                 (unsigned long long)rows, split.length, report.sort_ms);
  return 0;
}

}  // namespace gpusort::cli
