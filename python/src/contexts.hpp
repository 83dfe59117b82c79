#pragma once
// One gpusort::Context per device for the whole process, opened on first use: opening a device
// and compiling its kernels is the slow part, so every later sort on that device reuses them.
#include <mutex>
#include <string>

#include "gpusort/context.hpp"

namespace gpusort::python {

struct SharedContext {
  Context context;
  // A Context serves one sort at a time; Python threads (the GIL is released while sorting) queue here.
  std::mutex busy;
  explicit SharedContext(const std::string& id) : context(id) {}
};

// id: "" for the default device ($GPUSORT_DEVICE, else the best one), or "cuda:0", "opencl:0:0".
// Call without the GIL: opening a device can take a while. Throws gpusort::Error(invalid_argument) for a bad id
// (malformed, or naming a device this machine lacks).
SharedContext& shared_context(const std::string& id);

}  // namespace gpusort::python
