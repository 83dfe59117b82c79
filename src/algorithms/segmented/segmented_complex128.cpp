// Complex128 keys in segments (segmented_complex128.hpp): two segmented sorts of u64 words.
#include "algorithms/segmented/segmented_complex128.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>

#include "algorithms/positions.hpp"
#include "algorithms/records/record_kernels.hpp"
#include "algorithms/segmented/segmented_bins.hpp"
#include "algorithms/segmented/segmented_sort.hpp"

namespace gpusort::algo {
namespace {

constexpr std::size_t kKeyBytes = 16;

// The low word's pass, then the high word's, in the job's order (gpusort/key_order.hpp).
std::vector<detail::RecordPass> word_passes(bool descending) {
  const RecordField key{.offset = 0, .type = key_type::c128, .descending = descending};
  return detail::record_passes(std::span<const RecordField>(&key, 1));
}

const Plan& words_of(const Plan& plan) {
  if (plan.parts.empty()) throw std::logic_error("a segmented sort of complex128 keys was planned without its word passes");
  return plan.parts[0];
}

// Caller-supplied temporary storage (SortJob::temp_storage) hands out bytes only forwards: each step
// after the driver's own temporaries (the two word passes, the last gathers) starts again where they
// end, since the queue runs the steps one after the other; the job keeps the furthest any reached.
struct StepTemps {
  SortJob& job;
  std::size_t base, furthest;
  explicit StepTemps(SortJob& j) : job(j), base(j.temp_used), furthest(j.temp_used) {}
  void next_step() {
    furthest = std::max(furthest, job.temp_used);
    job.temp_used = base;
  }
  ~StepTemps() { job.temp_used = std::max(furthest, job.temp_used); }
};

// One word pass: the segments of `words` sorted with the positions beside them, stable.
SegmentedBin sort_words(const Plan& words, SortJob& job, const SegmentShape& shape, rt::Buffer& keys,
                        rt::Buffer& positions, StepTemps& steps) {
  steps.next_step();
  SortJob pass{job.device, key_type::u64, job.n, words.request.value_bytes, keys, &positions, words.options()};
  pass.temp_storage = job.temp_storage;
  pass.temp_used = job.temp_used;
  SegmentedJob segmented{pass, shape};
  run_segmented(words, segmented);
  job.temp_used = pass.temp_used;
  return segmented.ran;
}

// out = in by `positions`; in place (in == out) through a temporary copied back.
void gather(SortJob& job, detail::RecordKernels& kernels, rt::Buffer& in, rt::Buffer& out, std::size_t bytes,
            rt::Buffer& positions) {
  if (&in != &out) return kernels.gather(in, out, job.n, bytes, positions);
  const rt::BufferPtr sorted = job.temp(job.n * bytes);
  kernels.gather(in, *sorted, job.n, bytes, positions);
  job.device.copy(*sorted, 0, out, 0, job.n * bytes);
}

// An argsort's global positions made local to their segment, into the job's values (the portable
// bin's steps). A sorted position lies in the segment of the slot it is written to, so the segment
// found for it is its own.
void make_positions_local(SortJob& job, const SegmentShape& shape, const Plan& words, rt::Buffer& positions) {
  const std::size_t sb = words.segments.segment_bytes;
  SegmentedGather steps(job.device, shape, words.request.value_bytes, sb, job.n);
  const rt::BufferPtr segments = shape.uniform() ? nullptr : job.temp(job.n * sb);  // rows: not read
  if (segments) steps.segments_of(positions, *segments);
  steps.local_indices(positions, segments ? *segments : positions, *job.values, job.value_bytes);
}

}  // namespace

SortRequest complex128_word_request(const SortRequest& request, std::size_t position_bytes) {
  SortRequest words = request;
  words.type = key_type::u64;
  words.value_bytes = position_bytes;
  words.positions = false;
  words.where = data_location::device;
  words.options.stable = true;  // the second pass keeps the first's order among equal high words
  return words;
}

void segmented_complex128_sort(SegmentedJob& segmented, const Plan& plan) {
  SortJob& job = segmented.sort;
  const SegmentShape& shape = segmented.segments;
  const Plan& words = words_of(plan);
  rt::Device& device = job.device;
  const std::uint64_t n = job.n;
  const std::size_t pb = words.request.value_bytes;
  const std::vector<detail::RecordPass> passes = word_passes(job.descending());
  rt::Buffer& keys_in = job.keys_in ? *job.keys_in : job.keys;

  std::vector<std::uint64_t> at;
  const rt::BufferPtr both = job.temp(detail::layout_pass_keys(n, passes, at));  // the low words first
  const rt::BufferPtr high = job.temp(n * 8), positions = job.temp(n * pb);
  detail::RecordKernels kernels(device, pb);
  kernels.make_keys(keys_in, n, kKeyBytes, passes, at, *both);
  fill_positions(device, *positions, n, pb);
  StepTemps steps(job);
  sort_words(words, job, shape, *both, *positions, steps);
  kernels.order_keys(*both, at[1], *positions, n, key_type::u64, *high);
  segmented.ran = sort_words(words, job, shape, *high, *positions, steps);

  steps.next_step();  // the gathers: the keys' copy in place, then the values' copy or the segment numbers
  gather(job, kernels, keys_in, job.keys, kKeyBytes, *positions);
  if (job.values_are_positions) {
    make_positions_local(job, shape, words, *positions);
    job.values_are_positions = false;
  } else if (job.value_bytes) {
    gather(job, kernels, job.values_in ? *job.values_in : *job.values, *job.values, job.value_bytes, *positions);
  }
  job.keys_in = job.values_in = nullptr;
}

std::uint64_t segmented_complex128_temp_bytes(const Plan& plan, rt::Device& device) {
  const Plan& words = words_of(plan);
  const SortRequest& r = plan.request;
  const std::uint64_t n = r.n;
  std::vector<std::uint64_t> at;
  std::uint64_t own = temp_request_bytes(detail::layout_pass_keys(n, word_passes(false), at)) +
                      temp_request_bytes(n * 8) + temp_request_bytes(n * words.request.value_bytes);
  // the last step's: an in-place gather's copy of the keys, then (caller storage never hands bytes
  // back) of the values or an argsort's segment numbers
  std::uint64_t last = temp_request_bytes(n * kKeyBytes);
  if (r.positions && r.offset_bytes) last += temp_request_bytes(n * words.segments.segment_bytes);
  if (r.value_bytes && !r.positions) last += temp_request_bytes(n * r.value_bytes);
  return own + std::max(last, segmented_temp_bytes(words, device));
}

std::vector<std::string> segmented_complex128_steps(const Plan& plan, rt::Device& device) {
  const Plan& words = words_of(plan);
  const SortRequest& r = plan.request;
  const std::string pb = std::to_string(words.request.value_bytes);
  std::vector<std::string> steps;
  steps.push_back("complex128 keys: the low and high u64 words of each key's order image (kernels/records.cl), "
                  "positions 0.." + std::to_string(r.n - 1) + " (" + pb + "-byte) beside them");
  const std::vector<std::string> pass = segmented_plan_steps(words, device);
  for (const char* word : {"low", "high"}) {
    if (word[0] == 'h') steps.push_back("the high words put in the positions' order");
    const std::string head = std::string("by the ") + word + " words, stable, " + segmented_report_name(words) + ": ";
    for (const std::string& s : pass) steps.push_back(head + s);
  }
  steps.push_back("the keys gathered by position" +
                  std::string(r.positions ? "; the positions made local to their segment"
                              : r.value_bytes ? ", the values too" : ""));
  return steps;
}

}  // namespace gpusort::algo
