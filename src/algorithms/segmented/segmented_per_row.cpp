// The per-row segmented bin (segmented_bins.hpp): a 1-D sort of each uniform row where it lies,
// through sub-buffers of the job's buffers (rows of whole 4096-byte blocks: rows_cut_into_views),
// one row after the other on the device's queue. No host round trip of its own: the rows are
// known from the request. One segment is the 1-D sort of the whole job.
#include <string>

#include "algorithms/order_check.hpp"
#include "algorithms/segmented/segmented_bins.hpp"

namespace gpusort::algo {

void segmented_per_row(SegmentedJob& segmented, const Plan& plan) {
  SortJob& job = segmented.sort;
  const SegmentShape& shape = segmented.segments;
  if (shape.count <= 1) {  // offsets of one segment are [0, n]: the whole job
    run(*plan.algorithm, job);
    return;
  }
  if (!shape.uniform()) throw std::logic_error("the per-row bin sorts uniform rows");
  rt::Device& device = job.device;
  const std::uint64_t length = shape.row_length;
  const std::size_t kb = key_size(job.type), vb = job.value_bytes;
  for (std::uint64_t row = 0; row < shape.count; ++row) {
    auto view = [&](rt::Buffer* whole, std::size_t bytes) -> rt::BufferPtr {
      return whole ? device.sub_buffer(*whole, row * length * bytes, length * bytes) : nullptr;
    };
    const rt::BufferPtr keys = view(&job.keys, kb), values = view(job.values, vb);
    const rt::BufferPtr keys_in = view(job.keys_in, kb), values_in = view(job.values_in, vb);
    SortJob one{device, job.type, length, vb, *keys, values.get(), job.options};
    one.keys_in = keys_in.get();
    one.values_in = values_in.get();
    one.values_are_positions = job.values_are_positions;  // each row's own positions: local indices
    one.registered_order = job.registered_order;
    one.output_is_scratch = job.output_is_scratch;
    run(*plan.algorithm, one);
  }
  job.values_are_positions = false;
  job.keys_in = job.values_in = nullptr;
}

std::uint64_t segmented_per_row_temp_bytes(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const std::uint64_t m = plan.segments.sort_n;
  if (!plan.algorithm->temp_bytes) return temp_request_bytes(m * (key_size(r.type) + r.value_bytes));
  return sort_temp_bytes(*plan.algorithm, {device, r.type, m, r.value_bytes, r.options});
}

std::vector<std::string> segmented_per_row_steps(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const std::uint64_t m = plan.segments.sort_n;
  std::vector<std::string> steps;
  steps.push_back(r.rows <= 1 ? "one segment: the 1-D sort of all " + std::to_string(m) + " elements by " +
                                    plan.algorithm->name
                              : std::to_string(r.rows) + " rows, one after the other, each a 1-D sort of its " +
                                    std::to_string(m) + " elements where they lie by " + plan.algorithm->name);
  if (r.positions) steps.push_back("each row's positions 0.." + std::to_string(m ? m - 1 : 0) + " as its indices");
  const TempQuery q{device, r.type, m, r.value_bytes, r.options};
  if (plan.algorithm->plan_steps)
    for (const std::string& s : plan.algorithm->plan_steps(q)) steps.push_back("each row: " + s);
  return steps;
}

}  // namespace gpusort::algo
