#include "contexts.hpp"

#include <map>
#include <memory>

#include "gpusort/errors.hpp"

namespace gpusort::python {

SharedContext& shared_context(const std::string& id) {
  static std::mutex mutex;
  // Never destroyed: tearing devices down while the process exits races the OpenCL and CUDA
  // drivers' own teardown, and the operating system frees everything anyway.
  static auto* by_id = new std::map<std::string, SharedContext*>();
  std::lock_guard lock(mutex);
  if (auto it = by_id->find(id); it != by_id->end()) return *it->second;
  std::unique_ptr<SharedContext> opened;
  try {
    opened = std::make_unique<SharedContext>(id);
  } catch (const Error& e) {
    // A device id this machine lacks is a bad argument of the Python call (ValueError), as a
    // malformed one is; the library calls it unsupported, meaning the machine cannot serve it.
    if (!id.empty() && e.code() == errc::unsupported) throw Error(errc::invalid_argument, e.what());
    throw;
  }
  // One context per device, whatever the spelling: "" (the default) and the default's own id, say.
  auto [it, inserted] = by_id->try_emplace(opened->context.device().id, opened.get());
  if (inserted) opened.release();  // kept for the life of the process (above)
  (*by_id)[id] = it->second;
  return *it->second;
}

}  // namespace gpusort::python
