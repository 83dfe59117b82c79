#pragma once
// 0, 1, ..., n-1 written on the device (kernels/positions.cl): argsort's values before the sort
// (algo::run, or radix_sort on its paths other than the CUDA one-launch kernels, which make them
// themselves) and the records' index (src/algorithms/records/record_sort.cpp).
#include <cstddef>
#include <cstdint>

#include "runtime/device.hpp"

namespace gpusort::algo {

// `out` holds n elements of `position_bytes` (4 or 8) bytes; enqueued on the device's default queue.
void fill_positions(rt::Device& device, rt::Buffer& out, std::uint64_t n, std::size_t position_bytes);

// out[i] = in[i] for i < n: 4-byte positions (or any u32) widened to 8 bytes, on the default queue.
void widen_positions(rt::Device& device, rt::Buffer& in, rt::Buffer& out, std::uint64_t n);

}  // namespace gpusort::algo
