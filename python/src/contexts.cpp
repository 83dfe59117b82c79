#include "contexts.hpp"

#include <map>
#include <memory>

namespace gpusort::python {

SharedContext& shared_context(const std::string& id) {
  static std::mutex mutex;
  // Never destroyed: tearing devices down while the process exits races the OpenCL and CUDA
  // drivers' own teardown, and the operating system frees everything anyway.
  static auto* by_id = new std::map<std::string, SharedContext*>();
  std::lock_guard lock(mutex);
  if (auto it = by_id->find(id); it != by_id->end()) return *it->second;
  auto opened = std::make_unique<SharedContext>(id);
  // One context per device, whatever the spelling: "" (the default) and the default's own id, say.
  auto [it, inserted] = by_id->try_emplace(opened->context.device().id, opened.get());
  if (inserted) opened.release();  // kept for the life of the process (above)
  (*by_id)[id] = it->second;
  return *it->second;
}

}  // namespace gpusort::python
