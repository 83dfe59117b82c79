// partition_into: numpy's partition of each row of a flat array around its key of rank kth into the
// caller's output arrays (gpusort/partition.hpp), where the arrays live: host memory through
// partition_host on the shared Context, CUDA memory through partition_native on the array's own
// device, ordered on the producer's stream. The Python layer (python/gpusort/_partition.py) moves the
// axis last, resolves a negative kth, makes the outputs and reshapes them.
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
#include "gpusort/partition.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpusort::python {
namespace {

void partition_into(nb::handle keys_obj, nb::handle out_obj, nb::handle positions_obj, std::uint64_t row_length,
                    std::int64_t kth, const std::optional<std::string>& device, std::uintptr_t stream, bool wait) {
  const ArrayView keys = obtain_keys(keys_obj, "x");
  std::optional<ArrayView> out, positions;
  if (!out_obj.is_none()) out = obtain_keys(out_obj, "out");
  if (!positions_obj.is_none()) positions = obtain_values(positions_obj, "positions");
  if (!out && !positions) raise(PyExc_ValueError, "partition: out and positions are both None");
  if (row_length == 0 ? keys.n != 0 : keys.n % row_length != 0)
    raise(PyExc_ValueError, "partition: row_length " + std::to_string(row_length) + " does not divide the array's " +
                                std::to_string(keys.n) + " elements into rows");
  if (out && (out->dtype != keys.dtype || out->n != keys.n || !out->writable))
    raise(PyExc_ValueError, "partition: out must be a writable array of x's size and dtype");
  if (positions &&
      (positions->n != keys.n || (positions->itemsize != 4 && positions->itemsize != 8) || !positions->writable))
    raise(PyExc_ValueError, "partition: positions must be a writable array of x's size of 4- or 8-byte integers");
  const bool cuda = keys.memory == memory_kind::cuda;
  const auto elsewhere = [&](const std::optional<ArrayView>& a) {
    return a && (a->memory != keys.memory || (cuda && a->device_id != keys.device_id));
  };
  if (elsewhere(out) || elsewhere(positions))
    raise(PyExc_ValueError, "partition: x, out and positions must live in the same memory (host, or one GPU)");
  const PartitionOptions options{.rows = row_length ? keys.n / row_length : 0};
  const key_type type = key_type_of_view(keys);
  const std::size_t index_bytes = positions ? positions->itemsize : 0;
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
    partition_host(shared.context, type, keys.data, keys.n, kth, out ? out->data : nullptr,
                   positions ? positions->data : nullptr, index_bytes, options);
    return;
  }
  const auto view = [](const ArrayView& a) -> NativeView { return CudaView{reinterpret_cast<std::uintptr_t>(a.data)}; };
  std::optional<NativeView> out_view, positions_view;
  if (out) out_view = view(*out);
  if (positions) positions_view = view(*positions);
  Completion done = partition_native_async(shared.context, type, view(keys), keys.n, kth, out_view, positions_view,
                                           index_bytes, false, CudaStream{reinterpret_cast<void*>(stream)}, options);
  if (wait) done.wait();
}

}  // namespace

void bind_partition(nb::module_& m) {
  m.def("partition_into", &partition_into, "x"_a, "out"_a.none(), "positions"_a.none(), nb::kw_only(),
        "row_length"_a, "kth"_a, "device"_a.none() = nb::none(), "stream"_a = 0, "wait"_a = true,
        "numpy's partition of each row of row_length elements of the flat array x around its key of rank kth "
        "(ascending, ties by position, NaN greatest; negative: from the row's end): out (x's size and dtype; None: "
        "not written) receives each row as the keys less than that key, those equal to it, then the greater, each "
        "in position order; positions (x's size, 4 or 8 bytes; None: not written) their positions within the row. "
        "Host arrays go through the device and back; CUDA arrays are partitioned where they live, after the work "
        "queued on `stream` (a CUstream as an int); `wait`: return once done (else once enqueued). The GIL is "
        "released meanwhile.");
}

}  // namespace gpusort::python
