"""gpusort: sorting on GPUs (CUDA, OpenCL; the CPU through PoCL) for numpy, PyTorch, CuPy and JAX arrays.

    import gpusort, numpy as np
    keys = np.random.default_rng(1).random(1_000_000, dtype=np.float32)
    s = gpusort.sort(keys)                         # a sorted copy
    values, indices = gpusort.sort(keys, return_indices=True)   # as torch.sort: one sort
    i = gpusort.argsort(keys, descending=True)     # int64 indices, stable
    gpusort.argsort(keys, out=i)                   # into the caller's array
    k, v = gpusort.sort_pairs(keys, values)        # keys sorted, values permuted alike
    gpusort.sort_(keys)                            # in place
    rows = gpusort.sort(logits, axis=-1, descending=True)   # n-D: each row along the axis on its own
    values, indices = gpusort.topk(logits, 50)     # as torch.topk: the 50 largest of each row
    near = gpusort.argpartition(d, 9)[..., :10]    # as numpy.argpartition: each row's 10 smallest

Keys: arrays of any number of dimensions of uint8..uint64, int8..int64, float16, bfloat16, float32,
float64, bool, complex64, complex128, or array-likes numpy reads, sorted along axis= (default the last; None
flattens); strided arrays are gathered. Values: arrays of the keys' shape with 1, 2, 4, 8 or 16-byte
elements. Floats: -0.0 == +0.0; NaN is greater than every number (last ascending, first
descending) and NaN payloads are kept. Bools: false first. Complex: numpy's order (by real part,
then imaginary part; keys with a NaN part after all others: imaginary NaN, then real NaN, then
both). Sorts are stable by default; descending is its own
order, so equal keys keep their input order there too. Small host arrays are sorted on the host (the
device's tuning says how small). CUDA arrays of PyTorch and CuPy are sorted on the producer's
current stream and the call returns once the sort is enqueued. The functions' own help and
gpusort._sorting's say more.
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
from ._sorting import SortResult, argsort, sort, sort_, sort_pairs, sort_pairs_
from ._partition import argpartition, partition
from ._topk import TopkResult, topk

__all__ = [
    "sort", "argsort", "sort_pairs", "SortResult", "sort_", "sort_pairs_", "topk", "TopkResult", "partition",
    "argpartition", "devices", "algorithms", "__version__",
    "Error", "InvalidArgumentError", "UnsupportedError", "OutOfMemoryError", "DeviceError", "KernelBuildError",
]
