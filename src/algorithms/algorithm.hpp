#pragma once
// What every algorithm driver receives, and the table of algorithms.
// A driver sorts job.n keys (and values) held in device buffers, leaving the result in the same
// buffers; an out-of-place sort's input lies apart (keys_in, values_in) and is only read. Its device
// temporaries come from job.temp(), requested before its first launch that writes the keys (so a
// failure leaves them unchanged; out of place, radix may have copied the input into the output
// already, and the input is never written); Algorithm::temp_bytes reports their sum. It never
// touches host memory.
#include <cstdint>
#include <memory>
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
  // Caller-supplied temporary storage (sort_device's temporary_storage overload), or nullptr: then
  // temporaries come from the device's buffer pool (runtime/buffer_pool.hpp).
  rt::Buffer* temp_storage = nullptr;
  mutable std::size_t temp_used = 0;  // bytes of temp_storage handed out so far
  // A run-time order registered by the caller (runtime/kernel_sources.hpp: register_record_order
  // for record sorts), or empty: then options.comparator, when set, is registered and used.
  std::string registered_order = {};
  // Out of place: the input, apart from keys/values, never written (nullptr: keys/values hold the
  // input). run() copies it into keys/values before the driver is called, unless the driver reads it
  // itself (Algorithm::reads_input_apart, with the keys apart; the values apart or in place): radix's
  // first pass reads it, which saves that copy's read and write of every key (and value).
  rt::Buffer* keys_in = nullptr;
  rt::Buffer* values_in = nullptr;
  // argsort: the values (in place, 4 or 8 bytes) are still to be made 0..n-1, so the caller fills
  // nothing. run() fills them after the start event (algorithms/positions.hpp) unless the driver
  // makes them itself (Algorithm::makes_positions); whoever makes them clears the flag.
  bool values_are_positions = false;
  // keys/values are the sort's own buffers (a host sort's upload, a record sort's addresses), not
  // the caller's: where a check of a run-time order fails (algorithms/order_check.hpp), run() then
  // keeps no copy to restore them from; the caller never sees them.
  bool output_is_scratch = false;

  bool descending() const { return options.order == order::descending; }
  // -D definitions that specialise kernels/keys.h for this job.
  std::vector<std::string> key_defines() const;
  // The same plus GROUP_SIZE, which every tiled kernel file takes.
  std::vector<std::string> key_defines(std::uint32_t group_size) const;
  // The program of kernels/<file> with `defines`, built with the job's run-time order when it has
  // one (registered_order, else options.comparator; runtime/kernel_sources.hpp). Every comparison
  // sort's driver builds its programs through this, so each takes a comparator alike (not the
  // distributed merge of uneven runs, merge_uneven_runs.cpp, which sorts by the natural order).
  rt::Program& program(const std::string& file, const std::vector<std::string>& defines) const;
  // The `okey_t flip` kernel argument: 0 or all ones, as wide as the kernel's okey_t.
  rt::Arg flip_arg() const;
  // The values kernel argument; the keys buffer stands in when there are no values (never read).
  rt::Buffer& values_or_keys() const { return values ? *values : keys; }
  // A device temporary of at least `bytes` bytes (its bytes() may be larger): the next
  // temp_request_bytes(bytes) of temp_storage (Error(invalid_argument) when they do not fit), else
  // a buffer from the device's pool. Released (back to the pool) when the last pointer drops.
  rt::BufferPtr temp(std::size_t bytes) const;
};

// What one temp(bytes) request takes of caller storage: bytes rounded up to 4096 (at least 4096),
// so every sub-range starts 4096-aligned.
constexpr std::uint64_t kTempAlign = 4096;
inline std::uint64_t temp_request_bytes(std::uint64_t bytes) {
  return bytes == 0 ? kTempAlign : (bytes + kTempAlign - 1) / kTempAlign * kTempAlign;
}

// A sort's shape, for Algorithm::temp_bytes. Field names match SortJob's, so helpers written as
// templates over the job serve both.
// KEY_BITS / KEY_KIND / VALUE_BYTES (and KEY_BFLOAT16) of kernels/keys.h for a key type and value width.
std::vector<std::string> key_defines_for(key_type type, std::size_t value_bytes);

struct TempQuery {
  rt::Device& device;  // device.description() for the device's limits
  key_type type;
  std::uint64_t n;
  std::size_t value_bytes;  // 0 = keys only
  const SortOptions& options;
};

// The SortOptions fields an algorithm reads beyond order, stable, algorithm and verbose. A field it
// does not read must keep its default, so that no option is silently ignored: the entry points
// check this (algorithms/request_checks.hpp) before anything runs.
struct OptionUse {
  bool work_group_size = false;
  bool items_per_thread = false;
  bool local_variant = false;
  bool merge_variant = false;
  bool host_merge_levels = false;
  bool comparator = false;  // SortOptions::comparator (a run-time order)
  // items_per_thread's valid values besides 0 (the default): 1..max_items_per_thread, only powers
  // of two when items_power_of_two.
  std::size_t max_items_per_thread = 0;
  bool items_power_of_two = false;
};

// SortOptions::host_merge_levels' range is -1 (automatic) .. kMaxHostMergeLevels.
constexpr int kMaxHostMergeLevels = 64;

// How an algorithm's work grows with n: shown by `gpusort algorithms`, and how the benchmark
// projects a larger run's time from a smaller one's.
enum class Complexity {
  n_log_n,
  n_log2_n,   // sorting networks: log n merge stages of up to log n steps each
  n_squared,  // these also set Algorithm::max_n
  n_k,        // radix: one pass per 8-bit digit of a k-bit key
};
const char* to_string(Complexity complexity);  // "n log n", "n log^2 n", "n^2", "n*k/8"

// Where an algorithm does its work. The data always starts and ends in device buffers.
enum class RunsOn {
  device,
  device_and_host,  // the device first, then host threads (hybrid's top merge levels)
  host,             // all of it on one host thread (the keys come to the host and go back)
};
const char* to_string(RunsOn where);  // "device", "device+host", "host"

struct Algorithm {
  std::string name;
  std::string description;
  Complexity complexity = Complexity::n_log_n;
  RunsOn runs_on = RunsOn::device;
  bool can_be_stable = false;
  // Largest n the algorithm accepts (0 = no limit), and what to use instead above it.
  std::uint64_t max_n = 0;
  std::string too_large_hint;
  // The driver; called only through algo::run below.
  void (*sort)(SortJob&) = nullptr;
  // The temporary storage run() asks job.temp() for at most: the sum of temp_request_bytes() of
  // its requests. nullptr: not reported (caller-supplied temporary storage is then refused).
  std::uint64_t (*temp_bytes)(const TempQuery&) = nullptr;
  OptionUse options;
  // Checks the variant names in local_variant / merge_variant (and how they combine with the other
  // options), throwing Error(invalid_argument) that names the field; nullptr: no variants.
  void (*check_variants)(const SortOptions&) = nullptr;
  // The driver reads an out-of-place sort's input where it lies (SortJob::keys_in apart, values_in
  // apart or in place); false: run() copies it into the output first.
  bool reads_input_apart = false;
  // The driver makes an argsort's positions (SortJob::values_are_positions) where it can do so inside
  // its sort (radix's one-launch path: no fill launch); false: run() fills them first.
  bool makes_positions = false;
  // The passes or kernels the driver will run for this shape, each with the tuning it takes, in
  // words (gpusort plan); nullptr: the description stands for them.
  std::vector<std::string> (*plan_steps)(const TempQuery&) = nullptr;
};

// All algorithms, in the order `gpusort algorithms` lists them.
const std::vector<Algorithm>& registry();
const Algorithm* find(const std::string& name);

// Events recorded on the device's default queue around one sort: their elapsed time is the sort's
// device time.
struct RunEvents {
  std::unique_ptr<rt::Event> start, stop;
  // Kernel programs this process compiled meanwhile (first use with an empty program cache); their
  // compile time falls between the events, as the device waits while the host compiles.
  std::uint64_t programs_compiled = 0;
};
// The one place a driver is called from: `algorithm` sorts `job` between two recorded events
// (nothing between them but the positions' fill of an argsort, where the driver does not make them,
// and the copy of an out-of-place input into the output, unless the driver reads it apart). Throws
// std::logic_error if the driver left an argsort's positions unmade (a driver bug). The device may
// still be working when it returns; stop->wait() waits for the sort. A sort by a run-time order is
// checked after it (algorithms/order_check.hpp): run() then waits for it, and where the order
// proves not to be a strict weak order, restores the output and throws Error(invalid_argument).
RunEvents run(const Algorithm& algorithm, SortJob& job);
// An out-of-place job's input copied into its output (keys_in -> keys, values_in -> values), and the
// job made in place: run() does this for drivers that do not read the input apart, and drivers that
// do, for their paths that sort in place.
void copy_input_to_output(SortJob& job);

// An argsort's positions (SortJob::values_are_positions) filled into job.values, and the flag
// cleared: run() does this for drivers that do not make them, and drivers that do, for their paths
// that cannot.
void fill_job_positions(SortJob& job);

// Shared helpers for drivers.
std::uint32_t default_group_size(const rt::Device& device, std::uint32_t preferred);
// Validates a requested work-group size (SortOptions::work_group_size: 0 for `preferred` capped at
// the device's limit, else a power of two within that limit).
std::uint32_t checked_group_size(const rt::Device& device, std::size_t requested, std::uint32_t preferred);
// The check alone: Error(invalid_argument) unless requested is 0 or a power of two <= device_limit.
void check_work_group_size(std::size_t requested, std::uint32_t device_limit);
std::uint64_t next_pow2(std::uint64_t x);
inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace gpusort::algo
