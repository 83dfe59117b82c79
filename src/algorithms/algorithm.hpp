#pragma once
// What every algorithm driver receives, and the table of algorithms.
// A driver sorts job.n keys (and values) held in device buffers, leaving the result in the same
// buffers. It may allocate temporaries from job.device. It never touches host memory.
#include <cstdint>
#include <string>
#include <vector>

#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

struct SortJob {
  rt::Device& device;
  key_type type;
  std::uint64_t n;
  std::size_t value_bytes;  // 0 = keys only
  rt::Buffer& keys;
  rt::Buffer* values;  // nullptr when value_bytes == 0
  const SortOptions& options;

  bool descending() const { return options.order == order::descending; }
  // -D definitions that specialise kernels/keys.h for this job.
  std::vector<std::string> key_defines() const;
  // The `okey_t flip` kernel argument: 0 or all ones, as wide as the kernel's okey_t.
  rt::Arg flip_arg() const;
  // The values kernel argument; the keys buffer stands in when there are no values (never read).
  rt::Buffer& values_or_keys() const { return values ? *values : keys; }
};

struct Algorithm {
  std::string name;
  std::string description;
  bool can_be_stable = false;
  // Largest n the algorithm accepts (0 = no limit), and what to use instead above it.
  std::uint64_t max_n = 0;
  std::string too_large_hint;
  void (*run)(SortJob&) = nullptr;
};

// All algorithms, in the order `gpusort algorithms` lists them.
const std::vector<Algorithm>& registry();
const Algorithm* find(const std::string& name);

// Shared helpers for drivers.
std::uint32_t default_group_size(const rt::Device& device, std::uint32_t preferred);
// Validates a requested work-group size (power of two, within the device's limit).
std::uint32_t checked_group_size(const rt::Device& device, std::size_t requested, std::uint32_t preferred);
std::uint64_t next_pow2(std::uint64_t x);
inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace gpusort::algo
