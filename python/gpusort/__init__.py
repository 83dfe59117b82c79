"""gpusort: sorting on GPUs (CUDA, OpenCL; the CPU through PoCL) for numpy arrays.

    import gpusort, numpy as np
    keys = np.random.default_rng(1).random(1_000_000, dtype=np.float32)
    s = gpusort.sort(keys)                         # a sorted copy
    i = gpusort.argsort(keys, descending=True)     # int64 indices, stable
    k, v = gpusort.sort_pairs(keys, values)        # keys sorted, values permuted alike
    gpusort.sort_(keys)                            # in place

Keys: 1-D C-contiguous arrays of uint8..uint64, int8..int64, float16, bfloat16, float32, float64,
bool. Values: 1-D arrays of 1, 2, 4, 8 or 16-byte elements. Floats: -0.0 == +0.0; NaN is greater
than every number (last ascending, first descending) and NaN payloads are kept. Bools: false first.
Sorts are stable by default; descending is its own order, so equal keys keep their input order there
too.
"""
from ._gpusort import (
    DeviceError,
    Error,
    InvalidArgumentError,
    KernelBuildError,
    OutOfMemoryError,
    UnsupportedError,
    __version__,
    algorithms,
    devices,
)
from ._sorting import argsort, sort, sort_, sort_pairs, sort_pairs_

__all__ = [
    "sort", "argsort", "sort_pairs", "sort_", "sort_pairs_", "devices", "algorithms", "__version__",
    "Error", "InvalidArgumentError", "UnsupportedError", "OutOfMemoryError", "DeviceError", "KernelBuildError",
]
