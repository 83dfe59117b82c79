"""Copies and index arrays in the caller's own array library.

The compiled module only sorts arrays in place, wherever they live. The out-of-place functions need
a copy of the caller's array, and argsort an arange, made by whoever owns that memory: numpy for
host arrays. A host array of another library (a PyTorch CPU tensor, say) is copied through numpy
and handed back as its own kind through that library's from_dlpack.

Device arrays (CUDA tensors through DLPack) are refused by inspect() before anything is copied;
when the compiled module learns to sort device memory, their copies belong here too, made by their
own library on their own device (x.clone(), cupy's copy), so that no data leaves the GPU.
"""
import sys

import numpy as np

from . import _gpusort


def inspect(x, name, role):
    """What gpusort sees in x (memory, n, dtype), or TypeError/ValueError (NotImplementedError for
    device arrays, for now); nothing is copied."""
    return _gpusort.inspect(x, name, role)


def host_copy(x):
    """A writable numpy copy of an array inspect() accepted as a host array."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if hasattr(x, "__dlpack__"):
        return np.from_dlpack(x).copy()
    return np.array(x, copy=True)  # the buffer protocol (array.array, memoryview)


def indices(n):
    """0, 1, ..., n-1 as int64: the values argsort sorts along with the keys."""
    return np.arange(n, dtype=np.int64)


# Values are moved as opaque bytes: every numpy dtype of a supported size travels as a plain dtype
# of that size, through a view, so that dtypes DLPack cannot describe (structured records,
# datetime64, strings, long double) work too.
_SAME_SIZE = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64),
              16: np.dtype(np.complex128)}


def as_value_bytes(values):
    """A numpy array of values viewed as a plain dtype of the same size (other arrays as they are)."""
    if not isinstance(values, np.ndarray) or values.dtype.hasobject:
        return values
    plain = _SAME_SIZE.get(values.dtype.itemsize)
    return values.view(plain) if plain is not None else values


def like(x, result):
    """result (a numpy array) as the kind of array x is: numpy stays numpy; a PyTorch CPU tensor
    gets a tensor back (sharing result's memory), through its library's from_dlpack."""
    if isinstance(x, np.ndarray) or not hasattr(x, "__dlpack__"):
        return result
    if hasattr(x, "__array_namespace__"):
        library = x.__array_namespace__()
    else:
        library = sys.modules.get(type(x).__module__.partition(".")[0])
    from_dlpack = getattr(library, "from_dlpack", None)
    return from_dlpack(result) if from_dlpack is not None else result
