#include "algorithms/algorithm.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "algorithms/order_check.hpp"
#include "algorithms/positions.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/kernel_sources.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::algo {

std::vector<std::string> key_defines_for(key_type type, std::size_t value_bytes) {
  const int kind = is_float(type) ? 2 : type == key_type::b8 ? 3 : is_complex(type) ? 4 : is_signed(type) ? 1 : 0;
  std::vector<std::string> d = {"KEY_BITS=" + std::to_string(key_size(type) * 8), "KEY_KIND=" + std::to_string(kind),
                                "VALUE_BYTES=" + std::to_string(value_bytes)};
  if (type == key_type::bf16) d.push_back("KEY_BFLOAT16=1");  // 16-bit floats are binary16 otherwise
  return d;
}

std::vector<std::string> SortJob::key_defines() const { return key_defines_for(type, value_bytes); }

std::vector<std::string> SortJob::key_defines(std::uint32_t group_size) const {
  auto defines = key_defines();
  defines.push_back("GROUP_SIZE=" + std::to_string(group_size));
  return defines;
}

rt::Program& SortJob::program(const std::string& file, const std::vector<std::string>& defines) const {
  if (!registered_order.empty()) return device.program(file + "#" + registered_order, defines);
  if (options.comparator.empty()) return device.program(file, defines);
  // Registered once per order, not per program: registering builds and hashes the whole text.
  thread_local std::string last_body, last_name;
  thread_local bool last_descending = false;
  if (last_name.empty() || last_body != options.comparator || last_descending != descending()) {
    last_name = rt::register_user_order(options.comparator, descending());
    last_body = options.comparator, last_descending = descending();
  }
  return device.program(file + "#" + last_name, defines);
}

rt::Arg SortJob::flip_arg() const {
  if (key_size(type) == 8) return rt::Arg(descending() ? ~std::uint64_t(0) : std::uint64_t(0));
  // okey_t is 32 bits for 8/16/32-bit keys; kernels mask it to the key's width.
  return rt::Arg(descending() ? ~std::uint32_t(0) : std::uint32_t(0));
}

rt::BufferPtr SortJob::temp(std::size_t bytes) const {
  if (!temp_storage) return device.temp_pool().get(bytes);
  const std::uint64_t take = temp_request_bytes(bytes);
  const std::size_t have = temp_storage->bytes();
  if (temp_used > have || take > have - temp_used)
    throw Error(errc::invalid_argument, "this sort needs at least " + std::to_string(temp_used + take) +
                                            " bytes of temporary storage, got " + std::to_string(have));
  rt::BufferPtr b = device.sub_buffer(*temp_storage, temp_used, bytes == 0 ? 1 : bytes);
  temp_used += take;
  return b;
}

std::uint32_t default_group_size(const rt::Device& device, std::uint32_t preferred) {
  std::uint32_t limit = device.description().max_work_group_size;
  std::uint32_t g = preferred;
  while (g > 1 && g > limit) g >>= 1;
  return g;
}

void check_work_group_size(std::size_t requested, std::uint32_t limit) {
  if (requested == 0) return;
  if ((requested & (requested - 1)) != 0 || requested > limit)
    throw Error(errc::invalid_argument, "SortOptions::work_group_size must be 0 (the algorithm's default) or a power "
                                        "of two from 1 to the device's limit " + std::to_string(limit) + " (got " +
                                            std::to_string(requested) + ")");
}

std::uint32_t checked_group_size(const rt::Device& device, std::size_t requested, std::uint32_t preferred) {
  if (requested == 0) return default_group_size(device, preferred);
  check_work_group_size(requested, device.description().max_work_group_size);
  return static_cast<std::uint32_t>(requested);
}

std::uint64_t next_pow2(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

const Algorithm* find(const std::string& name) {
  for (const auto& a : registry())
    if (a.name == name) return &a;
  return nullptr;
}

void copy_input_to_output(SortJob& job) {
  if (job.keys_in) job.device.copy(*job.keys_in, 0, job.keys, 0, job.n * key_size(job.type));
  if (job.values_in) job.device.copy(*job.values_in, 0, *job.values, 0, job.n * job.value_bytes);
  job.keys_in = job.values_in = nullptr;
}

void fill_job_positions(SortJob& job) {
  fill_positions(job.device, *job.values, job.n, job.value_bytes);
  job.values_are_positions = false;
}

RunEvents run(const Algorithm& algorithm, SortJob& job) {
  RunEvents events;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  std::optional<OrderCheck> check;  // a run-time order's sort is checked; its output saved first
  if (job.n > 1 && has_run_time_order(job)) check.emplace(job);
  events.start = job.device.record();
  if (job.values_are_positions) {
    if (!job.values || job.values_in)
      throw Error(errc::invalid_argument, "argsort: the positions are filled into values sorted in place");
    if (job.value_bytes != 4 && job.value_bytes != 8)
      throw Error(errc::invalid_argument, "argsort: positions are 4 or 8 bytes, not " + std::to_string(job.value_bytes));
    if (!algorithm.makes_positions || job.n <= 1) fill_job_positions(job);
  }
  const bool reads_apart = algorithm.reads_input_apart && job.n > 1 && job.keys_in;
  if (!reads_apart) copy_input_to_output(job);
  if (check) check->before_sort();
  if (job.n > 1) {
    try {
      algorithm.sort(job);
    } catch (...) {
      if (check) {
        try {
          check->restore();
        } catch (...) {  // the sort's own error is the one to report
        }
      }
      throw;
    }
  }
  if (job.values_are_positions)
    throw std::logic_error("algorithm " + algorithm.name + " left an argsort's positions unmade");
  events.stop = job.device.record();
  events.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  if (check) check->after_sort();
  return events;
}

const char* to_string(Complexity complexity) {
  switch (complexity) {
    case Complexity::n_log_n: return "n log n";
    case Complexity::n_log2_n: return "n log^2 n";
    case Complexity::n_squared: return "n^2";
    case Complexity::n_k: return "n*k/8";
  }
  return "?";
}

const char* to_string(RunsOn where) {
  switch (where) {
    case RunsOn::device: return "device";
    case RunsOn::device_and_host: return "device+host";
    case RunsOn::host: return "host";
  }
  return "?";
}

}  // namespace gpusort::algo
