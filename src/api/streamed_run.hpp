#pragma once
// gpusort::sort_streamed once planned: the file sorts (gpusort/sort_file.hpp) plan a streamed
// sort once and hand the plan down, to be taken as it is.
#include "algorithms/planner.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/streamed.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// Sorts what `arrays` reads as `plan` (a host plan of these n elements on `device`) says.
// Error(out_of_memory) when the plan is partitioned: a streamed sort runs in one piece.
SortReport sort_streamed_with(rt::Device& device, const algo::Plan& plan, const StreamedArrays& arrays);

}  // namespace gpusort::detail
