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

// Algorithm::check_variants of the drivers with variants (next to each driver).
void bitonic_check_variants(const SortOptions& options);
void merge_check_variants(const SortOptions& options);
void rank_check_variants(const SortOptions& options);
void hybrid_check_variants(const SortOptions& options);

// Algorithm::temp_bytes of the drivers that ask for temporaries (next to each driver).
std::uint64_t merge_temp_bytes(const TempQuery& q);
std::uint64_t radix_temp_bytes(const TempQuery& q);
// radix_single_group.cpp: one work-group sorts small inputs in local memory (radix_policy.cpp chooses it).
bool radix_single_group_fits(const SortJob& job);
void radix_single_group_sort(SortJob& job);
std::uint64_t radix_single_group_capacity(const rt::Device& dev, key_type type, std::size_t value_bytes,
                                          const SortOptions& options);  // largest n it takes (0: none)
std::uint64_t rank_temp_bytes(const TempQuery& q);
std::uint64_t naive_merge_temp_bytes(const TempQuery& q);
std::uint64_t section_merge_temp_bytes(const TempQuery& q);
std::uint64_t hybrid_temp_bytes(const TempQuery& q);
// Algorithm::plan_steps: what the drivers with tuning will run, in words (gpusort plan).
std::vector<std::string> radix_plan_steps(const TempQuery& q);  // radix_sort.cpp
std::vector<std::string> merge_plan_steps(const TempQuery& q);  // merge_sort.cpp
// Drivers with no device temporaries.
inline std::uint64_t no_temp_bytes(const TempQuery&) { return 0; }

}  // namespace gpusort::algo
