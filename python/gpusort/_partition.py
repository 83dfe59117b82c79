"""gpusort.partition and gpusort.argpartition: numpy's partition of the rows along an axis, on the device.

The axis is moved last and made contiguous by the array's own library where it lives (a view where it
already is), the compiled partition_into rearranges each row on the device, and the result, of x's
shape, is moved back. numpy arrays, array-likes and other host arrays give numpy results; PyTorch
tensors and CuPy arrays results of their library on their device (CUDA arrays partitioned on the
producer's current stream; the call returns once enqueued)."""
import operator
from typing import Any, Optional

import numpy as np

from . import _arrays, _gpusort
from ._topk import _empty, _flat, _move_back, _move_last, _on_cuda


def partition(x: Any, kth: Any, axis: Optional[int] = -1, *, device: Any = None) -> Any:
    """A copy of x with each row along `axis` partitioned as numpy.partition(x, kth, axis) does: the
    element of rank kth (the one a sorted row would hold at index kth) at index kth, no greater
    element before it, no smaller element after it.

    Ranks are those of gpusort's stable ascending sort: NaN is greater than every number, -0.0 equals
    +0.0, equal elements rank by index. The result is more exact than numpy promises, and the same on
    every device and run: each row holds the elements less than the one of rank kth, then those equal
    to it, then the greater ones, each run in the row's order. kth: an int (negative counts from the
    row's end; ValueError outside the row) or a sequence of ints, for which the rows are sorted
    (every kth in place at once). axis=None partitions x flattened. `device`: an id from
    gpusort.devices() for host arrays (None: the default device)."""
    return _partition(x, kth, axis, device, positions=False)


def argpartition(x: Any, kth: Any, axis: Optional[int] = -1, *, device: Any = None) -> Any:
    """The int64 indices that partition x along `axis`, as numpy.argpartition(x, kth, axis) returns
    them: numpy.take_along_axis(x, argpartition(x, kth, axis), axis) is partition(x, kth, axis), the
    element of rank kth at index kth, no greater element before it, no smaller after it. The layout
    is partition's (less, equal, greater, each in index order), the same on every device and run;
    kth, axis and device as partition's (a sequence of kth: the stable argsort)."""
    return _partition(x, kth, axis, device, positions=True)


def _kths(kth):
    """kth as a list of ints: numpy takes an int or a sequence of them (bools: ValueError, floats:
    TypeError, as numpy's)."""
    values = [kth] if np.ndim(kth) == 0 else list(np.asarray(kth).reshape(-1))
    out = []
    for k in values:
        if isinstance(k, (bool, np.bool_)):
            raise ValueError("gpusort.partition: booleans are not a kth (as numpy)")
        try:
            out.append(operator.index(k))
        except TypeError:
            raise TypeError(f"gpusort.partition: kth must be an integer or a sequence of integers, not {k!r}") from None
    return out


def _partition(x, kth, axis, device, positions):
    pool = _arrays.pool_library(x)
    library = _arrays.library_of(x) if pool else np
    a = x if pool else np.asarray(x)
    if isinstance(a, np.ma.MaskedArray):
        raise TypeError("gpusort.partition: masked arrays are not supported")
    kths = _kths(kth)
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    ndim = a.ndim
    axis = operator.index(axis)
    if ndim == 0 or not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim) if hasattr(np, "exceptions") else IndexError(
            f"axis {axis} is out of range for an array of {ndim} dimensions")
    axis %= ndim
    length = a.shape[axis]
    if not kths:
        raise TypeError("gpusort.partition: kth is an empty sequence")
    size = a.numel() if pool == "torch" else a.size
    if size and any(not -length <= k < length for k in kths):
        bad = next(k for k in kths if not -length <= k < length)
        raise ValueError(f"gpusort.partition: kth = {bad} is out of bounds for length {length} along axis {axis}")
    if len(kths) > 1:  # every kth in place at once: the rows sorted
        from ._sorting import argsort, sort
        return (argsort if positions else sort)(a, axis=axis, device=device)
    moved = _move_last(library, pool, a, axis)
    out = None if positions else _empty(library, pool, moved, tuple(moved.shape), moved.dtype)
    indices = _empty(library, pool, moved, tuple(moved.shape), "int64") if positions else None
    if size:
        _gpusort.partition_into(_flat(pool, moved), None if out is None else _flat(pool, out),
                                None if indices is None else _flat(pool, indices), row_length=length, kth=kths[0],
                                device=device, stream=_arrays.stream_of(moved),
                                wait=not (pool and _on_cuda(pool, moved)))
    return _move_back(library, pool, indices if positions else out, axis)
