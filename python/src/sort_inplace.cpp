// Step two of every sort: sort the arrays obtain_keys/obtain_values found, where they live.
//   host memory  -> gpusort::sort_host on a shared Context (copies to the device and back);
//                   argsort_host_into -> gpusort::sort_with_indices_host (the keys only read; the
//                   sorted keys written too where asked)
//   CUDA memory  -> gpusort::sort_native on the array's own device, ordered on the producer's
//                   stream, no copies to the host (gpusort/native.hpp): in place (sort_inplace), or
//                   from an input into an output (sort_into); argsort_into (argsort_native) makes
//                   the indices it sorts on the device
// The Python layer (python/gpusort/) makes the arrays that sort/argsort/sort_pairs return, in the
// caller's own array library: for host arrays and other producers' CUDA arrays a copy it passes to
// sort_inplace (host argsort: empty indices it passes to argsort_host_into); for PyTorch and CuPy
// CUDA arrays empty outputs it passes to sort_into with the input
// (gpusort's radix reads the input where it lies, which saves the copy's read and write of every key
// and value), and argsort passes uninitialised indices to argsort_into. sort_/sort_pairs_ pass the
// caller's arrays to sort_inplace.
// row_length (every function but temporary_bytes): the flat array is rows of that many elements,
// each sorted on its own (gpusort/segmented.hpp, Segments::rows); argsort's indices are then local
// to their row. The Python layer passes it for n-D arrays sorted along an axis (python/gpusort/_axes.py).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <optional>
#include <string>

#include "array_view.hpp"
#include "bindings.hpp"
#include "contexts.hpp"
#include "errors.hpp"
#include "gpusort/argsort.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/native.hpp"
#include "gpusort/segmented.hpp"
#include "gpusort/sort.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpusort::python {
namespace {

// What inspect() tells the Python layer about an array before it copies it.
struct ArrayInfo {
  std::string memory;  // "host" or "cuda"
  int device_id = 0;
  std::size_t n = 0;
  std::string dtype;
  std::size_t itemsize = 0;
  bool writable = true;
};

ArrayInfo inspect(nb::handle obj, const std::string& name, const std::string& role) {
  if (role != "keys" && role != "values") raise(PyExc_ValueError, "inspect: role is 'keys' or 'values'");
  const ArrayView v = role == "keys" ? obtain_keys(obj, name.c_str()) : obtain_values(obj, name.c_str());
  return {v.memory == memory_kind::host ? "host" : "cuda", v.device_id, v.n, v.dtype, v.itemsize, v.writable};
}

void check_writable(const ArrayView& v, const char* name) {
  if (!v.writable)
    raise(PyExc_ValueError, std::string(name) + " is read-only: sort a copy (gpusort.sort returns one) or a writable array");
}

// sort_ and sort_pairs_ hand the caller's own arrays to sort_inplace: a read-only one (a numpy array
// with flags.writeable False, a read-only buffer, a DLPack export flagged read-only) is refused with
// the out-of-place call that returns new arrays instead. `name` is the refused array's name.
void check_in_place(const ArrayView& v, const std::string& name, const std::string& keys_name, bool pairs) {
  if (v.writable) return;
  const std::string call = pairs ? "gpusort.sort_pairs" : "gpusort.sort";
  const std::string instead = pairs ? call + "(" + keys_name + ", values), which returns new arrays"
                                    : call + "(" + keys_name + "), which returns a new array";
  raise(PyExc_ValueError, call + "_: " + name + " is read-only; use " + instead);
}

void check_pair(const ArrayView& keys, const ArrayView& values) {
  if (values.n != keys.n)
    raise(PyExc_ValueError, "keys and values differ in length: " + std::to_string(keys.n) + " keys, " +
                                std::to_string(values.n) + " values");
  if (values.memory != keys.memory || values.device_id != keys.device_id)
    raise(PyExc_ValueError, "keys and values must live in the same memory (both host arrays, or both on one GPU)");
  const auto k = reinterpret_cast<std::uintptr_t>(keys.data), v = reinterpret_cast<std::uintptr_t>(values.data);
  if (keys.n > 0 && k < v + values.n * values.itemsize && v < k + keys.n * keys.itemsize)
    raise(PyExc_ValueError, "keys and values share memory; pass separate arrays");
}

SortOptions options_from(bool descending, bool stable, const std::optional<std::string>& algorithm,
                         const std::optional<std::string>& comparator) {
  SortOptions options;
  options.order = descending ? order::descending : order::ascending;
  options.stable = stable;
  options.algorithm = algorithm.value_or("auto");
  options.comparator = comparator.value_or("");
  return options;
}

// The rows a row_length cuts n elements into, or none (one sort of the whole array).
std::optional<Segments> rows_of(const std::optional<std::uint64_t>& row_length, std::size_t n) {
  if (!row_length) return std::nullopt;
  const std::uint64_t length = *row_length;
  if (length == 0 ? n != 0 : n % length != 0)
    raise(PyExc_ValueError, "row_length " + std::to_string(length) + " does not divide the array's " +
                                std::to_string(n) + " elements into rows");
  return Segments::rows(length == 0 ? 0 : n / length, length);
}

// A sort of host memory on the shared Context of `device`: the GIL released, so other Python
// threads run meanwhile (the caller's views keep the arrays alive; they are released after the GIL
// is back, when they go out of scope in the caller), one sort at a time per context.
template <class Sort>
void on_host_context(const std::string& device, Sort&& sort) {
  nb::gil_scoped_release unlocked;
  SharedContext& shared = shared_context(device);
  std::lock_guard one_sort_at_a_time(shared.busy);
  sort(shared.context);
}

void sort_host_view(const ArrayView& keys, const ArrayView* values, const SortOptions& options,
                    const std::string& device, const std::optional<Segments>& rows) {
  const key_type type = key_type_of_view(keys);
  on_host_context(device, [&](Context& ctx) {
    if (rows)
      sort_segments_host(ctx, type, keys.data, keys.n, values ? values->data : nullptr, values ? values->itemsize : 0,
                         *rows, options);
    else
      sort_host(ctx, type, keys.data, keys.n, values ? values->data : nullptr, values ? values->itemsize : 0, options);
  });
}

// The keys' device id, checked against an explicit device= argument.
std::string cuda_id(const ArrayView& keys, const std::string& device) {
  const std::string id = "cuda:" + std::to_string(keys.device_id);
  if (!device.empty() && device != id)
    raise(PyExc_ValueError, "the array lives on " + id + " but device='" + device + "' was given");
  return id;
}

// Device memory is sorted where it is, on the array's own GPU, after the work already queued on
// `stream` (the producer's current stream) and before the work queued there later. wait: the call
// returns when the sort is done (it waits on the sort's own event, not on the device); else once
// it is enqueued, as CuPy's and PyTorch's calls do: the arrays and a lent temporary may then go
// back to their library's pool at once, because those pools are stream-ordered (a block freed on
// `stream` serves later work on `stream`, which runs after the sort). temporary: a CUDA byte array
// on the keys' device lent for the sort's temporaries (the Python layer takes it from the caller's
// own library's pool), or null for gpusort's pool (whose buffers serve only later work on
// gpusort's own in-order queue).
// Out of place (sort_into): keys_in/values_in are read, the result lands in keys/values.
// positions (argsort_into): values are the indices, in place, made 0..n-1 on the device by the sort
// (a fill first, or the CUDA one-launch kernels as they read the keys).
// rows: the segmented sort of each row (its indices local to the row); no lent temporaries.
void sort_cuda_view(const ArrayView& keys, const ArrayView* values, const SortOptions& options,
                    const std::string& device, std::uintptr_t stream, const ArrayView* temporary, bool wait,
                    const ArrayView* keys_in = nullptr, const ArrayView* values_in = nullptr, bool positions = false,
                    const std::optional<Segments>& rows = std::nullopt) {
  const std::string id = cuda_id(keys, device);
  const key_type type = key_type_of_view(keys);
  if (temporary && (temporary->memory != memory_kind::cuda || temporary->device_id != keys.device_id))
    raise(PyExc_ValueError, "temporary must be a CUDA array on the keys' device");
  if (temporary && rows) raise(PyExc_ValueError, "temporary is not taken with row_length: rows use gpusort's own pool");
  nb::gil_scoped_release unlocked;
  SharedContext& shared = shared_context(id);
  std::lock_guard one_sort_at_a_time(shared.busy);
  const auto view = [](const ArrayView& a) { return CudaView{reinterpret_cast<std::uintptr_t>(a.data)}; };
  const CudaView k_out = view(keys), k_in = keys_in ? view(*keys_in) : k_out;
  std::optional<NativeView> v_out, v_in;
  if (values) v_out = view(*values), v_in = values_in ? view(*values_in) : view(*values);
  const CudaStream queue{reinterpret_cast<void*>(stream)};
  const std::size_t value_bytes = values ? values->itemsize : 0;
  std::optional<NativeTemporaries> lent;
  if (temporary) lent = NativeTemporaries{view(*temporary), temporary->n * temporary->itemsize};
  // the same call with or without the lent temporaries (no argument: gpusort's pool)
  const auto enqueue = [&](const auto&... lent_args) {
    return positions ? argsort_native_async(shared.context, type, k_in, k_out, keys.n, *v_out, value_bytes, queue,
                                            options, lent_args...)
                     : sort_native_async(shared.context, type, k_in, k_out, keys.n, v_in, v_out, value_bytes, queue,
                                         options, lent_args...);
  };
  const auto enqueue_rows = [&]() {
    return positions ? argsort_segments_native_async(shared.context, type, k_in, k_out, keys.n, *v_out, value_bytes,
                                                     *rows, queue, options)
                     : sort_segments_native_async(shared.context, type, k_in, k_out, keys.n, v_in, v_out,
                                                  value_bytes, *rows, queue, options);
  };
  Completion done = rows ? enqueue_rows() : lent ? enqueue(*lent) : enqueue();
  if (wait) done.wait();
}

// `out` has `in`'s shape: length, element size, and dtype for keys. `call` names the function in the
// message (sort_into, argsort_into).
void check_same_shape(const char* call, const ArrayView& in, const ArrayView& out, const char* in_name,
                      const char* out_name, bool keys) {
  if (in.n != out.n || in.itemsize != out.itemsize || (keys && in.dtype != out.dtype))
    raise(PyExc_ValueError, std::string(call) + ": " + out_name + " must have " + in_name + "'s length and dtype");
}

// `out` can be written with `in`'s elements on the device: writable, both CUDA arrays of one device.
void check_cuda_output(const char* call, const ArrayView& in, const ArrayView& out, const char* in_name,
                       const char* out_name) {
  check_writable(out, out_name);
  if (in.memory != memory_kind::cuda || out.memory != memory_kind::cuda || in.device_id != out.device_id)
    raise(PyExc_ValueError, std::string(call) + ": " + in_name + " and " + out_name + " must be CUDA arrays on one device");
}

// The bytes of temporary storage sort_inplace would take for these CUDA arrays, or None where the
// algorithm does not report them (it then uses gpusort's pool).
std::optional<std::size_t> temporary_bytes(nb::handle keys_obj, nb::handle values_obj, bool descending, bool stable,
                                           const std::optional<std::string>& algorithm,
                                           const std::optional<std::string>& device,
                                           const std::optional<std::string>& comparator) {
  const ArrayView keys = obtain_keys(keys_obj, "keys");
  if (keys.memory != memory_kind::cuda) raise(PyExc_ValueError, "temporary_bytes: keys must be a CUDA array");
  std::size_t value_bytes = 0;
  if (!values_obj.is_none()) value_bytes = obtain_values(values_obj, "values").itemsize;
  const std::string id = cuda_id(keys, device.value_or(""));
  const SortOptions options = options_from(descending, stable, algorithm, comparator);
  const key_type type = key_type_of_view(keys);
  nb::gil_scoped_release unlocked;
  SharedContext& shared = shared_context(id);
  std::lock_guard one_sort_at_a_time(shared.busy);
  try {
    return temporary_storage_bytes(shared.context, type, keys.n, value_bytes, options);
  } catch (const Error& e) {
    if (e.code() == errc::unsupported) return std::nullopt;
    throw;
  }
}

void sort_inplace(nb::handle keys_obj, nb::handle values_obj, bool descending, bool stable,
                  const std::optional<std::string>& algorithm, const std::optional<std::string>& device,
                  const std::optional<std::string>& comparator, const std::string& keys_name,
                  std::uintptr_t stream, nb::handle temporary_obj, bool wait,
                  const std::optional<std::uint64_t>& row_length) {
  const ArrayView keys = obtain_keys(keys_obj, keys_name.c_str());
  const bool pairs = !values_obj.is_none();
  check_in_place(keys, keys_name, keys_name, pairs);
  std::optional<ArrayView> values;
  if (pairs) {
    values = obtain_values(values_obj, "values");
    check_in_place(*values, "values", keys_name, pairs);
    check_pair(keys, *values);
  }
  const SortOptions options = options_from(descending, stable, algorithm, comparator);
  const std::optional<Segments> rows = rows_of(row_length, keys.n);
  switch (keys.memory) {
    case memory_kind::host:
      if (!temporary_obj.is_none())
        raise(PyExc_ValueError, "temporary is for CUDA arrays; host arrays take gpusort's own device memory");
      sort_host_view(keys, values ? &*values : nullptr, options, device.value_or(""), rows);
      return;
    case memory_kind::cuda: {
      std::optional<ArrayView> temporary;
      if (!temporary_obj.is_none()) {
        temporary = obtain_values(temporary_obj, "temporary");
        check_writable(*temporary, "temporary");
      }
      sort_cuda_view(keys, values ? &*values : nullptr, options, device.value_or(""), stream,
                     temporary ? &*temporary : nullptr, wait, nullptr, nullptr, false, rows);
      return;
    }
  }
}

void sort_into(nb::handle keys_in_obj, nb::handle keys_obj, nb::handle values_in_obj, nb::handle values_obj,
               bool descending, bool stable, const std::optional<std::string>& algorithm,
               const std::optional<std::string>& device, const std::optional<std::string>& comparator,
               const std::string& keys_name, std::uintptr_t stream, nb::handle temporary_obj, bool wait,
               const std::optional<std::uint64_t>& row_length) {
  if (values_in_obj.is_none() != values_obj.is_none())
    raise(PyExc_ValueError, "sort_into: give values and values_out together, or neither");
  const ArrayView keys_in = obtain_keys(keys_in_obj, keys_name.c_str());
  const ArrayView keys = obtain_keys(keys_obj, "keys_out");
  check_same_shape("sort_into", keys_in, keys, keys_name.c_str(), "keys_out", true);
  std::optional<ArrayView> values_in, values;
  if (!values_obj.is_none()) {
    values_in = obtain_values(values_in_obj, "values");
    // values sorted in place (values_out is values): one import of the array, not two
    values = values_obj.is(values_in_obj) ? *values_in : obtain_values(values_obj, "values_out");
    check_same_shape("sort_into", *values_in, *values, "values", "values_out", false);
  }
  check_cuda_output("sort_into", keys_in, keys, keys_name.c_str(), "keys_out");
  if (values) {
    check_cuda_output("sort_into", *values_in, *values, "values", "values_out");
    check_pair(keys, *values);
    check_pair(keys_in, *values_in);
  }
  std::optional<ArrayView> temporary;
  if (!temporary_obj.is_none()) {
    temporary = obtain_values(temporary_obj, "temporary");
    check_writable(*temporary, "temporary");
  }
  sort_cuda_view(keys, values ? &*values : nullptr, options_from(descending, stable, algorithm, comparator),
                 device.value_or(""), stream, temporary ? &*temporary : nullptr, wait, &keys_in,
                 values_in ? &*values_in : nullptr, false, rows_of(row_length, keys.n));
}

// An argsort's indices: integers (a float array would get integer bit patterns) of 4 or 8 bytes,
// the keys' length, and a signed 4-byte index must hold n - 1 (the C++ sort writes unsigned
// positions). `call` names the function in the message.
void check_indices(const char* call, const ArrayView& keys, const ArrayView& indices, const std::string& keys_name) {
  const bool integers = indices.dtype.rfind("int", 0) == 0 || indices.dtype.rfind("uint", 0) == 0;
  if (indices.n != keys.n || (indices.itemsize != 4 && indices.itemsize != 8) || !integers)
    raise(PyExc_ValueError, std::string(call) + ": indices must be 4- or 8-byte integers of " + keys_name +
                                "'s length, not " + std::to_string(indices.n) + " of " + indices.dtype);
  if (indices.dtype == "int32" && indices.n > (std::size_t(1) << 31))
    raise(PyExc_ValueError, std::string(call) + ": " + std::to_string(indices.n) + " keys need int64 (or uint32) indices");
}

// argsort of a host array: `indices` (a writable host array, see check_indices) receives the
// permutation; the keys are only read, where they lie. Where keys and indices fit the device, the
// indices are made there and only they come back (gpusort::argsort_host): no arange, no copy of the
// keys, half the bytes over the link for u32 keys with int64 indices. keys_out (a writable host
// array of the keys' length and dtype, or the keys themselves: sorted in place) receives the sorted
// keys from the same sort (gpusort::sort_with_indices_host), for sort(return_indices=True).
void argsort_host_into(nb::handle keys_obj, nb::handle indices_obj, bool descending, bool stable,
                       const std::optional<std::string>& algorithm, const std::optional<std::string>& device,
                       const std::optional<std::string>& comparator, const std::string& keys_name,
                       nb::handle keys_out_obj, const std::optional<std::uint64_t>& row_length) {
  const ArrayView keys = obtain_keys(keys_obj, keys_name.c_str());
  const ArrayView indices = obtain_values(indices_obj, "indices");
  check_writable(indices, "indices");
  check_indices("argsort_host_into", keys, indices, keys_name);
  if (keys.memory != memory_kind::host || indices.memory != memory_kind::host)
    raise(PyExc_ValueError, "argsort_host_into: " + keys_name + " and indices must be host arrays");
  check_pair(keys, indices);
  std::optional<ArrayView> keys_out;
  if (!keys_out_obj.is_none()) {
    keys_out = keys_out_obj.is(keys_obj) ? keys : obtain_keys(keys_out_obj, "keys_out");
    check_writable(*keys_out, "keys_out");
    check_same_shape("argsort_host_into", keys, *keys_out, keys_name.c_str(), "keys_out", true);
    if (keys_out->memory != memory_kind::host)
      raise(PyExc_ValueError, "argsort_host_into: keys_out must be a host array");
    check_pair(*keys_out, indices);
    if (!keys_out_obj.is(keys_obj) && keys.data != keys_out->data) check_pair(keys, *keys_out);
  }
  const SortOptions options = options_from(descending, stable, algorithm, comparator);
  const key_type type = key_type_of_view(keys);
  const std::optional<Segments> rows = rows_of(row_length, keys.n);
  on_host_context(device.value_or(""), [&](Context& ctx) {
    if (rows)
      argsort_segments_host(ctx, type, keys.data, keys.n, keys_out ? keys_out->data : nullptr, indices.data,
                            indices.itemsize, *rows, options);
    else
      sort_with_indices_host(ctx, type, keys.data, keys.n, keys_out ? keys_out->data : nullptr, indices.data,
                             indices.itemsize, options);
  });
}

// argsort of a CUDA array: `indices` (a CUDA array of 4- or 8-byte integers, keys' length, apart
// from the keys) receives the permutation that sorts `keys`, made on the device (no arange of the
// caller's), and keys_out the sorted keys (it may be keys itself: sorted in place).
void argsort_into(nb::handle keys_in_obj, nb::handle keys_obj, nb::handle indices_obj, bool descending, bool stable,
                  const std::optional<std::string>& algorithm, const std::optional<std::string>& device,
                  const std::optional<std::string>& comparator, const std::string& keys_name, std::uintptr_t stream,
                  nb::handle temporary_obj, bool wait, const std::optional<std::uint64_t>& row_length) {
  const ArrayView keys_in = obtain_keys(keys_in_obj, keys_name.c_str());
  const bool in_place = keys_obj.is(keys_in_obj);
  const ArrayView keys = in_place ? keys_in : obtain_keys(keys_obj, "keys_out");
  const ArrayView indices = obtain_values(indices_obj, "indices");
  check_same_shape("argsort_into", keys_in, keys, keys_name.c_str(), "keys_out", true);
  check_indices("argsort_into", keys_in, indices, keys_name);
  check_cuda_output("argsort_into", keys_in, keys, keys_name.c_str(), "keys_out");
  check_cuda_output("argsort_into", keys_in, indices, keys_name.c_str(), "indices");
  check_pair(keys, indices);
  check_pair(keys_in, indices);
  std::optional<ArrayView> temporary;
  if (!temporary_obj.is_none()) {
    temporary = obtain_values(temporary_obj, "temporary");
    check_writable(*temporary, "temporary");
  }
  sort_cuda_view(keys, &indices, options_from(descending, stable, algorithm, comparator), device.value_or(""), stream,
                 temporary ? &*temporary : nullptr, wait, in_place ? nullptr : &keys_in, nullptr, true,
                 rows_of(row_length, keys.n));
}

}  // namespace

void bind_sort(nb::module_& m) {
  nb::class_<ArrayInfo>(m, "ArrayInfo", "What gpusort found in an array: where it lives, its length and dtype.")
      .def_ro("memory", &ArrayInfo::memory)
      .def_ro("device_id", &ArrayInfo::device_id)
      .def_ro("n", &ArrayInfo::n)
      .def_ro("dtype", &ArrayInfo::dtype)
      .def_ro("itemsize", &ArrayInfo::itemsize)
      .def_ro("writable", &ArrayInfo::writable);
  m.def("inspect", &inspect, "array"_a, "name"_a, "role"_a,
        "Checks that gpusort can sort `array` as keys or values (role) without copying it; raises "
        "TypeError/ValueError naming `name` otherwise.");
  m.def("sort_inplace", &sort_inplace, "keys"_a, "values"_a.none() = nb::none(), nb::kw_only(),
        "descending"_a = false, "stable"_a = true, "algorithm"_a.none() = nb::none(), "device"_a.none() = nb::none(),
        "comparator"_a.none() = nb::none(), "keys_name"_a = "keys", "stream"_a = 0,
        "temporary"_a.none() = nb::none(), "wait"_a = true, "row_length"_a.none() = nb::none(),
        "Sorts `keys` (and permutes `values` alike) in place; the GIL is released meanwhile. For CUDA "
        "arrays, `stream` is the CUstream (as an int; 0 = the legacy default stream) the sort is "
        "ordered on, and `temporary` a CUDA array on the same device lent for the sort's temporaries "
        "(at least temporary_bytes(...) bytes; None: gpusort's own pool); `wait`: return once the sort is done "
        "on the device (else once it is enqueued on `stream`). `row_length`: the arrays are rows of that many "
        "elements, each sorted on its own (None: one sort of the whole array).");
  m.def("sort_into", &sort_into, "keys"_a, "keys_out"_a, "values"_a.none() = nb::none(),
        "values_out"_a.none() = nb::none(), nb::kw_only(), "descending"_a = false, "stable"_a = true,
        "algorithm"_a.none() = nb::none(), "device"_a.none() = nb::none(), "comparator"_a.none() = nb::none(),
        "keys_name"_a = "keys", "stream"_a = 0, "temporary"_a.none() = nb::none(), "wait"_a = true,
        "row_length"_a.none() = nb::none(),
        "CUDA arrays only: sorts `keys` into `keys_out` (and permutes `values` into `values_out` alike; "
        "`values_out` may be `values` itself, permuted in place), leaving the inputs unchanged; as "
        "sort_inplace otherwise. The outputs must be writable arrays of the inputs' length and dtype on "
        "the same device, apart from them.");
  m.def("argsort_into", &argsort_into, "keys"_a, "keys_out"_a, "indices"_a, nb::kw_only(), "descending"_a = false,
        "stable"_a = true, "algorithm"_a.none() = nb::none(), "device"_a.none() = nb::none(),
        "comparator"_a.none() = nb::none(), "keys_name"_a = "keys", "stream"_a = 0,
        "temporary"_a.none() = nb::none(), "wait"_a = true, "row_length"_a.none() = nb::none(),
        "CUDA arrays only: writes the permutation that sorts `keys` into `indices` (4- or 8-byte integers "
        "of the keys' length; the positions are made on the device, nothing need be filled) and the sorted "
        "keys into `keys_out` (`keys` itself: sorted in place; else `keys` is left unchanged); as sort_into "
        "otherwise. With `row_length`, each index is the key's position within its row.");
  m.def("argsort_host_into", &argsort_host_into, "keys"_a, "indices"_a, nb::kw_only(), "descending"_a = false,
        "stable"_a = true, "algorithm"_a.none() = nb::none(), "device"_a.none() = nb::none(),
        "comparator"_a.none() = nb::none(), "keys_name"_a = "keys", "keys_out"_a.none() = nb::none(),
        "row_length"_a.none() = nb::none(),
        "Host arrays only: writes the permutation that sorts `keys` into `indices` (4- or 8-byte integers "
        "of the keys' length), made on the device where keys and indices fit it; the keys are only read. "
        "`keys_out` (optional, the keys' length and dtype, or `keys` itself) receives the sorted keys from "
        "the same sort. With `row_length`, each row is sorted on its own and each index is the key's position "
        "within its row.");
  m.def("temporary_bytes", &temporary_bytes, "keys"_a, "values"_a.none() = nb::none(), nb::kw_only(),
        "descending"_a = false, "stable"_a = true, "algorithm"_a.none() = nb::none(), "device"_a.none() = nb::none(),
        "comparator"_a.none() = nb::none(),
        "Bytes of temporary storage sort_inplace takes for these CUDA arrays and options, or None where the "
        "algorithm does not report them.");
}

}  // namespace gpusort::python
