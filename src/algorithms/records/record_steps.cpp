// What a record sort on the device runs, in words (algorithms/records/record_sort.hpp,
// record_device_steps): the plan's steps, each sort with its algorithm's own.
#include <string>
#include <vector>

#include "algorithms/records/record_sort.hpp"

namespace gpusort::detail {
namespace {

// The algorithm's steps for one sort of n keys of `type` with vb-byte values, each after `head`.
void add_sort_steps(std::vector<std::string>& steps, const std::string& head, const algo::Plan& plan,
                    rt::Device& device, key_type type, std::size_t vb, const SortOptions& options) {
  const algo::Algorithm& algorithm = *plan.algorithm;
  const algo::TempQuery q{device, type, plan.request.n, vb, options};
  if (!algorithm.plan_steps) {
    steps.push_back(head + algorithm.description);
    return;
  }
  for (const std::string& step : algorithm.plan_steps(q)) steps.push_back(head + step);
}

}  // namespace

std::string record_pass_name(const RecordPass& pass) {
  const std::string type(key_type_name(pass.type));
  if (pass.word != complex128_word::none)
    return std::string("c128 at byte ") + std::to_string(pass.offset) + (pass.word == complex128_word::high ? ", high" : ", low") +
           " word of its image as u64" + (pass.descending ? ", descending" : ", ascending");
  std::string s = pass.packed ? std::to_string(pass.bytes) + " bytes at byte " + std::to_string(pass.offset) + " as " + type
                              : type + " at byte " + std::to_string(pass.offset);
  return s + (pass.descending ? ", descending" : ", ascending");
}

std::vector<std::string> record_device_steps(const algo::Plan& plan, rt::Device& device) {
  const algo::RecordsPlan& rec = plan.records;
  const std::string n = std::to_string(plan.request.n), ib = std::to_string(rec.index_bytes);
  SortOptions options = plan.options();
  options.device_memory_limit = 0, options.host_threads = 0;  // the sorts' own: on the device
  std::vector<std::string> steps;
  if (rec.passes.empty()) {
    steps.push_back("records_addresses: the " + n + " records' device addresses (8 bytes each)");
    add_sort_steps(steps, "sort of the addresses by the comparator: ", plan, device, key_type::u64, 0, options);
    steps.push_back("records_index_of_addresses: the sorted addresses as " + ib + "-byte record indices");
    steps.push_back("records_gather: the records in the indices' order");
    return steps;
  }
  if (rec.move_with_key) {
    const RecordPass& pass = rec.passes[0];
    options.order = pass.descending ? order::descending : order::ascending;
    steps.push_back("records_make_keys: the one pass's keys (" + record_pass_name(pass) + ")");
    add_sort_steps(steps, "pass 1, the records as its values: ", plan, device, pass.type, plan.request.record_bytes,
                   options);
    return steps;
  }
  steps.push_back("records_make_keys: every pass's keys in record order; record indices 0.." +
                  std::to_string(plan.request.n - 1) + " of " + ib + " bytes" +
                  (rec.values.positions ? " (the argsort's indices, made where they are wanted)" : ""));
  for (std::size_t p = 0; p < rec.passes.size(); ++p) {
    const RecordPass& pass = rec.passes[p];
    const std::string head = "pass " + std::to_string(p + 1) + " (" + record_pass_name(pass) + "): ";
    if (p > 0) steps.push_back(head + "records_order_keys: its keys in the index's order");
    options.order = pass.descending ? order::descending : order::ascending;
    add_sort_steps(steps, head, plan, device, pass.type, rec.index_bytes, options);
  }
  steps.push_back(std::string("records_gather: the records in the index's order (in place: into a temporary, copied "
                              "back)") + (rec.values.positions ? "; not where only the indices are wanted" : ""));
  if (rec.values.bytes && !rec.values.positions)
    steps.push_back("records_gather: the " + std::to_string(rec.values.bytes) + "-byte values in the index's order");
  return steps;
}

}  // namespace gpusort::detail
