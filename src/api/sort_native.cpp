// Sorting the caller's device memory in order with the caller's stream or queue
// (gpusort/native.hpp). The caller's queue is never synchronised with the host or the device as a
// whole: gpusort's queue waits on an event of the caller's queue, and the caller's queue waits on
// an event recorded after the sort (docs/DESIGN-NOTES.md, "Caller's streams and queues").
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/records/record_sort.hpp"
#include "algorithms/segmented/segmented_sort.hpp"
#include "api/device_run.hpp"
#include "api/native_enqueue.hpp"
#include "gpusort/native.hpp"
#include "runtime/device.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort {

// What a Completion holds: the event after the sort, and the device it belongs to (events may not
// outlive their backend's objects). start is recorded just before the algorithm, for sort_ms.
Completion::Completion() = default;
Completion::Completion(std::unique_ptr<State> state, std::string algorithm)
    : state_(std::move(state)), algorithm_(std::move(algorithm)) {}
Completion::~Completion() = default;
Completion::Completion(Completion&&) noexcept = default;
Completion& Completion::operator=(Completion&&) noexcept = default;

void Completion::wait() {
  if (state_ && state_->done) state_->done->wait();
}

namespace {

// What SortRequest cannot say: the value views given together, and with their width.
void check_value_views(const std::optional<NativeView>& values_in, const std::optional<NativeView>& values_out,
                       std::size_t value_bytes) {
  if (values_in.has_value() != values_out.has_value())
    throw Error(errc::invalid_argument, "values_in and values_out must be given together");
  if (values_in.has_value() != (value_bytes != 0))
    throw Error(errc::invalid_argument, "values and value size must be given together");
}

// Kernels address elements through typed pointers, so a CUDA address must be aligned to its
// element size. (OpenCL offsets are checked against the device's base alignment by wrap().)
void check_alignment(const NativeView& view, std::size_t element_bytes, const char* what) {
  if (const auto* v = std::get_if<CudaView>(&view); v && v->ptr % element_bytes != 0)
    throw Error(errc::invalid_argument, std::string(what) + ": CUDA address " + std::to_string(v->ptr) +
                                            " is not a multiple of the element size (" +
                                            std::to_string(element_bytes) + " bytes)");
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) of one allocation meet (by differences: the byte
// counts are the caller's numbers).
bool ranges_meet(std::size_t a, std::size_t a_bytes, std::size_t b, std::size_t b_bytes) {
  return b >= a ? b - a < a_bytes : a - b < b_bytes;
}

// Whether two views of the caller's memory share a byte, compared where they start in their root
// allocation (Device::native_origin: an OpenCL sub-buffer's parent).
bool views_meet(rt::Device& device, const NativeView& a, std::size_t a_bytes, const NativeView& b,
                std::size_t b_bytes) {
  const auto x = device.native_origin(a), y = device.native_origin(b);
  return x.first == y.first && ranges_meet(x.second, a_bytes, y.second, b_bytes);
}

// True when in and out are the same elements (an in-place sort); Error when they overlap
// otherwise, since the output is written while the input is still to be read. Views are compared where
// they start in their root allocation (Device::native_origin: an OpenCL sub-buffer's parent).
bool same_elements(rt::Device& device, const NativeView& in, const NativeView& out, std::size_t bytes,
                   const char* what) {
  if (in.index() != out.index())
    throw Error(errc::invalid_argument, std::string(what) + ": input and output views are of different backends");
  if (device.native_origin(in) == device.native_origin(out)) return true;
  if (views_meet(device, in, bytes, out, bytes))
    throw Error(errc::invalid_argument, std::string(what) +
                                            ": input and output overlap without being the same (give the same view "
                                            "for an in-place sort)");
  return false;
}

// The device buffers of one in/out pair (the same buffer in place; out of place, the job reads `in`
// and writes `out`: algo::run copies `in` into `out` first unless the algorithm reads it apart).
struct Operands {
  rt::BufferPtr in, out;
  bool in_place = true;
};

Operands wrap_pair(rt::Device& device, const NativeView& in, const NativeView& out, std::size_t bytes,
                   std::size_t element_bytes, const char* what) {
  check_alignment(in, element_bytes, what);
  check_alignment(out, element_bytes, what);
  Operands ops;
  ops.in_place = same_elements(device, in, out, bytes, what);
  ops.out = device.wrap(out, bytes);
  ops.in = ops.in_place ? ops.out : device.wrap(in, bytes);
  return ops;
}

// Keys and values apart: each array's output meets neither the other's output nor the other's input
// (the sort writes an output while an input is still to be read; inputs may share memory, being
// only read). Checked before anything is enqueued.
void check_keys_apart_from_values(rt::Device& device, const NativeView& keys_in, const NativeView& keys_out,
                                  std::size_t key_bytes, const NativeView& values_in, const NativeView& values_out,
                                  std::size_t value_bytes) {
  if (views_meet(device, keys_out, key_bytes, values_out, value_bytes) ||
      views_meet(device, keys_out, key_bytes, values_in, value_bytes) ||
      views_meet(device, values_out, value_bytes, keys_in, key_bytes))
    throw Error(errc::invalid_argument, "keys and values overlap: an output meets the other array's input or output");
}

// The caller's temporary storage as a device buffer, after the checks NativeTemporaries promises.
rt::BufferPtr wrap_temporaries(rt::Device& device, const algo::Plan& plan, const NativeTemporaries& t,
                               const std::vector<std::pair<const NativeView*, std::size_t>>& operands) {
  const std::uint64_t need = detail::needed_temp_bytes(plan, device);
  if (need > t.bytes)
    throw Error(errc::invalid_argument, plan.algorithm->name + " needs " + std::to_string(need) +
                                            " bytes of temporary storage, got " + std::to_string(t.bytes) +
                                            " (see gpusort::temporary_storage_bytes)");
  if (const auto* v = std::get_if<CudaView>(&t.view); v && v->ptr % 256 != 0)
    throw Error(errc::invalid_argument, "temporary storage: CUDA address " + std::to_string(v->ptr) +
                                            " is not 256-byte aligned");
  for (const auto& [view, bytes] : operands)
    if (view->index() != t.view.index())
      throw Error(errc::invalid_argument, "temporary storage: a view of another backend than the keys'");
  for (const auto& [view, bytes] : operands)
    if (views_meet(device, t.view, t.bytes, *view, bytes))
      throw Error(errc::invalid_argument, "temporary storage overlaps the keys or values");
  return device.wrap(t.view, t.bytes);
}

}  // namespace

// positions (argsort): the values, in place, are first filled with 0..n-1 on the device.
Completion detail::enqueue_native(Context& ctx, SortRequest request, const NativeView& keys_in,
                                  const NativeView& keys_out, const std::optional<NativeView>& values_in,
                                  const std::optional<NativeView>& values_out, const NativeQueue& queue,
                                  const NativeTemporaries* temporaries, const NativeSortSteps& steps) {
  std::shared_ptr<rt::Device> device = ctx.shared_runtime_device();
  // The request and views are checked before anything is enqueued, so a bad request touches nothing.
  request.where = data_location::caller_memory;
  const algo::Plan plan = algo::make_plan(request, *device);
  const key_type type = request.type;
  const std::size_t n = request.n, value_bytes = request.value_bytes;
  const SortOptions& options = plan.options();
  check_value_views(values_in, values_out, value_bytes);
  const algo::Algorithm& algorithm = *plan.algorithm;
  const std::string name = request.segmented() ? algo::segmented_report_name(plan) : algorithm.name;
  if (n == 0) return Completion(nullptr, name);

  const std::size_t key_bytes = n * key_size(type);
  const Operands keys = wrap_pair(*device, keys_in, keys_out, key_bytes, key_size(type), "keys");
  Operands values;
  if (value_bytes) {
    values = wrap_pair(*device, *values_in, *values_out, n * value_bytes, value_bytes, "values");
    check_keys_apart_from_values(*device, keys_in, keys_out, key_bytes, *values_in, *values_out, n * value_bytes);
  }
  rt::BufferPtr temp;
  if (temporaries) {
    std::vector<std::pair<const NativeView*, std::size_t>> operands{{&keys_in, key_bytes}, {&keys_out, key_bytes}};
    if (value_bytes) operands.insert(operands.end(), {{&*values_in, n * value_bytes}, {&*values_out, n * value_bytes}});
    temp = wrap_temporaries(*device, plan, *temporaries, operands);
  }
  if (steps.prepare) steps.prepare(plan, *device);

  std::string after_run = name;  // the segmented bin that ran, where it differs from the plan's
  const auto work = [&]() -> algo::RunEvents {
    algo::print_if_verbose(plan, *device);
    // Temporaries come from the caller's storage, or from the device's pool and go back to it when
    // the driver returns, while the sort may still run: that is safe because every user of the pool
    // enqueues on this same in-order queue (runtime/buffer_pool.hpp).
    algo::SortJob job{*device, type, n, value_bytes, *keys.out, values.out.get(), options, temp.get()};
    // Out of place: the input is only read, by the sort itself (radix) or by a copy into the output
    // that is then sorted in place (algo::run).
    if (!keys.in_place) job.keys_in = keys.in.get();
    if (value_bytes && !values.in_place) job.values_in = values.in.get();
    job.values_are_positions = request.positions;  // made after run()'s start event (by run or the driver): in sort_ms
    // complex128 keys, planned as 16-byte records: their passes, then the gathers (the caller's
    // temporary storage is not used: temporary_storage_bytes is 0 for them)
    const detail::RecordBuffers records{*keys.in, keys.out.get(), values.in.get(), values.out.get()};
    algo::RunEvents events = plan.request.record_bytes ? detail::enqueue_records_on_device(*device, plan, records)
                             : steps.run                ? steps.run(plan, job)
                                                        : algo::run(algorithm, job);
    if (steps.name_after_run) after_run = steps.name_after_run(plan);
    return events;
  };
  return detail::enqueue_after_caller(device, queue, work, after_run);
}

Completion detail::enqueue_after_caller(const std::shared_ptr<rt::Device>& device, const NativeQueue& queue,
                                        const std::function<algo::RunEvents()>& work, const std::string& name) {
  auto state = std::make_unique<Completion::State>();
  state->device = device;
  device->wait_for_native(queue);
  try {
    algo::RunEvents events = work();
    state->start = std::move(events.start);
    state->done = std::move(events.stop);  // the caller's queue waits on it: no event more per call
    state->compiled = events.programs_compiled;
  } catch (...) {
    // Whatever was enqueued still touches the caller's memory: keep the caller's queue after it.
    try {
      device->signal_native(queue);
    } catch (...) {
    }
    throw;
  }
  state->done = device->signal_native(queue, std::move(state->done));
  return Completion(std::move(state), name);
}

SortReport detail::wait_and_report(Context& ctx, Completion done, const SortOptions& options) {
  done.wait();
  SortReport report;
  report.algorithm = done.algorithm();
  report.device = ctx.device().id;
  if (const Completion::State* s = done.state()) {
    report.sort_ms = s->done->elapsed_ms_since(*s->start);
    report.programs_compiled = s->compiled;
  }
  if (options.verbose)
    std::fprintf(stderr, "gpusort: %s on %s, caller's memory and queue: %.3f ms device time\n",
                 report.algorithm.c_str(), report.device.c_str(), report.sort_ms);
  return report;
}

namespace {

using detail::wait_and_report;

Completion enqueue(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out, std::size_t n,
                   const std::optional<NativeView>& values_in, const std::optional<NativeView>& values_out,
                   std::size_t value_bytes, const NativeQueue& queue, const SortOptions& options,
                   const NativeTemporaries* temporaries) {
  return detail::enqueue_native(ctx, {.type = type, .n = n, .value_bytes = value_bytes, .options = options}, keys_in,
                                keys_out, values_in, values_out, queue, temporaries);
}

// The sort of the keys with the indices as values sorted in place.
Completion enqueue_argsort(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                           std::size_t n, const NativeView& indices, std::size_t index_bytes, const NativeQueue& queue,
                           const SortOptions& options, const NativeTemporaries* temporaries) {
  return detail::enqueue_native(
      ctx, {.type = type, .n = n, .value_bytes = index_bytes, .positions = true, .options = options}, keys_in,
      keys_out, indices, indices, queue, temporaries);
}

}  // namespace

Completion sort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                             std::size_t n, const std::optional<NativeView>& values_in,
                             const std::optional<NativeView>& values_out, std::size_t value_bytes,
                             const NativeQueue& queue, const SortOptions& options) {
  return enqueue(ctx, type, keys_in, keys_out, n, values_in, values_out, value_bytes, queue, options, nullptr);
}

Completion sort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                             std::size_t n, const std::optional<NativeView>& values_in,
                             const std::optional<NativeView>& values_out, std::size_t value_bytes,
                             const NativeQueue& queue, const SortOptions& options, const NativeTemporaries& temporaries) {
  return enqueue(ctx, type, keys_in, keys_out, n, values_in, values_out, value_bytes, queue, options, &temporaries);
}

SortReport sort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                       std::size_t n, const std::optional<NativeView>& values_in,
                       const std::optional<NativeView>& values_out, std::size_t value_bytes, const NativeQueue& queue,
                       const SortOptions& options) {
  return wait_and_report(
      ctx, enqueue(ctx, type, keys_in, keys_out, n, values_in, values_out, value_bytes, queue, options, nullptr), options);
}

SortReport sort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                       std::size_t n, const std::optional<NativeView>& values_in,
                       const std::optional<NativeView>& values_out, std::size_t value_bytes, const NativeQueue& queue,
                       const SortOptions& options, const NativeTemporaries& temporaries) {
  return wait_and_report(ctx,
                         enqueue(ctx, type, keys_in, keys_out, n, values_in, values_out, value_bytes, queue, options,
                                 &temporaries),
                         options);
}

Completion argsort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                std::size_t n, const NativeView& indices, std::size_t index_bytes,
                                const NativeQueue& queue, const SortOptions& options) {
  return enqueue_argsort(ctx, type, keys_in, keys_out, n, indices, index_bytes, queue, options, nullptr);
}

Completion argsort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                std::size_t n, const NativeView& indices, std::size_t index_bytes,
                                const NativeQueue& queue, const SortOptions& options,
                                const NativeTemporaries& temporaries) {
  return enqueue_argsort(ctx, type, keys_in, keys_out, n, indices, index_bytes, queue, options, &temporaries);
}

SortReport argsort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                          std::size_t n, const NativeView& indices, std::size_t index_bytes, const NativeQueue& queue,
                          const SortOptions& options) {
  return wait_and_report(
      ctx, enqueue_argsort(ctx, type, keys_in, keys_out, n, indices, index_bytes, queue, options, nullptr), options);
}

SortReport argsort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                          std::size_t n, const NativeView& indices, std::size_t index_bytes, const NativeQueue& queue,
                          const SortOptions& options, const NativeTemporaries& temporaries) {
  return wait_and_report(
      ctx, enqueue_argsort(ctx, type, keys_in, keys_out, n, indices, index_bytes, queue, options, &temporaries),
      options);
}

}  // namespace gpusort
