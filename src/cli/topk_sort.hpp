#pragma once
// gpusort sort IN -o OUT --top K: the K smallest keys (-r: largest) of the input, or of each row
// (--row-length N for a raw or 1-D input; an n-D .npy input along --axis, default the last), in
// order, through the library's top-k (gpusort/topk.hpp); --indices-out writes their int64 positions
// (within the row). The input is read whole; outputs keep a .npy input's shape with the axis's
// length K (raw: K per row, one after the other).
#include "commands.hpp"

namespace gpusort::cli {

// Reads, selects and writes (outputs committed together); returns the exit status. Error
// (invalid_argument) for options a top-k does not take (-c, -u, --values, --segments, several
// inputs or devices, --record-size, --comparator, a Fortran-ordered .npy) and K past the row length;
// nothing is written on any error.
int run_topk_sort(const SortArgs& args);

}  // namespace gpusort::cli
