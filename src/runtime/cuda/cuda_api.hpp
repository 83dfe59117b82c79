#pragma once
// The small part of the CUDA driver API and of NVRTC that the CUDA backend uses, declared here so
// the library builds without the CUDA toolkit. Both libraries are opened with dlopen at first use
// (cuda_api() / nvrtc_api()); values and signatures are those of cuda.h / nvrtc.h (CUDA 11-13).
#include <cstddef>
#include <string>

namespace gpusort::rt::cuda {

// ---- driver API types -------------------------------------------------------------------------
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;

// CUdevice_attribute
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;  // the kernel's static shared memory

inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0x0;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
// CUpointer_attribute
inline constexpr int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;

// cuLaunchKernelEx's configuration (cuda.h: CUlaunchAttribute_st, CUlaunchConfig_st), with the one
// attribute used here
inline constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;
struct alignas(8) CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union {
    char pad[64];
    int programmaticStreamSerializationAllowed;
  } value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned numAttrs;
};
static_assert(sizeof(CUlaunchAttribute) == 72 && alignof(CUlaunchAttribute) == 8 && offsetof(CUlaunchAttribute, value) == 8 &&
                  sizeof(CUlaunchConfig) == 56 && offsetof(CUlaunchConfig, hStream) == 32 &&
                  offsetof(CUlaunchConfig, attrs) == 40 && offsetof(CUlaunchConfig, numAttrs) == 48,
              "cuda.h's launch configuration layout");

// ---- NVRTC types ------------------------------------------------------------------------------
using nvrtcResult = int;
struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;
inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;

// ---- the loaded driver --------------------------------------------------------------------------
struct DriverApi {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char** str) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char** str) = nullptr;

  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int len, CUdevice dev) = nullptr;
  CUresult (*cuDeviceTotalMem_v2)(std::size_t* bytes, CUdevice dev) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, int attrib, CUdevice dev) = nullptr;

  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* ctx, CUdevice dev) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice dev) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext ctx) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext* ctx) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;

  CUresult (*cuMemGetInfo_v2)(std::size_t* free, std::size_t* total) = nullptr;
  CUresult (*cuMemAlloc_v2)(CUdeviceptr* dptr, std::size_t bytes) = nullptr;
  CUresult (*cuMemFree_v2)(CUdeviceptr dptr) = nullptr;
  CUresult (*cuMemHostAlloc)(void** pp, std::size_t bytes, unsigned flags) = nullptr;
  CUresult (*cuMemFreeHost)(void* p) = nullptr;
  CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync_v2)(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream stream) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, std::size_t count, CUstream stream) = nullptr;

  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy_v2)(CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags) = nullptr;
  // Optional: lets wrap() check that a caller's pointer is on the device (absent: not checked).
  CUresult (*cuPointerGetAttribute)(void* data, int attribute, CUdeviceptr ptr) = nullptr;

  CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  // cuEventElapsedTime_v2 where the driver has it (12.8+), else cuEventElapsedTime; same signature.
  CUresult (*cuEventElapsedTime)(float* ms, CUevent start, CUevent end) = nullptr;
  CUresult (*cuEventDestroy_v2)(CUevent event) = nullptr;

  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction* fn, CUmodule module, const char* name) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction fn, int attrib, int value) = nullptr;
  CUresult (*cuFuncGetAttribute)(int* value, int attrib, CUfunction fn) = nullptr;  // optional
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                             unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,
                             void** params, void** extra) = nullptr;
  // Optional (CUDA 11.8+): launches with attributes (programmatic dependent launch).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) = nullptr;
  // Optional (CUDA 12.4+): lets launch() check argument sizes against the kernel's parameters.
  CUresult (*cuFuncGetParamInfo)(CUfunction fn, std::size_t index, std::size_t* offset, std::size_t* size) = nullptr;

  int version = 0;  // cuDriverGetVersion, e.g. 12040
};

struct NvrtcApi {
  const char* (*nvrtcGetErrorString)(nvrtcResult result) = nullptr;
  nvrtcResult (*nvrtcVersion)(int* major, int* minor) = nullptr;
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram* prog, const char* src, const char* name, int num_headers,
                                    const char* const* headers, const char* const* include_names) = nullptr;
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram* prog) = nullptr;
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram prog, int num_options, const char* const* options) = nullptr;
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram prog, std::size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram prog, char* log) = nullptr;
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram prog, std::size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram prog, char* ptx) = nullptr;
  // Optional: cubin output (NVRTC 11.1+) and the list of supported architectures (11.2+).
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram prog, std::size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram prog, char* cubin) = nullptr;
  nvrtcResult (*nvrtcGetNumSupportedArchs)(int* count) = nullptr;
  nvrtcResult (*nvrtcGetSupportedArchs)(int* archs) = nullptr;

  int major = 0, minor = 0;
  std::string path;  // the library that was opened
};

// The driver, loaded and cuInit'ed once per process; nullptr if unavailable (then *why says why).
// Never throws.
const DriverApi* cuda_api(std::string* why = nullptr);
// NVRTC, loaded once per process; nullptr if unavailable (then *why says why). Never throws.
const NvrtcApi* nvrtc_api(std::string* why = nullptr);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" or "CUDA error 2" when the driver cannot say.
std::string cuda_error_text(CUresult code);
// Throws gpusort::Error unless code is CUDA_SUCCESS: out_of_memory for CUDA_ERROR_OUT_OF_MEMORY,
// device_error otherwise; the message is "CUDA: <what> failed: <error name> (<description>)".
void cuda_check(CUresult code, const std::string& what);
void cuda_check(CUresult code, const char* what);

}  // namespace gpusort::rt::cuda
