// gpusort::sort_file (gpusort/sort_file.hpp): the inputs looked at, the sort planned once
// (files/file_sort_plan.hpp), and the planned path run: streamed, in memory or external.
#include "gpusort/sort_file.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "api/host_sort.hpp"
#include "core/host_clock.hpp"
#include "files/array_file.hpp"
#include "files/external_sort.hpp"
#include "files/file_sort_plan.hpp"
#include "files/npy.hpp"
#include "files/output_file.hpp"
#include "files/streamed_file_sort.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/multi_device.hpp"

namespace gpusort {
namespace {

using Clock = core::host_clock;
using core::ms_since;
using namespace files;

class NoProgress final : public SortFileProgress {
 public:
  void phase(std::string, std::uint64_t) override {}
  void advance(std::uint64_t) override {}
};

void check_request(const SortFileRequest& r) {
  if (r.contexts.empty()) throw Error(errc::invalid_argument, "sort_file: no context given");
  if (r.keys.empty()) throw Error(errc::invalid_argument, "sort_file: no keys file given");
  const bool pairs = !r.values.empty();
  if (pairs && r.values_output.empty())
    throw Error(errc::invalid_argument, "sort_file: values given without values_output (where the permuted values go)");
  if (!pairs && !r.values_output.empty())
    throw Error(errc::invalid_argument, "sort_file: values_output given without values");
  if (!pairs && !r.values_type.empty())
    throw Error(errc::invalid_argument, "sort_file: values_type given without values");
  if (pairs && r.keys == "-" && r.values == "-")
    throw Error(errc::invalid_argument, "the input and the values cannot both be standard input ('-')");
}

std::string temporary_directory_of(const SortFileRequest& r) {
  if (!r.temporary_directory.empty()) return r.temporary_directory;
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

// The keys output and, with values, the values output, opened now: an unwritable destination, or
// two names for one file, fail before any work.
struct Outputs {
  std::unique_ptr<OutputFile> keys, values;
  std::vector<OutputFile*> all;
  bool positionable() const { return keys->positionable() && (!values || values->positionable()); }
};
Outputs open_outputs(const SortFileRequest& r) {
  Outputs o;
  o.keys = std::make_unique<OutputFile>(r.output, "output");
  o.all.push_back(o.keys.get());
  if (!r.values.empty()) {
    o.values = std::make_unique<OutputFile>(r.values_output, "values output");
    o.all.push_back(o.values.get());
  }
  check_distinct(o.all);
  return o;
}

// The external sort takes raw files only: a .npy input is an error; the raw layout's checks (size,
// the warning for text-looking bytes) are the in-memory path's. Returns the shape they hold.
FileSortShape external_shape(const SortFileRequest& r, const std::optional<ValueType>& value_type, FileFormat format) {
  FileSortShape shape;
  shape.streamable = false;
  const std::string paths[] = {r.keys, r.values};
  for (const std::string& p : paths) {
    if (p.empty()) continue;
    unsigned char head[4096] = {};
    std::FILE* f = std::fopen(p.c_str(), "rb");
    const std::size_t got = f ? std::fread(head, 1, sizeof head, f) : 0;
    if (f) std::fclose(f);
    const bool npy = has_npy_magic(head, got);
    if ((npy && format != FileFormat::raw) || format == FileFormat::npy)
      throw Error(errc::unsupported,
                  "'" + p + "' is larger than SortFileRequest::memory_limit and than the device (or the limit "
                  "leaves no room to stream it), and external sorts take raw files only for now (raise "
                  "SortFileRequest::memory_limit, or write the array raw with numpy's tofile)");
    const std::uint64_t total = input_size(p).bytes;
    shape.input_bytes += total;
    if (&p == &paths[0]) {
      const KeyLayout k = key_layout(p, head, got, total, r.type, format);
      shape.type = k.type;
      shape.n = k.layout.count;
    } else {
      shape.value_bytes = value_layout(p, head, got, total, value_type, format).item_size;
    }
  }
  return shape;
}

// The inputs read whole (the in-memory path).
struct WholeInputs {
  KeyFile keys;
  std::optional<ArrayFile> values;
  double read_ms = 0;
};
WholeInputs read_whole(const SortFileRequest& r, const std::optional<ValueType>& value_type, FileFormat format,
                       SortFileProgress& progress) {
  const auto t_read = Clock::now();
  progress.phase("reading", input_size(r.keys).bytes);
  WholeInputs in{load_keys(r.keys, r.type, format), std::nullopt};
  if (!r.values.empty()) {
    in.values = load_values(r.values, value_type, format);
    if (in.values->count != in.keys.file.count)
      throw Error(errc::invalid_argument, "values file '" + r.values + "' holds " + std::to_string(in.values->count) +
                                              " elements but input '" + r.keys + "' holds " +
                                              std::to_string(in.keys.file.count) + " keys");
  }
  in.read_ms = ms_since(t_read);
  return in;
}

SortReport sort_in_memory(const SortFileRequest& r, const FilePlan& plan, WholeInputs& in) {
  ArrayFile& keys = in.keys.file;
  void* values = in.values ? in.values->data() : nullptr;
  if (plan.device_plan) {
    if (plan.device_plan->request.n != keys.count)
      throw Error(errc::io_error, "input '" + r.keys + "' changed while it was being sorted");
    return detail::sort_host_with(r.contexts[0]->runtime_device(), *plan.device_plan, keys.data(), values);
  }
  // Several devices: sort_host_multi's partition sort.
  return sort_host_multi(r.contexts, in.keys.type, keys.data(), keys.count, values,
                         in.values ? in.values->item_size : 0, r.options);
}

void write_whole(const SortFileRequest& r, const WholeInputs& in, Outputs& out, SortFileProgress& progress) {
  const ArrayFile& keys = in.keys.file;
  progress.phase("writing", keys.data_bytes() + (in.values ? in.values->data_bytes() : 0));
  write_array(*out.keys, keys.data(), keys.count, keys.item_size, keys.npy || has_npy_extension(r.output),
              keys.npy ? keys.descr : descr_of(in.keys.type));
  if (in.values)
    write_array(*out.values, in.values->data(), keys.count, in.values->item_size,
                in.values->npy || has_npy_extension(r.values_output), in.values->descr);
}

void run_external(const SortFileRequest& r, const FileSortShape& shape, const FilePlan& plan,
                  const std::optional<ValueType>& value_type, Outputs& out, SortFileProgress& progress,
                  SortFileReport& report) {
  ExternalSortJob job;
  job.contexts = r.contexts;
  job.type = shape.type;
  job.options = r.options;
  job.options.verbose = false;  // the caller's one summary, not a line per run and bucket
  job.keys_path = r.keys;
  if (!r.values.empty()) job.values_path = r.values, job.value_bytes = shape.value_bytes;
  job.temporary_directory = temporary_directory_of(r);
  job.keys_out = out.keys.get();
  job.values_out = out.values.get();
  if (has_npy_extension(r.output)) job.keys_npy_descr = descr_of(shape.type);
  if (value_type && has_npy_extension(r.values_output)) job.values_npy_descr = value_type->descr;
  job.runs = plan.runs;
  const ExternalSortReport e = external_sort(job, progress);
  report.runs = e.runs;
  report.runs_ms = e.runs_ms;
  report.splits_ms = e.splits_ms;
  report.buckets_ms = e.buckets_ms;
  report.sort.device = r.contexts.front()->device().id;
}

}  // namespace

SortFileReport sort_file(const SortFileRequest& r) {
  check_request(r);
  NoProgress quiet;
  SortFileProgress& progress = r.progress ? *r.progress : quiet;
  const auto t_start = Clock::now();
  const FileFormat format = r.format;
  std::optional<ValueType> value_type;
  if (!r.values_type.empty()) value_type = parse_value_type_arg(r.values_type, "SortFileRequest::values_type");

  const bool pairs = !r.values.empty();
  const InputSize keys_size = input_size(r.keys);
  const InputSize values_size = pairs ? input_size(r.values) : InputSize{true, 0};
  const bool sizes_known = keys_size.is_regular && values_size.is_regular;
  const bool over_limit = r.memory_limit && sizes_known && keys_size.bytes + values_size.bytes > r.memory_limit;

  // What can be told without opening anything comes first: a FIFO output opened and closed again
  // would end its reader's input. Regular inputs open to the streamed path are opened (and their
  // layouts checked) here, and the outputs with them.
  std::optional<StreamedInputs> streamed_in;
  if (r.contexts.size() == 1 && positionable_target(r.output) && (!pairs || positionable_target(r.values_output)) &&
      (!r.memory_limit || r.memory_limit >= kStagingPerThread + kStreamedHeads))
    streamed_in = open_streamed_inputs(r.keys, r.type, r.values, value_type, format);
  std::optional<Outputs> out;
  std::optional<WholeInputs> whole;
  FileSortShape shape;
  if (streamed_in) {
    out = open_outputs(r);
    shape.type = streamed_in->type;
    shape.n = streamed_in->keys.layout.count;
    shape.value_bytes = streamed_in->values ? streamed_in->values->layout.item_size : 0;
    shape.input_bytes = keys_size.bytes + values_size.bytes;
    shape.streamable = out->positionable();
  } else if (over_limit) {
    shape = external_shape(r, value_type, format);
  } else {
    // Read whole (standard input, pipes, several devices, streams): the shape is known once read.
    whole = read_whole(r, value_type, format, progress);
    shape.type = whole->keys.type;
    shape.n = whole->keys.file.count;
    shape.value_bytes = whole->values ? whole->values->item_size : 0;
    shape.input_bytes = keys_size.bytes + values_size.bytes;
    shape.sizes_known = sizes_known;
    shape.streamable = false;
  }

  // The one plan.
  const FilePlan plan = plan_file(r.contexts, shape, r.options, r.memory_limit);

  SortFileReport report;
  report.path = plan.path;
  report.elements = shape.n;
  report.type = shape.type;
  report.value_bytes = shape.value_bytes;
  switch (plan.path) {
    case file_sort_path::streamed: {
      const StreamedOutputs files{
          out->keys.get(), streamed_in->keys.layout.npy || has_npy_extension(r.output), out->values.get(),
          streamed_in->values && (streamed_in->values->layout.npy || has_npy_extension(r.values_output))};
      report.sort = sort_streamed_files(*r.contexts[0], *plan.device_plan, *streamed_in, files, progress);
      report.copy_threads = plan.copy_threads;
      break;
    }
    case file_sort_path::external:
      if (streamed_in) (void)external_shape(r, value_type, format);  // raw files only (streaming took .npy)
      streamed_in.reset();
      if (!out) out = open_outputs(r);
      run_external(r, shape, plan, value_type, *out, progress, report);
      break;
    case file_sort_path::in_memory: {
      if (!whole) whole = read_whole(r, value_type, format, progress);
      streamed_in.reset();
      report.read_ms = whole->read_ms;
      progress.phase("sorting", whole->keys.file.data_bytes() + (whole->values ? whole->values->data_bytes() : 0));
      if (!out) out = open_outputs(r);
      report.sort = sort_in_memory(r, plan, *whole);
      const auto t_write = Clock::now();
      write_whole(r, *whole, *out, progress);
      report.write_ms = ms_since(t_write);
      break;
    }
  }
  // Everything is on disk before either file replaces its target, and both do or neither.
  const auto t_commit = Clock::now();
  commit_together(out->all);
  report.commit_ms = ms_since(t_commit);
  report.total_ms = ms_since(t_start);
  return report;
}

}  // namespace gpusort
