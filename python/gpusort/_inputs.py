"""What the sorting functions take beyond 1-D contiguous arrays, as the peers' sorts take it.

- Array-likes (lists, tuples, Python and numpy scalars, anything numpy.asarray reads that is no
  array or buffer) become numpy arrays, by numpy's rules (their dtype is numpy's choice).
- A 0-d array follows its own library's rule. PyTorch's (and JAX's and other DLPack producers'
  here): sorted as one element, the results 0-d again, as torch.sort does. numpy's (numpy and CuPy
  arrays, array-likes): argsort sees one element and returns a 1-D array of it, as numpy.argsort
  does, and the sorts raise numpy's AxisError, as numpy.sort does (there is no axis -1 to sort).
- A strided (non-contiguous) 1-D array is gathered into a contiguous copy by its own library,
  where it lives (numpy; PyTorch's .contiguous() and cupy.ascontiguousarray on the array's device
  and current stream); in-place calls write the sorted copy back through the caller's view.
Everything else (n-D arrays, which are sorted along an axis by _along, masked arrays, unknown
dtypes) goes on as given, so that the compiled module refuses what it cannot take with its message.
"""
from typing import Any, NamedTuple

import numpy as np

from . import _arrays

try:  # numpy 1.25 and later
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError  # type: ignore[attr-defined,misc]


class Prepared(NamedTuple):
    array: Any      # what gpusort sorts: a 1-D array (contiguous where gpusort could make it so)
    scalar: bool    # the caller's array was 0-d: results are reshaped to ()
    gathered: bool  # array is a contiguous copy of the caller's strided view (not a view of it)
    converted: bool = False  # array is numpy's array of an array-like (in-place calls refuse it)
    numpy_rule: bool = False  # a 0-d array of numpy's family: sorts refuse it, argsort returns 1-D


# Objects numpy turns into arrays that have no array or buffer interface of their own.
_ARRAY_LIKES = (list, tuple, int, float, complex, bool, np.generic)


def prepare(x: Any) -> Prepared:
    """x as the 1-D array gpusort sorts (see the module's description)."""
    if type(x) is np.ndarray:  # the common case first: a few attribute reads
        if x.ndim == 1 and (x.flags.c_contiguous or x.shape[0] <= 1):
            return Prepared(x, False, False)
        return _numpy(x)
    library = _arrays.pool_library(x)
    if library == "torch":
        return _reshaped(x, x.dim(), lambda a: a.contiguous(), lambda a: a.is_contiguous())
    if library == "cupy":
        cupy = _arrays.library_of(x)
        prepared = _reshaped(x, x.ndim, cupy.ascontiguousarray, lambda a: a.flags.c_contiguous)
        return prepared._replace(numpy_rule=prepared.scalar)
    if isinstance(x, np.ndarray):  # a subclass: masked arrays are refused by the compiled module
        return Prepared(x, False, False) if isinstance(x, np.ma.MaskedArray) else _numpy(x)
    if isinstance(x, _ARRAY_LIKES):
        return _numpy(np.asarray(x))._replace(converted=True)
    if hasattr(x, "__dlpack__"):
        if getattr(x, "ndim", 1) == 0 and hasattr(x, "reshape"):
            return Prepared(x.reshape(1), True, False)  # JAX and other Array API producers
        return Prepared(x, False, False)
    try:
        memoryview(x).release()  # the buffer protocol (array.array, bytes, ctypes): read as it is
        return Prepared(x, False, False)
    except TypeError:
        pass
    converted = np.asarray(x)
    if converted.dtype.hasobject:  # no array-like after all (a DLPack capsule, say): as given
        return Prepared(x, False, False)
    return _numpy(converted)._replace(converted=True)


def _numpy(x: Any) -> Prepared:
    if x.ndim == 0:
        return Prepared(x.reshape(1), True, False, numpy_rule=True)
    if x.ndim == 1 and not x.flags.c_contiguous and x.shape[0] > 1:
        return Prepared(np.ascontiguousarray(x), False, True)
    return Prepared(x, False, False)


def _reshaped(x: Any, ndim: int, gather: Any, contiguous: Any) -> Prepared:
    if ndim == 0:
        return Prepared(x.reshape(1), True, False)
    if ndim == 1 and not contiguous(x):
        return Prepared(gather(x), False, True)
    return Prepared(x, False, False)


def shaped(prepared: Prepared, result: Any) -> Any:
    """A result (values or indices) in the caller's shape: 0-d where the input was (numpy's rule
    keeps argsort's one element 1-D)."""
    return result.reshape(()) if prepared.scalar and not prepared.numpy_rule else result


def scalar_result(prepared: Prepared) -> bool:
    """Whether results (and out= arrays) are 0-d."""
    return prepared.scalar and not prepared.numpy_rule


def refuse_numpy_scalar(prepared: Prepared, axis: int = -1) -> None:
    """A sort of a 0-d array of numpy's family along an axis raises numpy's AxisError, as
    numpy.sort does (axis=None flattens it instead)."""
    if prepared.scalar and prepared.numpy_rule:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension 0 (numpy.sort's rule; "
                        "gpusort.argsort takes it, axis=None flattens it, and PyTorch tensors sort as one element)")


def write_back(x: Any, prepared: Prepared) -> None:
    """An in-place call on a strided view: the sorted contiguous copy goes back through the view."""
    if not prepared.gathered:
        return
    if _arrays.pool_library(x) == "torch":
        x.copy_(prepared.array)
    else:
        x[...] = prepared.array
