// SortOptions checks at every entry point: ranges, options the chosen algorithm does not read, and
// algorithm-specific options with "auto". Each error is Error(invalid_argument), names the field
// as `SortOptions::<field>` (front ends replace that text with their own option names), comes
// before any device work and leaves the caller's data unchanged. No test here compiles a kernel
// program: every request fails before the first launch.
#include <climits>
#include <functional>
#include <limits>

#include "algorithms/algorithm.hpp"
#include "api/out_of_core.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

constexpr std::size_t kMinusOne = std::numeric_limits<std::size_t>::max();  // "-1" read into a size_t
constexpr std::size_t kN = 3000;

void expect_error_text(const Error& e, const std::vector<std::string>& parts, const std::string& where) {
  EXPECT_EQ(e.code(), errc::invalid_argument) << where << ": " << e.what();
  for (const auto& p : parts)
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << where << ": '" << p << "' missing from: " << e.what();
}

// Runs `attempt`, which must throw Error(invalid_argument) containing every one of `parts`.
void expect_rejected_by(const std::string& where, const std::function<void()>& attempt,
                        const std::vector<std::string>& parts) {
  try {
    attempt();
    ADD_FAILURE() << where << ": accepted (expected an error containing '" << parts.front() << "')";
  } catch (const Error& e) {
    expect_error_text(e, parts, where);
  }
}

std::vector<Context> two_contexts() {
  std::vector<Context> out;
  out.emplace_back(test_context().device().id);
  out.emplace_back(test_context().device().id);
  return out;
}

// The host entry points: sort (keys), sort_pairs, and sort_pairs over two contexts.
void expect_host_sorts_reject(const SortOptions& options, const std::vector<std::string>& parts) {
  Context& ctx = test_context();
  auto keys = make_keys<std::uint32_t>(kN, dist::uniform, fresh_seed());
  auto values = index_values<std::uint32_t>(kN);
  const auto keys_before = keys;
  const auto values_before = values;
  expect_rejected_by("sort", [&] { sort(ctx, std::span<std::uint32_t>(keys), options); }, parts);
  expect_rejected_by("sort_pairs", [&] {
    sort_pairs(ctx, std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), options);
  }, parts);
  auto contexts = two_contexts();
  std::vector<Context*> ptrs = {&contexts[0], &contexts[1]};
  expect_rejected_by("sort_pairs on two contexts", [&] {
    sort_pairs(std::span<Context* const>(ptrs), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), options);
  }, parts);
  EXPECT_EQ(keys, keys_before);
  EXPECT_EQ(values, values_before);
}

// The device entry points: sort_device (through DeviceArray), with and without caller temporary
// storage, and temporary_storage_bytes.
void expect_device_sorts_reject(const SortOptions& options, const std::vector<std::string>& parts) {
  Context& ctx = test_context();
  const auto input = make_keys<std::uint32_t>(kN, dist::uniform, fresh_seed());
  const auto index = index_values<std::uint32_t>(kN);
  DeviceArray<std::uint32_t> keys(ctx, std::span<const std::uint32_t>(input));
  DeviceArray<std::uint32_t> values(ctx, std::span<const std::uint32_t>(index));
  DeviceBuffer temp(ctx, 1 << 20);
  expect_rejected_by("sort_device", [&] { sort_pairs(ctx, keys, values, options); }, parts);
  expect_rejected_by("sort_device with temporary storage", [&] { sort(ctx, keys, temp, options); }, parts);
  expect_rejected_by("temporary_storage_bytes", [&] {
    temporary_storage_bytes(ctx, key_type::u32, kN, sizeof(std::uint32_t), options);
  }, parts);
  std::vector<std::uint32_t> keys_after(kN), values_after(kN);
  keys.download(keys_after);
  values.download(values_after);
  EXPECT_EQ(keys_after, input);
  EXPECT_EQ(values_after, index);
}

void expect_rejected(const SortOptions& options, const std::vector<std::string>& parts) {
  expect_host_sorts_reject(options, parts);
  expect_device_sorts_reject(options, parts);
}

// ---- ranges ----------------------------------------------------------------------------------

// The type-erased entry points take a key_type that a cast integer may have made: each refuses one
// outside the enumerators before touching anything (it once reached kernel compilation and
// failed there with build_error).
TEST(OptionRanges, KeyTypeOutsideTheEnumerators) {
  const auto bad = static_cast<key_type>(std::size(all_key_types));
  EXPECT_EQ(key_type_name(bad), "invalid");
  std::vector<std::uint32_t> keys{3, 1, 2}, values{0, 1, 2};
  std::vector<std::uint64_t> indices(3, 99);
  const std::vector<std::string> parts{"key type " + std::to_string(std::size(all_key_types))};
  expect_rejected_by("sort_host", [&] { sort_host(test_context(), bad, keys.data(), keys.size(), nullptr, 0, {}); },
                     parts);
  expect_rejected_by("sort_host pairs",
                     [&] { sort_host(test_context(), bad, keys.data(), keys.size(), values.data(), 4, {}); }, parts);
  expect_rejected_by("argsort_host",
                     [&] { argsort_host(test_context(), bad, keys.data(), keys.size(), indices.data(), 8, {}); }, parts);
  expect_rejected_by("temporary_storage_bytes", [&] { temporary_storage_bytes(test_context(), bad, 3, 0, {}); },
                     parts);
  DeviceBuffer buffer(test_context(), keys.size() * 4);
  expect_rejected_by("sort_device", [&] { sort_device(test_context(), bad, buffer, keys.size(), nullptr, 0, {}); },
                     parts);
  std::vector<Context> contexts = two_contexts();
  Context* both[] = {&contexts[0], &contexts[1]};
  expect_rejected_by("sort_host_multi",
                     [&] { sort_host_multi(both, bad, keys.data(), keys.size(), nullptr, 0, {}); }, parts);
  std::vector<std::uint32_t> records{3, 1, 2};
  const RecordField field{.offset = 0, .type = bad};
  expect_rejected_by("sort_records",
                     [&] { sort_records(test_context(), records.data(), records.size(), 4, std::span(&field, 1)); },
                     parts);
  EXPECT_EQ(records, (std::vector<std::uint32_t>{3, 1, 2}));
  EXPECT_EQ(keys, (std::vector<std::uint32_t>{3, 1, 2}));
  EXPECT_EQ(indices, std::vector<std::uint64_t>(3, 99));
}

TEST(OptionRanges, ItemsPerThreadOfMinusOne) {
  for (const char* algorithm : {"section-merge", "hybrid", "radix", "merge", "rank"})
    expect_rejected({.algorithm = algorithm, .items_per_thread = kMinusOne},
                    {"SortOptions::items_per_thread must be 0", "'" + std::string(algorithm) + "'",
                     std::to_string(kMinusOne)});
}

TEST(OptionRanges, ItemsPerThreadPerAlgorithm) {
  expect_rejected({.algorithm = "radix", .items_per_thread = 65}, {"SortOptions::items_per_thread", "from 1 to 64"});
  expect_rejected({.algorithm = "rank", .items_per_thread = 17}, {"SortOptions::items_per_thread", "from 1 to 16"});
  expect_rejected({.algorithm = "merge", .items_per_thread = 3},
                  {"SortOptions::items_per_thread", "a power of two from 1 to 64", "(got 3)"});
  expect_rejected({.algorithm = "merge", .items_per_thread = 128}, {"SortOptions::items_per_thread", "from 1 to 64"});
  expect_rejected({.algorithm = "section-merge", .items_per_thread = 1025},
                  {"SortOptions::items_per_thread", "from 1 to 1024"});
  expect_rejected({.algorithm = "hybrid", .items_per_thread = 1025}, {"SortOptions::items_per_thread", "from 1 to 1024"});
}

TEST(OptionRanges, WorkGroupSize) {
  const std::uint32_t limit = test_context().device().max_work_group_size;
  for (std::size_t wg : {std::size_t(3), std::size_t(limit) * 2, std::size_t(limit) + 1, kMinusOne})
    for (const char* algorithm : {"radix", "bitonic", "odd-even"})
      expect_rejected({.algorithm = algorithm, .work_group_size = wg},
                      {"SortOptions::work_group_size must be 0", "power of two", std::to_string(limit),
                       "(got " + std::to_string(wg) + ")"});
}

TEST(OptionRanges, HostMergeLevels) {
  for (int levels : {-2, 65, INT_MIN, INT_MAX})
    expect_rejected({.algorithm = "hybrid", .host_merge_levels = levels},
                    {"SortOptions::host_merge_levels must be -1 (automatic) or from 0 to 64",
                     "(got " + std::to_string(levels) + ")"});
}

TEST(OptionRanges, HybridHostLevelsVariant) {
  for (const char* variant : {"host-levels=65", "host-levels=-1", "host-levels=99999999999999999999", "host-levels=",
                              "host-levels=2x", "levels=2", "path"})
    expect_rejected({.algorithm = "hybrid", .merge_variant = variant},
                    {"SortOptions::merge_variant", "'host-levels=K' with K from 0 to 64", variant});
  expect_rejected({.algorithm = "hybrid", .merge_variant = "host-levels=2", .host_merge_levels = 1},
                  {"SortOptions::host_merge_levels", "SortOptions::merge_variant", "not both"});
}

TEST(OptionRanges, VariantNames) {
  expect_rejected({.algorithm = "bitonic", .local_variant = "nope"},
                  {"SortOptions::local_variant 'nope'", "'bitonic'", "fused, fused2, global"});
  expect_rejected({.algorithm = "merge", .local_variant = "nope"}, {"SortOptions::local_variant 'nope'", "'merge'"});
  expect_rejected({.algorithm = "merge", .merge_variant = "nope"}, {"SortOptions::merge_variant 'nope'", "'merge'"});
  expect_rejected({.algorithm = "rank", .local_variant = "nope"}, {"SortOptions::local_variant 'nope'", "stable, unstable"});
  expect_rejected({.stable = true, .algorithm = "rank", .local_variant = "unstable"},
                  {"SortOptions::local_variant 'unstable'", "SortOptions::stable"});
}

TEST(OptionRanges, StableOnAnUnstableAlgorithmNamesTheFields) {
  expect_rejected({.stable = true, .algorithm = "bitonic"}, {"SortOptions::stable", "SortOptions::algorithm", "radix"});
}

TEST(OptionRanges, DeviceMemoryLimitBelowTheSmallestChunk) {
  // Below what keys alone need (pairs need more), so every host entry point refuses it.
  const std::uint64_t least_keys = detail::pipeline_bytes(detail::kMinChunk, 4, 0);
  for (std::uint64_t limit : {std::uint64_t(1), least_keys - 1})
    expect_host_sorts_reject({.device_memory_limit = limit},
                             {"SortOptions::device_memory_limit must be 0", "at least ",
                              "(got " + std::to_string(limit) + ")"});
  // The least limit is the one named, per key and value size.
  const std::uint64_t least_pairs = detail::pipeline_bytes(detail::kMinChunk, 4, 4);
  std::vector<std::uint32_t> keys(5000, 1), values(5000, 2);
  expect_rejected_by("sort_pairs", [&] {
    sort_pairs(test_context(), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values),
               {.device_memory_limit = least_pairs - 1});
  }, {"at least " + std::to_string(least_pairs) + " bytes for keys of 4 bytes with values of 4 bytes"});
}

TEST(OptionRanges, DeviceMemoryLimitIsForHostSortsOnly) {
  expect_device_sorts_reject({.device_memory_limit = std::uint64_t(1) << 30},
                             {"SortOptions::device_memory_limit applies only to sorts of host memory"});
}

TEST(OptionRanges, HostThreadsAreBoundedAndForHostSortsOnly) {
  SortOptions too_many;
  too_many.host_threads = 65;
  expect_host_sorts_reject(too_many, {"SortOptions::host_threads must be 0 (automatic) or from 1 to 64", "(got 65)"});
  SortOptions some;
  some.host_threads = 3;
  expect_device_sorts_reject(some, {"SortOptions::host_threads applies only to sorts of host memory"});
}

// ---- options the algorithm does not read -----------------------------------------------------

struct FieldCase {
  const char* name;
  SortOptions (*set)(const std::string& algorithm);
  bool algo::OptionUse::*used;
};
// Each field set to a value that is valid wherever the field is read.
const FieldCase kFieldCases[] = {
    {"work_group_size", [](const std::string& a) { return SortOptions{.algorithm = a, .work_group_size = 1}; },
     &algo::OptionUse::work_group_size},
    {"items_per_thread", [](const std::string& a) { return SortOptions{.algorithm = a, .items_per_thread = 4}; },
     &algo::OptionUse::items_per_thread},
    {"local_variant", [](const std::string& a) { return SortOptions{.algorithm = a, .local_variant = "x"}; },
     &algo::OptionUse::local_variant},
    {"merge_variant", [](const std::string& a) { return SortOptions{.algorithm = a, .merge_variant = "x"}; },
     &algo::OptionUse::merge_variant},
    {"host_merge_levels", [](const std::string& a) { return SortOptions{.algorithm = a, .host_merge_levels = 1}; },
     &algo::OptionUse::host_merge_levels},
};

TEST(UnusedOptions, EveryAlgorithmRejectsTheFieldsItDoesNotRead) {
  int rejected = 0;
  for (const auto& a : algo::registry()) {
    for (const FieldCase& f : kFieldCases) {
      if (a.options.*f.used) continue;
      expect_rejected(f.set(a.name), {"SortOptions::" + std::string(f.name) + " is not used by algorithm '" + a.name + "'",
                                      "(it is used by: "});
      ++rejected;
    }
  }
  EXPECT_GE(rejected, 20);  // batcher-* read none of the five, radix no variants, ...
}

TEST(UnusedOptions, TheListOfUsersIsRight) {
  expect_rejected({.algorithm = "radix", .local_variant = "x"},
                  {"SortOptions::local_variant is not used by algorithm 'radix' (it is used by: bitonic, merge, rank)"});
  expect_rejected({.algorithm = "bitonic", .items_per_thread = 4},
                  {"(it is used by: merge, radix, rank, section-merge, hybrid)"});
  expect_rejected({.algorithm = "merge", .host_merge_levels = 2}, {"(it is used by: hybrid)"});
}

TEST(UnusedOptions, AutoRejectsAlgorithmSpecificOptions) {
  for (const char* automatic : {"auto", ""})
    for (const FieldCase& f : kFieldCases)
      expect_rejected(f.set(automatic), {"SortOptions::" + std::string(f.name) + " is algorithm-specific",
                                         "choose an algorithm with SortOptions::algorithm"});
}

TEST(UnusedOptions, CheckedBeforeChunking) {
  // A budget that makes the sort chunked: the check still comes first, nothing runs.
  auto keys = make_keys<std::uint32_t>(100000, dist::uniform, fresh_seed());
  const auto before = keys;
  SortOptions opt{.algorithm = "bitonic", .items_per_thread = 4};
  opt.device_memory_limit = detail::pipeline_bytes(20000, 4, 0);
  expect_rejected_by("chunked sort", [&] { sort(test_context(), std::span<std::uint32_t>(keys), opt); },
                     {"SortOptions::items_per_thread is not used by algorithm 'bitonic'"});
  EXPECT_EQ(keys, before);
}

}  // namespace
}  // namespace gpusort::test
