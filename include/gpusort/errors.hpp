#pragma once
// Every failure gpusort reports is a gpusort::Error carrying a category and a message that says
// what went wrong and why. The caller's data is never modified when one is thrown.
#include <stdexcept>
#include <string>

namespace gpusort {

enum class errc {
  invalid_argument,  // bad input from the caller (size mismatch, unknown name, stable on an unstable algorithm)
  unsupported,       // a valid request this build or device cannot serve (no such backend, too large for O(n^2))
  out_of_memory,     // device or host memory exhausted
  device_error,      // the device or driver failed
  build_error,       // a kernel failed to compile; the message carries the compiler log
  io_error,          // file input/output (CLI)
};

const char* to_string(errc code) noexcept;

class Error : public std::runtime_error {
 public:
  Error(errc code, const std::string& message) : std::runtime_error(message), code_(code) {}
  errc code() const noexcept { return code_; }

 private:
  errc code_;
};

}  // namespace gpusort
