#pragma once
// Entry points of the algorithm drivers, one per file of this folder.
#include "algorithms/algorithm.hpp"

namespace gpusort::algo {

void bitonic_sort(SortJob& job);  // bitonic_sort.cpp
void merge_sort(SortJob& job);  // merge_sort.cpp

}  // namespace gpusort::algo
