// gpusort._gpusort: the compiled half of the Python package. The public API, copies and the
// choice of result type live in python/gpusort/ (Python); this module sorts arrays in place.
#include "bindings.hpp"

NB_MODULE(_gpusort, m) {
  m.doc() = "gpusort's compiled core: sorts 1-D arrays in place (use the functions of package gpusort)";
  gpusort::python::bind_errors(m);
  gpusort::python::bind_info(m);
  gpusort::python::bind_sort(m);
  gpusort::python::bind_topk(m);
  gpusort::python::bind_partition(m);
}
