#pragma once
// Entry points of the algorithm drivers, one per file of this folder.
#include "algorithms/algorithm.hpp"

namespace gpusort::algo {

void bitonic_sort(SortJob& job);  // bitonic_sort.cpp
void merge_sort(SortJob& job);  // merge_sort.cpp
void radix_sort(SortJob& job);    // radix_sort.cpp
void rank_sort(SortJob& job);  // rank_sort.cpp
void odd_even_sort(SortJob& job);  // odd_even_sort.cpp
void naive_merge_sort(SortJob& job);  // naive_merge_sort.cpp
void section_merge_sort(SortJob& job);  // section_merge_sort.cpp
void hybrid_sort(SortJob& job);  // hybrid_sort.cpp
void batcher_recursive_sort(SortJob& job);  // batcher_sort.cpp
void batcher_iterative_sort(SortJob& job);  // batcher_sort.cpp

}  // namespace gpusort::algo
