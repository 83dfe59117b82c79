#pragma once
// The kernels of kernels/records.cl as the record sorts (record_sort.hpp) and the segmented sort of
// complex128 keys (algorithms/segmented/segmented_complex128.hpp) call them: each pass's keys made
// from the records, a pass's keys put in the current index order, the records gathered by an index.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/records/record_passes.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// Where each pass's keys, made in record order, lie in one buffer: pass 0's at byte 0 (its array
// is then sorted where it lies), each array starting 256-aligned. Returns the buffer's size.
std::uint64_t layout_pass_keys(std::uint64_t n, const std::vector<RecordPass>& passes, std::vector<std::uint64_t>& at);

class RecordKernels {
 public:
  // index_bytes: the record index's width (4 or 8), which every kernel taking an index reads.
  RecordKernels(rt::Device& device, std::size_t index_bytes);

  // Every pass's keys in record order, into `keys` at the byte positions `at`.
  void make_keys(rt::Buffer& records, std::uint64_t n, std::size_t rb, const std::vector<RecordPass>& passes,
                 const std::vector<std::uint64_t>& at, rt::Buffer& keys);
  // keys[i] = the pass's key (at byte `at` of `all`) of record index[i].
  void order_keys(rt::Buffer& all, std::uint64_t at, rt::Buffer& index, std::uint64_t n, key_type type,
                  rt::Buffer& keys);
  // addresses[i] = the device address of record i (a comparator's keys).
  void addresses(rt::Buffer& records, std::uint64_t n, std::size_t rb, rt::Buffer& addresses);
  void index_of_addresses(rt::Buffer& records, rt::Buffer& addresses, std::uint64_t n, std::size_t rb,
                          rt::Buffer& index);
  // out[i] = in[index[i]], records of rb bytes (in and out apart).
  void gather(rt::Buffer& in, rt::Buffer& out, std::uint64_t n, std::size_t rb, rt::Buffer& index);

 private:
  rt::Launch items(std::uint64_t n) const;
  rt::Device& device_;
  rt::Program& program_;
  std::uint32_t group_;
  rt::BufferPtr table_;
};

}  // namespace gpusort::detail
