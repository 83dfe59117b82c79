// The kernels of kernels/records.cl (record_kernels.hpp).
#include "algorithms/records/record_kernels.hpp"

#include <string>

#include "algorithms/algorithm.hpp"
#include "runtime/buffer_pool.hpp"

namespace gpusort::detail {
namespace {

constexpr std::uint32_t kPreferredGroupSize = 256;
// Records whose units one work-item of the gather loads before it stores them (records.cl's
// GATHER_BATCH): 8 measured 2.0 ms against 1.65 for 2^24 records of 100 bytes (H200, 2026-11-26).
constexpr std::uint32_t kGatherBatch = 4;
constexpr std::uint64_t kPassTableWords = 5;  // words per row of the pass table (RECORD_PASS_WORDS)

// How records.cl's records_make_keys makes a pass's key (its table's third word, RECORD_KEY_*).
std::uint64_t key_mode(const RecordPass& pass) {
  if (pass.word == complex128_word::high) return 2;
  if (pass.word == complex128_word::low) return 3;
  return pass.packed ? 1 : 0;
}

}  // namespace

std::uint64_t layout_pass_keys(std::uint64_t n, const std::vector<RecordPass>& passes, std::vector<std::uint64_t>& at) {
  std::uint64_t bytes = 0;
  at.clear();
  for (const RecordPass& pass : passes) {
    at.push_back(bytes);
    bytes += algo::ceil_div(n * key_size(pass.type), 256) * 256;
  }
  return bytes;
}

RecordKernels::RecordKernels(rt::Device& device, std::size_t index_bytes)
    : device_(device),
      program_(device.program("records.cl", {"RECORD_INDEX_BYTES=" + std::to_string(index_bytes),
                                             "GATHER_BATCH=" + std::to_string(kGatherBatch),
                                             "RECORD_PASS_WORDS=" + std::to_string(kPassTableWords)})),
      group_(algo::default_group_size(device, kPreferredGroupSize)) {}

rt::Launch RecordKernels::items(std::uint64_t n) const { return {algo::ceil_div(n, group_), group_, 0}; }

void RecordKernels::make_keys(rt::Buffer& records, std::uint64_t n, std::size_t rb, const std::vector<RecordPass>& passes,
                              const std::vector<std::uint64_t>& at, rt::Buffer& keys) {
  std::vector<std::uint64_t> table;
  table.reserve(passes.size() * kPassTableWords);
  for (std::size_t p = 0; p < passes.size(); ++p)
    table.insert(table.end(), {passes[p].offset, passes[p].bytes, key_mode(passes[p]), key_size(passes[p].type), at[p]});
  table_ = device_.temp_pool().get(table.size() * 8);
  device_.write(*table_, 0, table.data(), table.size() * 8);
  device_.launch(program_.kernel("records_make_keys"), items(n),
                 {records, n, std::uint64_t(rb), *table_, std::uint32_t(passes.size()), keys});
}

void RecordKernels::order_keys(rt::Buffer& all, std::uint64_t at, rt::Buffer& index, std::uint64_t n, key_type type,
                               rt::Buffer& keys) {
  device_.launch(program_.kernel("records_order_keys"), items(n),
                 {all, at, index, n, std::uint32_t(key_size(type)), keys});
}

void RecordKernels::addresses(rt::Buffer& records, std::uint64_t n, std::size_t rb, rt::Buffer& addresses) {
  device_.launch(program_.kernel("records_addresses"), items(n), {records, n, std::uint64_t(rb), addresses});
}

void RecordKernels::index_of_addresses(rt::Buffer& records, rt::Buffer& addresses, std::uint64_t n, std::size_t rb,
                                       rt::Buffer& index) {
  device_.launch(program_.kernel("records_index_of_addresses"), items(n),
                 {records, addresses, n, std::uint64_t(rb), index});
}

void RecordKernels::gather(rt::Buffer& in, rt::Buffer& out, std::uint64_t n, std::size_t rb, rt::Buffer& index) {
  const std::uint32_t unit = rb % 4 == 0 ? 4 : 1;
  const std::size_t units = rb / unit;
  std::uint32_t lanes_log2 = 0;
  while (lanes_log2 < 5 && (std::size_t(1) << lanes_log2) < units) ++lanes_log2;
  while (lanes_log2 > 0 && (std::uint32_t(1) << lanes_log2) > group_) --lanes_log2;  // a record within a group
  const std::uint64_t per_group = std::uint64_t(group_ >> lanes_log2) * kGatherBatch;
  const rt::Launch launch{algo::ceil_div(n, per_group), group_, 0};
  device_.launch(program_.kernel("records_gather"), launch, {in, out, n, std::uint64_t(rb), index, unit, lanes_log2});
}

}  // namespace gpusort::detail
