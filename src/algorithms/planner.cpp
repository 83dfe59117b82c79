// The planner (algorithms/planner.hpp): one request validated once, one algorithm chosen once, one
// path decided once.
#include "algorithms/planner.hpp"

#include <cstdio>
#include <string>

#include "algorithms/chooser.hpp"
#include "algorithms/order_check.hpp"
#include "algorithms/records/record_sort.hpp"
#include "algorithms/request_checks.hpp"
#include "algorithms/segmented/segmented_complex128.hpp"
#include "algorithms/segmented/segmented_sort.hpp"
#include "algorithms/topk/topk_partition.hpp"
#include "algorithms/topk/topk_select.hpp"

namespace gpusort {

const char* to_string(data_location where) {
  switch (where) {
    case data_location::host: return "host";
    case data_location::device: return "device";
    case data_location::caller_memory: return "caller memory";
  }
  return "?";
}

std::string SortPlan::text(const std::string& line_prefix) const {
  std::string s;
  auto line = [&](const std::string& name, const std::string& value) {
    s += line_prefix + name + ": " + value + "\n";
  };
  line("device", device);
  line("device class", device_class);
  line("algorithm", algorithm);
  line("path", path);
  for (std::size_t i = 0; i < steps.size(); ++i) line("step " + std::to_string(i + 1), steps[i]);
  line("temporary bytes", temp_bytes_known ? std::to_string(temporary_bytes) : std::string("not reported"));
  if (device_bytes) line("device bytes", std::to_string(device_bytes));
  return s;
}

namespace algo {
namespace {

// The paths decided by the request alone: nothing to sort (n <= 1), or data already on the device.
bool trivial_path(Plan& plan, std::uint64_t n, data_location where) {
  if (n <= 1) plan.path = Path::nothing_to_do;
  else if (where != data_location::host) plan.path = Path::on_device;
  else return false;
  return true;
}

// The path of a request whose algorithm is chosen and checked: nothing to do, on the device, one
// piece, or partitioned.
Plan plan_checked(const SortRequest& request, const Algorithm& algorithm, std::span<rt::Device* const> devices) {
  Plan plan;
  plan.request = request;
  plan.algorithm = &algorithm;
  const std::uint64_t n = request.n;
  if (trivial_path(plan, n, request.where)) return plan;
  const std::size_t kb = key_size(request.type), vb = request.value_bytes;
  // Several devices: each takes a share of the chunks, so the smallest budget and buffer decide.
  plan.budget = ~std::uint64_t(0);
  plan.max_buffer = ~std::uint64_t(0);
  for (rt::Device* d : devices) {
    plan.budget = std::min(plan.budget, detail::device_budget(d->description(), request.options));
    plan.max_buffer = std::min(plan.max_buffer, detail::max_buffer_bytes(d->description()));
  }
  if (devices.size() == 1 && detail::fits_in_one_piece(n, kb, vb, plan.budget, plan.max_buffer)) {
    plan.path = Path::one_piece;
    return plan;
  }
  plan.path = Path::partitioned;
  if (!request.options.comparator.empty())
    throw Error(errc::unsupported, "SortOptions::comparator: this sort needs chunks (out-of-core or several devices), "
                                   "whose bucket cuts use the natural order; give it a device budget that holds the "
                                   "data, or one device");
  // The largest step every device holds, and at most an equal share per device.
  std::uint64_t max_chunk = ~std::uint64_t(0);
  for (rt::Device* d : devices)
    max_chunk = std::min(max_chunk, detail::max_step_elements(kb, vb, detail::device_budget(d->description(), request.options),
                                                              detail::max_buffer_bytes(d->description())));
  max_chunk = std::min<std::uint64_t>(max_chunk, std::max<std::uint64_t>(detail::kMinChunk, (n + devices.size() - 1) / devices.size()));
  plan.chunks = detail::equal_chunks(n, max_chunk);
  if (plan.chunks.count > detail::kMaxChunks)
    throw Error(errc::out_of_memory,
                "sorting " + std::to_string(n) + " elements in chunks of at most " + std::to_string(max_chunk) +
                    " needs " + std::to_string(plan.chunks.count) + " chunks, more than the " +
                    std::to_string(detail::kMaxChunks) +
                    " the partition sort takes (its bookkeeping grows with the square); raise "
                    "SortOptions::device_memory_limit");
  return plan;
}

Plan part_of(const SortRequest& request, const Algorithm& algorithm, rt::Device& device) {
  rt::Device* one[] = {&device};
  Plan part = plan_checked(request, algorithm, one);
  part.part = true;
  return part;
}

// A record sort (SortRequest::record_bytes): its passes, the one algorithm of all their sorts,
// and where they run: on the device (the records' buffer, or uploaded in one piece when they fit
// the budget), else host passes, each a sort of host memory planned as a part. `values`: what
// complex128 keys planned as records carry (none for a record sort of its own).
Plan plan_records(const SortRequest& request, rt::Device& device, detail::RecordValues values = {}) {
  Plan plan;
  plan.request = request;
  plan.request.options.stable = true;  // the passes rely on it
  const SortOptions& o = plan.options();
  const std::uint64_t n = request.n;
  const std::size_t rb = request.record_bytes;
  RecordsPlan& rec = plan.records;
  rec.passes = detail::record_passes(request.record_fields);
  rec.values = values;
  rec.move_with_key = !values.bytes && detail::records_move_with_key(rec.passes, rb);
  rec.index_bytes = values.positions ? values.bytes : detail::record_index_bytes(n);  // an argsort's: its indices
  // The choice for every pass: a pass's order or key type never changes it.
  plan.algorithm = &detail::checked_algorithm(device.description(), n, o);
  const std::size_t vb = rec.move_with_key ? rb : rec.index_bytes;
  if (request.where == data_location::host && !rec.passes.empty()) {  // what the host passes' chunks need
    std::size_t widest = 0;
    for (const detail::RecordPass& pass : rec.passes) widest = std::max(widest, key_size(pass.type));
    detail::check_device_memory_limit(o, widest, vb);
  }
  if (trivial_path(plan, n, request.where)) return plan;
  if (detail::records_fit_device(device, n, rb, rec, *plan.algorithm, o)) {
    plan.path = Path::one_piece;
    return plan;
  }
  if (rec.passes.empty())
    throw Error(errc::unsupported,
                "a record comparator runs on the device: " + std::to_string(n) + " records of " + std::to_string(rb) +
                    " bytes, their addresses and the sort's temporaries (" +
                    std::to_string(n * rb + detail::records_device_extra_bytes(device, n, rb, rec, *plan.algorithm, o)) +
                    " bytes) do not fit the device budget; sort by key fields (RecordField) instead");
  plan.path = Path::host_passes;
  for (const detail::RecordPass& pass : rec.passes) {
    SortRequest part{.type = pass.type, .n = n, .value_bytes = vb, .options = o};
    part.options.order = pass.descending ? order::descending : order::ascending;
    plan.parts.push_back(part_of(part, *plan.algorithm, device));
    if (rec.move_with_key) break;
  }
  return plan;
}

// A distributed sort (SortRequest::ranks): the algorithm chosen for the share of one rank,
// ceil(n / ranks) elements, and that share planned as the plan's part.
Plan plan_distributed(const SortRequest& request, rt::Device& device) {
  SortRequest share = request;
  share.ranks = 0;
  share.n = (request.n + request.ranks - 1) / request.ranks;
  Plan plan;
  plan.request = request;
  plan.path = Path::distributed;
  plan.algorithm = &detail::checked_algorithm(device.description(), share.n, request.options);
  plan.parts.push_back(part_of(share, *plan.algorithm, device));
  return plan;
}

// A segmented sort (SortRequest::segmented()): its bin (segmented_policy.hpp), the algorithm of
// the bin's 1-D sorts, and where it runs: on the device, or host data uploaded in one piece (host
// data larger than the device allows are refused: no chunked path yet).
Plan plan_segmented(const SortRequest& request, rt::Device& device) {
  Plan plan;
  plan.request = request;
  if (request.type == key_type::c128) {  // two segmented sorts of u64 words (segmented_complex128.hpp)
    const std::size_t position_bytes =
        choose_segmented(device.description(), complex128_word_request(request, 0)).position_bytes;
    Plan words = plan_segmented(complex128_word_request(request, position_bytes), device);
    words.part = true;
    plan.request.options.stable = true;  // the passes rely on it
    plan.segments = words.segments;
    plan.algorithm = words.algorithm;
    plan.parts.push_back(std::move(words));
  } else {
    plan.segments = choose_segmented(device.description(), request);
    plan.algorithm = &detail::checked_algorithm(device.description(), plan.segments.sort_n, request.options);
  }
  const std::uint64_t n = request.n;
  if (trivial_path(plan, n, request.where)) return plan;
  const std::size_t kb = key_size(request.type), vb = request.value_bytes;
  plan.budget = detail::device_budget(device.description(), request.options);
  plan.max_buffer = detail::max_buffer_bytes(device.description());
  const std::uint64_t need = detail::one_shot_bytes(n, kb, vb) + segmented_temp_bytes(plan, device);
  if (need > plan.budget || detail::largest_buffer_bytes(n, kb, std::max<std::size_t>(vb, 8)) > plan.max_buffer)
    throw Error(errc::unsupported, "a segmented sort of host data runs in one piece on the device: " +
                                       std::to_string(n) + " elements need about " + std::to_string(need) +
                                       " device bytes, more than the " + std::to_string(plan.budget) +
                                       " it may use (SortOptions::device_memory_limit, else 70% of the device's "
                                       "memory); sort the segments in smaller groups");
  plan.path = Path::one_piece;
  return plan;
}

// A top-k (SortRequest::topk): how the selection runs (topk_policy.hpp), and for a sorted one the
// segmented sort of the k of every row on the device, planned as parts[0] (stable, so that ties
// keep the selection's position order), unless the selection writes them in order (warp rows);
// where rows are cut into parts (TopkChoice::row_parts), parts[0] is instead the top-k of the parts'
// candidates, itself sorted where this one is. Host data
// go up in one piece, the k of each row come back.
Plan plan_topk(const SortRequest& request, rt::Device& device) {
  const DeviceDescription& desc = device.description();
  Plan plan;
  plan.request = request;
  plan.topk = choose_topk(desc, request);
  const std::uint64_t selected = request.rows * request.k;
  if (plan.topk.row_parts > 1) {
    // the row's k among its parts' candidates: a top-k of rows of row_parts x k, with u32 places
    // among the candidates as indices where indices are asked for (topk_map_positions maps them)
    // options as the sort's part below takes them: the host-only ones (device_memory_limit,
    // host_threads) do not apply on the device, where the candidates lie
    SortRequest candidates = request;
    candidates.options = SortOptions{};
    candidates.options.order = request.options.order;
    candidates.options.algorithm = request.options.algorithm;
    candidates.n = request.rows * plan.topk.row_parts * request.k;
    candidates.row_length = plan.topk.row_parts * request.k;
    candidates.value_bytes = request.value_bytes ? 4 : 0;
    candidates.where = data_location::device;
    plan.parts.push_back(make_plan(candidates, device));
    plan.parts[0].part = true;
    plan.algorithm = plan.parts[0].algorithm;
  } else if (request.topk_sorted && request.k > 1 && !plan.topk.warp_sorts) {
    SortOptions o;
    o.order = request.options.order;
    o.stable = true;
    o.algorithm = request.options.algorithm;
    SortRequest sort{.type = request.type,
                     .n = selected,
                     .value_bytes = request.value_bytes,
                     .where = data_location::device,
                     .rows = request.rows,
                     .row_length = request.k,
                     .options = o};
    if (request.offset_bytes != 0) {  // segments: each one's selected keys, then its padding (topk_rows writes both)
      sort.rows = 2 * request.rows;
      sort.row_length = 0;
      sort.offset_bytes = topk_sort_offset_bytes(request);
    }
    plan.parts.push_back(make_plan(sort, device));
    plan.parts[0].part = true;
    plan.algorithm = plan.parts[0].algorithm;
  } else {
    plan.algorithm = &detail::checked_algorithm(desc, std::max<std::uint64_t>(selected, 1), SortOptions{});
  }
  if (selected == 0) {
    plan.path = Path::nothing_to_do;
    return plan;
  }
  if (request.where != data_location::host) {
    plan.path = Path::on_device;
    return plan;
  }
  const std::size_t kb = key_size(request.type), ib = request.value_bytes;
  plan.budget = detail::device_budget(desc, request.options);
  plan.max_buffer = detail::max_buffer_bytes(desc);
  const std::uint64_t offsets = request.offset_bytes ? (request.rows + 1) * request.offset_bytes : 0;
  const std::uint64_t need = request.n * kb + selected * (kb + ib) + offsets + topk_temp_bytes(plan, device);
  if (need > plan.budget || request.n * kb > plan.max_buffer)
    throw Error(errc::unsupported, "a top-k of host data runs in one piece on the device: " +
                                       std::to_string(request.n) + " keys and the selection need about " +
                                       std::to_string(need) + " device bytes, more than the " +
                                       std::to_string(plan.budget) +
                                       " it may use (SortOptions::device_memory_limit, else 70% of the device's "
                                       "memory); select from fewer rows at a time");
  plan.path = Path::one_piece;
  return plan;
}

// A partition (SortRequest::partition): the top-k's selection (topk_policy.hpp) of the kth + 1
// smallest, then one scatter of every row. Host data go up in one piece and come back as rows.
Plan plan_partition(const SortRequest& request, rt::Device& device) {
  const DeviceDescription& desc = device.description();
  Plan plan;
  plan.request = request;
  plan.topk = choose_topk(desc, request);
  plan.algorithm = &detail::checked_algorithm(desc, std::max<std::uint64_t>(request.n, 1), SortOptions{});
  if (request.n == 0) {
    plan.path = Path::nothing_to_do;
    return plan;
  }
  if (request.where != data_location::host) {
    plan.path = Path::on_device;
    return plan;
  }
  const std::size_t kb = key_size(request.type), ib = request.value_bytes;
  const std::uint64_t written = request.select_kth ? request.rows : request.n;
  plan.budget = detail::device_budget(desc, request.options);
  plan.max_buffer = detail::max_buffer_bytes(desc);
  // the keys written counted even where only positions are (the request does not say)
  const std::uint64_t need = request.n * kb + written * (kb + ib) + partition_temp_bytes(plan);
  if (need > plan.budget || request.n * std::max(kb, ib) > plan.max_buffer)
    throw Error(errc::unsupported, "a partition of host data runs in one piece on the device: " +
                                       std::to_string(request.n) + " keys and the result need about " +
                                       std::to_string(need) + " device bytes, more than the " +
                                       std::to_string(plan.budget) +
                                       " it may use (SortOptions::device_memory_limit, else 70% of the device's "
                                       "memory); partition fewer rows at a time");
  plan.path = Path::one_piece;
  return plan;
}

// describe() of a record sort's, a distributed sort's or a segmented sort's own lines; `out` has
// the device's.
void describe_topk(const Plan& plan, rt::Device& device, SortPlan& out);
void describe_partition(const Plan& plan, SortPlan& out);
void describe_records(const Plan& plan, rt::Device& device, SortPlan& out);
void describe_distributed(const Plan& plan, rt::Device& device, SortPlan& out);
void describe_segmented(const Plan& plan, rt::Device& device, SortPlan& out);

}  // namespace

const char* to_string(Path path) {
  switch (path) {
    case Path::nothing_to_do: return "nothing to do (at most one element)";
    case Path::one_piece: return "one piece (upload, sort, download through pinned staging)";
    case Path::partitioned: return "chunks, then buckets cut at exact ranks";
    case Path::on_device: return "on the device, where the data lie";
    case Path::host_passes: return "host passes: each pass's keys made on the host and sorted with record indices as a "
                                   "sort of host memory (below), then the records gathered on the host";
    case Path::distributed: return "distributed: each rank sorts its share, the ranks cut their sorted runs at exact "
                                   "global ranks and exchange the slices all-to-all";
  }
  return "?";
}

Plan make_plan(const SortRequest& request, rt::Device& device) {
  rt::Device* one[] = {&device};
  return make_plan(request, std::span<rt::Device* const>(one));
}

Plan make_plan(const SortRequest& request, std::span<rt::Device* const> devices) {
  if (devices.empty()) throw Error(errc::invalid_argument, "no device to sort on");
  detail::check_request(request);
  if (devices.size() > 1 && (request.record_bytes || request.ranks))
    throw Error(errc::unsupported, "record and distributed sorts are planned for one device each");
  if (devices.size() > 1 && request.segmented())
    throw Error(errc::unsupported, "segmented sorts are planned for one device");
  if (request.topk && devices.size() > 1) throw Error(errc::unsupported, "a top-k is planned for one device");
  if (request.topk) return plan_topk(request, *devices[0]);
  if (request.partition && devices.size() > 1) throw Error(errc::unsupported, "a partition is planned for one device");
  if (request.partition) return plan_partition(request, *devices[0]);
  if (request.segmented()) return plan_segmented(request, *devices[0]);
  if (request.record_bytes) return plan_records(request, *devices[0]);
  if (detail::sorts_complex128_keys(request)) {
    if (devices.size() > 1) throw Error(errc::unsupported, "complex128 keys are sorted on one device");
    return plan_records(detail::complex128_keys_as_records(request), *devices[0],
                        {.bytes = request.value_bytes, .positions = request.positions});
  }
  if (request.ranks) return plan_distributed(request, *devices[0]);
  // Several devices: chosen for the first, and the choice checked against every one of them.
  const Algorithm& algorithm = detail::checked_algorithm(devices[0]->description(), request.n, request.options);
  for (rt::Device* d : devices.subspan(1)) detail::check_options(request.options, algorithm, d->description());
  return plan_checked(request, algorithm, devices);
}

Plan share_plan(const Plan& distributed, std::uint64_t n, rt::Device& device) {
  const Plan& share = distributed.parts.at(0);
  if (n == share.request.n) return share;
  check_size(*distributed.algorithm, n);
  SortRequest r = share.request;
  r.n = n;
  return part_of(r, *distributed.algorithm, device);
}

SortPlan describe(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const DeviceDescription& d = device.description();
  SortPlan out;
  out.algorithm = plan.algorithm->name;
  out.device = d.id + " (" + d.name + ")";
  out.device_class = device_class(d);
  out.path = to_string(plan.path);
  if (r.topk) {
    describe_topk(plan, device, out);
    return out;
  }
  if (r.partition) {
    describe_partition(plan, out);
    return out;
  }
  if (r.record_bytes) {
    describe_records(plan, device, out);
    return out;
  }
  if (r.segmented()) {
    describe_segmented(plan, device, out);
    return out;
  }
  if (plan.path == Path::distributed) {
    describe_distributed(plan, device, out);
    return out;
  }
  if (plan.path == Path::partitioned) {
    out.chunks = plan.chunks.count;
    out.path += " (" + std::to_string(plan.chunks.count) + " chunks of up to " + std::to_string(plan.chunks.chunk) +
                " elements)";
  }
  // The steps and temporaries of one device sort: the whole request, or one chunk of it.
  const std::uint64_t m = plan.path == Path::partitioned ? plan.chunks.chunk : r.n;
  const TempQuery q{device, r.type, m, r.value_bytes, r.options};
  if (plan.path != Path::nothing_to_do) {
    if (plan.algorithm->plan_steps)
      out.steps = plan.algorithm->plan_steps(q);
    else
      out.steps.push_back(plan.algorithm->description);
    if (r.positions)
      out.steps.insert(out.steps.begin(), "positions 0.." + std::to_string(r.n - 1) + " as " +
                                              std::to_string(r.value_bytes) + "-byte values");
    if (plan.path == Path::partitioned)
      out.steps.push_back("host: the ranks that cut the sorted chunks into " + std::to_string(plan.chunks.count) +
                          " buckets; each bucket sorted as above");
  }
  if (plan.algorithm->temp_bytes) {
    out.temporary_bytes = plan.path == Path::nothing_to_do ? 0 : sort_temp_bytes(*plan.algorithm, q);
    out.temp_bytes_known = true;
  }
  if (plan.path == Path::one_piece)
    out.device_bytes = detail::one_shot_bytes(r.n, key_size(r.type), r.value_bytes);
  else if (plan.path == Path::partitioned)
    out.device_bytes = detail::pipeline_bytes(plan.chunks.chunk, key_size(r.type), r.value_bytes);
  return out;
}

namespace {

// A part's path and steps under one heading each: "HEAD: path", then "HEAD: step" for each step.
void add_part(SortPlan& out, const std::string& head, const SortPlan& part) {
  out.steps.push_back(head + ": " + part.path);
  for (const std::string& step : part.steps) out.steps.push_back(head + ": " + step);
  out.temporary_bytes = std::max(out.temporary_bytes, part.temporary_bytes);
  out.temp_bytes_known = part.temp_bytes_known;
  out.device_bytes = std::max(out.device_bytes, part.device_bytes);
  out.chunks = std::max(out.chunks, part.chunks);
}

void describe_records(const Plan& plan, rt::Device& device, SortPlan& out) {
  const SortRequest& r = plan.request;
  const RecordsPlan& rec = plan.records;
  const std::string what = std::to_string(r.n) + " records of " + std::to_string(r.record_bytes) + " bytes, " +
                           (rec.passes.empty()          ? std::string("by a comparator")
                            : rec.passes.size() == 1 ? std::string("1 sort pass")
                                                     : std::to_string(rec.passes.size()) + " sort passes") +
                           (!rec.values.bytes       ? std::string()
                            : rec.values.positions ? ", argsort: " + std::to_string(rec.values.bytes) + "-byte indices"
                                                   : ", with " + std::to_string(rec.values.bytes) + "-byte values");
  if (plan.path == Path::one_piece)
    out.path = "records in one piece (" + what + "): uploaded once through pinned staging, sorted on the device, "
               "downloaded once";
  else if (plan.path == Path::on_device)
    out.path = "records on the device, where they lie (" + what + ")";
  else
    out.path += " (" + what + ")";
  if (plan.path == Path::nothing_to_do) {
    out.temp_bytes_known = true;
    return;
  }
  if (plan.path == Path::host_passes) {
    for (std::size_t p = 0; p < plan.parts.size(); ++p)
      add_part(out, "pass " + std::to_string(p + 1) + " (" + detail::record_pass_name(rec.passes[p]) + "; " +
                        (rec.move_with_key ? "the records" : std::to_string(rec.index_bytes) + "-byte indices") +
                        " as values)",
               describe(plan.parts[p], device));
    out.steps.push_back("host: the records gathered in the sorted order");
    if (rec.values.bytes)
      out.steps.push_back(rec.values.positions ? "host: the indices gathered in the sorted order (the argsort's)"
                                               : "host: the " + std::to_string(rec.values.bytes) +
                                                     "-byte values gathered in the sorted order");
    return;
  }
  out.steps = detail::record_device_steps(plan, device);
  out.temporary_bytes = detail::records_device_extra_bytes(device, r.n, r.record_bytes, rec, *plan.algorithm, plan.options());
  out.temp_bytes_known = plan.algorithm->temp_bytes != nullptr;
  out.device_bytes = r.n * (r.record_bytes + (rec.values.positions ? 0 : rec.values.bytes)) + out.temporary_bytes;
}

void describe_segmented(const Plan& plan, rt::Device& device, SortPlan& out) {
  const SortRequest& r = plan.request;
  out.path = r.offset_bytes != 0 ? "segments: " + std::to_string(r.rows) + " by offsets (" +
                                       std::to_string(r.offset_bytes) + "-byte)"
                                 : "segments: " + std::to_string(r.rows) + " rows of " + std::to_string(r.row_length);
  out.path += std::string(", ") + (plan.path == Path::one_piece ? "in one piece (upload, sort, download through "
                                                                  "pinned staging)"
                                                                : to_string(plan.path));
  out.temp_bytes_known = true;
  if (plan.path == Path::nothing_to_do) return;
  out.steps = segmented_plan_steps(plan, device);
  out.temporary_bytes = segmented_temp_bytes(plan, device);
  if (plan.path == Path::one_piece)
    out.device_bytes = detail::one_shot_bytes(r.n, key_size(r.type), r.value_bytes) + out.temporary_bytes;
}

void describe_topk(const Plan& plan, rt::Device& device, SortPlan& out) {
  const SortRequest& r = plan.request;
  out.algorithm = topk_report_name(plan);
  const std::string shape =
      r.offset_bytes ? std::to_string(r.rows) + (r.rows == 1 ? " segment" : " segments") + " by " +
                           std::to_string(r.offset_bytes) + "-byte offsets (" + std::to_string(r.n) + " keys)"
                     : std::to_string(r.rows) + (r.rows == 1 ? " row" : " rows") + " of " + std::to_string(r.row_length);
  out.path = std::string("top-k: the ") + std::to_string(r.k) + (r.options.order == order::descending ? " largest" : " smallest") +
             " of " + shape + (r.topk_sorted ? ", sorted" : ", in position order") + ", " +
             (plan.path == Path::one_piece ? "in one piece (upload the keys, select, download the k of each row)"
                                           : to_string(plan.path));
  out.temp_bytes_known = true;
  if (plan.path == Path::nothing_to_do) return;
  out.steps = topk_plan_steps(plan, device);
  out.temporary_bytes = topk_temp_bytes(plan, device);
  if (plan.path == Path::one_piece)
    out.device_bytes = r.n * key_size(r.type) + r.rows * r.k * (key_size(r.type) + r.value_bytes) + out.temporary_bytes;
}

void describe_partition(const Plan& plan, SortPlan& out) {
  const SortRequest& r = plan.request;
  out.algorithm = partition_report_name(plan);
  out.path = std::string(r.select_kth ? "select_kth" : "partition") + ": " + std::to_string(r.rows) +
             (r.rows == 1 ? " row" : " rows") + " of " + std::to_string(r.row_length) + " around the key of rank kth = " +
             std::to_string(r.kth) + " (ascending), " +
             (plan.path == Path::one_piece ? "in one piece (upload the keys, select, download the result)"
                                           : to_string(plan.path));
  out.temp_bytes_known = true;
  if (plan.path == Path::nothing_to_do) return;
  out.steps = partition_plan_steps(plan);
  out.temporary_bytes = partition_temp_bytes(plan);
  if (plan.path == Path::one_piece)
    out.device_bytes = r.n * key_size(r.type) + (r.select_kth ? r.rows : r.n) * (key_size(r.type) + r.value_bytes) +
                       out.temporary_bytes;
}

void describe_distributed(const Plan& plan, rt::Device& device, SortPlan& out) {
  const SortRequest& r = plan.request;
  const Plan& share = plan.parts.at(0);
  const bool host = r.where == data_location::host;
  out.path = "distributed over " + std::to_string(r.ranks) + (r.ranks == 1 ? " rank" : " ranks") +
             ": each sorts its share of up to " +
             std::to_string(share.request.n) + " elements as planned below; with more than one rank they cut " +
             "their sorted runs at exact global ranks, exchange the slices all-to-all and " +
             (host ? "sort what they receive again" : "merge the runs they receive");
  add_part(out, "share", describe(share, device));
  if (r.ranks < 2) return;
  out.steps.push_back(std::string("cuts: a bisection over every rank's sorted run for the exact global ranks (") +
                      (host ? "host binary searches" : "one dist_bounds.cl launch per step") + ")");
  out.steps.push_back(host ? "exchange: the slices all-to-all through the communicator"
                           : "exchange: the slices all-to-all through the device exchange, into receive buffers");
  out.steps.push_back(host ? "final: the received runs sorted again, as the share above"
                           : "final: the " + std::to_string(r.ranks) +
                                 " received runs merged (merge_uneven_runs: blocked merge passes)");
}

}  // namespace

void print_if_verbose(const Plan& plan, rt::Device& device) {
  if (plan.options().verbose && !plan.part) std::fputs(describe(plan, device).text("gpusort: plan: ").c_str(), stderr);
}

}  // namespace algo

SortPlan plan(Context& ctx, const SortRequest& request) {
  rt::Device& device = ctx.runtime_device();
  return algo::describe(algo::make_plan(request, device), device);
}

}  // namespace gpusort
