#pragma once
// The parts of the extension module gpusort._gpusort; module.cpp calls each once.
#include <nanobind/nanobind.h>

namespace gpusort::python {

void bind_errors(nanobind::module_& m);  // exception types and the gpusort::Error translator
void bind_info(nanobind::module_& m);    // devices(), algorithms(), __version__
void bind_sort(nanobind::module_& m);    // inspect(), sort_inplace(), sort_into(), argsort_into(), temporary_bytes()
void bind_topk(nanobind::module_& m);    // topk_into()
void bind_partition(nanobind::module_& m);  // partition_into()

}  // namespace gpusort::python
