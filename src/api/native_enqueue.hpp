#pragma once
// A sort of the caller's memory on the caller's stream or queue (gpusort/native.hpp), as the
// native entry points share it: the request planned once, the views checked and wrapped, gpusort's
// queue after the caller's, the sort, the caller's queue after the sort. The 1-D sorts
// (api/sort_native.cpp) run the plan's algorithm; the segmented ones (api/segmented_native.cpp)
// their bin, through NativeSortSteps.
#include <functional>
#include <optional>
#include <string>

#include "algorithms/planner.hpp"
#include "gpusort/native.hpp"
#include "runtime/device.hpp"

namespace gpusort {

// What a native entry point's Completion holds (every native sort and the top-k make one).
struct Completion::State {
  std::shared_ptr<rt::Device> device;
  std::unique_ptr<rt::Event> start;
  std::unique_ptr<rt::Event> done;
  std::uint64_t compiled = 0;
};

}  // namespace gpusort

namespace gpusort::detail {

// What a caller of enqueue_native adds to the 1-D sort (each may be empty):
//  - prepare: after the plan and the views' checks, before anything is enqueued (a failure then
//    costs nothing): what the sort needs beyond the views (a segmented sort's offsets);
//  - run: the sort itself in place of algo::run(*plan.algorithm, job).
struct NativeSortSteps {
  std::function<void(const algo::Plan& plan, rt::Device& device)> prepare;
  std::function<algo::RunEvents(const algo::Plan& plan, algo::SortJob& job)> run;
  // The Completion's algorithm once run has returned, where it differs from the plan's (a
  // segmented bin decided on the device); unset: the plan's name.
  std::function<std::string(const algo::Plan& plan)> name_after_run;
};

// request: type, n, value_bytes, positions (the values in place are then made by the sort),
// options and any segments; `where` is set to caller memory here.
Completion enqueue_native(Context& ctx, SortRequest request, const NativeView& keys_in, const NativeView& keys_out,
                          const std::optional<NativeView>& values_in, const std::optional<NativeView>& values_out,
                          const NativeQueue& queue, const NativeTemporaries* temporaries,
                          const NativeSortSteps& steps = {});

// Enqueues `work` on device's queue after what the caller's queue holds, and the caller's queue
// after it: the Completion named `name` (read once work has returned) carries work's events. Should work throw, the caller's queue
// still waits for whatever it enqueued (it may touch the caller's memory), and the error goes on.
Completion enqueue_after_caller(const std::shared_ptr<rt::Device>& device, const NativeQueue& queue,
                                const std::function<algo::RunEvents()>& work, const std::string& name);

// The sync forms: waits for `done` and reports its device time.
SortReport wait_and_report(Context& ctx, Completion done, const SortOptions& options);

}  // namespace gpusort::detail
