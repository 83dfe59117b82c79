#pragma once
// Sorting an n-D array along an axis that is not the last: the array is seen as (outer, length,
// inner), with `length` the axis and `inner` the elements after it, and copied on the host so the
// axis becomes the last (rows of `length` consecutive elements, outer * inner of them), then
// copied back the same way once sorted.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusort::cli {

struct AxisSplit {
  std::size_t outer = 1;   // elements before the axis, multiplied out
  std::size_t length = 1;  // the axis itself
  std::size_t inner = 1;   // elements after the axis, multiplied out (1: the axis is the last)
  std::size_t rows() const noexcept { return outer * inner; }
};

// --axis TEXT for an array of `dims` dimensions: -dims .. dims - 1 (negative counts from the end, as
// numpy's), as 0 .. dims - 1. Error(invalid_argument) naming the valid range otherwise.
std::size_t parse_axis_arg(const std::string& text, std::size_t dims);

// A C-ordered array of `shape` seen around `axis`.
AxisSplit split_at_axis(const std::vector<std::size_t>& shape, std::size_t axis);

// dst[o][i][k] = src[o][k][i] for items of item_size bytes: the axis made the last.
void move_axis_last(const void* src, void* dst, const AxisSplit& split, std::size_t item_size);
// The inverse: dst[o][k][i] = src[o][i][k].
void move_last_axis_back(const void* src, void* dst, const AxisSplit& split, std::size_t item_size);

}  // namespace gpusort::cli
