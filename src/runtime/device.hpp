#pragma once
// The backend interface: what an algorithm driver may ask of a device. One implementation per
// backend (opencl/, cuda/). Nothing here assumes one device per process; every call names its
// device object, and work goes to a Queue (the device's default one unless given).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gpusort/device.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/native.hpp"

namespace gpusort::rt {

// Buffers are made by std::make_shared (or alias such a buffer), so a view of one (sub_buffer) can
// keep its parent alive through weak_from_this().
class Buffer : public std::enable_shared_from_this<Buffer> {
 public:
  virtual ~Buffer() = default;
  virtual std::size_t bytes() const = 0;
  // The largest power of two, up to 256, that divides the buffer's device address: kernels that store
  // words wider than an element ask (radix's packed pairs, 8 bytes). A view of the caller's CUDA
  // memory may be aligned to its element size only; allocations and views elsewhere keep the default.
  virtual std::size_t address_alignment() const { return 256; }
};
using BufferPtr = std::shared_ptr<Buffer>;

// Host memory the device can copy from/to asynchronously (pinned where the backend can).
class HostBuffer {
 public:
  virtual ~HostBuffer() = default;
  virtual void* data() = 0;
  virtual std::size_t bytes() const = 0;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual const std::string& name() const = 0;
};

class Program {
 public:
  virtual ~Program() = default;
  // Throws Error(device_error) if the program has no kernel of that name.
  virtual Kernel& kernel(const std::string& name) = 0;
};

class Queue {
 public:
  virtual ~Queue() = default;
  virtual void finish() = 0;
};

// A point in a queue's timeline; elapsed time between two recorded events is device time.
class Event {
 public:
  virtual ~Event() = default;
  virtual void wait() = 0;
  virtual double elapsed_ms_since(Event& start) = 0;
};

// One kernel argument: a buffer or a plain scalar (copied by value).
struct Arg {
  Buffer* buffer = nullptr;
  unsigned char scalar[16] = {};
  std::size_t scalar_size = 0;

  Arg(Buffer& b) : buffer(&b) {}  // NOLINT: implicit on purpose, args read like a call
  Arg(const BufferPtr& b) : buffer(b.get()) {}
  template <class T>
    requires(std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> && sizeof(T) <= 16)
  Arg(const T& v) : scalar_size(sizeof(T)) {
    std::memcpy(scalar, &v, sizeof(T));
  }
};

// Whether kernels run at full speed on sub_buffer views. On CUDA a view is a plain pointer; on
// NVIDIA's OpenCL kernels ran on sub-buffers 25-55x slower (H200, 2026-11-26, docs/DESIGN-NOTES.md),
// and no other OpenCL device has been measured. Callers free to choose (the distributed sort's
// temporaries, the benchmark's) carve one allocation into views only where this holds.
inline bool views_at_full_speed(const DeviceDescription& d) { return d.backend == "cuda"; }

// An NVIDIA GPU, through CUDA or NVIDIA's OpenCL: warps of 32 that vote, inline PTX, CUDA's compiler options.
inline bool nvidia_gpu(const DeviceDescription& d) { return d.is_gpu && d.vendor.find("NVIDIA") != std::string::npos; }

class BufferPool;  // runtime/buffer_pool.hpp
class PinnedPool;  // runtime/pinned_pool.hpp

struct Launch {
  std::uint64_t groups = 1;      // number of work-groups (CUDA blocks), 1-D
  std::uint32_t group_size = 1;  // work-items per group
  std::size_t local_bytes = 0;   // dynamic local/shared memory (the kernel's GS_DYNAMIC_LOCAL parameter)
  // CUDA on compute capability 9.0+: the launch may start its blocks while the previous kernel on the
  // queue finishes, once every block of that kernel has passed GS_ALLOW_NEXT_GRID (programmatic
  // dependent launch). The kernel must pass GS_WAIT_PREVIOUS_GRID (kernels/prelude.h) before it
  // touches memory that earlier work wrote. Elsewhere an ordinary launch.
  bool overlap_previous = false;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceDescription& description() const = 0;

  // Build (or fetch from the memory and disk caches) the program made of one kernel file under
  // kernels/ with these -D definitions ("NAME=VALUE" or "NAME"). GS_MAX_REGISTERS=N also caps a
  // work-item's registers where the compiler takes a cap (NVIDIA's OpenCL: -cl-nv-maxrregcount; CUDA
  // kernels state theirs with __launch_bounds__). Throws Error(build_error) with the compiler log on failure.
  virtual Program& program(const std::string& kernel_file, const std::vector<std::string>& defines) = 0;

  // Allocations throw Error(out_of_memory) when the device cannot provide them.
  virtual BufferPtr alloc(std::size_t bytes) = 0;
  virtual std::unique_ptr<HostBuffer> alloc_host(std::size_t bytes) = 0;
  // A view of bytes [offset, offset + bytes) of parent (a buffer of this device, or a view of one:
  // then a view of the same memory), usable wherever a buffer is; it keeps parent alive. offset must be a multiple of 4096
  // (OpenCL: of the device's base address alignment; 4096 satisfies every device seen); bytes > 0.
  // Throws Error(invalid_argument) for a range outside parent or a misaligned offset.
  virtual BufferPtr sub_buffer(Buffer& parent, std::size_t offset, std::size_t bytes) = 0;
  // Reusable temporaries of this device (runtime/buffer_pool.hpp), made on first use.
  BufferPool& temp_pool();
  // Pinned host staging slots of this device (runtime/pinned_pool.hpp), made on first use.
  PinnedPool& pinned_pool();

  virtual Queue& default_queue() = 0;
  virtual std::unique_ptr<Queue> create_queue() = 0;

  // Copies. Blocking unless async is set; an async copy from host memory must use a HostBuffer or
  // memory that stays alive and untouched until the queue finishes.
  virtual void write(Buffer& dst, std::size_t offset, const void* src, std::size_t bytes, Queue* q = nullptr,
                     bool async = false) = 0;
  virtual void read(const Buffer& src, std::size_t offset, void* dst, std::size_t bytes, Queue* q = nullptr,
                    bool async = false) = 0;
  virtual void copy(const Buffer& src, std::size_t src_offset, Buffer& dst, std::size_t dst_offset,
                    std::size_t bytes, Queue* q = nullptr) = 0;
  virtual void fill_bytes(Buffer& dst, unsigned char value, std::size_t offset, std::size_t bytes,
                          Queue* q = nullptr) = 0;

  virtual void launch(Kernel& kernel, const Launch& launch, const std::vector<Arg>& args, Queue* q = nullptr) = 0;
  virtual std::unique_ptr<Event> record(Queue* q = nullptr) = 0;
  virtual void finish(Queue* q = nullptr) = 0;

  // ---- memory and queues the caller owns (gpusort/native.hpp) ----
  // A buffer over `bytes` bytes of the caller's memory (view's offset included) that never frees
  // it. Throws Error(invalid_argument) for a view of another backend, of another device or
  // context, a range past the memory's end, or (OpenCL) an offset the device cannot start a
  // sub-buffer at.
  virtual BufferPtr wrap(const NativeView& view, std::size_t bytes) = 0;
  // Where a view of the caller's memory starts, as (root allocation, byte offset in it), so that
  // views overlap only where these ranges do: CUDA (0, address); OpenCL (the root cl_mem, the
  // view's offset plus a sub-buffer's own). Throws Error(invalid_argument) for a view of another
  // backend or a null cl_mem.
  virtual std::pair<std::uintptr_t, std::size_t> native_origin(const NativeView& view) = 0;
  // Makes q (ours, default queue if null) wait for everything enqueued on the caller's queue so
  // far, without blocking the host. Throws Error(invalid_argument) for a queue of another backend
  // or context.
  virtual void wait_for_native(const NativeQueue& native, Queue* q = nullptr) = 0;
  // Makes the caller's queue wait (later work there runs after it) for `done`, an event of this
  // device recorded on q after the work to wait for (a sort's stop event: no event more per call),
  // or, when null, for an event recorded on q after everything enqueued there so far; returns the
  // event, for the host to wait on.
  virtual std::unique_ptr<Event> signal_native(const NativeQueue& native, std::unique_ptr<Event> done = nullptr,
                                               Queue* q = nullptr) = 0;

  // ---- raw CUDA handles, for libraries that take them (NCCL) ----
  // The device address of a buffer, the CUstream of a queue (default queue if null), and f run
  // with this device's context current on the calling thread. Error(unsupported) off CUDA.
  virtual std::uint64_t cuda_address(const Buffer& b);
  virtual void* cuda_stream(Queue* q = nullptr);
  virtual void with_cuda_context(const std::function<void()>& f);

 private:
  std::mutex temp_pool_mutex_;
  std::shared_ptr<BufferPool> temp_pool_;  // buffers it lends hold only a weak reference
  std::mutex pinned_pool_mutex_;
  std::shared_ptr<PinnedPool> pinned_pool_;  // slots it lends hold only a weak reference
};
using DevicePtr = std::shared_ptr<Device>;

// All devices of all available backends (CUDA first), and opening one by id.
std::vector<DeviceDescription> enumerate_devices();
DevicePtr open_device(const std::string& id);  // "" = $GPUSORT_DEVICE or the best device

}  // namespace gpusort::rt
