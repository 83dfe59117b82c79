// dlopen loader for libcuda and NVRTC. Each library is opened once per process, on first use, and
// never closed (driver objects may be released by static destructors at exit).
#include "runtime/cuda/cuda_api.hpp"

#include <dlfcn.h>
#include <glob.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "gpusort/errors.hpp"

namespace gpusort::rt::cuda {
namespace {

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dlopen error";
}

template <class Fn>
bool load_symbol(void* lib, const char* name, Fn& out) {
  dlerror();
  void* p = dlsym(lib, name);
  if (!p) return false;
  out = reinterpret_cast<Fn>(p);
  return true;
}

struct DriverState {
  DriverApi api;
  std::string why;
  bool ok = false;
};

DriverState load_driver() {
  DriverState s;
  void* lib = nullptr;
  std::string errors;
  for (const char* name : {"libcuda.so.1", "libcuda.so"}) {
    lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib) break;
    errors += (errors.empty() ? "" : "; ") + dl_error();
  }
  if (!lib) {
    s.why = "the NVIDIA driver library libcuda.so.1 could not be loaded (" + errors + ")";
    return s;
  }
  DriverApi& a = s.api;
  std::string missing;
#define GS_REQUIRED(sym) \
  if (!load_symbol(lib, #sym, a.sym)) missing += (missing.empty() ? "" : ", ") + std::string(#sym)
  GS_REQUIRED(cuInit);
  GS_REQUIRED(cuDriverGetVersion);
  GS_REQUIRED(cuGetErrorString);
  GS_REQUIRED(cuGetErrorName);
  GS_REQUIRED(cuDeviceGetCount);
  GS_REQUIRED(cuDeviceGet);
  GS_REQUIRED(cuDeviceGetName);
  GS_REQUIRED(cuDeviceTotalMem_v2);
  GS_REQUIRED(cuDeviceGetAttribute);
  GS_REQUIRED(cuDevicePrimaryCtxRetain);
  GS_REQUIRED(cuDevicePrimaryCtxRelease_v2);
  GS_REQUIRED(cuCtxSetCurrent);
  GS_REQUIRED(cuCtxGetCurrent);
  GS_REQUIRED(cuCtxSynchronize);
  GS_REQUIRED(cuMemGetInfo_v2);
  GS_REQUIRED(cuMemAlloc_v2);
  GS_REQUIRED(cuMemFree_v2);
  GS_REQUIRED(cuMemHostAlloc);
  GS_REQUIRED(cuMemFreeHost);
  GS_REQUIRED(cuMemcpyHtoDAsync_v2);
  GS_REQUIRED(cuMemcpyDtoHAsync_v2);
  GS_REQUIRED(cuMemcpyDtoDAsync_v2);
  GS_REQUIRED(cuMemsetD8Async);
  GS_REQUIRED(cuStreamCreate);
  GS_REQUIRED(cuStreamDestroy_v2);
  GS_REQUIRED(cuStreamSynchronize);
  GS_REQUIRED(cuStreamWaitEvent);
  GS_REQUIRED(cuEventCreate);
  GS_REQUIRED(cuEventRecord);
  GS_REQUIRED(cuEventSynchronize);
  GS_REQUIRED(cuEventDestroy_v2);
  GS_REQUIRED(cuModuleLoadData);
  GS_REQUIRED(cuModuleUnload);
  GS_REQUIRED(cuModuleGetFunction);
  GS_REQUIRED(cuFuncSetAttribute);
  GS_REQUIRED(cuLaunchKernel);
#undef GS_REQUIRED
  if (!load_symbol(lib, "cuEventElapsedTime_v2", a.cuEventElapsedTime) &&
      !load_symbol(lib, "cuEventElapsedTime", a.cuEventElapsedTime))
    missing += (missing.empty() ? "" : ", ") + std::string("cuEventElapsedTime");
  load_symbol(lib, "cuLaunchKernelEx", a.cuLaunchKernelEx);  // optional
  load_symbol(lib, "cuFuncGetParamInfo", a.cuFuncGetParamInfo);  // optional
  load_symbol(lib, "cuFuncGetAttribute", a.cuFuncGetAttribute);  // optional
  load_symbol(lib, "cuPointerGetAttribute", a.cuPointerGetAttribute);  // optional
  if (!missing.empty()) {
    s.why = "the NVIDIA driver library is too old (missing " + missing + ")";
    return s;
  }
  CUresult r = a.cuInit(0);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    a.cuGetErrorName(r, &name);
    const char* text = nullptr;
    a.cuGetErrorString(r, &text);
    s.why = std::string("cuInit failed: ") + (name ? name : "CUDA error " + std::to_string(r)) +
            (text ? std::string(" (") + text + ")" : std::string());
    if (r == CUDA_ERROR_NO_DEVICE) s.why = "no CUDA device is present (" + s.why + ")";
    if (r == CUDA_ERROR_STUB_LIBRARY) s.why = "only the CUDA stub library is installed, not a driver (" + s.why + ")";
    return s;
  }
  if (a.cuDriverGetVersion(&a.version) != CUDA_SUCCESS) a.version = 0;
  s.ok = true;
  return s;
}

struct NvrtcState {
  NvrtcApi api;
  std::string why;
  bool ok = false;
};

std::vector<std::string> nvrtc_candidates() {
  std::vector<std::string> out;
  if (const char* p = std::getenv("GPUSORT_NVRTC_LIBRARY"); p && *p) out.emplace_back(p);
  // An NVRTC of the driver's own major version first: its output is what that driver loads best.
  if (const DriverApi* d = cuda_api(); d && d->version >= 11000)
    out.push_back("libnvrtc.so." + std::to_string(d->version / 1000));
  for (const char* n : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) out.emplace_back(n);
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* h = std::getenv(var); h && *h) dirs.push_back(std::string(h) + "/lib64");
  dirs.emplace_back("/usr/local/cuda/lib64");
  for (const auto& dir : dirs) {
    glob_t g{};
    if (glob((dir + "/libnvrtc.so*").c_str(), 0, nullptr, &g) == 0) {
      std::vector<std::string> found(g.gl_pathv, g.gl_pathv + g.gl_pathc);
      std::sort(found.rbegin(), found.rend());  // the most specific version first
      for (auto& f : found) out.push_back(std::move(f));
    }
    globfree(&g);
  }
  return out;
}

NvrtcState load_nvrtc() {
  NvrtcState s;
  void* lib = nullptr;
  std::string path, errors;
  for (const auto& name : nvrtc_candidates()) {
    lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      path = name;
      break;
    }
    errors += (errors.empty() ? "" : "; ") + dl_error();
  }
  if (!lib) {
    s.why = "NVRTC (libnvrtc.so) could not be loaded; install the CUDA toolkit's NVRTC or set CUDA_HOME (" +
            errors + ")";
    return s;
  }
  NvrtcApi& a = s.api;
  a.path = path;
  std::string missing;
#define GS_REQUIRED(sym) \
  if (!load_symbol(lib, #sym, a.sym)) missing += (missing.empty() ? "" : ", ") + std::string(#sym)
  GS_REQUIRED(nvrtcGetErrorString);
  GS_REQUIRED(nvrtcVersion);
  GS_REQUIRED(nvrtcCreateProgram);
  GS_REQUIRED(nvrtcDestroyProgram);
  GS_REQUIRED(nvrtcCompileProgram);
  GS_REQUIRED(nvrtcGetProgramLogSize);
  GS_REQUIRED(nvrtcGetProgramLog);
  GS_REQUIRED(nvrtcGetPTXSize);
  GS_REQUIRED(nvrtcGetPTX);
#undef GS_REQUIRED
  // Optional: without them we compile to PTX for the driver to finish.
  if (!load_symbol(lib, "nvrtcGetCUBINSize", a.nvrtcGetCUBINSize) || !load_symbol(lib, "nvrtcGetCUBIN", a.nvrtcGetCUBIN))
    a.nvrtcGetCUBINSize = nullptr, a.nvrtcGetCUBIN = nullptr;
  if (!load_symbol(lib, "nvrtcGetNumSupportedArchs", a.nvrtcGetNumSupportedArchs) ||
      !load_symbol(lib, "nvrtcGetSupportedArchs", a.nvrtcGetSupportedArchs))
    a.nvrtcGetNumSupportedArchs = nullptr, a.nvrtcGetSupportedArchs = nullptr;
  if (!missing.empty()) {
    s.why = "NVRTC at " + path + " lacks " + missing;
    return s;
  }
  if (a.nvrtcVersion(&a.major, &a.minor) != NVRTC_SUCCESS) {
    s.why = "nvrtcVersion failed for " + path;
    return s;
  }
  s.ok = true;
  return s;
}

}  // namespace

const DriverApi* cuda_api(std::string* why) {
  static const DriverState state = load_driver();  // thread-safe one-time initialisation
  if (!state.ok && why) *why = state.why;
  return state.ok ? &state.api : nullptr;
}

const NvrtcApi* nvrtc_api(std::string* why) {
  static const NvrtcState state = load_nvrtc();
  if (!state.ok && why) *why = state.why;
  return state.ok ? &state.api : nullptr;
}

std::string cuda_error_text(CUresult code) {
  const DriverApi* a = cuda_api();
  const char* name = nullptr;
  const char* text = nullptr;
  if (a) {
    if (a->cuGetErrorName(code, &name) != CUDA_SUCCESS) name = nullptr;
    if (a->cuGetErrorString(code, &text) != CUDA_SUCCESS) text = nullptr;
  }
  std::string out = name ? std::string(name) : "CUDA error " + std::to_string(code);
  if (text) out += std::string(" (") + text + ")";
  return out;
}

void cuda_check(CUresult code, const std::string& what) {
  if (code == CUDA_SUCCESS) return;
  throw Error(code == CUDA_ERROR_OUT_OF_MEMORY ? errc::out_of_memory : errc::device_error,
              "CUDA: " + what + " failed: " + cuda_error_text(code));
}

void cuda_check(CUresult code, const char* what) {
  if (code == CUDA_SUCCESS) return;
  cuda_check(code, std::string(what));
}

}  // namespace gpusort::rt::cuda
