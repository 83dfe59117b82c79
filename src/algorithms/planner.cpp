// The planner (algorithms/planner.hpp): one request validated once, one algorithm chosen once, one
// path decided once.
#include "algorithms/planner.hpp"

#include <cstdio>
#include <string>

#include "algorithms/chooser.hpp"
#include "algorithms/order_check.hpp"
#include "algorithms/request_checks.hpp"

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

Plan plan_checked(const SortRequest& request, const Algorithm& algorithm, std::span<rt::Device* const> devices) {
  Plan plan;
  plan.request = request;
  plan.algorithm = &algorithm;
  const std::uint64_t n = request.n;
  if (n <= 1) {
    plan.path = Path::nothing_to_do;
    return plan;
  }
  if (request.where != data_location::host) {
    plan.path = Path::on_device;
    return plan;
  }
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
  plan.chunks = detail::plan_chunks(n, kb, vb, plan.budget, plan.max_buffer);
  return plan;
}

}  // namespace

std::uint64_t sort_temp_bytes(const Algorithm& algorithm, const TempQuery& q) {
  // with a run-time order, also the check's (a copy of the output to restore if it fails)
  return algorithm.temp_bytes(q) + order_check_temp_bytes(q.type, q.n, q.value_bytes, q.options);
}

const char* to_string(Path path) {
  switch (path) {
    case Path::nothing_to_do: return "nothing to do (at most one element)";
    case Path::one_piece: return "one piece (upload, sort, download through pinned staging)";
    case Path::partitioned: return "chunks, then buckets cut at exact ranks";
    case Path::on_device: return "on the device, where the data lie";
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
  // Several devices: chosen for the first, and the choice checked against every one of them.
  const Algorithm& algorithm = detail::checked_algorithm(devices[0]->description(), request.n, request.options);
  for (rt::Device* d : devices.subspan(1)) detail::check_options(request.options, algorithm, d->description());
  return plan_checked(request, algorithm, devices);
}

SortPlan describe(const Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  const DeviceDescription& d = device.description();
  SortPlan out;
  out.algorithm = plan.algorithm->name;
  out.device = d.id + " (" + d.name + ")";
  out.device_class = device_class(d);
  out.path = to_string(plan.path);
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

void print_if_verbose(const Plan& plan, rt::Device& device) {
  if (plan.options().verbose) std::fputs(describe(plan, device).text("gpusort: plan: ").c_str(), stderr);
}

}  // namespace algo

SortPlan plan(Context& ctx, const SortRequest& request) {
  rt::Device& device = ctx.runtime_device();
  return algo::describe(algo::make_plan(request, device), device);
}

}  // namespace gpusort
