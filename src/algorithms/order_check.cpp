#include "algorithms/order_check.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

// The check's launch: at most this many work-groups, each a tree reduction in local memory. Its
// partial sums are 3 u64 per group (kernels/order_check.cl).
constexpr std::uint32_t kPreferredGroup = 256;
constexpr std::uint64_t kMaxGroups = 256;
constexpr std::uint64_t kPartialBytes = kMaxGroups * 3 * 8;

struct Summary {
  std::uint64_t sum = 0, xr = 0, inversions = 0;
};

Summary read_summary(rt::Device& device, const rt::Buffer& partials, std::uint64_t groups) {
  std::vector<std::uint64_t> p(groups * 3);
  device.read(partials, 0, p.data(), p.size() * 8);
  Summary s;
  for (std::uint64_t g = 0; g < groups; ++g) {
    s.sum += p[3 * g];
    s.xr ^= p[3 * g + 1];
    s.inversions += p[3 * g + 2];
  }
  return s;
}

}  // namespace

bool has_run_time_order(const SortJob& job) {
  return !job.registered_order.empty() || !job.options.comparator.empty();
}

std::uint64_t order_check_temp_bytes(key_type type, std::uint64_t n, std::size_t value_bytes,
                                     const SortOptions& options) {
  if (options.comparator.empty() || n <= 1) return 0;
  return temp_request_bytes(n * key_size(type)) + (value_bytes ? temp_request_bytes(n * value_bytes) : 0) +
         2 * temp_request_bytes(kPartialBytes);
}

std::uint64_t sort_temp_bytes(const Algorithm& algorithm, const TempQuery& q) {
  // with a run-time order, also the check's (a copy of the output to restore if it fails)
  return algorithm.temp_bytes(q) + order_check_temp_bytes(q.type, q.n, q.value_bytes, q.options);
}

void seed_scatter_destination(const SortJob& job, const rt::Buffer& src_keys, rt::Buffer& dst_keys) {
  if (!job.registered_order.empty()) job.device.copy(src_keys, 0, dst_keys, 0, job.n * key_size(job.type));
}

OrderCheck::OrderCheck(SortJob& job)
    : job_(job),
      group_size_(default_group_size(job.device, kPreferredGroup)),
      groups_(std::min(kMaxGroups, ceil_div(job.n, group_size_))) {
  if (!job.output_is_scratch) {
    const std::size_t kb = job.n * key_size(job.type), vb = job.n * job.value_bytes;
    saved_keys_ = job.temp(kb);
    job.device.copy(job.keys, 0, *saved_keys_, 0, kb);
    if (job.values) {
      saved_values_ = job.temp(vb);
      job.device.copy(*job.values, 0, *saved_values_, 0, vb);
    }
  }
  before_ = job.temp(kPartialBytes);
  after_ = job.temp(kPartialBytes);
}

namespace {
void launch_check(SortJob& job, std::uint32_t group_size, std::uint64_t groups, bool count_inversions,
                  rt::Buffer& partials) {
  rt::Program& program = job.program("order_check.cl", job.key_defines(group_size));
  job.device.launch(program.kernel("order_check"), {groups, group_size},
                    {job.keys, job.values_or_keys(), job.n, std::uint32_t(count_inversions ? 1 : 0), job.flip_arg(),
                     partials});
}
}  // namespace

void OrderCheck::before_sort() {
  launch_check(job_, group_size_, groups_, false, *before_);
  before_taken_ = true;
}

void OrderCheck::after_sort() {
  if (!before_taken_) return;
  launch_check(job_, group_size_, groups_, true, *after_);
  const Summary in = read_summary(job_.device, *before_, groups_);
  const Summary out = read_summary(job_.device, *after_, groups_);
  const bool lost = in.sum != out.sum || in.xr != out.xr;
  if (!lost && out.inversions == 0) return;
  restore();
  throw Error(errc::invalid_argument,
              std::string("the comparator is not a strict weak order: sorted by it, ") +
                  (lost ? "keys" + std::string(job_.values ? " and values" : "") + " were lost or duplicated"
                        : std::to_string(out.inversions) + " adjacent pair(s) of keys came out in the wrong order") +
                  ", so the sort was undone and its output left unchanged. A comparison like `a < b` over floats "
                  "holding NaN, or `a <= b`, makes such an order; for NaN last write `return isnan(b) ? !isnan(a) "
                  ": a < b;` (README.md, \"Any order\")");
}

void OrderCheck::restore() {
  if (!saved_keys_) return;
  job_.device.copy(*saved_keys_, 0, job_.keys, 0, job_.n * key_size(job_.type));
  if (saved_values_) job_.device.copy(*saved_values_, 0, *job_.values, 0, job_.n * job_.value_bytes);
  job_.device.finish();
}

}  // namespace gpusort::algo
