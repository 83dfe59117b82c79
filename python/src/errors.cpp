// gpusort's errors as Python exceptions. Every gpusort::Error becomes a gpusort.Error; each
// category is also the built-in exception Python code would catch for it, so `except ValueError`
// works for bad arguments and `except MemoryError` for exhausted device memory:
//   Error(RuntimeError)
//     InvalidArgumentError(Error, ValueError)        errc::invalid_argument
//     UnsupportedError(Error, NotImplementedError)   errc::unsupported
//     OutOfMemoryError(Error, MemoryError)           errc::out_of_memory
//     DeviceError(Error)                             errc::device_error (and io_error)
//     KernelBuildError(Error)                        errc::build_error
#include <nanobind/nanobind.h>

#include <cstring>
#include <exception>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "errors.hpp"
#include "gpusort/errors.hpp"

namespace nb = nanobind;

namespace gpusort::python {
namespace {

// Created once at import and never freed: the translator may run until the interpreter exits.
struct ExceptionTypes {
  PyObject* error = nullptr;
  PyObject* invalid_argument = nullptr;
  PyObject* unsupported = nullptr;
  PyObject* out_of_memory = nullptr;
  PyObject* device = nullptr;
  PyObject* build = nullptr;
};
ExceptionTypes types;

PyObject* new_type(nb::module_& m, const char* name, const char* doc, PyObject* bases) {
  const std::string qualified = std::string("gpusort.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!type) throw nb::python_error();
  m.attr(name) = nb::borrow(type);
  return type;
}

PyObject* new_subtype(nb::module_& m, const char* name, const char* doc, PyObject* builtin) {
  nb::object bases = builtin ? nb::make_tuple(nb::handle(types.error), nb::handle(builtin))
                             : nb::make_tuple(nb::handle(types.error));
  return new_type(m, name, doc, bases.ptr());
}

PyObject* type_for(errc code) {
  switch (code) {
    case errc::invalid_argument: return types.invalid_argument;
    case errc::unsupported: return types.unsupported;
    case errc::out_of_memory: return types.out_of_memory;
    case errc::device_error: return types.device;
    case errc::build_error: return types.build;
    case errc::io_error: return types.device;
  }
  return types.error;
}

// The library's messages name its SortOptions fields; from Python the keyword argument that sets
// each one is what the caller can act on (as the CLI names its flags).
std::string in_python_terms(std::string message) {
  static const std::pair<const char*, const char*> kFieldArguments[] = {
      {"drop SortOptions::stable", "pass stable=False"},
      {"SortOptions::stable", "stable="},
      {"SortOptions::algorithm", "algorithm="},
      {"SortOptions::comparator", "comparator="},
      {"SortOptions::order", "descending="},
      {"gpusort::list_devices()", "gpusort.devices()"},
  };
  for (const auto& [field, argument] : kFieldArguments)
    for (std::size_t at; (at = message.find(field)) != std::string::npos;)
      message.replace(at, std::strlen(field), argument);
  return message;
}

}  // namespace

void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw nb::python_error();
}

void bind_errors(nb::module_& m) {
  types.error = new_type(m, "Error", "Any failure gpusort reports; the caller's arrays are then unchanged.",
                         PyExc_RuntimeError);
  types.invalid_argument = new_subtype(m, "InvalidArgumentError",
                                       "A bad request: unknown algorithm or device, stable on an unstable algorithm.",
                                       PyExc_ValueError);
  types.unsupported = new_subtype(m, "UnsupportedError",
                                  "A valid request this build or device cannot serve.", PyExc_NotImplementedError);
  types.out_of_memory = new_subtype(m, "OutOfMemoryError", "Device or host memory exhausted.", PyExc_MemoryError);
  types.device = new_subtype(m, "DeviceError", "The device or its driver failed.", nullptr);
  types.build = new_subtype(m, "KernelBuildError", "A kernel failed to compile; the message has the log.", nullptr);

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(type_for(e.code()), in_python_terms(e.what()).c_str());
    }
  });
}

}  // namespace gpusort::python
