#pragma once
// Every failure gpusort reports is a gpusort::Error carrying a category and a message that says
// what went wrong and why. An error before the results are written back leaves the caller's data
// unchanged; one during the copy back (a device lost) can leave host arrays partly overwritten, as
// each entry point says (sort_host, argsort_host; out-of-core sorts then restore every element).
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
