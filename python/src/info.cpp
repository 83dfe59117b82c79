// What the CLI's `gpusort devices` and `gpusort algorithms` print, as Python data, and the version.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "gpusort/context.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/version.hpp"

namespace nb = nanobind;

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

}  // namespace

void bind_info(nb::module_& m) {
  m.attr("__version__") = std::string(version());
  m.def("devices", &devices,
        "Every device gpusort can use, CUDA devices first: dicts with id (what device= takes), backend, "
        "name, memory and max_buffer (bytes), is_gpu, compute_units, driver.");
  m.def("algorithms", &algorithm_list,
        "Every algorithm (what algorithm= takes): dicts with name, description, stable (whether it can sort "
        "stably) and comparator (whether it takes comparator=).");
}

}  // namespace gpusort::python
