#include "runtime/opencl/opencl_backend.hpp"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "runtime/kernel_sources.hpp"
#include "runtime/large_stack.hpp"
#include "runtime/opencl/opencl_errors.hpp"
#include "runtime/program_build.hpp"

namespace gpusort::rt {
namespace {

constexpr std::string_view kMaxRegistersDefine = "GS_MAX_REGISTERS=";  // Device::program

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  clGetPlatformInfo(p, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  clGetDeviceInfo(d, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof(T), &v, nullptr);
  return v;
}

std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return {};
  std::vector<cl_platform_id> ids(count);
  if (clGetPlatformIDs(count, ids.data(), nullptr) != CL_SUCCESS) return {};
  return ids;
}

std::vector<cl_device_id> devices_of(cl_platform_id p) {
  cl_uint count = 0;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) return {};
  std::vector<cl_device_id> ids(count);
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr) != CL_SUCCESS) return {};
  return ids;
}

// NVIDIA's extension reports the compute capability (cl_nv_device_attribute_query).
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000, kComputeCapabilityMinorNv = 0x4001;

// DeviceDescription::architecture: "cpu"; NVIDIA's compute capability where its driver reports it;
// else the device's name (AMD's is its architecture, "gfx90a").
std::string architecture_of(cl_device_id d, const DeviceDescription& desc) {
  if (!desc.is_gpu) return "cpu";
  if (device_string(d, CL_DEVICE_EXTENSIONS).find("cl_nv_device_attribute_query") != std::string::npos) {
    const cl_uint major = device_value<cl_uint>(d, kComputeCapabilityMajorNv);
    const cl_uint minor = device_value<cl_uint>(d, kComputeCapabilityMinorNv);
    if (major != 0) return "sm_" + std::to_string(major) + std::to_string(minor);
  }
  return desc.name;
}

DeviceDescription describe(cl_platform_id p, cl_device_id d, int pi, int di) {
  DeviceDescription desc;
  desc.id = "opencl:" + std::to_string(pi) + ":" + std::to_string(di);
  desc.backend = "opencl";
  desc.name = device_string(d, CL_DEVICE_NAME);
  desc.vendor = device_string(d, CL_DEVICE_VENDOR);
  desc.driver = platform_string(p, CL_PLATFORM_NAME) + " " + platform_string(p, CL_PLATFORM_VERSION) + ", driver " +
                device_string(d, CL_DRIVER_VERSION);
  desc.global_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  desc.max_buffer_bytes = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  desc.local_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  desc.max_work_group_size = static_cast<std::uint32_t>(device_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  desc.compute_units = device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  desc.is_gpu = (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
  desc.architecture = architecture_of(d, desc);
  return desc;
}

class ClBuffer final : public Buffer {
 public:
  ClBuffer(cl_mem mem, std::size_t bytes) : mem_(mem), bytes_(bytes) {}
  ~ClBuffer() override {
    if (mem_) clReleaseMemObject(mem_);
  }
  std::size_t bytes() const override { return bytes_; }
  cl_mem mem() const { return mem_; }

 private:
  cl_mem mem_;
  std::size_t bytes_;
};

// Host staging memory. OpenCL 1.2 has no pinned allocation call; a CL_MEM_ALLOC_HOST_PTR buffer
// mapped for the host is how drivers hand out page-locked memory (NVIDIA's copies from it run at
// the link's rate, from ordinary memory at a fraction). Where that fails, ordinary memory (not
// zero-filled) is correct everywhere; PoCL shares host memory anyway.
class ClHostBuffer final : public HostBuffer {
 public:
  // Mapped: `mem` stays mapped at `data` for the buffer's life.
  ClHostBuffer(cl_command_queue queue, cl_mem mem, void* data, std::size_t bytes)
      : queue_(queue), mem_(mem), data_(data), bytes_(bytes) {
    clRetainCommandQueue(queue_);
  }
  explicit ClHostBuffer(std::size_t bytes)
      : plain_(std::make_unique_for_overwrite<unsigned char[]>(bytes)), data_(plain_.get()), bytes_(bytes) {}
  ~ClHostBuffer() override {
    if (!mem_) return;
    if (clEnqueueUnmapMemObject(queue_, mem_, data_, 0, nullptr, nullptr) == CL_SUCCESS) clFinish(queue_);
    clReleaseMemObject(mem_);
    clReleaseCommandQueue(queue_);
  }
  void* data() override { return data_; }
  std::size_t bytes() const override { return bytes_; }

 private:
  cl_command_queue queue_ = nullptr;
  cl_mem mem_ = nullptr;
  std::unique_ptr<unsigned char[]> plain_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

class ClQueue final : public Queue {
 public:
  explicit ClQueue(cl_command_queue q) : q_(q) {}
  ~ClQueue() override {
    if (q_) clReleaseCommandQueue(q_);
  }
  void finish() override { cl_check(clFinish(q_), "clFinish"); }
  cl_command_queue get() const { return q_; }

 private:
  cl_command_queue q_;
};

class ClEvent final : public Event {
 public:
  explicit ClEvent(cl_event e) : e_(e) {}
  ~ClEvent() override {
    if (e_) clReleaseEvent(e_);
  }
  void wait() override { cl_check(clWaitForEvents(1, &e_), "clWaitForEvents"); }
  cl_event get() const { return e_; }
  double elapsed_ms_since(Event& start) override {
    auto& s = static_cast<ClEvent&>(start);
    s.wait();
    wait();
    cl_ulong t0 = 0, t1 = 0;
    cl_check(clGetEventProfilingInfo(s.e_, CL_PROFILING_COMMAND_END, sizeof t0, &t0, nullptr), "profiling info");
    cl_check(clGetEventProfilingInfo(e_, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr), "profiling info");
    return static_cast<double>(t1 - t0) * 1e-6;
  }

 private:
  cl_event e_;
};

class ClKernel final : public Kernel {
 public:
  ClKernel(cl_kernel k, std::string name) : k_(k), name_(std::move(name)) {}
  ~ClKernel() override {
    if (k_) clReleaseKernel(k_);
  }
  const std::string& name() const override { return name_; }
  cl_kernel get() const { return k_; }
  std::mutex& mutex() { return mutex_; }  // clSetKernelArg + enqueue must not interleave

 private:
  cl_kernel k_;
  std::string name_;
  std::mutex mutex_;
};

class ClProgram final : public Program {
 public:
  explicit ClProgram(cl_program p) : p_(p) {}
  ~ClProgram() override {
    kernels_.clear();
    if (p_) clReleaseProgram(p_);
  }
  Kernel& kernel(const std::string& name) override {
    std::lock_guard lock(mutex_);
    auto it = kernels_.find(name);
    if (it != kernels_.end()) return *it->second;
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p_, name.c_str(), &err);
    cl_check(err, "clCreateKernel(" + name + ")");
    auto& slot = kernels_[name];
    slot = std::make_unique<ClKernel>(k, name);
    return *slot;
  }

 private:
  cl_program p_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<ClKernel>> kernels_;
};

class ClDevice final : public Device {
 public:
  ClDevice(cl_platform_id platform, cl_device_id device, DeviceDescription desc)
      : platform_(platform), device_(device), desc_(std::move(desc)) {
    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
    context_ = clCreateContext(props, 1, &device_, nullptr, nullptr, &err);
    cl_check(err, "clCreateContext");
    default_queue_ = make_queue();
  }
  // A device of a cl_context the caller made (Context::from_opencl): buffers and queues of the
  // caller and of gpusort then belong to one context, so they can be shared. The context is
  // retained, never released by the caller's clReleaseContext alone.
  ClDevice(cl_platform_id platform, cl_device_id device, DeviceDescription desc, cl_context shared)
      : platform_(platform), device_(device), desc_(std::move(desc)), context_(shared) {
    cl_check(clRetainContext(context_), "clRetainContext");
    try {
      default_queue_ = make_queue();
    } catch (...) {
      clReleaseContext(context_);
      throw;
    }
  }
  ~ClDevice() override {
    programs_.clear();
    default_queue_.reset();
    if (context_) clReleaseContext(context_);
  }

  const DeviceDescription& description() const override { return desc_; }

  Program& program(const std::string& kernel_file, const std::vector<std::string>& defines) override {
    return programs_.get(kernel_file, defines, [&] {  // the options follow from the defines
      std::string options = "-cl-std=CL1.2";
      for (const auto& d : defines) {
        options += " -D" + d;
        // GS_MAX_REGISTERS=N: the register cap CUDA kernels state with __launch_bounds__, as NVIDIA's
        // compiler option (cl_nv_compiler_options); other compilers take none
        if (d.starts_with(kMaxRegistersDefine) && nvidia_gpu(desc_))
          options += " -cl-nv-maxrregcount=" + d.substr(kMaxRegistersDefine.size());
      }
      const auto load = [&](const std::vector<unsigned char>& binary) { return from_binary(binary, options); };
      const auto compile_source = [&](const std::string& source) {
        cl_program prog = compile(kernel_file, source, options);
        return CompiledProgram<cl_program>{prog, binary_of(prog)};
      };
      return std::make_unique<ClProgram>(
          load_or_compile<cl_program>({"opencl", desc_.name, desc_.driver}, kernel_file, options, load, compile_source));
    });
  }

  BufferPtr alloc(std::size_t bytes) override {
    if (bytes == 0) bytes = 1;  // zero-sized cl_mem is invalid; callers may legitimately ask for n = 0
    if (bytes > max_alloc())
      throw Error(errc::out_of_memory, "OpenCL device '" + desc_.name + "' cannot allocate " + std::to_string(bytes) +
                                           " bytes in one buffer (limit " + std::to_string(max_alloc()) + ")");
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    cl_check(err, "clCreateBuffer(" + std::to_string(bytes) + " bytes)");
    return std::make_shared<ClBuffer>(mem, bytes);
  }

  BufferPtr sub_buffer(Buffer& parent, std::size_t offset, std::size_t bytes) override {
    const std::size_t align = base_address_align();
    if (bytes == 0 || offset > parent.bytes() || bytes > parent.bytes() - offset)
      throw Error(errc::invalid_argument, "sub-buffer of " + std::to_string(bytes) + " bytes at offset " +
                                              std::to_string(offset) + " does not fit a buffer of " +
                                              std::to_string(parent.bytes()) + " bytes");
    if (offset % align != 0)
      throw Error(errc::invalid_argument, "sub-buffer offset " + std::to_string(offset) + " is not a multiple of " +
                                              desc_.name + "'s base address alignment (" + std::to_string(align) +
                                              " bytes)");
    // OpenCL makes no sub-buffer of a sub-buffer: a view of a view is a region of the root buffer.
    const auto [root, base] = root_of(this->mem(parent));
    return region_of(root, base + offset, bytes);
  }

  // The root buffer of mem and mem's offset in it: mem itself at 0, or a sub-buffer's parent (OpenCL
  // nests no deeper) and the sub-buffer's offset.
  static std::pair<cl_mem, std::size_t> root_of(cl_mem mem) {
    cl_mem parent = nullptr;
    cl_check(clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, nullptr),
             "clGetMemObjectInfo(CL_MEM_ASSOCIATED_MEMOBJECT)");
    if (!parent) return {mem, 0};
    std::size_t offset = 0;
    cl_check(clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof offset, &offset, nullptr), "clGetMemObjectInfo(CL_MEM_OFFSET)");
    return {parent, offset};
  }

  // A buffer of bytes [offset, offset + bytes) of `mem` (offset already checked against the
  // device's alignment). The sub-buffer holds its parent: OpenCL frees a buffer only once all its
  // sub-buffers are gone.
  static BufferPtr region_of(cl_mem mem, std::size_t offset, std::size_t bytes) {
    cl_buffer_region region{offset, bytes};
    cl_int err = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    cl_check(err, "clCreateSubBuffer(" + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) + ")");
    try {
      return std::make_shared<ClBuffer>(sub, bytes);
    } catch (...) {
      clReleaseMemObject(sub);
      throw;
    }
  }

  std::unique_ptr<HostBuffer> alloc_host(std::size_t bytes) override {
    if (bytes > 0 && bytes <= max_alloc()) {
      if (auto pinned = mapped_host_buffer(bytes)) return pinned;
    }
    try {
      return std::make_unique<ClHostBuffer>(bytes);
    } catch (const std::bad_alloc&) {
      throw Error(errc::out_of_memory, "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    }
  }

  // A CL_MEM_ALLOC_HOST_PTR buffer mapped for the host, or nullptr if the driver will not (then
  // plain memory serves). Mapped through one queue of the device's own, not the default queue,
  // which may be busy with a sort.
  std::unique_ptr<HostBuffer> mapped_host_buffer(std::size_t bytes) {
    std::lock_guard lock(map_mutex_);
    try {
      if (!map_queue_) map_queue_ = make_queue();
    } catch (const Error&) {
      return nullptr;
    }
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
    if (err != CL_SUCCESS) return nullptr;
    cl_command_queue q = map_queue_->get();
    void* p = clEnqueueMapBuffer(q, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err);
    if (err != CL_SUCCESS || !p) {
      clReleaseMemObject(mem);
      return nullptr;
    }
    try {
      return std::make_unique<ClHostBuffer>(q, mem, p, bytes);
    } catch (...) {
      clEnqueueUnmapMemObject(q, mem, p, 0, nullptr, nullptr);
      clFinish(q);
      clReleaseMemObject(mem);
      throw;
    }
  }

  Queue& default_queue() override { return *default_queue_; }
  std::unique_ptr<Queue> create_queue() override { return make_queue(); }

  void write(Buffer& dst, std::size_t offset, const void* src, std::size_t bytes, Queue* q, bool async) override {
    if (bytes == 0) return;
    cl_check(clEnqueueWriteBuffer(queue(q), mem(dst), async ? CL_FALSE : CL_TRUE, offset, bytes, src, 0, nullptr,
                                  nullptr),
             "clEnqueueWriteBuffer");
  }
  void read(const Buffer& src, std::size_t offset, void* dst, std::size_t bytes, Queue* q, bool async) override {
    if (bytes == 0) return;
    cl_check(clEnqueueReadBuffer(queue(q), mem(src), async ? CL_FALSE : CL_TRUE, offset, bytes, dst, 0, nullptr,
                                 nullptr),
             "clEnqueueReadBuffer");
  }
  void copy(const Buffer& src, std::size_t so, Buffer& dst, std::size_t dof, std::size_t bytes, Queue* q) override {
    if (bytes == 0) return;
    cl_check(clEnqueueCopyBuffer(queue(q), mem(src), mem(dst), so, dof, bytes, 0, nullptr, nullptr),
             "clEnqueueCopyBuffer");
  }
  void fill_bytes(Buffer& dst, unsigned char value, std::size_t offset, std::size_t bytes, Queue* q) override {
    if (bytes == 0) return;
    cl_check(clEnqueueFillBuffer(queue(q), mem(dst), &value, 1, offset, bytes, 0, nullptr, nullptr),
             "clEnqueueFillBuffer");
  }

  void launch(Kernel& kernel, const Launch& l, const std::vector<Arg>& args, Queue* q) override {
    auto& k = static_cast<ClKernel&>(kernel);
    if (l.groups == 0) return;
    std::lock_guard lock(k.mutex());
    cl_uint index = 0;
    for (const Arg& a : args) {
      cl_int err;
      if (a.buffer) {
        cl_mem m = mem(*a.buffer);
        err = clSetKernelArg(k.get(), index, sizeof(cl_mem), &m);
      } else {
        err = clSetKernelArg(k.get(), index, a.scalar_size, a.scalar);
      }
      cl_check(err, "clSetKernelArg(" + k.name() + ", " + std::to_string(index) + ")");
      ++index;
    }
    if (l.local_bytes > 0)
      cl_check(clSetKernelArg(k.get(), index, l.local_bytes, nullptr), "clSetKernelArg(local memory of " + k.name() + ")");
    size_t local = l.group_size;
    size_t global = static_cast<size_t>(l.groups) * local;
    cl_check(clEnqueueNDRangeKernel(queue(q), k.get(), 1, nullptr, &global, &local, 0, nullptr, nullptr),
             "clEnqueueNDRangeKernel(" + k.name() + ", groups " + std::to_string(l.groups) + " x " +
                 std::to_string(local) + ")");
  }

  std::unique_ptr<Event> record(Queue* q) override {
    cl_event e = nullptr;
    cl_check(clEnqueueMarkerWithWaitList(queue(q), 0, nullptr, &e), "clEnqueueMarkerWithWaitList");
    return std::make_unique<ClEvent>(e);
  }
  void finish(Queue* q) override { cl_check(clFinish(queue(q)), "clFinish"); }

  std::pair<std::uintptr_t, std::size_t> native_origin(const NativeView& view) override {
    const OpenCLView& v = caller_view(view);
    const auto [root, base] = root_of(static_cast<cl_mem>(v.mem));
    return {reinterpret_cast<std::uintptr_t>(root), base + v.offset_bytes};
  }

  BufferPtr wrap(const NativeView& view, std::size_t bytes) override {
    const OpenCLView& v = caller_view(view);
    cl_mem mem = static_cast<cl_mem>(v.mem);
    cl_context owner = nullptr;
    cl_check(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, nullptr), "clGetMemObjectInfo(CL_MEM_CONTEXT)");
    if (owner != context_)
      throw Error(errc::invalid_argument, "the cl_mem belongs to another cl_context than the gpusort::Context's; make "
                                          "the Context with gpusort::Context::from_opencl from the caller's context");
    std::size_t offset = v.offset_bytes;
    std::size_t size = 0;
    cl_check(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, nullptr), "clGetMemObjectInfo(CL_MEM_SIZE)");
    if (offset > size || bytes > size - offset)
      throw Error(errc::invalid_argument, "OpenCL view of " + std::to_string(bytes) + " bytes at offset " +
                                              std::to_string(offset) + " does not fit its cl_mem of " +
                                              std::to_string(size) + " bytes");
    if (offset != 0) {  // a sub-buffer cannot have sub-buffers of its own: a region of its root
      const auto [root, base] = root_of(mem);
      offset += base;
      mem = root;
    }
    if (v.offset_bytes == 0) {
      // From the start of the caller's cl_mem: share it itself.
      cl_check(clRetainMemObject(mem), "clRetainMemObject");
      try {
        return std::make_shared<ClBuffer>(mem, bytes);
      } catch (...) {
        clReleaseMemObject(mem);
        throw;
      }
    }
    if (bytes == 0) bytes = 1;  // a zero-sized region is invalid; nothing reads it when n == 0
    const std::size_t align = base_address_align();
    if (offset % align != 0)
      throw Error(errc::invalid_argument, "OpenCL view offset " + std::to_string(offset) + " must be a multiple of " +
                                              std::to_string(align) + " bytes (" + desc_.name +
                                              "'s CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
    return region_of(mem, offset, bytes);
  }

  void wait_for_native(const NativeQueue& native, Queue* q) override {
    cl_command_queue theirs = caller_queue(native);
    cl_event marker = nullptr;
    cl_check(clEnqueueMarkerWithWaitList(theirs, 0, nullptr, &marker), "clEnqueueMarkerWithWaitList (caller's queue)");
    // An event of one queue may be waited on from another only once its queue has been flushed.
    cl_int err = clFlush(theirs);
    if (err == CL_SUCCESS) err = clEnqueueBarrierWithWaitList(queue(q), 1, &marker, nullptr);
    clReleaseEvent(marker);
    cl_check(err, "ordering gpusort's queue after the caller's (clFlush / clEnqueueBarrierWithWaitList)");
  }

  std::unique_ptr<Event> signal_native(const NativeQueue& native, std::unique_ptr<Event> done, Queue* q) override {
    cl_command_queue theirs = caller_queue(native);
    if (!done) done = record(q);
    auto* event = dynamic_cast<ClEvent*>(done.get());
    if (!event) throw Error(errc::invalid_argument, "OpenCL: signal_native with an event of another backend");
    cl_event e = event->get();
    cl_check(clFlush(queue(q)), "clFlush");
    cl_check(clEnqueueBarrierWithWaitList(theirs, 1, &e, nullptr),
             "clEnqueueBarrierWithWaitList (ordering the caller's queue after the sort)");
    return done;
  }

 private:
  std::size_t base_address_align() const {
    return std::max<std::size_t>(1, device_value<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  }

  // The caller's OpenCL view, or Error(invalid_argument) for a CUDA view or a null cl_mem.
  const OpenCLView& caller_view(const NativeView& view) const {
    const auto* v = std::get_if<OpenCLView>(&view);
    if (!v) throw Error(errc::invalid_argument, "a CUDA view was given to the OpenCL device " + desc_.id);
    if (!v->mem) throw Error(errc::invalid_argument, "OpenCL view with a null cl_mem");
    return *v;
  }

  cl_command_queue caller_queue(const NativeQueue& native) const {
    const auto* nq = std::get_if<OpenCLQueue>(&native);
    if (!nq) throw Error(errc::invalid_argument, "a CUDA stream was given to the OpenCL device " + desc_.id);
    auto theirs = static_cast<cl_command_queue>(nq->queue);
    if (!theirs) throw Error(errc::invalid_argument, "OpenCL queue is null");
    cl_context owner = nullptr;
    cl_check(clGetCommandQueueInfo(theirs, CL_QUEUE_CONTEXT, sizeof owner, &owner, nullptr),
             "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)");
    // Events order work only between queues of one context.
    if (owner != context_)
      throw Error(errc::invalid_argument, "the command queue belongs to another cl_context than the gpusort::Context's; "
                                          "make the Context with gpusort::Context::from_opencl");
    return theirs;
  }

  std::unique_ptr<ClQueue> make_queue() {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
    cl_check(err, "clCreateCommandQueue");
    return std::make_unique<ClQueue>(q);
  }
  cl_command_queue queue(Queue* q) { return static_cast<ClQueue*>(q ? q : default_queue_.get())->get(); }
  std::mutex map_mutex_;
  std::unique_ptr<ClQueue> map_queue_;  // maps and unmaps host staging buffers (ClHostBuffer retains it)
  static cl_mem mem(const Buffer& b) { return static_cast<const ClBuffer&>(b).mem(); }
  std::size_t max_alloc() const { return device_value<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE); }

  std::string build_log(cl_program prog) {
    size_t size = 0;
    clGetProgramBuildInfo(prog, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    if (size) clGetProgramBuildInfo(prog, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return log;
  }

  cl_program compile(const std::string& file, const std::string& source, const std::string& options) {
    const char* text = source.c_str();
    size_t length = source.size();
    cl_int err = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(context_, 1, &text, &length, &err);
    cl_check(err, "clCreateProgramWithSource");
    // PoCL compiles in the calling thread, recursing per level of a run-time order's expressions
    run_with_large_stack([&] { err = clBuildProgram(prog, 1, &device_, options.c_str(), nullptr, nullptr); });
    if (err != CL_SUCCESS) {
      std::string log = build_log(prog);
      clReleaseProgram(prog);
      throw Error(errc::build_error, "OpenCL build of kernels/" + file + " failed (" + cl_error_name(err) +
                                         ") with options '" + options + "':\n" + with_comparator_lines(log, source));
    }
    return prog;
  }

  cl_program from_binary(const std::vector<unsigned char>& bin, const std::string& options) {
    const unsigned char* data = bin.data();
    size_t size = bin.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program prog = clCreateProgramWithBinary(context_, 1, &device_, &size, &data, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
      if (prog) clReleaseProgram(prog);
      return nullptr;  // stale or foreign binary: compile from source instead
    }
    if (clBuildProgram(prog, 1, &device_, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      clReleaseProgram(prog);
      return nullptr;
    }
    return prog;
  }

  std::optional<std::vector<unsigned char>> binary_of(cl_program prog) {
    size_t size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || size == 0)
      return std::nullopt;
    std::vector<unsigned char> bin(size);
    unsigned char* ptr = bin.data();
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS) return std::nullopt;
    return bin;
  }

  cl_platform_id platform_;
  cl_device_id device_;
  DeviceDescription desc_;
  cl_context context_ = nullptr;
  std::unique_ptr<ClQueue> default_queue_;
  ProgramMemo<ClProgram> programs_;
};

}  // namespace

std::vector<DeviceDescription> opencl_enumerate_devices() {
  std::vector<DeviceDescription> out;
  auto ps = platforms();
  for (size_t pi = 0; pi < ps.size(); ++pi) {
    auto ds = devices_of(ps[pi]);
    for (size_t di = 0; di < ds.size(); ++di) out.push_back(describe(ps[pi], ds[di], int(pi), int(di)));
  }
  return out;
}

std::vector<std::size_t> opencl_device_counts() {
  std::vector<std::size_t> counts;
  for (cl_platform_id p : platforms()) counts.push_back(devices_of(p).size());
  return counts;
}

DevicePtr opencl_open_shared(void* context, void* device) {
  auto ctx = static_cast<cl_context>(context);
  auto dev = static_cast<cl_device_id>(device);
  if (!ctx || !dev) throw Error(errc::invalid_argument, "Context::from_opencl: null cl_context or cl_device_id");
  cl_uint count = 0;
  cl_check(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr),
           "clGetContextInfo(CL_CONTEXT_NUM_DEVICES)");
  std::vector<cl_device_id> members(count);
  if (count)
    cl_check(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, count * sizeof(cl_device_id), members.data(), nullptr),
             "clGetContextInfo(CL_CONTEXT_DEVICES)");
  if (std::find(members.begin(), members.end(), dev) == members.end())
    throw Error(errc::invalid_argument, "Context::from_opencl: the cl_device_id is not a device of the cl_context");
  cl_platform_id platform = nullptr;
  cl_check(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr),
           "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
  // The same id as the device opened by name ("opencl:P:D"), so reports and caches agree.
  int pi = -1, di = -1;
  auto ps = platforms();
  for (std::size_t p = 0; p < ps.size() && pi < 0; ++p) {
    if (ps[p] != platform) continue;
    auto ds = devices_of(ps[p]);
    for (std::size_t d = 0; d < ds.size(); ++d)
      if (ds[d] == dev) pi = int(p), di = int(d);
  }
  DeviceDescription desc = describe(platform, dev, pi, di);
  if (pi < 0) desc.id = "opencl:shared";  // a sub-device or a device its platform does not list
  return std::make_shared<ClDevice>(platform, dev, std::move(desc), ctx);
}

DevicePtr opencl_open_device(int platform, int device) {
  auto ps = platforms();
  if (platform < 0 || size_t(platform) >= ps.size())
    throw Error(errc::unsupported, "no OpenCL platform " + std::to_string(platform) + " (found " +
                                       std::to_string(ps.size()) + ")");
  auto ds = devices_of(ps[platform]);
  if (device < 0 || size_t(device) >= ds.size())
    throw Error(errc::unsupported, "OpenCL platform " + std::to_string(platform) + " has no device " +
                                       std::to_string(device) + " (found " + std::to_string(ds.size()) + ")");
  return std::make_shared<ClDevice>(ps[platform], ds[device], describe(ps[platform], ds[device], platform, device));
}

}  // namespace gpusort::rt
