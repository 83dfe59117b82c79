#pragma once
// The program-build flow both backends share (CUDA: NVRTC and the driver's modules; OpenCL:
// clBuildProgram): a device builds each (kernel file, defines) once, and each build comes from the
// disk cache (program_cache.hpp) where it can. The backend passes in its own steps.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/kernel_sources.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::rt {

// What a backend's compile step returns: the program, and the binary the disk cache keeps for later
// processes (none: the build is not cached).
template <class Built>
struct CompiledProgram {
  Built program;
  std::optional<std::vector<unsigned char>> binary;
};

// Where a build's cache entry belongs: the backend, device and driver that made it.
struct BuildIdentity {
  std::string backend, device, driver;
};

// One build of kernels/<kernel_file>: the source assembled, the cache key of the identity, source and
// options; then load(binary) on a cached binary (a Built that converts to false when the binary is
// stale or foreign), else compile(source), a CompiledProgram<Built>, whose binary is stored.
template <class Built, class Load, class Compile>
Built load_or_compile(const BuildIdentity& id, const std::string& kernel_file, const std::string& options, Load&& load,
                      Compile&& compile) {
  const std::string source = assemble_kernel_source(kernel_file);
  const std::string key = program_cache_key(id.backend, id.device, id.driver, source, options);
  if (auto binary = program_cache_load(key)) {
    if (Built built = load(*binary)) {
      note_program_loaded();
      return built;
    }
  }
  CompiledProgram<Built> compiled = compile(source);
  note_program_compiled();
  if (compiled.binary) program_cache_store(key, *compiled.binary);
  return std::move(compiled.program);
}

// A device's programs by kernel file and defines, each built once: on a miss, build() (under the
// lock; a std::unique_ptr<P>) is kept for every later lookup. A build that throws keeps nothing.
template <class P>
class ProgramMemo {
 public:
  template <class Build>
  P& get(const std::string& kernel_file, const std::vector<std::string>& defines, Build&& build) {
    std::string key = program_memo_key(kernel_file, defines);
    std::lock_guard lock(mutex_);
    if (auto it = programs_.find(key); it != programs_.end()) return *it->second;
    std::unique_ptr<P> built = build();
    auto& slot = programs_[std::move(key)];
    slot = std::move(built);
    return *slot;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    programs_.clear();
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<P>> programs_;
};

}  // namespace gpusort::rt
