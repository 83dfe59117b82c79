#pragma once
// gpusort sort of many rows at once: an n-D .npy input along --axis (default the last), or a raw
// (or 1-D .npy) input cut into rows of --row-length N keys or into the segments of --segments
// OFFSETS, each row or segment sorted on its own by the library's segmented sort
// (gpusort/segmented.hpp). The input is read whole into host memory; an axis other than the last
// is made the last by a copy on the host and moved back after the sort. Outputs keep the input's
// shape; --indices-out writes indices local to each row or segment (numpy's argsort(axis=...)).
#include "commands.hpp"

namespace gpusort::cli {

// Whether `args` ask for a segmented sort: --axis, --row-length or --segments is given, or the one
// input is a regular .npy file of two or more dimensions (its header is read to find out; an n-D
// .npy on standard input needs --axis).
bool is_segmented_sort(const SortArgs& args);

// Reads, sorts and writes (outputs committed together); returns the exit status.
// Error(invalid_argument) for options that exclude each other or make no sense with segments
// (several inputs, -u, --record-size, several devices), a row length that does not divide the
// keys, bad offsets (segment_offsets.hpp), an --axis out of range, and values of another count or
// shape; Error(unsupported) where -S is smaller than the input, which is read whole. Nothing is
// written on any error.
int run_segmented_sort(const SortArgs& args, const SortOptions& options);

// -c (and -C) of such a cut (segmented_check.cpp): exit status 0 if every row or segment is in
// order (-r; with -u, no equal neighbours), else 1 with "gpusort: FILE:INDEX: disorder: KEY (after
// PREVIOUS)" on stderr, INDEX the key's position in the file (counted in its memory order). Disorder
// between one segment and the next is none. No device is used; the input is read whole.
int run_segmented_check(const SortArgs& args);

}  // namespace gpusort::cli
