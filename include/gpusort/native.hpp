#pragma once
// Sorting memory the caller owns, in order with the caller's own CUDA stream or OpenCL queue.
//
// The caller keeps its data where it already is (a cudaMalloc'd / cuMemAlloc'd / torch / cupy
// pointer, or an OpenCL cl_mem) and names the stream or queue its surrounding work runs on:
//
//   float* d_keys;  cudaMalloc(&d_keys, n * sizeof(float));   // filled by the caller's kernels
//   gpusort::Context ctx("cuda:0");
//   gpusort::sort_native<float>(ctx, {d_keys}, {d_keys}, n, gpusort::CudaStream{stream});
//
// Ordering (docs/DESIGN-NOTES.md, "Caller's streams and queues"): gpusort's own queue waits for
// what was enqueued on the caller's stream before the call, the sort runs on gpusort's queue, and
// the caller's stream then waits for the sort. Work the caller enqueues afterwards on that stream
// therefore sees sorted data, with no device-wide synchronisation (no cuCtxSynchronize, clFinish
// or cudaDeviceSynchronize) on either side. The sync forms return once the sort is done, waiting
// on the sort's own event only; the *_async forms return a Completion at once.
//
// Handles are plain void* / integers so this header needs neither cuda.h nor CL/cl.h: a cl_mem,
// cl_command_queue, CUstream or cudaStream_t converts to void* implicitly.
//
// Requirements:
//  - CUDA: the memory is device memory of the Context's device, usable from its primary context
//    (what the CUDA runtime, PyTorch and CuPy use), aligned to the element size; the stream belongs
//    to that primary context. A pointer the driver places on another device is refused.
//  - OpenCL: the cl_mem and the queue belong to the Context's cl_context, which is why such a
//    Context is made from the caller's OpenCL objects (Context::from_opencl). A nonzero offset
//    must be a multiple of the device's base address alignment (CL_DEVICE_MEM_BASE_ADDR_ALIGN,
//    in bytes; the error names it).
//  - In and out views may be the same (the sort is then in place) or must not overlap.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "gpusort/argsort.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

namespace rt {
class Event;
class Buffer;
}  // namespace rt

// Device memory of the CUDA backend: a CUdeviceptr, or a T* from cudaMalloc / torch / cupy.
struct CudaView {
  std::uintptr_t ptr = 0;
  CudaView() = default;
  CudaView(std::uintptr_t address) : ptr(address) {}  // NOLINT: implicit, {d_ptr} reads naturally
  template <class T>
  CudaView(T* p) : ptr(reinterpret_cast<std::uintptr_t>(p)) {}  // NOLINT
};

// A CUstream or cudaStream_t; nullptr is the legacy default stream.
struct CudaStream {
  void* stream = nullptr;
};

// An OpenCL buffer (cl_mem) and where in it the elements start.
struct OpenCLView {
  void* mem = nullptr;
  std::size_t offset_bytes = 0;
};

// A cl_command_queue of the Context's cl_context; in-order or out-of-order both work.
struct OpenCLQueue {
  void* queue = nullptr;
};

using NativeView = std::variant<CudaView, OpenCLView>;
using NativeQueue = std::variant<CudaStream, OpenCLQueue>;

// The end of an asynchronous native sort. The caller's stream or queue is already ordered after
// the sort, so work enqueued there needs nothing from this object; wait() is for the host.
// Dropping a Completion does not wait and does not cancel anything.
class Completion {
 public:
  struct State;  // the sort's final event and what must outlive it; defined by the library

  Completion();
  Completion(std::unique_ptr<State> state, std::string algorithm);
  ~Completion();
  Completion(Completion&&) noexcept;
  Completion& operator=(Completion&&) noexcept;
  // Blocks the calling thread until the sort has finished on the device (this sort's event only).
  void wait();
  const std::string& algorithm() const noexcept { return algorithm_; }
  const State* state() const noexcept { return state_.get(); }  // null when nothing was enqueued

 private:
  std::unique_ptr<State> state_;
  std::string algorithm_;
};

// Caller-supplied temporary storage for a native sort (CUB style): `bytes` bytes at `view`, at least
// gpusort::temporary_storage_bytes(ctx, type, n, value_bytes, options) (gpusort/device_array.hpp),
// of the Context's backend (a CUDA address 256-byte aligned, an OpenCL offset at the device's base
// alignment), apart from the keys and values, and untouched by anything else until the sort is
// done. The sort then allocates no device memory. Without it, temporaries come from a per-device
// pool of reusable buffers, which allocates and frees those above 64 MiB once per sort (a 2^28-key
// sort pays about a millisecond for that on an H200): callers with their own memory pool (PyTorch,
// CuPy) lend from it instead. Overlap is found within one CUDA address space, and within one
// OpenCL buffer and its sub-buffers. On NVIDIA's OpenCL, kernels run on views of one allocation 25-55x slower (as for sort_device's
// caller storage, gpusort/device_array.hpp): lend temporaries there only if measured.
struct NativeTemporaries {
  NativeView view;
  std::size_t bytes = 0;
};

// Type-erased entry points. keys_in and keys_out hold n keys of `type`; values_in/values_out hold
// n values of value_bytes each (both set with value_bytes != 0, or neither with 0). The views and
// the queue must all be of the Context's backend.
//  - in == out (same pointer, or same cl_mem and offset): sorted in place.
//  - otherwise keys_in (and values_in) are only read, never modified. Radix reads the keys where
//    they lie (its first pass writes the output or a temporary, as CUB's DeviceRadixSort does),
//    with the values out of place or in place, and so do its one-launch sorts of small n on CUDA;
//    other algorithms, radix's single work-group sort (small n on other devices, and on CUDA when
//    work_group_size or items_per_thread is set), radix with values in place and an odd number of
//    passes, and keys whose every digit is constant first copy the input to the output on the
//    device (and sort the output in place).
//    Radix above 2^22 keys may also copy its result back from a temporary where digits it planned
//    to sort by turn out constant. Any such copy counts in the sort's device time
//    (SortReport::sort_ms).
// Keys and values must not overlap (an output meeting the other array's input or output is
// refused; the two inputs may share memory).
// Errors (Error) are thrown before anything is enqueued when the arguments are wrong; a device
// error while enqueueing still leaves the caller's queue ordered after what was enqueued.
Completion sort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                             std::size_t n, const std::optional<NativeView>& values_in,
                             const std::optional<NativeView>& values_out, std::size_t value_bytes,
                             const NativeQueue& queue, const SortOptions& options = {});
// As sort_native_async, then waits for the sort's own event. sort_ms is the device time of the
// sort (with any kernel compilation of a first use, see SortReport).
SortReport sort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                       std::size_t n, const std::optional<NativeView>& values_in,
                       const std::optional<NativeView>& values_out, std::size_t value_bytes, const NativeQueue& queue,
                       const SortOptions& options = {});
// The same with the caller's temporary storage (NativeTemporaries above); Error(invalid_argument)
// before anything is enqueued when it is too small, misaligned, of another backend or overlaps the
// keys or values, and Error(unsupported) for an algorithm that does not report its needs.
Completion sort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                             std::size_t n, const std::optional<NativeView>& values_in,
                             const std::optional<NativeView>& values_out, std::size_t value_bytes,
                             const NativeQueue& queue, const SortOptions& options, const NativeTemporaries& temporaries);
SortReport sort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                       std::size_t n, const std::optional<NativeView>& values_in,
                       const std::optional<NativeView>& values_out, std::size_t value_bytes, const NativeQueue& queue,
                       const SortOptions& options, const NativeTemporaries& temporaries);

// argsort of device memory: `indices` (n elements of index_bytes, 4 or 8) receives the positions
// 0..n-1 permuted as the sort permutes the keys, keys_in[indices[0]] <= keys_in[indices[1]] <= ...
// (stable unless the options say otherwise), and keys_out the sorted keys (keys_out == keys_in sorts
// the keys in place; otherwise keys_in is only read). The positions are made on the device, after
// the caller's queue's earlier work: the caller fills nothing. As sort_native otherwise, with the
// indices as values sorted in place (an arange of the caller's own, sorted by sort_native, gives the
// same result at one fill more). 4-byte indices need n <= 2^32. On an error before anything is
// enqueued, nothing is written. Caller temporaries (the overloads with NativeTemporaries) need at
// least temporary_storage_bytes(ctx, type, n, index_bytes, options) with the same options.
Completion argsort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                std::size_t n, const NativeView& indices, std::size_t index_bytes,
                                const NativeQueue& queue, const SortOptions& options = argsort_options());
SortReport argsort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                          std::size_t n, const NativeView& indices, std::size_t index_bytes, const NativeQueue& queue,
                          const SortOptions& options = argsort_options());
Completion argsort_native_async(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                std::size_t n, const NativeView& indices, std::size_t index_bytes,
                                const NativeQueue& queue, const SortOptions& options,
                                const NativeTemporaries& temporaries);
SortReport argsort_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                          std::size_t n, const NativeView& indices, std::size_t index_bytes, const NativeQueue& queue,
                          const SortOptions& options, const NativeTemporaries& temporaries);

// Typed forms. View and Queue are CudaView/CudaStream or OpenCLView/OpenCLQueue.
template <sortable_key K, class View, class Queue>
SortReport sort_native(Context& ctx, const View& keys_in, const View& keys_out, std::size_t n, const Queue& queue,
                       const SortOptions& options = {}) {
  return sort_native(ctx, key_type_of<K>::value, keys_in, keys_out, n, std::nullopt, std::nullopt, 0, queue, options);
}
template <sortable_key K, class View, class Queue>
Completion sort_native_async(Context& ctx, const View& keys_in, const View& keys_out, std::size_t n,
                             const Queue& queue, const SortOptions& options = {}) {
  return sort_native_async(ctx, key_type_of<K>::value, keys_in, keys_out, n, std::nullopt, std::nullopt, 0, queue,
                           options);
}
template <sortable_key K, class V, class View, class Queue>
SortReport sort_pairs_native(Context& ctx, const View& keys_in, const View& keys_out, const View& values_in,
                             const View& values_out, std::size_t n, const Queue& queue,
                             const SortOptions& options = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "values are moved as bytes");
  return sort_native(ctx, key_type_of<K>::value, keys_in, keys_out, n, values_in, values_out, sizeof(V), queue,
                     options);
}
template <sortable_key K, class V, class View, class Queue>
Completion sort_pairs_native_async(Context& ctx, const View& keys_in, const View& keys_out, const View& values_in,
                                   const View& values_out, std::size_t n, const Queue& queue,
                                   const SortOptions& options = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "values are moved as bytes");
  return sort_native_async(ctx, key_type_of<K>::value, keys_in, keys_out, n, values_in, values_out, sizeof(V), queue,
                           options);
}

}  // namespace gpusort
