#pragma once
// Raising Python exceptions from C++ with a message (the GIL must be held).
#include <Python.h>

#include <string>

namespace gpusort::python {

// Sets `type` with `message` and throws nanobind::python_error, which nanobind hands to Python.
[[noreturn]] void raise(PyObject* type, const std::string& message);

}  // namespace gpusort::python
