"""Copies and index arrays in the caller's own array library.

The compiled module only sorts arrays in place, wherever they live. The out-of-place functions need
a copy of the caller's array, and argsort an arange, made by whoever owns that memory: numpy for
host arrays. A host array of another library (a PyTorch CPU tensor, say) is copied through numpy
and handed back as its own kind through that library's from_dlpack.

Device arrays (PyTorch and CuPy CUDA arrays, through DLPack) are copied by their own library on
their own device (torch's clone, cupy's copy), so no data leaves the GPU, and sorted on the
producer's current stream: the sort runs after the work already queued there and before the work
queued later.
"""
import sys

import numpy as np

from . import _gpusort


def inspect(x, name, role):
    """What gpusort sees in x (memory, device, n, dtype), or TypeError/ValueError; nothing is copied."""
    return _gpusort.inspect(x, name, role)


def _library(x):
    return sys.modules.get(type(x).__module__.partition(".")[0])


def is_device(info):
    return info.memory == "cuda"


def stream_of(x):
    """The producer's current CUDA stream for x's device, as an int (0: the legacy default stream,
    also for host arrays, where it is not used). Asks x's library only: no DLPack import."""
    library = _library(x)
    name = getattr(library, "__name__", "")
    if name == "torch" and x.is_cuda:
        return int(library.cuda.current_stream(x.device).cuda_stream)
    if name == "cupy":
        with x.device:
            return int(library.cuda.get_current_stream().ptr)
    return 0  # numpy, or another producer: the legacy default stream orders with every blocking stream


def copy(x, info):
    """A writable copy of x where x lives: numpy for host arrays, x's own library on its device."""
    if not is_device(info):
        return host_copy(x)
    library = _library(x)
    if getattr(library, "__name__", "") == "torch":
        return x.clone()
    return x.copy()  # cupy and other array-API libraries


def device_indices(x, info):
    """0..n-1 as int64 on x's device, made by x's library."""
    library = _library(x)
    if getattr(library, "__name__", "") == "torch":
        return library.arange(info.n, dtype=library.int64, device=x.device)
    with library.cuda.Device(info.device_id):
        return library.arange(info.n, dtype=library.int64)


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
    if result is x or type(result) is type(x):
        return result
    if isinstance(x, np.ndarray) or not hasattr(x, "__dlpack__"):
        return result
    if hasattr(x, "__array_namespace__"):
        library = x.__array_namespace__()
    else:
        library = sys.modules.get(type(x).__module__.partition(".")[0])
    from_dlpack = getattr(library, "from_dlpack", None)
    return from_dlpack(result) if from_dlpack is not None else result
