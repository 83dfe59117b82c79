// Record sorts on the device (algorithms/records/record_sort.hpp): key making, one sort per pass,
// the gather.
#include "algorithms/records/record_sort.hpp"
#include "algorithms/records/record_kernels.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "algorithms/positions.hpp"
#include "algorithms/host_sizing.hpp"
#include "algorithms/order_check.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/drain_on_unwind.hpp"
#include "runtime/kernel_sources.hpp"
#include "runtime/phase_timer.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::detail {
namespace {

std::atomic<bool> wide_index_for_testing{false};

// Bytes of the array the later passes' keys are put in order into: the widest of their keys.
std::uint64_t ordered_keys_bytes(std::uint64_t n, const std::vector<RecordPass>& passes) {
  std::size_t widest = 0;
  for (std::size_t p = 1; p < passes.size(); ++p) widest = std::max(widest, key_size(passes[p].type));
  return n * widest;
}

// The options of a sort on the device: stable, no host-only fields.
SortOptions device_sort_options(const SortOptions& options) {
  SortOptions o = options;
  o.stable = true;
  o.device_memory_limit = 0;
  o.host_threads = 0;
  return o;
}

// The options of one pass's sort: the pass's direction; a pass orders by its field, never by a
// comparator.
SortOptions pass_options(const SortOptions& options, const RecordPass& pass) {
  SortOptions o = device_sort_options(options);
  o.order = pass.descending ? order::descending : order::ascending;
  o.comparator.clear();
  return o;
}

// A pass's sort temporaries; for an algorithm that does not report them, twice its data.
std::uint64_t sort_temp_bytes(rt::Device& device, const algo::Algorithm& algorithm, key_type type, std::uint64_t n,
                              std::size_t vb, const SortOptions& options) {
  if (!algorithm.temp_bytes) return 2 * n * (key_size(type) + vb);
  return algo::sort_temp_bytes(algorithm, {device, type, n, vb, options});
}

// A sort of n keys (and values: vb bytes each, 0 for none) already on the device by the plan's
// algorithm, with `options` as given and the run-time order registered as `order` (or none). Not
// waited for here: the passes and the gather queue up behind each other (a driver may still wait
// inside, e.g. radix reading its histogram back, and freeing a temporary above the pool's limit
// synchronizes on CUDA).
void sort_on_device(rt::Device& device, const algo::Algorithm& algorithm, key_type type, std::uint64_t n,
                    rt::Buffer& keys, rt::Buffer* values, std::size_t vb, const SortOptions& options,
                    const std::string& order = {}) {
  algo::SortJob job{device, type, n, vb, keys, values, options, nullptr};
  job.registered_order = order;
  // A record order sorts addresses of our own (the records are gathered only after its check).
  job.output_is_scratch = !order.empty();
  algo::run(algorithm, job);
}

// One pass's sort: its keys with the records (or their index) as values.
void sort_pass(rt::Device& device, const algo::Algorithm& algorithm, const RecordPass& pass, std::uint64_t n,
               rt::Buffer& keys, rt::Buffer& values, std::size_t vb, const SortOptions& options) {
  sort_on_device(device, algorithm, pass.type, n, keys, &values, vb, pass_options(options, pass));
}

// The records (or values: rb bytes each) in the order of `index`, from `in` into `out`; in ==
// out: gathered into a temporary and copied back.
void gather_sorted(rt::Device& device, RecordKernels& kernels, rt::Buffer& in, rt::Buffer& out, std::uint64_t n,
                   std::size_t rb, rt::Buffer& index, rt::PhaseTimer& timer, const char* what = "gather") {
  if (&in != &out) {
    kernels.gather(in, out, n, rb, index);
    timer.mark(what);
    return;
  }
  rt::BufferPtr sorted = device.temp_pool().get(n * rb);
  kernels.gather(in, *sorted, n, rb, index);
  timer.mark(what);
  device.copy(*sorted, 0, in, 0, n * rb);
  timer.mark("copy back");
  device.finish();  // before `sorted` may be freed
}

// Records ordered by a run-time comparator (options.comparator): their addresses sorted by it
// (kernels/records.cl, records_addresses; the order's programs read the records through them),
// turned back into indices, then the gather.
void run_comparator_record_sort(rt::Device& device, const algo::Algorithm& algorithm, rt::Buffer& in, rt::Buffer& out,
                                std::uint64_t n, std::size_t rb, std::size_t ib, const SortOptions& options) {
  rt::BufferPool& pool = device.temp_pool();
  rt::PhaseTimer timer{device, options.verbose, "records"};
  timer.mark("start");
  RecordKernels kernels(device, ib);
  rt::BufferPtr addresses = pool.get(n * 8);
  rt::BufferPtr index = pool.get(n * ib);
  kernels.addresses(in, n, rb, *addresses);
  timer.mark("addresses");
  sort_on_device(device, algorithm, key_type::u64, n, *addresses, nullptr, 0, device_sort_options(options),
                 rt::register_record_order(options.comparator, options.order == order::descending));
  timer.mark("sort by the comparator");
  kernels.index_of_addresses(in, *addresses, n, rb, *index);
  timer.mark("indices");
  gather_sorted(device, kernels, in, out, n, rb, *index, timer);
  timer.print();
}

// The sort itself: the records of `in` sorted into `out`. in == out sorts in place: a sort that
// gathers (every one but records that travel with their key) then gathers into a temporary and
// copies back. Complex128 keys' values are gathered the same way by the one index; an argsort's
// positions are that index, made in the caller's buffer and sorted there.
void run_record_sort(rt::Device& device, const algo::Plan& plan, const RecordBuffers& b) {
  const algo::Algorithm& algorithm = *plan.algorithm;
  const std::uint64_t n = plan.request.n;
  const std::size_t rb = plan.request.record_bytes, ib = plan.records.index_bytes;
  const std::vector<RecordPass>& passes = plan.records.passes;
  const RecordValues& values = plan.records.values;
  const SortOptions& options = plan.options();
  if (passes.empty()) return run_comparator_record_sort(device, algorithm, b.in, *b.out, n, rb, ib, options);
  rt::BufferPool& pool = device.temp_pool();
  rt::PhaseTimer timer{device, options.verbose, "records"};
  timer.mark("start");
  std::vector<std::uint64_t> at;
  const std::uint64_t keys_bytes = layout_pass_keys(n, passes, at);
  if (plan.records.move_with_key) {
    const RecordPass& pass = passes[0];
    if (&b.in != b.out) device.copy(b.in, 0, *b.out, 0, n * rb);
    rt::BufferPtr keys = pool.get(keys_bytes);
    RecordKernels(device, 4).make_keys(*b.out, n, rb, passes, at, *keys);
    timer.mark("keys");
    sort_pass(device, algorithm, pass, n, *keys, *b.out, rb, options);
    timer.mark("sort with the records");
    timer.print();
    return;
  }
  RecordKernels kernels(device, ib);
  rt::BufferPtr own_index = values.positions ? nullptr : pool.get(n * ib);
  rt::Buffer& index = own_index ? *own_index : *b.values;  // an argsort's indices are the index
  rt::BufferPtr all_keys = pool.get(keys_bytes);  // pass 0's keys at its start are sorted there
  rt::BufferPtr keys = passes.size() > 1 ? pool.get(ordered_keys_bytes(n, passes)) : nullptr;
  kernels.make_keys(b.in, n, rb, passes, at, *all_keys);  // first: its table's write waits for the queue
  algo::fill_positions(device, index, n, ib);
  timer.mark("keys of every pass");
  for (std::size_t p = 0; p < passes.size(); ++p) {
    if (p > 0) {
      kernels.order_keys(*all_keys, at[p], index, n, passes[p].type, *keys);
      timer.mark("keys of pass " + std::to_string(p) + " in order");
    }
    sort_pass(device, algorithm, passes[p], n, p == 0 ? *all_keys : *keys, index, ib, options);
    timer.mark("sort of pass " + std::to_string(p));
  }
  if (b.out) gather_sorted(device, kernels, b.in, *b.out, n, rb, index, timer);
  if (values.bytes && !values.positions)
    gather_sorted(device, kernels, *b.values_in, *b.values, n, values.bytes, index, timer, "gather of the values");
  timer.print();
}

// Fewer than two records: already sorted. Out of place, the one record (and value) is copied; an
// argsort's one position is 0.
void sort_trivially(rt::Device& device, const algo::Plan& plan, const RecordBuffers& b) {
  const RecordValues& values = plan.records.values;
  if (plan.request.n != 1) return;
  if (b.out && &b.in != b.out) device.copy(b.in, 0, *b.out, 0, plan.request.record_bytes);
  if (values.positions) algo::fill_positions(device, *b.values, 1, values.bytes);
  else if (values.bytes && b.values_in != b.values) device.copy(*b.values_in, 0, *b.values, 0, values.bytes);
}

// The buffers a plan needs given: an output for a sort of records (an argsort of complex128 keys
// may go without), and the values' where the plan carries them.
void check_buffers(const algo::Plan& plan, const RecordBuffers& b) {
  const RecordValues& values = plan.records.values;
  if (!b.out && !values.positions) throw Error(errc::invalid_argument, "a record sort needs an output buffer");
  if (values.bytes && (!b.values || (!values.positions && !b.values_in)))
    throw Error(errc::invalid_argument, values.positions ? "argsort: no buffer for the indices"
                                                         : "values and value size must be given together");
}

}  // namespace

std::uint64_t records_device_extra_bytes(rt::Device& device, std::uint64_t n, std::size_t record_bytes,
                                         const algo::RecordsPlan& rec, const algo::Algorithm& algorithm,
                                         const SortOptions& options) {
  const std::vector<RecordPass>& passes = rec.passes;
  const std::size_t ib = rec.index_bytes;
  if (passes.empty())  // addresses, index, the sort's temporaries, the gather's second copy
    return n * 8 + n * ib + sort_temp_bytes(device, algorithm, key_type::u64, n, 0, device_sort_options(options)) +
           n * record_bytes;
  std::vector<std::uint64_t> at;
  const std::uint64_t keys_bytes = layout_pass_keys(n, passes, at);
  if (rec.move_with_key) {
    const RecordPass& pass = passes[0];
    return keys_bytes + sort_temp_bytes(device, algorithm, pass.type, n, record_bytes, pass_options(options, pass));
  }
  std::uint64_t sort_temp = 0;
  for (const RecordPass& pass : passes)
    sort_temp = std::max(sort_temp, sort_temp_bytes(device, algorithm, pass.type, n, ib, pass_options(options, pass)));
  // values: the gather's second copy of them (an argsort's positions are the index)
  const std::uint64_t values = rec.values.positions ? 0 : n * rec.values.bytes;
  return keys_bytes + ordered_keys_bytes(n, passes) + n * ib + sort_temp + n * record_bytes + values;
}

bool records_fit_device(rt::Device& device, std::uint64_t n, std::size_t record_bytes, const algo::RecordsPlan& rec,
                        const algo::Algorithm& algorithm, const SortOptions& options) {
  const std::vector<RecordPass>& passes = rec.passes;
  const std::uint64_t values = rec.values.positions ? 0 : n * rec.values.bytes;
  const std::uint64_t data = n * record_bytes + values;
  // Every buffer within the device's largest allocation: the records (twice), the values (twice),
  // all passes' keys, the ordered keys, the index, and each pass's sort as largest_buffer_bytes
  // plans it.
  const std::uint64_t max_buffer = max_buffer_bytes(device.description());
  std::uint64_t largest = std::max(n * record_bytes, values);
  if (passes.empty()) {  // a comparator's sort of the addresses
    largest = std::max({largest, n * 8, largest_buffer_bytes(n, 8, 0)});
  } else {
    std::vector<std::uint64_t> at;
    largest = std::max(largest, layout_pass_keys(n, passes, at));
    largest = std::max(largest, ordered_keys_bytes(n, passes));
    const std::size_t vb = rec.move_with_key ? record_bytes : rec.index_bytes;
    largest = std::max<std::uint64_t>(largest, n * vb);
    for (const RecordPass& pass : passes)
      largest = std::max(largest, largest_buffer_bytes(n, key_size(pass.type), vb));
  }
  if (largest > max_buffer) return false;
  const std::uint64_t budget = device_budget(device.description(), options);
  const std::uint64_t extra = records_device_extra_bytes(device, n, record_bytes, rec, algorithm, options);
  return data <= budget && extra <= budget - data;
}

std::size_t record_index_bytes(std::uint64_t n) {
  return n <= std::uint64_t(UINT32_MAX) && !wide_index_for_testing.load() ? 4 : 8;
}

void set_records_wide_index_for_testing(bool wide) { wide_index_for_testing.store(wide); }

algo::RunEvents enqueue_records_on_device(rt::Device& device, const algo::Plan& plan, const RecordBuffers& buffers) {
  check_buffers(plan, buffers);
  algo::RunEvents events;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  events.start = device.record();
  if (plan.request.n <= 1)
    sort_trivially(device, plan, buffers);
  else
    run_record_sort(device, plan, buffers);
  events.stop = device.record();
  events.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  return events;
}

SortReport sort_records_on_device(rt::Device& device, const algo::Plan& plan, const RecordBuffers& buffers) {
  SortReport report;
  report.device = device.description().id;
  report.chunks = std::max<std::size_t>(1, plan.records.passes.size());
  report.algorithm = plan.algorithm->name;
  rt::DrainOnUnwind drain(device);
  const algo::RunEvents events = enqueue_records_on_device(device, plan, buffers);
  report.sort_ms = events.stop->elapsed_ms_since(*events.start);
  report.programs_compiled = events.programs_compiled;
  return report;
}

SortReport sort_records_on_device(rt::Device& device, const algo::Plan& plan, rt::Buffer& in, rt::Buffer& out) {
  return sort_records_on_device(device, plan, RecordBuffers{in, &out});
}

}  // namespace gpusort::detail
