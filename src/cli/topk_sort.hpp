#pragma once
// gpusort sort IN -o OUT --top K: the K smallest keys (-r: largest) of the input, or of each row
// (--row-length N for a raw or 1-D input; an n-D .npy input along --axis, default the last), in
// order, through the library's top-k (gpusort/topk.hpp); --indices-out writes their int64 positions
// (within the row). The input is read whole; outputs keep a .npy input's shape with the axis's
// length K (raw: K per row, one after the other).
// gpusort sort IN -o OUT --partition KTH: the same rows, each partitioned as numpy.partition does
// around its key of rank KTH (gpusort/partition.hpp; negative from the row's end); --indices-out
// writes argpartition's int64 positions. The outputs keep the input's shape.
#include "commands.hpp"

namespace gpusort::cli {

// Reads, selects and writes (outputs committed together); returns the exit status. Error
// (invalid_argument) for options a top-k or partition does not take (-c, -u, --values, --segments,
// several inputs or devices, --record-size, --comparator, a Fortran-ordered .npy; -r with
// --partition), K past the row length and KTH outside it; nothing is written on any error.
int run_topk_sort(const SortArgs& args);

}  // namespace gpusort::cli
