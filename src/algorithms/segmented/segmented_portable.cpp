// The portable segmented bin (segmented_bins.hpp): two stable 1-D sorts and three small kernels
// (kernels/segmented_gather.cl), on every backend, for any segments. Stable within each segment
// wherever the first sort is (the positions start in order, and the sort by segment is stable),
// and the order and float rules are the 1-D sort's own.
#include <algorithm>
#include <string>

#include "algorithms/order_check.hpp"
#include "algorithms/segmented/segmented_bins.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kPreferredGroup = 256;

// The second sort: segment numbers in order, stable, by the 1-D radix (its trivial passes skipped:
// a few segments cost one digit's pass).
const SortOptions& by_segment_options() {
  static const SortOptions options = [] {
    SortOptions o;
    o.stable = true;
    o.algorithm = "radix";
    return o;
  }();
  return options;
}
const Algorithm& by_segment_algorithm() {
  const Algorithm* radix = find("radix");
  if (!radix) throw std::logic_error("the segmented sorts need the radix algorithm");
  return *radix;
}
key_type segment_key_type(std::size_t segment_bytes) { return segment_bytes == 8 ? key_type::u64 : key_type::u32; }

std::uint64_t temp_of(const Algorithm& algorithm, rt::Device& device, key_type type, std::uint64_t n,
                      std::size_t value_bytes, const SortOptions& options) {
  // an algorithm that does not report its temporaries: about one more copy of the data
  if (!algorithm.temp_bytes) return temp_request_bytes(n * (key_size(type) + value_bytes));
  return sort_temp_bytes(algorithm, {device, type, n, value_bytes, options});
}

}  // namespace

void segmented_portable(SegmentedJob& segmented, const Plan& plan) {
  SortJob& job = segmented.sort;
  const SegmentShape& shape = segmented.segments;
  rt::Device& device = job.device;
  const std::uint64_t n = job.n;
  const std::size_t kb = key_size(job.type), vb = job.value_bytes;
  const std::size_t pb = plan.segments.position_bytes, sb = plan.segments.segment_bytes;
  const bool indices = job.values_are_positions;
  const bool uniform = shape.uniform();
  if (!uniform && shape.offsets_byte_offset % shape.offset_bytes != 0)
    throw Error(errc::invalid_argument, "segment offsets must start at a multiple of their width in their buffer");

  // Where the gathers read the input: apart (out of place), else a copy taken before the first sort.
  rt::BufferPtr keys_copy, values_copy;
  rt::Buffer* keys_src = job.keys_in;
  if (!keys_src) {
    keys_copy = job.temp(n * kb);
    device.copy(job.keys, 0, *keys_copy, 0, n * kb);
    keys_src = keys_copy.get();
  }
  rt::Buffer* values_src = nullptr;
  if (vb && !indices) {
    values_src = job.values_in;
    if (!values_src) {
      values_copy = job.temp(n * vb);
      device.copy(*job.values, 0, *values_copy, 0, n * vb);
      values_src = values_copy.get();
    }
  }
  const rt::BufferPtr positions = job.temp(n * pb), segments = job.temp(n * sb);

  // 1. (key, position) by key, with the request's algorithm and options; the keys' buffer serves
  // as this sort's output (the gather below overwrites it).
  SortJob by_key{device, job.type, n, pb, job.keys, positions.get(), job.options};
  by_key.keys_in = job.keys_in;
  by_key.values_are_positions = true;
  by_key.registered_order = job.registered_order;
  run(*plan.algorithm, by_key);

  // 2. each sorted position's segment
  SegmentedGather steps(device, shape, pb, sb, n);
  steps.segments_of(*positions, *segments);

  // 3. (segment, position) by segment, stable: each segment's positions in the order of step 1
  SortJob by_segment{device, segment_key_type(sb), n, pb, *segments, positions.get(), by_segment_options()};
  run(by_segment_algorithm(), by_segment);

  // 4. the elements from the input by position; argsort: the position within its segment
  steps.gather(*keys_src, job.keys, kb, *positions);
  if (values_src) steps.gather(*values_src, *job.values, vb, *positions);
  if (indices) {
    steps.local_indices(*positions, *segments, *job.values, vb);
    job.values_are_positions = false;
  }
  job.keys_in = job.values_in = nullptr;
}

SegmentedGather::SegmentedGather(rt::Device& device, const SegmentShape& shape, std::size_t position_bytes,
                                 std::size_t segment_bytes, std::uint64_t n)
    : device_(device),
      shape_(shape),
      n_(n),
      first_(shape.uniform() ? 0 : shape.offsets_byte_offset / shape.offset_bytes),
      program_(device.program("segmented_gather.cl",
                              {"POSITION_BYTES=" + std::to_string(position_bytes),
                               "SEGMENT_BYTES=" + std::to_string(segment_bytes),
                               "OFFSET_BYTES=" + std::to_string(shape.uniform() ? 8 : shape.offset_bytes)})) {
  const std::uint32_t group = default_group_size(device, kPreferredGroup);
  launch_ = {ceil_div(n, group), group, 0};
}

void SegmentedGather::segments_of(rt::Buffer& positions, rt::Buffer& segments) {
  if (shape_.uniform())
    device_.launch(program_.kernel("segment_of_rows"), launch_, {positions, segments, n_, shape_.row_length});
  else
    device_.launch(program_.kernel("segment_of_offsets"), launch_,
                   {positions, segments, n_, *shape_.offsets, first_, shape_.count});
}

void SegmentedGather::gather(rt::Buffer& in, rt::Buffer& out, std::size_t bytes, rt::Buffer& positions) {
  device_.launch(program_.kernel("gather_" + std::to_string(bytes)), launch_, {in, out, positions, n_});
}

void SegmentedGather::local_indices(rt::Buffer& positions, rt::Buffer& segments, rt::Buffer& indices,
                                    std::size_t index_bytes) {
  const std::string width = std::to_string(index_bytes);
  if (shape_.uniform())
    device_.launch(program_.kernel("local_indices_of_rows_" + width), launch_,
                   {positions, indices, n_, shape_.row_length});
  else
    device_.launch(program_.kernel("local_indices_of_offsets_" + width), launch_,
                   {positions, segments, indices, n_, *shape_.offsets, first_});
}

std::uint64_t segmented_portable_temp_bytes(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const std::uint64_t n = r.n;
  const std::size_t pb = plan.segments.position_bytes, sb = plan.segments.segment_bytes;
  std::uint64_t own = temp_request_bytes(n * key_size(r.type)) + temp_request_bytes(n * pb) + temp_request_bytes(n * sb);
  if (r.value_bytes && !r.positions) own += temp_request_bytes(n * r.value_bytes);
  const std::uint64_t sorts =
      std::max(temp_of(*plan.algorithm, device, r.type, n, pb, r.options),
               temp_of(by_segment_algorithm(), device, segment_key_type(sb), n, pb, by_segment_options()));
  return own + sorts;
}

std::vector<std::string> segmented_portable_steps(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const std::size_t pb = plan.segments.position_bytes, sb = plan.segments.segment_bytes;
  const std::string n = std::to_string(r.n);
  std::vector<std::string> steps;
  steps.push_back("a copy of the input kept for the gather (none out of place)");
  const std::string by_key = "by key: positions 0.." + std::to_string(r.n - 1) + " (" + std::to_string(pb) +
                             "-byte) sorted beside the keys by " + plan.algorithm->name;
  steps.push_back(by_key);
  const TempQuery q{device, r.type, r.n, pb, r.options};
  if (plan.algorithm->plan_steps)
    for (const std::string& s : plan.algorithm->plan_steps(q)) steps.push_back("by key: " + s);
  steps.push_back(std::string("segment of each position (") + std::to_string(sb) + "-byte): " +
                  (r.offset_bytes ? "a binary search in the " + std::to_string(r.rows + 1) + " offsets"
                                  : "position / " + std::to_string(r.row_length)) +
                  " (segmented_gather.cl, segment_of_" + (r.offset_bytes ? "offsets" : "rows") + ")");
  steps.push_back("by segment: the (segment, position) pairs sorted by segment, stable, by radix (passes of digits "
                  "equal everywhere skipped)");
  steps.push_back(std::string("gather: the keys") + (r.value_bytes && !r.positions ? " and values" : "") +
                  " from the input by position" +
                  (r.positions ? "; each index the position minus its segment's start" : std::string()));
  return steps;
}

}  // namespace gpusort::algo
