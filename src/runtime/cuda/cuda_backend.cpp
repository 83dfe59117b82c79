// CUDA backend: NVRTC -> cubin for the device's architecture, driver API for everything else.
// Every object made on a device holds the device's primary context (shared_ptr<Ctx>), so buffers,
// queues and events may outlive the Device that made them. Each public call makes that context
// current on the calling thread (and puts back a different context the thread had), so several
// devices and threads can share one process.
#include "runtime/cuda/cuda_backend.hpp"

#include <limits>
#include <unordered_map>

#include "runtime/cuda/cuda_api.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/program_build.hpp"

namespace gpusort::rt {
namespace {

using namespace cuda;

constexpr std::size_t kDefaultDynamicSharedLimit = 48 * 1024;  // above this a kernel must opt in

// The primary context of one device, retained for as long as anything made on it lives.
struct Ctx {
  const DriverApi* api = nullptr;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  int ordinal = 0;

  Ctx(const DriverApi* a, int ord) : api(a), ordinal(ord) {
    cuda_check(api->cuDeviceGet(&dev, ord), "cuDeviceGet(" + std::to_string(ord) + ")");
    cuda_check(api->cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain(cuda:" + std::to_string(ord) + ")");
  }
  ~Ctx() {
    if (ctx) api->cuDevicePrimaryCtxRelease_v2(dev);
  }
  Ctx(const Ctx&) = delete;
  Ctx& operator=(const Ctx&) = delete;
};
using CtxPtr = std::shared_ptr<const Ctx>;

// Makes ctx current for the scope; a different context the thread had current comes back after.
// Quiet guards (for destructors) never throw; ok() says whether the context could be made current.
class Current {
 public:
  explicit Current(const Ctx& c, bool quiet = false) : c_(c) {
    CUcontext prev = nullptr;
    if (c_.api->cuCtxGetCurrent(&prev) != CUDA_SUCCESS) prev = nullptr;
    if (prev == c_.ctx) return;
    CUresult r = c_.api->cuCtxSetCurrent(c_.ctx);
    if (r != CUDA_SUCCESS) {
      ok_ = false;
      if (!quiet) cuda_check(r, "cuCtxSetCurrent(cuda:" + std::to_string(c_.ordinal) + ")");
      return;
    }
    prev_ = prev;
  }
  ~Current() {
    if (prev_) c_.api->cuCtxSetCurrent(prev_);
  }
  Current(const Current&) = delete;
  Current& operator=(const Current&) = delete;
  bool ok() const { return ok_; }

 private:
  const Ctx& c_;
  CUcontext prev_ = nullptr;
  bool ok_ = true;
};

// Throws as cuda_check does, building the message only on failure.
template <class F>
void check(CUresult r, F&& what) {
  if (r != CUDA_SUCCESS) cuda_check(r, what());
}

// Owns its allocation, or (parent set) is a view of bytes of another buffer that it keeps alive.
class CudaBuffer final : public Buffer {
 public:
  CudaBuffer(CtxPtr ctx, CUdeviceptr ptr, std::size_t bytes, std::shared_ptr<const Buffer> parent = nullptr)
      : ctx_(std::move(ctx)), ptr_(ptr), bytes_(bytes), parent_(std::move(parent)) {}
  ~CudaBuffer() override {
    if (!ptr_ || is_view_) return;
    Current cur(*ctx_, true);
    if (cur.ok()) ctx_->api->cuMemFree_v2(ptr_);
  }
  std::size_t bytes() const override { return bytes_; }
  std::size_t address_alignment() const override {
    return ptr_ ? std::min<std::size_t>(256, std::size_t(ptr_ & (~ptr_ + 1))) : 256;  // the lowest set bit
  }
  CUdeviceptr ptr() const { return ptr_; }
  const Ctx& ctx() const { return *ctx_; }

 private:
  CtxPtr ctx_;
  CUdeviceptr ptr_;
  std::size_t bytes_;
  std::shared_ptr<const Buffer> parent_;  // views: what owns the memory (may be null if the parent
                                          // was not held by a shared_ptr; the caller keeps it alive)
  bool is_view_ = false;

  friend class CudaDevice;
};

class CudaHostBuffer final : public HostBuffer {
 public:
  CudaHostBuffer(CtxPtr ctx, void* p, std::size_t bytes) : ctx_(std::move(ctx)), p_(p), bytes_(bytes) {}
  ~CudaHostBuffer() override {
    if (!p_) return;
    Current cur(*ctx_, true);
    if (cur.ok()) ctx_->api->cuMemFreeHost(p_);
  }
  void* data() override { return p_; }
  std::size_t bytes() const override { return bytes_; }

 private:
  CtxPtr ctx_;
  void* p_;
  std::size_t bytes_;
};

class CudaQueue final : public Queue {
 public:
  explicit CudaQueue(CtxPtr ctx) : ctx_(std::move(ctx)) {
    Current cur(*ctx_);
    cuda_check(ctx_->api->cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }
  ~CudaQueue() override {
    if (!stream_) return;
    Current cur(*ctx_, true);
    if (cur.ok()) ctx_->api->cuStreamDestroy_v2(stream_);
  }
  void finish() override {
    Current cur(*ctx_);
    cuda_check(ctx_->api->cuStreamSynchronize(stream_), "cuStreamSynchronize");
  }
  CUstream stream() const { return stream_; }
  const Ctx& ctx() const { return *ctx_; }

 private:
  CtxPtr ctx_;
  CUstream stream_ = nullptr;
};

class CudaEvent final : public Event {
 public:
  CudaEvent(CtxPtr ctx, CUstream stream) : ctx_(std::move(ctx)) {
    Current cur(*ctx_);
    cuda_check(ctx_->api->cuEventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate");
    CUresult r = ctx_->api->cuEventRecord(event_, stream);
    if (r != CUDA_SUCCESS) {
      ctx_->api->cuEventDestroy_v2(event_);
      event_ = nullptr;
      cuda_check(r, "cuEventRecord");
    }
  }
  ~CudaEvent() override {
    if (!event_) return;
    Current cur(*ctx_, true);
    if (cur.ok()) ctx_->api->cuEventDestroy_v2(event_);
  }
  void wait() override {
    Current cur(*ctx_);
    cuda_check(ctx_->api->cuEventSynchronize(event_), "cuEventSynchronize");
  }
  CUevent get() const { return event_; }
  double elapsed_ms_since(Event& start) override {
    auto* s = dynamic_cast<CudaEvent*>(&start);
    if (!s) throw Error(errc::invalid_argument, "CUDA: elapsed_ms_since needs a start event of the CUDA backend");
    Current cur(*ctx_);
    cuda_check(ctx_->api->cuEventSynchronize(s->event_), "cuEventSynchronize(start)");
    cuda_check(ctx_->api->cuEventSynchronize(event_), "cuEventSynchronize(end)");
    float ms = 0;
    cuda_check(ctx_->api->cuEventElapsedTime(&ms, s->event_, event_), "cuEventElapsedTime");
    return ms;
  }

 private:
  CtxPtr ctx_;
  CUevent event_ = nullptr;
};

class CudaKernel final : public Kernel {
 public:
  CudaKernel(std::string name, CUfunction f) : name_(std::move(name)), f_(f) {}
  const std::string& name() const override { return name_; }
  CUfunction function() const { return f_; }

  // Raises the kernel's dynamic shared memory limit so that `bytes` of dynamic shared memory can be
  // launched (a context must be current). The 48 KiB a kernel gets without opting in covers its
  // static and dynamic shared memory together, so the static part counts too.
  void ensure_dynamic_shared(const DriverApi& api, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    if (static_shared_ < 0) {
      int value = 0;
      static_shared_ = (api.cuFuncGetAttribute &&
                        api.cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f_) == CUDA_SUCCESS)
                           ? value
                           : 0;
    }
    if (bytes + static_cast<std::size_t>(static_shared_) <= kDefaultDynamicSharedLimit) return;
    if (bytes <= opted_in_dynamic_) return;
    cuda_check(api.cuFuncSetAttribute(f_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes)),
               "cuFuncSetAttribute(" + name_ + ", MAX_DYNAMIC_SHARED_SIZE_BYTES = " + std::to_string(bytes) + ")");
    opted_in_dynamic_ = bytes;
  }

  // The byte size of each parameter, when the driver can tell (cuFuncGetParamInfo, CUDA 12.4+);
  // empty if it cannot.
  const std::vector<std::size_t>& param_sizes(const DriverApi& api) {
    std::lock_guard lock(mutex_);
    if (!params_known_) {
      params_known_ = true;
      if (api.cuFuncGetParamInfo) {
        std::vector<std::size_t> sizes;
        for (std::size_t i = 0; i < 1024; ++i) {
          std::size_t offset = 0, size = 0;
          CUresult r = api.cuFuncGetParamInfo(f_, i, &offset, &size);
          if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
          if (r != CUDA_SUCCESS) {
            sizes.clear();  // the driver cannot say; skip the check
            break;
          }
          sizes.push_back(size);
        }
        param_sizes_ = std::move(sizes);
      }
    }
    return param_sizes_;
  }

 private:
  std::string name_;
  CUfunction f_;
  std::mutex mutex_;
  int static_shared_ = -1;            // static shared bytes, read once
  std::size_t opted_in_dynamic_ = 0;  // dynamic bytes the kernel has opted in to
  bool params_known_ = false;
  std::vector<std::size_t> param_sizes_;
};

class CudaProgram final : public Program {
 public:
  CudaProgram(CtxPtr ctx, std::string file, CUmodule module)
      : ctx_(std::move(ctx)), file_(std::move(file)), module_(module) {}
  ~CudaProgram() override {
    kernels_.clear();
    if (!module_) return;
    Current cur(*ctx_, true);
    if (cur.ok()) ctx_->api->cuModuleUnload(module_);
  }
  Kernel& kernel(const std::string& name) override {
    std::lock_guard lock(mutex_);
    auto it = kernels_.find(name);
    if (it != kernels_.end()) return *it->second;
    Current cur(*ctx_);
    CUfunction f = nullptr;
    CUresult r = ctx_->api->cuModuleGetFunction(&f, module_, name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
      throw Error(errc::device_error, "CUDA: kernel file " + file_ + " has no kernel named '" + name + "'");
    cuda_check(r, "cuModuleGetFunction(" + file_ + ", " + name + ")");
    auto& slot = kernels_[name];
    slot = std::make_unique<CudaKernel>(name, f);
    return *slot;
  }

 private:
  CtxPtr ctx_;
  std::string file_;
  CUmodule module_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<CudaKernel>> kernels_;
};

int attribute(const DriverApi& api, int attr, CUdevice dev, const char* what) {
  int v = 0;
  cuda_check(api.cuDeviceGetAttribute(&v, attr, dev), std::string("cuDeviceGetAttribute(") + what + ")");
  return v;
}

int nvrtc_major() {
  const NvrtcApi* n = nvrtc_api();
  return n ? n->major : 0;
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

DeviceDescription describe(const DriverApi& api, int ordinal) {
  CUdevice dev = 0;
  cuda_check(api.cuDeviceGet(&dev, ordinal), "cuDeviceGet(" + std::to_string(ordinal) + ")");
  char name[256] = {};
  cuda_check(api.cuDeviceGetName(name, static_cast<int>(sizeof name) - 1, dev), "cuDeviceGetName");
  std::size_t total = 0;
  cuda_check(api.cuDeviceTotalMem_v2(&total, dev), "cuDeviceTotalMem");
  DeviceDescription d;
  d.id = "cuda:" + std::to_string(ordinal);
  d.backend = "cuda";
  d.name = name;
  d.vendor = "NVIDIA Corporation";
  d.driver = "CUDA driver " + version_text(api.version) + ", " + nvrtc_version_string();
  d.global_memory_bytes = total;
  d.max_buffer_bytes = total;  // one cuMemAlloc may take all of it
  d.local_memory_bytes = static_cast<std::uint64_t>(
      attribute(api, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"));
  d.max_work_group_size =
      static_cast<std::uint32_t>(attribute(api, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev, "MAX_THREADS_PER_BLOCK"));
  d.compute_units =
      static_cast<std::uint32_t>(attribute(api, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev, "MULTIPROCESSOR_COUNT"));
  d.is_gpu = true;
  d.architecture = "sm_" + std::to_string(attribute(api, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev, "COMPUTE_CAPABILITY_MAJOR")) +
                   std::to_string(attribute(api, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev, "COMPUTE_CAPABILITY_MINOR"));
  return d;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

class CudaDevice final : public Device {
 public:
  CudaDevice(const DriverApi* api, int ordinal) : ctx_(std::make_shared<const Ctx>(api, ordinal)), api_(*api) {
    desc_ = describe(api_, ordinal);
    const int major = attribute(api_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ctx_->dev, "COMPUTE_CAPABILITY_MAJOR");
    const int minor = attribute(api_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, ctx_->dev, "COMPUTE_CAPABILITY_MINOR");
    sm_ = major * 10 + minor;
    target_ = nvrtc_target_for(sm_);
    cache_device_ = desc_.name + " sm_" + std::to_string(sm_);
    cache_driver_ = desc_.driver + " (" + std::to_string(api_.version) + ")";
    default_queue_ = std::make_unique<CudaQueue>(ctx_);
  }

  ~CudaDevice() override {
    // Let queued work finish before its modules and stream go away; never throws.
    {
      Current cur(*ctx_, true);
      if (cur.ok()) api_.cuCtxSynchronize();
    }
    programs_.clear();
    default_queue_.reset();
  }

  const DeviceDescription& description() const override { return desc_; }

  Program& program(const std::string& kernel_file, const std::vector<std::string>& defines) override {
    return programs_.get(kernel_file, defines, [&] {  // the options follow from the defines
      const std::vector<std::string> options = nvrtc_options(defines, target_.arch);
      Current cur(*ctx_);
      const auto load = [&](std::vector<unsigned char>& binary) {
        if (!target_.cubin && binary.back() != '\0') binary.push_back('\0');
        CUmodule module = nullptr;
        // a stale or foreign entry: compiled afresh and overwritten
        return api_.cuModuleLoadData(&module, binary.data()) == CUDA_SUCCESS ? module : nullptr;
      };
      const auto compile = [&](const std::string& source) {
        CompiledProgram<CUmodule> c{nullptr, nvrtc_compile(source, kernel_file, options, target_.cubin)};
        CUresult r = api_.cuModuleLoadData(&c.program, c.binary->data());
        if (r != CUDA_SUCCESS) {
          std::string hint;
          if (nvrtc_major() * 1000 > api_.version)
            hint = " (" + nvrtc_version_string() + " is newer than " + desc_.driver.substr(0, desc_.driver.find(',')) +
                   "; set GPUSORT_NVRTC_LIBRARY to an NVRTC no newer than the driver)";
          cuda_check(r, "cuModuleLoadData(" + kernel_file + ", " + target_.arch + ")" + hint);
        }
        return c;
      };
      const CUmodule module =
          load_or_compile<CUmodule>({"cuda", cache_device_, cache_driver_}, kernel_file, join(options), load, compile);
      return std::make_unique<CudaProgram>(ctx_, kernel_file, module);
    });
  }

  BufferPtr alloc(std::size_t bytes) override {
    if (bytes == 0) return std::make_shared<CudaBuffer>(ctx_, CUdeviceptr{0}, 0);
    Current cur(*ctx_);
    CUdeviceptr p = 0;
    CUresult r = api_.cuMemAlloc_v2(&p, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      std::size_t free = 0, total = 0;
      std::string state;
      if (api_.cuMemGetInfo_v2(&free, &total) == CUDA_SUCCESS)
        state = " (" + std::to_string(free) + " of " + std::to_string(total) + " bytes free)";
      throw Error(errc::out_of_memory, "CUDA: cannot allocate " + std::to_string(bytes) + " bytes on " + desc_.id +
                                           " " + desc_.name + state + ": " + cuda_error_text(r));
    }
    cuda_check(r, "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
    try {
      return std::make_shared<CudaBuffer>(ctx_, p, bytes);
    } catch (...) {
      api_.cuMemFree_v2(p);
      throw;
    }
  }

  BufferPtr sub_buffer(Buffer& parent, std::size_t offset, std::size_t bytes) override {
    const CudaBuffer& p = buffer(parent, "sub_buffer");
    if (bytes == 0 || offset > p.bytes() || bytes > p.bytes() - offset)
      throw Error(errc::invalid_argument, "CUDA: sub-buffer of " + std::to_string(bytes) + " bytes at offset " +
                                              std::to_string(offset) + " does not fit a buffer of " +
                                              std::to_string(p.bytes()) + " bytes");
    if (offset % 4096 != 0)
      throw Error(errc::invalid_argument, "CUDA: sub-buffer offset " + std::to_string(offset) +
                                              " is not a multiple of 4096 bytes");
    // Share ownership of the memory's owner: the parent itself, or for a view of a view the
    // parent's own owner.
    std::shared_ptr<const Buffer> owner = p.is_view_ ? p.parent_ : std::shared_ptr<const Buffer>(parent.weak_from_this().lock());
    auto view = std::make_shared<CudaBuffer>(ctx_, p.ptr() + offset, bytes, std::move(owner));
    view->is_view_ = true;
    return view;
  }

  std::unique_ptr<HostBuffer> alloc_host(std::size_t bytes) override {
    if (bytes == 0) return std::make_unique<CudaHostBuffer>(ctx_, nullptr, 0);
    Current cur(*ctx_);
    void* p = nullptr;
    CUresult r = api_.cuMemHostAlloc(&p, bytes, CU_MEMHOSTALLOC_PORTABLE);
    cuda_check(r, "cuMemHostAlloc(" + std::to_string(bytes) + " bytes of pinned host memory)");
    try {
      return std::make_unique<CudaHostBuffer>(ctx_, p, bytes);
    } catch (...) {
      api_.cuMemFreeHost(p);
      throw;
    }
  }

  Queue& default_queue() override { return *default_queue_; }
  std::unique_ptr<Queue> create_queue() override { return std::make_unique<CudaQueue>(ctx_); }

  void write(Buffer& dst, std::size_t offset, const void* src, std::size_t bytes, Queue* q, bool async) override {
    if (bytes == 0) return;
    const CudaBuffer& b = buffer(dst, "write");
    check_range(b, offset, bytes, "write");
    CudaQueue& cq = queue(q);
    Current cur(*ctx_);
    check(api_.cuMemcpyHtoDAsync_v2(b.ptr() + offset, src, bytes, cq.stream()),
          [&] { return "cuMemcpyHtoDAsync(" + std::to_string(bytes) + " bytes)"; });
    if (!async) cuda_check(api_.cuStreamSynchronize(cq.stream()), "cuStreamSynchronize (after a write)");
  }

  void read(const Buffer& src, std::size_t offset, void* dst, std::size_t bytes, Queue* q, bool async) override {
    if (bytes == 0) return;
    const CudaBuffer& b = buffer(src, "read");
    check_range(b, offset, bytes, "read");
    CudaQueue& cq = queue(q);
    Current cur(*ctx_);
    check(api_.cuMemcpyDtoHAsync_v2(dst, b.ptr() + offset, bytes, cq.stream()),
          [&] { return "cuMemcpyDtoHAsync(" + std::to_string(bytes) + " bytes)"; });
    if (!async) cuda_check(api_.cuStreamSynchronize(cq.stream()), "cuStreamSynchronize (after a read)");
  }

  void copy(const Buffer& src, std::size_t src_offset, Buffer& dst, std::size_t dst_offset, std::size_t bytes,
            Queue* q) override {
    if (bytes == 0) return;
    const CudaBuffer& s = buffer(src, "copy");
    const CudaBuffer& d = buffer(dst, "copy");
    check_range(s, src_offset, bytes, "copy (source)");
    check_range(d, dst_offset, bytes, "copy (destination)");
    CudaQueue& cq = queue(q);
    Current cur(*ctx_);
    check(api_.cuMemcpyDtoDAsync_v2(d.ptr() + dst_offset, s.ptr() + src_offset, bytes, cq.stream()),
          [&] { return "cuMemcpyDtoDAsync(" + std::to_string(bytes) + " bytes)"; });
  }

  void fill_bytes(Buffer& dst, unsigned char value, std::size_t offset, std::size_t bytes, Queue* q) override {
    if (bytes == 0) return;
    const CudaBuffer& b = buffer(dst, "fill_bytes");
    check_range(b, offset, bytes, "fill_bytes");
    CudaQueue& cq = queue(q);
    Current cur(*ctx_);
    check(api_.cuMemsetD8Async(b.ptr() + offset, value, bytes, cq.stream()),
          [&] { return "cuMemsetD8Async(" + std::to_string(bytes) + " bytes)"; });
  }

  void launch(Kernel& kernel, const Launch& l, const std::vector<Arg>& args, Queue* q) override {
    auto* kp = dynamic_cast<CudaKernel*>(&kernel);
    if (!kp) throw Error(errc::invalid_argument, "CUDA: launch of a kernel that is not of the CUDA backend");
    CudaKernel& k = *kp;
    if (l.groups == 0) return;
    auto what = [&] {
      return k.name() + " (" + std::to_string(l.groups) + " groups x " + std::to_string(l.group_size) + ", " +
             std::to_string(l.local_bytes) + " bytes of local memory)";
    };
    if (l.groups > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
      throw Error(errc::unsupported, "CUDA: cannot launch " + what() + ": more than 2^31-1 groups");
    if (l.group_size == 0 || l.group_size > desc_.max_work_group_size)
      throw Error(errc::invalid_argument, "CUDA: cannot launch " + what() + ": group size must be 1.." +
                                              std::to_string(desc_.max_work_group_size));
    if (l.local_bytes > desc_.local_memory_bytes)
      throw Error(errc::invalid_argument, "CUDA: cannot launch " + what() + ": " + desc_.name + " allows at most " +
                                              std::to_string(desc_.local_memory_bytes) + " bytes of local memory");
    CudaQueue& cq = queue(q);

    // on the stack up to kInlineArgs (every kernel of the project): a launch allocates nothing
    constexpr std::size_t kInlineArgs = 16;
    CUdeviceptr inline_pointers[kInlineArgs] = {};
    void* inline_params[kInlineArgs] = {};
    std::vector<CUdeviceptr> more_pointers(args.size() > kInlineArgs ? args.size() : 0, 0);
    std::vector<void*> more_params(more_pointers.size(), nullptr);
    CUdeviceptr* pointers = more_pointers.empty() ? inline_pointers : more_pointers.data();
    void** params = more_params.empty() ? inline_params : more_params.data();
    for (std::size_t i = 0; i < args.size(); ++i) {
      const Arg& a = args[i];
      if (a.buffer) {
        pointers[i] = buffer(*a.buffer, "launch").ptr();
        params[i] = &pointers[i];
      } else if (a.scalar_size == 0) {
        params[i] = &pointers[i];  // an empty BufferPtr: a null device pointer
      } else {
        params[i] = const_cast<unsigned char*>(a.scalar);  // the driver only reads it
      }
    }

    Current cur(*ctx_);
    if (const auto& sizes = k.param_sizes(api_); !sizes.empty()) {
      if (sizes.size() != args.size())
        throw Error(errc::invalid_argument, "CUDA: kernel " + k.name() + " takes " + std::to_string(sizes.size()) +
                                                " arguments, launch passed " + std::to_string(args.size()));
      for (std::size_t i = 0; i < args.size(); ++i) {
        const std::size_t passed = (args[i].buffer || args[i].scalar_size == 0) ? sizeof(CUdeviceptr) : args[i].scalar_size;
        if (passed != sizes[i])
          throw Error(errc::invalid_argument, "CUDA: kernel " + k.name() + " argument " + std::to_string(i) +
                                                  " takes " + std::to_string(sizes[i]) + " bytes, launch passed " +
                                                  std::to_string(passed));
      }
    }
    if (l.local_bytes > 0) k.ensure_dynamic_shared(api_, l.local_bytes);
    // the kernels' griddepcontrol instructions exist where they were compiled for sm_90 or newer
    if (l.overlap_previous && target_.sm >= 90 && api_.cuLaunchKernelEx) {
      CUlaunchAttribute overlap = {};
      overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      overlap.value.programmaticStreamSerializationAllowed = 1;
      CUlaunchConfig config = {static_cast<unsigned>(l.groups), 1, 1, l.group_size, 1, 1,
                               static_cast<unsigned>(l.local_bytes), cq.stream(), &overlap, 1};
      check(api_.cuLaunchKernelEx(&config, k.function(), params, nullptr),
            [&] { return "cuLaunchKernelEx " + what() + " overlapping the previous kernel"; });
      return;
    }
    check(api_.cuLaunchKernel(k.function(), static_cast<unsigned>(l.groups), 1, 1, l.group_size, 1, 1,
                              static_cast<unsigned>(l.local_bytes), cq.stream(), params, nullptr),
          [&] { return "cuLaunchKernel " + what(); });
  }

  std::unique_ptr<Event> record(Queue* q) override {
    CudaQueue& cq = queue(q);
    return std::make_unique<CudaEvent>(ctx_, cq.stream());
  }

  std::uint64_t cuda_address(const Buffer& b) override { return buffer(b, "cuda_address").ptr(); }
  void* cuda_stream(Queue* q) override { return queue(q).stream(); }
  void with_cuda_context(const std::function<void()>& f) override {
    Current cur(*ctx_);
    f();
  }

  void finish(Queue* q) override { queue(q).finish(); }

  std::pair<std::uintptr_t, std::size_t> native_origin(const NativeView& view) override {
    const auto* v = std::get_if<CudaView>(&view);
    if (!v) throw Error(errc::invalid_argument, "an OpenCL view was given to the CUDA device " + desc_.id);
    return {0, v->ptr};  // one address space
  }

  BufferPtr wrap(const NativeView& view, std::size_t bytes) override {
    const auto* v = std::get_if<CudaView>(&view);
    if (!v) throw Error(errc::invalid_argument, "an OpenCL view was given to the CUDA device " + desc_.id);
    if (v->ptr == 0 && bytes != 0) throw Error(errc::invalid_argument, "CUDA view with a null pointer");
    const CUdeviceptr ptr = static_cast<CUdeviceptr>(v->ptr);
    if (bytes != 0 && api_.cuPointerGetAttribute) {
      Current cur(*ctx_);
      int ordinal = -1;
      CUresult r = api_.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr);
      // INVALID_VALUE: the driver knows no allocation there (host memory, a stale pointer). Other
      // failures (an old driver without the attribute) leave the pointer unchecked.
      if (r == CUDA_ERROR_INVALID_VALUE)
        throw Error(errc::invalid_argument, "CUDA view: " + std::to_string(v->ptr) +
                                                " is not device memory the CUDA driver knows");
      if (r == CUDA_SUCCESS && ordinal != ctx_->ordinal)
        throw Error(errc::invalid_argument, "CUDA view: the memory is on cuda:" + std::to_string(ordinal) +
                                                ", the gpusort::Context is on " + desc_.id);
    }
    // Never freed by gpusort (a view without an owner): the caller keeps the memory alive.
    auto buffer = std::make_shared<CudaBuffer>(ctx_, ptr, bytes);
    buffer->is_view_ = true;
    return buffer;
  }

  void wait_for_native(const NativeQueue& native, Queue* q) override {
    CUstream theirs = caller_stream(native);
    CudaQueue& ours = queue(q);
    Current cur(*ctx_);
    CUevent marker = nullptr;
    cuda_check(api_.cuEventCreate(&marker, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    CUresult r = api_.cuEventRecord(marker, theirs);
    if (r == CUDA_SUCCESS) r = api_.cuStreamWaitEvent(ours.stream(), marker, 0);
    // Destroying an event that a stream still waits on is allowed: the wait keeps what it needs.
    api_.cuEventDestroy_v2(marker);
    check(r, [&] {
      return "ordering gpusort's stream after the caller's (cuEventRecord / cuStreamWaitEvent; the stream must "
             "belong to the primary context of " + desc_.id + ")";
    });
  }

  std::unique_ptr<Event> signal_native(const NativeQueue& native, std::unique_ptr<Event> done, Queue* q) override {
    CUstream theirs = caller_stream(native);
    if (!done) done = record(q);
    auto* event = dynamic_cast<CudaEvent*>(done.get());
    if (!event) throw Error(errc::invalid_argument, "CUDA: signal_native with an event of another backend");
    Current cur(*ctx_);
    check(api_.cuStreamWaitEvent(theirs, event->get(), 0), [&] {
      return "ordering the caller's stream after the sort (cuStreamWaitEvent; the stream must belong to the primary "
             "context of " + desc_.id + ")";
    });
    return done;
  }

 private:
  static CUstream caller_stream(const NativeQueue& native) {
    const auto* s = std::get_if<CudaStream>(&native);
    if (!s) throw Error(errc::invalid_argument, "an OpenCL queue was given to a CUDA device");
    return static_cast<CUstream>(s->stream);  // nullptr: the legacy default stream
  }

  CudaQueue& queue(Queue* q) {
    if (!q) return *default_queue_;
    auto* cq = dynamic_cast<CudaQueue*>(q);
    if (!cq || cq->ctx().ctx != ctx_->ctx)
      throw Error(errc::invalid_argument, "CUDA: the queue does not belong to " + desc_.id);
    return *cq;
  }

  const CudaBuffer& buffer(const Buffer& b, const char* op) const {
    auto* cb = dynamic_cast<const CudaBuffer*>(&b);
    if (!cb || cb->ctx().ctx != ctx_->ctx)
      throw Error(errc::invalid_argument, std::string("CUDA: ") + op + " with a buffer that does not belong to " + desc_.id);
    return *cb;
  }

  static void check_range(const CudaBuffer& b, std::size_t offset, std::size_t bytes, const char* op) {
    if (offset > b.bytes() || bytes > b.bytes() - offset)
      throw Error(errc::invalid_argument, std::string("CUDA: ") + op + " of " + std::to_string(bytes) +
                                              " bytes at offset " + std::to_string(offset) + " exceeds the buffer's " +
                                              std::to_string(b.bytes()) + " bytes");
  }

  CtxPtr ctx_;
  const DriverApi& api_;
  DeviceDescription desc_;
  int sm_ = 0;
  NvrtcTarget target_;
  std::string cache_device_, cache_driver_;
  std::unique_ptr<CudaQueue> default_queue_;
  ProgramMemo<CudaProgram> programs_;
};

// The driver and NVRTC, or why not.
const DriverApi* available(std::string* why) {
  const DriverApi* api = cuda_api(why);
  if (!api) return nullptr;
  if (!nvrtc_available(why)) return nullptr;
  return api;
}

int device_count(const DriverApi& api) {
  int n = 0;
  if (api.cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
  return n;
}

}  // namespace

std::vector<DeviceDescription> cuda_enumerate_devices() {
  std::vector<DeviceDescription> out;
  try {
    const DriverApi* api = available(nullptr);
    if (!api) return out;
    const int n = device_count(*api);
    for (int i = 0; i < n; ++i) {
      try {
        out.push_back(describe(*api, i));
      } catch (const std::exception&) {
        // a device the driver cannot describe is not listed
      }
    }
  } catch (...) {
    out.clear();
  }
  return out;
}

std::string cuda_unavailable_reason() {
  try {
    std::string why;
    const DriverApi* api = available(&why);
    if (!api) return why.empty() ? "CUDA is unavailable" : why;
    if (device_count(*api) == 0) return "the CUDA driver reports no device";
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

DevicePtr cuda_open_device(int ordinal) {
  std::string why;
  const DriverApi* api = available(&why);
  if (!api) throw Error(errc::unsupported, "CUDA backend unavailable: " + why);
  const int n = device_count(*api);
  if (ordinal < 0 || ordinal >= n)
    throw Error(errc::unsupported, "no CUDA device cuda:" + std::to_string(ordinal) + " (" + std::to_string(n) +
                                       " CUDA device" + (n == 1 ? "" : "s") + " present)");
  return std::make_shared<CudaDevice>(api, ordinal);
}

}  // namespace gpusort::rt
