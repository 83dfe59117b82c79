#include "runtime/cuda/nvrtc_check.hpp"

#include <algorithm>

#include "gpusort/errors.hpp"
#include "runtime/cuda/cuda_api.hpp"
#include "runtime/kernel_sources.hpp"
#include "runtime/large_stack.hpp"

namespace gpusort::rt {
namespace {

using namespace cuda;

const NvrtcApi& require_nvrtc() {
  std::string why;
  const NvrtcApi* a = nvrtc_api(&why);
  if (!a) throw Error(errc::unsupported, "CUDA backend: " + why);
  return *a;
}

std::string nvrtc_text(const NvrtcApi& a, nvrtcResult r) {
  const char* s = a.nvrtcGetErrorString(r);
  return s ? s : "NVRTC error " + std::to_string(r);
}

// One NVRTC program, destroyed on scope exit.
class NvrtcProgram {
 public:
  NvrtcProgram(const NvrtcApi& a, const std::string& source, const std::string& name) : a_(a) {
    nvrtcResult r = a_.nvrtcCreateProgram(&prog_, source.c_str(), name.c_str(), 0, nullptr, nullptr);
    if (r != NVRTC_SUCCESS) {
      prog_ = nullptr;
      throw Error(errc::build_error, "NVRTC: nvrtcCreateProgram(" + name + ") failed: " + nvrtc_text(a_, r));
    }
  }
  ~NvrtcProgram() {
    if (prog_) a_.nvrtcDestroyProgram(&prog_);
  }
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;

  // Returns the result of nvrtcCompileProgram; *log receives the compiler's log.
  nvrtcResult compile(const std::vector<std::string>& options, std::string* log) {
    std::vector<const char*> opts;
    opts.reserve(options.size());
    for (const auto& o : options) opts.push_back(o.c_str());
    nvrtcResult r = NVRTC_SUCCESS;
    // NVRTC compiles in the calling thread, recursing per level of a run-time order's expressions
    run_with_large_stack([&] { r = a_.nvrtcCompileProgram(prog_, static_cast<int>(opts.size()), opts.data()); });
    log->clear();
    std::size_t size = 0;
    if (a_.nvrtcGetProgramLogSize(prog_, &size) == NVRTC_SUCCESS && size > 1) {
      std::string text(size, '\0');
      if (a_.nvrtcGetProgramLog(prog_, text.data()) == NVRTC_SUCCESS) {
        while (!text.empty() && text.back() == '\0') text.pop_back();
        *log = std::move(text);
      }
    }
    if (r != NVRTC_SUCCESS && log->empty()) *log = "nvrtcCompileProgram failed: " + nvrtc_text(a_, r);
    return r;
  }

  std::vector<unsigned char> output(bool cubin, const std::string& name) {
    std::size_t size = 0;
    nvrtcResult r = cubin ? a_.nvrtcGetCUBINSize(prog_, &size) : a_.nvrtcGetPTXSize(prog_, &size);
    if (r != NVRTC_SUCCESS || size == 0)
      throw Error(errc::build_error, "NVRTC: no " + std::string(cubin ? "cubin" : "PTX") + " for " + name + ": " +
                                         (r != NVRTC_SUCCESS ? nvrtc_text(a_, r) : std::string("empty output")));
    std::vector<unsigned char> out(size);
    r = cubin ? a_.nvrtcGetCUBIN(prog_, reinterpret_cast<char*>(out.data()))
              : a_.nvrtcGetPTX(prog_, reinterpret_cast<char*>(out.data()));
    if (r != NVRTC_SUCCESS)
      throw Error(errc::build_error, "NVRTC: fetching the output for " + name + " failed: " + nvrtc_text(a_, r));
    if (!cubin && out.back() != '\0') out.push_back('\0');  // cuModuleLoadData wants a C string for PTX
    return out;
  }

 private:
  const NvrtcApi& a_;
  nvrtcProgram prog_ = nullptr;
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace

bool nvrtc_available(std::string* why) { return nvrtc_api(why) != nullptr; }

std::string nvrtc_version_string() {
  const NvrtcApi* a = nvrtc_api();
  if (!a) return {};
  return "NVRTC " + std::to_string(a->major) + "." + std::to_string(a->minor);
}

NvrtcTarget nvrtc_target_for(int sm) {
  const NvrtcApi& a = require_nvrtc();
  std::vector<int> archs;
  int n = 0;
  if (a.nvrtcGetNumSupportedArchs && a.nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0) {
    archs.resize(static_cast<std::size_t>(n));
    if (a.nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) archs.clear();
  }
  const bool can_cubin = a.nvrtcGetCUBIN != nullptr;
  if (archs.empty()) {
    // An NVRTC this old cannot list its targets: trust it with the device's own architecture.
    return can_cubin ? NvrtcTarget{"sm_" + std::to_string(sm), true, sm}
                     : NvrtcTarget{"compute_" + std::to_string(sm), false, sm};
  }
  if (can_cubin && std::find(archs.begin(), archs.end(), sm) != archs.end())
    return {"sm_" + std::to_string(sm), true, sm};
  int best = -1;
  for (int x : archs)
    if (x <= sm) best = std::max(best, x);
  if (best < 0)
    throw Error(errc::unsupported, "CUDA backend: " + nvrtc_version_string() + " cannot compile for sm_" +
                                       std::to_string(sm) + " (oldest supported: sm_" +
                                       std::to_string(*std::min_element(archs.begin(), archs.end())) + ")");
  return {"compute_" + std::to_string(best), false, best};
}

std::vector<std::string> nvrtc_options(const std::vector<std::string>& defines, const std::string& arch) {
  std::vector<std::string> out;
  out.reserve(defines.size() + 2);
  for (const auto& d : defines) out.push_back("-D" + d);
  out.push_back("-arch=" + arch);
  out.push_back("-std=c++17");
  return out;
}

std::string nvrtc_compile_check(const std::string& source, const std::vector<std::string>& options) {
  const NvrtcApi& a = require_nvrtc();
  NvrtcProgram prog(a, source, "nvrtc_check.cu");
  std::string log;
  if (prog.compile(options, &log) == NVRTC_SUCCESS) return {};
  return log;
}

std::vector<unsigned char> nvrtc_compile(const std::string& source, const std::string& name,
                                         const std::vector<std::string>& options, bool cubin) {
  const NvrtcApi& a = require_nvrtc();
  if (cubin && !a.nvrtcGetCUBIN)
    throw Error(errc::unsupported, "CUDA backend: " + nvrtc_version_string() + " cannot emit cubins");
  NvrtcProgram prog(a, source, name);
  std::string log;
  nvrtcResult r = prog.compile(options, &log);
  if (r != NVRTC_SUCCESS)
    throw Error(errc::build_error, "NVRTC failed to compile " + name + " (" + nvrtc_version_string() +
                                       ", options: " + join(options) + "): " + nvrtc_text(a, r) + "\n" +
                                       with_comparator_lines(log, source));
  return prog.output(cubin, name);
}

}  // namespace gpusort::rt
