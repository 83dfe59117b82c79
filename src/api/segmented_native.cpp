// The segmented entry points of the caller's memory and stream or queue (gpusort/segmented.hpp):
// the native sort's machinery (api/native_enqueue.hpp) with the plan's bin in place of the 1-D
// algorithm, and the offsets checked (host) or wrapped (device) before anything is enqueued.
#include "algorithms/segmented/segmented_sort.hpp"
#include "api/native_enqueue.hpp"
#include "api/segmented_request.hpp"
#include "gpusort/segmented.hpp"

namespace gpusort {
namespace {

Completion enqueue_segments(Context& ctx, const SortRequest& request, const NativeView& keys_in,
                            const NativeView& keys_out, const std::optional<NativeView>& values_in,
                            const std::optional<NativeView>& values_out, const Segments& segments,
                            const NativeQueue& queue) {
  detail::check_segments_given(segments, request.n);
  detail::DeviceSegments on_device;
  algo::SegmentedBin ran = algo::SegmentedBin::portable;
  detail::NativeSortSteps steps;
  steps.prepare = [&](const algo::Plan& plan, rt::Device& device) {
    on_device = detail::device_segments(device, segments, plan.request);
  };
  steps.run = [&](const algo::Plan& plan, algo::SortJob& job) {
    algo::SegmentedJob segmented{job, on_device.shape};
    algo::RunEvents events = algo::run_segmented(plan, segmented);
    ran = segmented.ran;
    return events;
  };
  steps.name_after_run = [&](const algo::Plan& plan) { return algo::segmented_report_name(plan, ran); };
  return detail::enqueue_native(ctx, detail::segmented_request(segments, request), keys_in, keys_out, values_in,
                                values_out, queue, nullptr, steps);
}

}  // namespace

Completion sort_segments_native_async(Context& ctx, key_type type, const NativeView& keys_in,
                                      const NativeView& keys_out, std::size_t n,
                                      const std::optional<NativeView>& values_in,
                                      const std::optional<NativeView>& values_out, std::size_t value_bytes,
                                      const Segments& segments, const NativeQueue& queue,
                                      const SortOptions& options) {
  return enqueue_segments(ctx, {.type = type, .n = n, .value_bytes = value_bytes, .options = options}, keys_in,
                          keys_out, values_in, values_out, segments, queue);
}

SortReport sort_segments_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                std::size_t n, const std::optional<NativeView>& values_in,
                                const std::optional<NativeView>& values_out, std::size_t value_bytes,
                                const Segments& segments, const NativeQueue& queue, const SortOptions& options) {
  return detail::wait_and_report(ctx,
                                 sort_segments_native_async(ctx, type, keys_in, keys_out, n, values_in, values_out,
                                                            value_bytes, segments, queue, options),
                                 options);
}

Completion argsort_segments_native_async(Context& ctx, key_type type, const NativeView& keys_in,
                                         const NativeView& keys_out, std::size_t n, const NativeView& indices,
                                         std::size_t index_bytes, const Segments& segments, const NativeQueue& queue,
                                         const SortOptions& options) {
  return enqueue_segments(
      ctx, {.type = type, .n = n, .value_bytes = index_bytes, .positions = true, .options = options}, keys_in,
      keys_out, indices, indices, segments, queue);
}

SortReport argsort_segments_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                   std::size_t n, const NativeView& indices, std::size_t index_bytes,
                                   const Segments& segments, const NativeQueue& queue, const SortOptions& options) {
  return detail::wait_and_report(ctx,
                                 argsort_segments_native_async(ctx, type, keys_in, keys_out, n, indices, index_bytes,
                                                               segments, queue, options),
                                 options);
}

}  // namespace gpusort
