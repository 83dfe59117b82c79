// The names of the error categories (gpusort/errors.hpp).
#include "gpusort/errors.hpp"

namespace gpusort {

const char* to_string(errc code) noexcept {
  switch (code) {
    case errc::invalid_argument: return "invalid argument";
    case errc::unsupported: return "unsupported";
    case errc::out_of_memory: return "out of memory";
    case errc::device_error: return "device error";
    case errc::build_error: return "kernel build error";
    case errc::io_error: return "i/o error";
  }
  return "error";
}

}  // namespace gpusort
