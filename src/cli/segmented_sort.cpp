#include "segmented_sort.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "array_file.hpp"
#include "axis_transpose.hpp"
#include "core/host_array.hpp"
#include "core/host_clock.hpp"
#include "file_io.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/segmented.hpp"
#include "npy.hpp"
#include "option_numbers.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "segment_cut.hpp"
#include "sort_indices.hpp"

namespace gpusort::cli {
namespace {

using Clock = core::host_clock;
using core::ms_since;

[[noreturn]] void usage(const std::string& message) { throw Error(errc::invalid_argument, message); }

// -S: the input (and values and offsets) are read whole, so they must fit under the limit.
void check_fits(const SortArgs& a, std::uint64_t memory_limit) {
  std::uint64_t bytes = 0;
  for (const std::string* p : {&a.input, &a.values, &a.segments}) {
    struct stat st {};
    if (!p->empty() && *p != "-" && ::stat(p->c_str(), &st) == 0 && S_ISREG(st.st_mode))
      bytes += std::uint64_t(st.st_size);
  }
  if (bytes > memory_limit)
    throw Error(errc::unsupported, segment_option(a) + " reads the input whole into host memory, and it (" +
                                       std::to_string(bytes) + " bytes) exceeds --memory-limit (" +
                                       std::to_string(memory_limit) + " bytes): raise the limit");
}

// out[b + j] = in[b + indices[b + j]] within every segment [b, e): values follow their keys.
void gather_within_segments(const unsigned char* in, unsigned char* out, std::size_t item_size,
                            const std::int64_t* indices, const SegmentCut& cut) {
  cut.for_each([&](std::size_t b, std::size_t e) {
    for (std::size_t j = b; j < e; ++j)
      std::memcpy(out + j * item_size, in + (b + static_cast<std::size_t>(indices[j])) * item_size, item_size);
  });
}

}  // namespace

bool is_segmented_sort(const SortArgs& args) {
  if (!args.axis.empty() || !args.row_length.empty() || !args.segments.empty()) return true;
  if (args.inputs.size() != 1 || args.input == "-" || !args.record_size.empty()) return false;
  if (parse_format_arg(args.format) == FileFormat::raw) return false;
  // A regular .npy file's header says whether it has two dimensions or more. Anything unusable is
  // left to the ordinary sort, which reports it.
  struct stat st {};
  if (::stat(args.input.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const Fd fd(::open(args.input.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return false;
  try {
    const auto size = static_cast<std::size_t>(st.st_size);
    unsigned char prefix[12] = {};
    if (size < sizeof prefix) return false;
    read_at(fd.get(), prefix, sizeof prefix, 0, "input");
    const std::size_t header = npy_header_bytes(prefix, sizeof prefix);
    if (header == 0 || header > size || header > (std::size_t(16) << 20)) return false;
    std::vector<unsigned char> head(header);
    read_at(fd.get(), head.data(), head.size(), 0, "input");
    return parse_npy(head.data(), head.size(), size, args.input, npy_shapes::any).shape.size() >= 2;
  } catch (const Error&) {
    return false;
  }
}

int run_segmented_sort(const SortArgs& args, const SortOptions& options) {
  check_segmented_arguments(args);
  const FileFormat format = parse_format_arg(args.format);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  std::optional<ValueType> value_type;
  if (!args.values_type.empty()) value_type = parse_value_type_arg(args.values_type, "--values-type");
  if (!args.memory_limit.empty()) check_fits(args, parse_size_arg(args.memory_limit, "--memory-limit"));
  Progress progress(args.progress ? ProgressMode::on : args.no_progress ? ProgressMode::off : ProgressMode::automatic);
  const auto t_start = Clock::now();

  progress.phase("reading", 0);
  KeyFile keys = load_keys(args.input, type, format, "input", npy_shapes::any);
  const std::size_t n = keys.file.count;
  const std::size_t key_bytes = key_size(keys.type);
  const bool many_dims = keys.file.npy && keys.file.shape.size() >= 2;
  const SegmentCut cut = cut_input(args, keys, format);

  std::optional<ArrayFile> values;
  if (!args.values.empty()) {
    values = load_values(args.values, value_type, format, npy_shapes::any);
    if (values->count != n)
      usage("values file " + display_name(values->path) + " holds " + std::to_string(values->count) +
            " elements but input " + display_name(args.input) + " holds " + std::to_string(n) + " keys");
    const bool values_many_dims = values->npy && values->shape.size() >= 2;
    if (values->npy && (many_dims || values_many_dims) &&
        (values->shape != keys.file.shape || values->fortran_order != keys.file.fortran_order))
      usage("values file " + display_name(values->path) + " holds a " + shape_text(values->shape) +
            (values->fortran_order ? " Fortran-ordered" : "") + " array but input " + display_name(args.input) + " a " +
            shape_text(keys.file.shape) + (keys.file.fortran_order ? " Fortran-ordered" : "") +
            " one: values of an n-D input have its shape and order (or are raw, in its memory order)");
  }
  const std::size_t value_bytes = values ? values->item_size : 0;
  const bool with_indices = !args.indices_out.empty();
  const double read_ms = ms_since(t_start);

  // Outputs opened now: an unwritable destination fails before the sort.
  std::unique_ptr<OutputFile> keys_out, values_out, indices_out;
  std::vector<OutputFile*> outputs;
  if (!args.output.empty()) outputs.push_back((keys_out = std::make_unique<OutputFile>(args.output, "output")).get());
  if (values)
    outputs.push_back((values_out = std::make_unique<OutputFile>(args.values_out, "values output")).get());
  if (with_indices)
    outputs.push_back((indices_out = std::make_unique<OutputFile>(args.indices_out, "indices output")).get());
  check_distinct(outputs);

  progress.phase("sorting", n * (key_bytes + value_bytes));
  const auto t_move = Clock::now();
  AxisLastView work_keys(keys.file.data(), n, key_bytes, cut.split);
  std::optional<AxisLastView> work_values;
  if (values) work_values.emplace(values->data(), n, value_bytes, cut.split);
  double move_ms = ms_since(t_move);

  Context ctx(args.device);
  SortReport report;
  core::HostArray indices;
  if (with_indices) indices = host_array(n * sizeof(std::int64_t), "--indices-out");
  auto* index = reinterpret_cast<std::int64_t*>(indices.get());
  const Segments segments = cut.segments();
  if (n > 0 && with_indices) {
    report = argsort_segments_host(ctx, keys.type, work_keys.get(), n, work_keys.get(), index, sizeof(std::int64_t),
                                   segments, options);
    if (values) {
      core::HostArray gathered = host_array(n * value_bytes, "the values");
      gather_within_segments(work_values->get(), gathered.get(), value_bytes, index, cut);
      std::memcpy(work_values->get(), gathered.get(), n * value_bytes);
    }
  } else if (n > 0) {
    report = sort_segments_host(ctx, keys.type, work_keys.get(), n, values ? work_values->get() : nullptr, value_bytes,
                                segments, options);
  }

  const auto t_back = Clock::now();
  work_keys.restore();
  if (work_values) work_values->restore();
  core::HostArray index_copy;
  if (with_indices && cut.split.inner > 1 && n > 0) {
    index_copy = host_array(n * sizeof(std::int64_t), "--indices-out");
    move_last_axis_back(indices.get(), index_copy.get(), cut.split, sizeof(std::int64_t));
    index = reinterpret_cast<std::int64_t*>(index_copy.get());
  }
  move_ms += ms_since(t_back);

  // A .npy input's outputs keep its shape and order; a raw input's are 1-D.
  const auto t_write = Clock::now();
  progress.phase("writing", n * (key_bytes + value_bytes + (with_indices ? sizeof(std::int64_t) : 0)));
  const std::vector<std::size_t> shape = keys.file.npy ? keys.file.shape : std::vector<std::size_t>{n};
  const bool fortran = keys.file.npy && keys.file.fortran_order;
  const auto write = [&](OutputFile& out, const void* data, std::size_t item_size, bool npy, const std::string& descr) {
    if (npy) {
      const auto header = make_npy_header(descr, shape, fortran);
      out.write(header.data(), header.size());
    }
    out.write(data, n * item_size);
  };
  if (keys_out)
    write(*keys_out, keys.file.data(), key_bytes, keys.file.npy || has_npy_extension(args.output),
          keys.file.npy ? keys.file.descr : descr_of(keys.type));
  if (values_out)
    write(*values_out, values->data(), value_bytes, values->npy || has_npy_extension(args.values_out), values->descr);
  if (indices_out)
    write(*indices_out, index, sizeof(std::int64_t), keys.file.npy || has_npy_extension(args.indices_out),
          kIndicesDescr);
  const double write_ms = ms_since(t_write);
  const auto t_commit = Clock::now();
  commit_together(outputs);
  const double commit_ms = ms_since(t_commit);

  if (args.verbose) {
    const std::string device = report.device.empty() ? ctx.device().id : report.device;
    std::fprintf(stderr, "gpusort: device:    %s (%s)\n", device.c_str(), ctx.device().name.c_str());
    std::fprintf(stderr, "gpusort: algorithm: %s, %s\n", report.algorithm.empty() ? "none" : report.algorithm.c_str(),
                 args.descending ? "descending" : "ascending");
    std::fprintf(stderr, "gpusort: keys:      %zu x %s in %llu segments (%s)", n,
                 std::string(key_type_name(keys.type)).c_str(), (unsigned long long)cut.count(),
                 cut.offsets.empty() ? ("rows of " + std::to_string(cut.split.length)).c_str() : "by offsets");
    if (value_bytes) std::fprintf(stderr, " with %zu-byte values", value_bytes);
    if (with_indices) std::fprintf(stderr, ", int64 indices within each (--indices-out)");
    std::fprintf(stderr, "\n");
    std::fprintf(stderr,
                 "gpusort: read %.3f ms, axis copies %.3f ms, upload %.3f ms, sort %.3f ms, download %.3f ms, write "
                 "%.3f ms, sync %.3f ms; %.3f ms in all\n",
                 read_ms, move_ms, report.upload_ms, report.sort_ms, report.download_ms, write_ms, commit_ms,
                 ms_since(t_start));
  }
  return 0;
}

}  // namespace gpusort::cli
