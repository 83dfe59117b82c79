#pragma once
// A scope guard for code that queues device work without waiting for it: when the scope is left
// by an exception, it waits for everything queued on the device before the buffers that work uses
// are freed by the unwinding (errors while waiting are dropped: the first error is the one that
// counts). On a normal exit it does nothing.
#include <exception>

#include "runtime/device.hpp"

namespace gpusort::rt {

class DrainOnUnwind {
 public:
  explicit DrainOnUnwind(Device& device) : device_(device), exceptions_(std::uncaught_exceptions()) {}
  DrainOnUnwind(const DrainOnUnwind&) = delete;
  DrainOnUnwind& operator=(const DrainOnUnwind&) = delete;
  ~DrainOnUnwind() {
    if (std::uncaught_exceptions() <= exceptions_) return;
    try {
      device_.finish();
    } catch (...) {
    }
  }

 private:
  Device& device_;
  int exceptions_;  // in flight when the guard was made (a guard inside a destructor's cleanup)
};

}  // namespace gpusort::rt
