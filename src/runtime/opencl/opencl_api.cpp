// dlopen loader for the OpenCL ICD loader. Opened once per process, on first use, and never closed:
// drivers' objects may be released by static destructors at exit.
#include "runtime/opencl/opencl_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <type_traits>
#include <vector>

#include "gpusort/errors.hpp"

namespace gpusort::rt {
namespace {

struct LoaderState {
  OpenClApi api;
  std::string why;
  bool ok = false;
};

std::vector<std::string> loader_names() {
  if (const char* chosen = std::getenv("GPUSORT_OPENCL_LIBRARY"); chosen && *chosen) return {chosen};
  return {"libOpenCL.so.1", "libOpenCL.so"};
}

LoaderState load_loader() {
  LoaderState s;
  const std::vector<std::string> names = loader_names();
  void* lib = nullptr;
  std::string path, failures;
  bool only_absent = true;  // every name failed for want of the file, not for a broken one
  for (const auto& name : names) {
    lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      path = name;
      break;
    }
    const char* e = dlerror();
    const std::string error = e ? e : "unknown dlopen error";
    if (error.find("No such file or directory") == std::string::npos) only_absent = false;
    failures += (failures.empty() ? "" : "; ") + error;
  }
  if (!lib) {
    s.why = only_absent ? "no OpenCL loader (" + names.front() +
                              ") found; install an ICD loader such as ocl-icd-libopencl1"
                        : "the OpenCL loader could not be loaded (" + failures + ")";
    return s;
  }
  std::string missing;
  auto resolve = [&](const char* name, auto& slot) {
    void* p = dlsym(lib, name);
    if (!p) missing += (missing.empty() ? "" : ", ") + std::string(name);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(p);
  };
#define GPUSORT_OPENCL_RESOLVE(name) resolve(#name, s.api.name);
  GPUSORT_OPENCL_FUNCTIONS(GPUSORT_OPENCL_RESOLVE)
#undef GPUSORT_OPENCL_RESOLVE
  if (!missing.empty()) {
    s.why = "the OpenCL loader " + path + " lacks OpenCL 1.2 functions (" + missing + ")";
    return s;
  }
  s.ok = true;
  return s;
}

}  // namespace

const OpenClApi* opencl_api(std::string* why) {
  static const LoaderState state = load_loader();  // thread-safe one-time initialisation
  if (!state.ok && why) *why = state.why;
  return state.ok ? &state.api : nullptr;
}

const OpenClApi& cl_api() {
  if (const OpenClApi* api = opencl_api()) return *api;
  std::string why;
  opencl_api(&why);
  throw Error(errc::unsupported, "OpenCL is unavailable: " + why);
}

}  // namespace gpusort::rt
