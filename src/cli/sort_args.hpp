#pragma once
// gpusort sort's arguments resolved before any work: several inputs and their values files, where
// the keys go when -o is absent, and the options that exclude each other (--check, -u,
// --indices-out, several inputs, records).
#include <cstdint>

#include "commands.hpp"

namespace gpusort::cli {

// The arguments with `input` and `values` set to the first of their lists and `output` "-" where
// -o is absent (left empty where --indices-out is given: an argsort writes the indices alone).
// Error(invalid_argument) for options that exclude each other, a --values count that does not
// match the inputs, standard input named twice, or binary keys bound for a terminal because -o
// was left out (`-o -` writes them there all the same).
SortArgs resolve_sort_args(const SortArgs& given);

// Whether the sort reads every input whole into host memory (several inputs, -u, --indices-out):
// such sorts take neither the streamed nor the external path.
bool reads_inputs_whole(const SortArgs& args);

// Error(unsupported) where reads_inputs_whole holds and the regular input files (keys and values)
// add up to more than memory_limit bytes. Standard input and pipes count as nothing, as elsewhere.
void check_whole_inputs_fit(const SortArgs& args, std::uint64_t memory_limit);

}  // namespace gpusort::cli
