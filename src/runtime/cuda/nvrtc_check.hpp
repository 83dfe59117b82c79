#pragma once
// NVRTC compilation as the CUDA backend does it, usable without a GPU: the tests compile every
// embedded kernel file with it so kernel-dialect errors show up on machines that only have the
// toolkit (or just libnvrtc).
#include <string>
#include <vector>

namespace gpusort::rt {

// True when NVRTC can be loaded; otherwise *why (if given) says why. Never throws.
bool nvrtc_available(std::string* why = nullptr);
// "NVRTC 13.0" (empty when unavailable).
std::string nvrtc_version_string();

// The target NVRTC should compile for on a device of compute capability sm (major*10+minor):
// "sm_XY" (a cubin) when this NVRTC supports that architecture and can emit cubins, else
// "compute_XY" (PTX for the driver to JIT) for the newest architecture it supports that is not
// newer than the device. Throws Error(unsupported) if NVRTC supports nothing that old.
struct NvrtcTarget {
  std::string arch;  // the value of -arch=
  bool cubin = true;
  int sm = 0;  // the architecture compiled for (the XY of arch): __CUDA_ARCH__ / 10 in the kernels
};
NvrtcTarget nvrtc_target_for(int sm);

// The options the backend passes: -DNAME[=VALUE] per define, -arch=<arch>, -std=c++17.
std::vector<std::string> nvrtc_options(const std::vector<std::string>& defines, const std::string& arch);

// Compiles source with these options; "" on success, else the compiler's log (never empty on
// failure). Throws Error(unsupported) if NVRTC is unavailable.
std::string nvrtc_compile_check(const std::string& source, const std::vector<std::string>& options);

// Compiles and returns the cubin (cubin = true) or the NUL-terminated PTX. Throws Error(build_error)
// with the full log (and the options) on failure; name is used in messages and the log.
std::vector<unsigned char> nvrtc_compile(const std::string& source, const std::string& name,
                                         const std::vector<std::string>& options, bool cubin);

}  // namespace gpusort::rt
