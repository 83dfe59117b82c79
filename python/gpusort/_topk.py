"""gpusort.topk: the k largest (or smallest) elements along an axis with their indices, as torch.topk.

The axis is moved last and made contiguous by the array's own library where it lives (a view where it
already is), the compiled topk_into selects from each row on the device, and the results, of shape
x.shape with the axis's length k, are moved back. numpy arrays, array-likes and other host arrays give
numpy results; PyTorch tensors and CuPy arrays results of their library on their device (CUDA arrays
selected on the producer's current stream; the call returns once enqueued)."""
import operator
from typing import Any, NamedTuple

import numpy as np

from . import _arrays, _gpusort


class TopkResult(NamedTuple):
    values: Any
    indices: Any


def topk(x: Any, k: int, axis: int = -1, largest: bool = True, sorted: bool = True, *,
         device: Any = None) -> TopkResult:
    """The k largest (largest=False: smallest) elements of x along `axis` and their int64 indices
    along it, as torch.topk(x, k, dim=axis, largest=, sorted=) returns them: (values, indices).

    Ties go to the lower index and NaN is greater than every number (first among the largest, last
    among the smallest), so the k are those a stable sort puts first: the same on every device and
    run. sorted=True: in order along the axis; sorted=False: the same k, unordered (the same order on
    every run of a device). k runs
    from 0 to the axis's length (ValueError past it). 0-d arrays are one element. `device`: an id
    from gpusort.devices() for host arrays (None: the default device)."""
    pool = _arrays.pool_library(x)
    library = _arrays.library_of(x) if pool else np
    a = x if pool else np.asarray(x)
    if isinstance(a, np.ma.MaskedArray):
        raise TypeError("gpusort.topk: masked arrays are not supported")
    ndim = a.ndim
    shape = tuple(a.shape)
    if ndim == 0:
        a = a.reshape(1)
        shape = (1,)
    axis = operator.index(axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise np.exceptions.AxisError(axis, max(ndim, 1)) if hasattr(np, "exceptions") else IndexError(
            f"axis {axis} is out of range for an array of {max(ndim, 1)} dimensions")
    axis %= max(ndim, 1)
    k = operator.index(k)
    length = shape[axis]
    if not 0 <= k <= length:
        raise ValueError(f"gpusort.topk: k = {k} is outside 0..{length} (the length along axis {axis})")
    moved = _move_last(library, pool, a, axis)
    rows_shape = tuple(moved.shape[:-1])
    values = _empty(library, pool, moved, rows_shape + (k,), moved.dtype)
    indices = _empty(library, pool, moved, rows_shape + (k,), "int64")
    if values.size:
        _gpusort.topk_into(_flat(pool, moved), _flat(pool, values), _flat(pool, indices), row_length=length, k=k,
                           largest=bool(largest), sorted=bool(sorted), device=device,
                           stream=_arrays.stream_of(moved), wait=not (pool and _on_cuda(pool, moved)))
    values, indices = _move_back(library, pool, values, axis), _move_back(library, pool, indices, axis)
    if ndim == 0:
        values, indices = values.reshape(()), indices.reshape(())
    return TopkResult(values, indices)


def _on_cuda(pool, a):
    return a.is_cuda if pool == "torch" else True


def _move_last(library, pool, a, axis):
    if pool == "torch":
        return a.movedim(axis, -1).contiguous()
    if pool == "cupy":
        with a.device:
            return library.ascontiguousarray(library.moveaxis(a, axis, -1))
    return np.ascontiguousarray(np.moveaxis(a, axis, -1))


def _move_back(library, pool, a, axis):
    if pool == "torch":
        return a.movedim(-1, axis)
    return library.moveaxis(a, -1, axis)


def _empty(library, pool, like, shape, dtype):
    if pool == "torch":
        return library.empty(shape, dtype=like.dtype if dtype is like.dtype else library.int64, device=like.device)
    if pool == "cupy":
        with like.device:
            return library.empty(shape, dtype=dtype)
    return np.empty(shape, dtype=dtype)


def _flat(pool, a):
    return a.reshape(-1)
