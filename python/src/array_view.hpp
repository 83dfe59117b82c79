#pragma once
// Step one of every sort: obtain (pointer, element type, n, where the memory lives) from a Python
// object, without copying. numpy arrays arrive through the buffer protocol or DLPack, other
// libraries' arrays (PyTorch, CuPy, JAX) through DLPack, other buffer-protocol objects (array.array,
// bytes, ctypes arrays) through a memoryview; nanobind's ndarray does the import. numpy masked
// arrays are refused.
// Anything gpusort cannot sort in place raises TypeError (the dtype) or ValueError (the shape, the
// layout, read-only memory), naming what is supported.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <optional>
#include <string>

#include "gpusort/key_type.hpp"

namespace gpusort::python {

// Where an array's memory is. host: the CPU can read it (cpu, CUDA pinned host memory);
// cuda: device memory of CUDA device `device_id` (plain or managed).
enum class memory_kind { host, cuda };

struct ArrayView {
  nanobind::ndarray<> array;  // holds the producer's buffer (DLPack capsule or buffer view) alive
  void* data = nullptr;
  std::size_t n = 0;
  std::size_t itemsize = 0;
  std::string dtype;  // numpy's spelling: "uint32", "float64", "bool", "bfloat16"
  memory_kind memory = memory_kind::host;
  int device_id = 0;
  bool writable = true;
  bool bfloat16 = false;  // a numpy bfloat16 array, imported as its uint16 bits (array's dtype)
};

// `name` is the parameter's name in the Python API ("x", "keys", "values"), used in messages.
// Keys: one of gpusort's key types (numpy's float16 and bool, ml_dtypes' and DLPack's bfloat16). Values: any element of 1, 2, 4, 8 or 16 bytes.
ArrayView obtain_keys(nanobind::handle obj, const char* name);
ArrayView obtain_values(nanobind::handle obj, const char* name);

// The key type of a view obtained by obtain_keys.
key_type key_type_of_view(const ArrayView& keys);

}  // namespace gpusort::python
