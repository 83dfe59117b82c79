#pragma once
// gpusort sort -c / -C: whether the inputs (concatenated, in the order given) are already in the
// order the sort would put them in, as GNU sort -c tells for lines. Exit status 0 if they are;
// else 1, and -c names the first key out of order on standard error
// ("gpusort: FILE:INDEX: disorder: KEY (after PREVIOUS)", INDEX counted from 0 within FILE).
// With -u, equal neighbours are out of order too. Nothing is sorted or written, and no device is
// used: regular files are read a block at a time, standard input and pipes whole.
#include "commands.hpp"

namespace gpusort::cli {

int run_sort_check(const SortArgs& args);

}  // namespace gpusort::cli
