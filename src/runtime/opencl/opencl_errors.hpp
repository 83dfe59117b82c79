#pragma once
// OpenCL status codes to names and gpusort::Error.
#include <string>

#include "gpusort/errors.hpp"

namespace gpusort::rt {

std::string cl_error_name(int status);
// Throws Error (out_of_memory for allocation failures, device_error otherwise) unless status is 0.
void cl_check(int status, const std::string& what);

}  // namespace gpusort::rt
