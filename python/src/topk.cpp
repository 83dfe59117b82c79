// topk_into: the k largest (or smallest) of each row of a flat array into the caller's output arrays
// (gpusort/topk.hpp), where the arrays live: host memory through topk_host on the shared Context,
// CUDA memory through topk_native on the array's own device, ordered on the producer's stream. The
// Python layer (python/gpusort/_topk.py) moves the axis last, makes the outputs and reshapes them.
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
#include "gpusort/topk.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpusort::python {
namespace {

void topk_into(nb::handle keys_obj, nb::handle values_obj, nb::handle indices_obj, std::uint64_t row_length,
               std::uint64_t k, bool largest, bool sorted, const std::optional<std::string>& device,
               std::uintptr_t stream, bool wait) {
  const ArrayView keys = obtain_keys(keys_obj, "x");
  const ArrayView values = obtain_keys(values_obj, "values");
  std::optional<ArrayView> indices;
  if (!indices_obj.is_none()) indices = obtain_values(indices_obj, "indices");
  if (row_length == 0 ? keys.n != 0 : keys.n % row_length != 0)
    raise(PyExc_ValueError, "topk: row_length " + std::to_string(row_length) + " does not divide the array's " +
                                std::to_string(keys.n) + " elements into rows");
  const std::uint64_t rows = row_length ? keys.n / row_length : 0;
  if (values.dtype != keys.dtype || values.n != rows * k || !values.writable)
    raise(PyExc_ValueError, "topk: values must be a writable array of rows x k elements of the keys' dtype");
  if (indices && (indices->n != rows * k || (indices->itemsize != 4 && indices->itemsize != 8) || !indices->writable))
    raise(PyExc_ValueError, "topk: indices must be a writable array of rows x k 4- or 8-byte integers");
  const bool cuda = keys.memory == memory_kind::cuda;
  if (values.memory != keys.memory || (indices && indices->memory != keys.memory) ||
      (cuda && (values.device_id != keys.device_id || (indices && indices->device_id != keys.device_id))))
    raise(PyExc_ValueError, "topk: x, values and indices must live in the same memory (host, or one GPU)");
  const TopkOptions options{.rows = rows, .largest = largest, .sorted = sorted};
  const key_type type = key_type_of_view(keys);
  const std::size_t index_bytes = indices ? indices->itemsize : 0;
  std::string id = device.value_or("");
  if (cuda) {
    const std::string own = "cuda:" + std::to_string(keys.device_id);
    if (!id.empty() && id != own)
      raise(PyExc_ValueError, "the array lives on " + own + " but device='" + id + "' was given");
    id = own;
  }
  nb::gil_scoped_release unlocked;
  SharedContext& shared = shared_context(id);
  std::lock_guard one_at_a_time(shared.busy);
  if (!cuda) {
    topk_host(shared.context, type, keys.data, keys.n, k, values.data, indices ? indices->data : nullptr, index_bytes,
              options);
    return;
  }
  const auto view = [](const ArrayView& a) { return CudaView{reinterpret_cast<std::uintptr_t>(a.data)}; };
  std::optional<NativeView> idx;
  if (indices) idx = view(*indices);
  Completion done = topk_native_async(shared.context, type, view(keys), keys.n, k, view(values), idx, index_bytes,
                                      CudaStream{reinterpret_cast<void*>(stream)}, options);
  if (wait) done.wait();
}

}  // namespace

void bind_topk(nb::module_& m) {
  m.def("topk_into", &topk_into, "x"_a, "values"_a, "indices"_a.none(), nb::kw_only(), "row_length"_a, "k"_a,
        "largest"_a = true, "sorted"_a = true, "device"_a.none() = nb::none(), "stream"_a = 0, "wait"_a = true,
        "The k largest (or smallest) keys of each row of row_length elements of the flat array x, into values "
        "(rows x k keys) and indices (rows x k positions within the row, 4 or 8 bytes; None: keys alone); ties "
        "by the lower position, NaN greatest. Host arrays go through the device and back; CUDA arrays are "
        "selected where they live, after the work queued on `stream` (a CUstream as an int); `wait`: return "
        "once done (else once enqueued). The GIL is released meanwhile.");
}

}  // namespace gpusort::python
