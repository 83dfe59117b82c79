// What the CLI's `gpusort devices` and `gpusort algorithms` print, as Python data, and the version.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "contexts.hpp"
#include "gpusort/context.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/version.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpusort::python {
namespace {

nb::list devices() {
  std::vector<DeviceDescription> found;
  {
    nb::gil_scoped_release unlocked;  // enumerating drivers' devices can take a while
    found = list_devices();
  }
  nb::list out;
  for (const DeviceDescription& d : found) {
    nb::dict entry;
    entry["id"] = d.id;
    entry["backend"] = d.backend;
    entry["name"] = d.name;
    entry["memory"] = d.global_memory_bytes;
    entry["max_buffer"] = d.max_buffer_bytes;
    entry["is_gpu"] = d.is_gpu;
    entry["compute_units"] = d.compute_units;
    entry["driver"] = d.driver;
    out.append(entry);
  }
  return out;
}

nb::list algorithm_list() {
  nb::list out;
  for (const AlgorithmInfo& a : algorithms()) {
    nb::dict entry;
    entry["name"] = a.name;
    entry["description"] = a.description;
    entry["stable"] = a.can_be_stable;
    entry["comparator"] = a.takes_comparator;
    out.append(entry);
  }
  return out;
}

// The device's ArrayLibraryTuning row (gpusort/plan.hpp) for the package's own choices.
nb::dict array_library_tuning_of(const std::string& device_id) {
  const DeviceDescription* device = nullptr;
  {
    nb::gil_scoped_release unlocked;  // opening a device can take a while
    device = &shared_context(device_id).context.device();
  }
  const ArrayLibraryTuning t = array_library_tuning(*device);
  nb::dict out;
  out["row"] = t.row;
  out["measured_on"] = t.measured_on;
  nb::dict narrow;
  for (int i = 0; i < 4; ++i) narrow[nb::int_(1 << i)] = t.narrow_indices_from[i];
  out["narrow_indices_from"] = narrow;
  out["narrow_indices_max"] = t.narrow_indices_max;
  out["lend_temporaries_from"] = t.lend_temporaries_from;
  out["host_sort_below"] = t.host_sort_below;
  return out;
}

}  // namespace

void bind_info(nb::module_& m) {
  m.attr("__version__") = std::string(version());
  m.def("devices", &devices,
        "Every device gpusort can use, CUDA devices first: dicts with id (what device= takes), backend, "
        "name, memory and max_buffer (bytes), is_gpu, compute_units, driver.");
  m.def("array_library_tuning", &array_library_tuning_of, "device_id"_a,
        "The device's tuning row for callers that make arrays in their own library: dict with row, "
        "measured_on, narrow_indices_from ({key bytes: n, 0 = never}), narrow_indices_max, "
        "lend_temporaries_from (bytes) and host_sort_below (host arrays of fewer keys are sorted on the host).");
  m.def("algorithms", &algorithm_list,
        "Every algorithm (what algorithm= takes): dicts with name, description, stable (whether it can sort "
        "stably) and comparator (whether it takes comparator=).");
}

}  // namespace gpusort::python
