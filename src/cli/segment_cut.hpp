#pragma once
// How gpusort sort cuts one input into rows or segments that are each sorted (or, with -c, checked)
// on their own: along an axis of a .npy (--axis, or the last axis of an n-D file), into rows of
// --row-length keys, or at the offsets of --segments. The segments lie in the axis-last layout:
// where the axis is not the last, the keys are copied there first (AxisLastView).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "axis_transpose.hpp"
#include "commands.hpp"
#include "core/host_array.hpp"
#include "gpusort/segmented.hpp"

namespace gpusort::cli {

// A shape as "2x3x4", for messages.
std::string shape_text(const std::vector<std::size_t>& shape);

// The option that made the sort segmented, for messages ("--row-length", ..., or the n-D input).
std::string segment_option(const SortArgs& args);

// Error(invalid_argument) for options that exclude each other or make no sense with segments:
// --axis with --row-length or --segments, both of those, several inputs, -u (except with -c),
// --record-size, several devices, standard input named twice.
void check_segmented_arguments(const SortArgs& args);

struct SegmentCut {
  AxisSplit split;                     // rows: split.rows() rows of split.length (and the axis moved)
  std::vector<std::uint64_t> offsets;  // non-empty: segments by offsets (split is then one row of n)

  Segments segments() const {
    return offsets.empty() ? Segments::rows(split.rows(), split.length)
                           : Segments::offsets(std::span<const std::uint64_t>(offsets));
  }
  std::uint64_t count() const { return offsets.empty() ? split.rows() : offsets.size() - 1; }
  // fn(begin, end) for every segment, in order, in the axis-last layout.
  template <class Fn>
  void for_each(Fn&& fn) const {
    if (offsets.empty()) {
      for (std::size_t r = 0; r < split.rows(); ++r) fn(r * split.length, (r + 1) * split.length);
    } else {
      for (std::size_t s = 0; s + 1 < offsets.size(); ++s) fn(std::size_t(offsets[s]), std::size_t(offsets[s + 1]));
    }
  }
  // Where the element at `position` of the axis-last layout lies in the input.
  std::size_t input_position(std::size_t position) const;
};

// The cut args ask for, of the loaded input `keys` (any shape): --row-length (dividing the keys),
// --segments (segment_offsets.hpp), else along --axis of a .npy (default the last; Fortran order
// read as the reversed C-ordered array). Error(invalid_argument) naming the option otherwise.
SegmentCut cut_input(const SortArgs& args, const KeyFile& keys, FileFormat format);

// A host array of `bytes`; Error(out_of_memory) naming `what` where there is no room.
core::HostArray host_array(std::size_t bytes, const char* what);

// The elements of an array (in the input's layout) in the axis-last layout: a copy there when the
// axis is not the last, else the array itself; restore() puts the copy back.
class AxisLastView {
 public:
  AxisLastView(unsigned char* data, std::size_t n, std::size_t item_size, const AxisSplit& split);
  unsigned char* get() noexcept { return copy_ ? copy_.get() : data_; }
  void restore();

 private:
  unsigned char* data_;
  std::size_t n_, item_size_;
  AxisSplit split_;
  core::HostArray copy_;
};

}  // namespace gpusort::cli
