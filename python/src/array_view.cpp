#include "array_view.hpp"

#include <cstdint>

#include "errors.hpp"

namespace nb = nanobind;
using nb::dlpack::dtype_code;

namespace gpusort::python {
namespace {

constexpr const char* supported_keys =
    "uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16, bfloat16, float32, float64, bool, complex64, complex128";
constexpr const char* supported_values = "elements of 1, 2, 4, 8 or 16 bytes";

std::string dtype_name(nb::dlpack::dtype t) {
  std::string name;
  switch (static_cast<dtype_code>(t.code)) {
    case dtype_code::Int: name = "int"; break;
    case dtype_code::UInt: name = "uint"; break;
    case dtype_code::Float: name = "float"; break;
    case dtype_code::Bfloat: name = "bfloat"; break;
    case dtype_code::Complex: name = "complex"; break;
    case dtype_code::Bool: return "bool";
    default: name = "dlpack-type-" + std::to_string(t.code) + "-"; break;
  }
  name += std::to_string(t.bits);
  if (t.lanes != 1) name += "x" + std::to_string(t.lanes);
  return name;
}

std::optional<key_type> key_type_for(nb::dlpack::dtype t) {
  if (t.lanes != 1) return std::nullopt;
  const auto code = static_cast<dtype_code>(t.code);
  if (code == dtype_code::UInt || code == dtype_code::Int) {
    const bool s = code == dtype_code::Int;
    switch (t.bits) {
      case 8: return s ? key_type::i8 : key_type::u8;
      case 16: return s ? key_type::i16 : key_type::u16;
      case 32: return s ? key_type::i32 : key_type::u32;
      case 64: return s ? key_type::i64 : key_type::u64;
    }
  } else if (code == dtype_code::Float) {
    if (t.bits == 16) return key_type::f16;
    if (t.bits == 32) return key_type::f32;
    if (t.bits == 64) return key_type::f64;
  } else if (code == dtype_code::Bfloat) {
    if (t.bits == 16) return key_type::bf16;
  } else if (code == dtype_code::Bool) {
    if (t.bits == 8) return key_type::b8;
  } else if (code == dtype_code::Complex) {
    if (t.bits == 64) return key_type::c64;
    if (t.bits == 128) return key_type::c128;
  }
  return std::nullopt;
}

std::string text_of(nb::handle h) { return nb::str(h).c_str(); }  // str(h): nb::str(handle) converts

// What an object that is no array at all (or one nanobind cannot read) is called in a message.
std::string describe_unreadable(nb::handle obj) {
  if (nb::hasattr(obj, "dtype") && nb::hasattr(obj, "shape")) return "an array of dtype " + text_of(obj.attr("dtype"));
  return "an object of type " + text_of(nb::handle(Py_TYPE(obj.ptr())));
}

// numpy.ndarray's type, looked up once (null where numpy cannot be imported). Leaked on purpose:
// it must outlive every call, and the interpreter's teardown runs after static destructors would.
PyTypeObject* numpy_array_type() {
  static PyTypeObject* type = []() -> PyTypeObject* {
    try {
      nb::object ndarray = nb::module_::import_("numpy").attr("ndarray");
      return reinterpret_cast<PyTypeObject*>(ndarray.release().ptr());
    } catch (const nb::python_error&) {
      return nullptr;
    }
  }();
  return type;
}

// What import_array hands to nanobind, checked first where obj is not a plain numpy array (the
// common case pays one type comparison):
//  - a numpy subclass with a mask (numpy.ma) is refused: its data alone would be sorted and its
//    mask left where it was;
//  - a buffer-protocol object without __dlpack__ (ctypes arrays, array.array, bytes) goes through a
//    memoryview: ctypes exports its buffer without strides, which nanobind's import reads (a crash);
//    a memoryview always has them. The view holds the object, and the import holds the view.
nb::object importable(nb::handle obj, const char* name) {
  PyTypeObject* ndarray = numpy_array_type();
  if (ndarray && Py_IS_TYPE(obj.ptr(), ndarray)) return nb::borrow(obj);
  if (ndarray && PyObject_TypeCheck(obj.ptr(), ndarray)) {
    if (nb::hasattr(obj, "mask") && nb::hasattr(obj, "filled"))
      raise(PyExc_TypeError, std::string(name) + ": gpusort does not sort masked arrays (the mask would stay in "
                                 "place); pass " + name + ".compressed(), or " + name + ".filled(value)");
    return nb::borrow(obj);
  }
  if (PyObject_CheckBuffer(obj.ptr()) && !nb::hasattr(obj, "__dlpack__")) {
    PyObject* view = PyMemoryView_FromObject(obj.ptr());
    if (!view) throw nb::python_error();
    return nb::steal(view);
  }
  return nb::borrow(obj);
}

// A numpy array of ml_dtypes' bfloat16 (JAX's and ml_dtypes' host arrays): numpy exports it neither
// through DLPack nor the buffer protocol, so it is imported as its uint16 bits (a view).
bool is_numpy_bfloat16(nb::handle obj) {
  PyTypeObject* ndarray = numpy_array_type();
  if (!ndarray || !PyObject_TypeCheck(obj.ptr(), ndarray)) return false;
  const nb::object dtype = obj.attr("dtype");
  return text_of(dtype.attr("name")) == "bfloat16" && nb::cast<std::size_t>(dtype.attr("itemsize")) == 2;
}

// A 1-D numpy array whose stride is not a whole number of elements (a field of packed records, say)
// cannot be imported at all: say so as the layout error it is, not as an unknown dtype.
void raise_if_misaligned_stride(nb::handle obj, const char* name) {
  PyTypeObject* ndarray = numpy_array_type();
  if (!ndarray || !PyObject_TypeCheck(obj.ptr(), ndarray)) return;
  const nb::tuple strides = nb::borrow<nb::tuple>(obj.attr("strides"));
  const std::size_t itemsize = nb::cast<std::size_t>(obj.attr("itemsize"));
  if (strides.size() != 1 || itemsize == 0) return;
  const long long stride = nb::cast<long long>(strides[0]);
  if (stride % static_cast<long long>(itemsize) != 0)
    raise(PyExc_ValueError, std::string(name) + ": the array is not contiguous (a stride of " + std::to_string(stride) +
                                " bytes, not a whole number of " + std::to_string(itemsize) +
                                "-byte elements); pass np.ascontiguousarray(" + name + ")");
}

// Imports without copying. Writable first; a read-only array is imported again as read-only so
// that the caller learns it is read-only rather than of an unknown kind. `supported` names what
// gpusort accepts, for the message.
ArrayView import_array(nb::handle given, const char* name, const char* supported) {
  ArrayView v;
  const nb::object obj = importable(given, name);
  if (!nb::try_cast(obj, v.array, /*convert=*/false)) {
    nb::ndarray<nb::ro> readonly;
    if (!nb::try_cast(obj, readonly, /*convert=*/false)) {
      if (is_numpy_bfloat16(obj)) {  // checked only here: other arrays pay nothing for it
        ArrayView bits = import_array(obj.attr("view")("uint16"), name, supported);
        bits.dtype = "bfloat16";
        bits.bfloat16 = true;
        return bits;
      }
      raise_if_misaligned_stride(obj, name);
      raise(PyExc_TypeError, std::string(name) + ": gpusort cannot read " + describe_unreadable(given) +
                                 "; it takes 1-D numpy arrays (or objects with __dlpack__) of " + supported +
                                 ", in native byte order");
    }
    v.array = nb::ndarray<>(readonly);  // the same import; never written through (checked by the caller)
    v.writable = false;
  }
  v.dtype = dtype_name(v.array.dtype());
  v.itemsize = v.array.itemsize();
  return v;
}

void check_shape_and_place(ArrayView& v, const char* name) {
  const nb::ndarray<>& a = v.array;
  if (a.ndim() != 1)
    raise(PyExc_ValueError, std::string(name) + ": gpusort sorts 1-D arrays; got " + std::to_string(a.ndim()) +
                                "-D (sort x.ravel(), or each row separately)");
  v.n = a.shape(0);
  if (v.n > 1 && a.stride(0) != 1)
    raise(PyExc_ValueError, std::string(name) + ": the array is not contiguous (a stride of " +
                                std::to_string(a.stride(0)) +
                                " elements); pass np.ascontiguousarray(" + name + ")");
  v.data = a.data();
  const int device = a.device_type();
  v.device_id = a.device_id();
  if (device == nb::device::cpu::value || device == nb::device::cuda_host::value)
    v.memory = memory_kind::host;
  else if (device == nb::device::cuda::value || device == nb::device::cuda_managed::value)
    v.memory = memory_kind::cuda;
  else
    raise(PyExc_ValueError, std::string(name) + ": the array lives on a device gpusort cannot reach (DLPack device "
                                "type " + std::to_string(device) + "); gpusort takes host and CUDA arrays");
}

}  // namespace

ArrayView obtain_keys(nb::handle obj, const char* name) {
  ArrayView v = import_array(obj, name, supported_keys);
  if (!key_type_for(v.array.dtype()))
    raise(PyExc_TypeError, std::string(name) + ": gpusort cannot sort keys of dtype " + v.dtype +
                               " (supported: " + supported_keys + ")");
  check_shape_and_place(v, name);
  return v;
}

ArrayView obtain_values(nb::handle obj, const char* name) {
  ArrayView v = import_array(obj, name, supported_values);
  const nb::dlpack::dtype t = v.array.dtype();
  if (t.bits % 8 != 0 || !is_supported_value_size(v.itemsize))
    raise(PyExc_TypeError, std::string(name) + ": values of dtype " + v.dtype + " (" + std::to_string(t.bits) +
                               " bits) are not supported; values are " + supported_values + " (moved as bytes)");
  check_shape_and_place(v, name);
  return v;
}

key_type key_type_of_view(const ArrayView& keys) {
  return keys.bfloat16 ? key_type::bf16 : *key_type_for(keys.array.dtype());
}

}  // namespace gpusort::python
