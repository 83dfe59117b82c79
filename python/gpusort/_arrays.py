"""The arrays a sort returns, and argsort's indices, made in the caller's own array library.

The compiled module sorts arrays in place (sort_inplace), and CUDA arrays also from an input into an
output (sort_into, and argsort_into, which makes the indices it sorts on the device). The
out-of-place functions need a result array, and argsort indices, made by whoever owns that memory:
numpy for host arrays (a copy sorted in place; argsort's indices are an empty int64 array that
argsort_host_into fills, reading the keys where they lie). A host array of another library (a
PyTorch CPU tensor, say) is copied through numpy (argsort: read where it lies, through DLPack or
the buffer protocol) and the result handed back as its own kind through that library's from_dlpack.

Device arrays (PyTorch and CuPy CUDA arrays, through DLPack) are sorted on their own device, so no
data leaves the GPU, into an empty array of their own library (empty_like; sorted_apart says when),
or into a copy of it (torch's clone, cupy's copy) for other producers, on the producer's current
stream: the sort runs after the work already queued there and before the work queued later. Large
sorts of PyTorch and CuPy arrays also take their temporary memory from that library's pool
(lent_temporaries), and argsort of large ones sorts int32 indices (narrow_indices). Other producers'
CUDA arrays get their argsort's arange from their own library (device_indices).
"""
import sys
from typing import Any, Dict, List, Optional

import numpy as np

from . import _gpusort


def inspect(x, name, role):
    """What gpusort sees in x (memory, device, n, dtype), or TypeError/ValueError; nothing is copied."""
    return _gpusort.inspect(x, name, role)


# The module of each array type seen, and "torch"/"cupy"/None for pool_library: looked up once per
# type (several times per call otherwise, a few microseconds of a small sort's call).
_LIBRARY_OF_TYPE: Dict[type, Any] = {}
_POOL_OF_TYPE: Dict[type, Optional[str]] = {}
_IMMUTABLE_OF_TYPE: Dict[type, Optional[str]] = {}

# Libraries whose arrays are immutable, by the top-level module of the array's type, with the name
# messages give them. JAX may share one buffer among arrays, jit constants and the numpy array an
# array was made from (device_put on the CPU), and exports DLPack without the read-only flag, so only
# the producer tells that its memory must not be written.
_IMMUTABLE_LIBRARIES = {"jax": "JAX", "jaxlib": "JAX"}


def _library(x):
    kind = type(x)
    try:
        return _LIBRARY_OF_TYPE[kind]
    except KeyError:
        library = _LIBRARY_OF_TYPE[kind] = sys.modules.get(kind.__module__.partition(".")[0])
        return library


library_of = _library


def writable(x):
    """Whether x may be written through (numpy's flag; other libraries' arrays are writable)."""
    return not isinstance(x, np.ndarray) or bool(x.flags.writeable)


def host_sortable_in_place(x):
    """Whether x is a writable 1-D numpy array, which a small in-place sort may sort on the host."""
    return type(x) is np.ndarray and x.ndim == 1 and x.flags.writeable


def is_device(info):
    return info.memory == "cuda"


def stream_of(x):
    """The producer's current CUDA stream for x's device, as an int (0: the legacy default stream,
    also for host arrays, where it is not used). Asks x's library only: no DLPack import."""
    pool = pool_library(x)
    if pool == "torch" and x.is_cuda:
        return int(_library(x).cuda.current_stream(x.device).cuda_stream)
    if pool == "cupy":
        with x.device:
            return int(_library(x).cuda.get_current_stream().ptr)
    return 0  # numpy, or another producer: the legacy default stream orders with every blocking stream


def pool_library(x):
    """"torch" or "cupy" for arrays of those libraries (whose pools and index dtypes gpusort uses),
    else None."""
    kind = type(x)
    try:
        return _POOL_OF_TYPE[kind]
    except KeyError:
        name = getattr(_library(x), "__name__", "")
        pool = _POOL_OF_TYPE[kind] = name if name in ("torch", "cupy") else None
        return pool


def immutable_library(x):
    """The name of x's library ("JAX") where its arrays are immutable, so that sorting x in place
    would change every array that shares its memory; else None. Read-only memory that says so
    itself (numpy's flags, buffers, DLPack's read-only flag) is refused by the compiled sort."""
    kind = type(x)
    try:
        return _IMMUTABLE_OF_TYPE[kind]
    except KeyError:
        name = kind.__module__.partition(".")[0]
        library = _IMMUTABLE_OF_TYPE[kind] = _IMMUTABLE_LIBRARIES.get(name)
        return library


def sorted_apart(*arrays):
    """Whether the out-of-place functions sort these arrays (keys, and values if any) into empty
    arrays of their library (sort_into: gpusort's radix reads the input where it lies, so the copy
    of the input is saved) instead of into copies: CUDA arrays of PyTorch or CuPy, all of one library
    (the outputs are then made on the stream the sort is ordered on)."""
    libraries = {pool_library(a) for a in arrays}
    return len(libraries) == 1 and None not in libraries and all(_on_cuda(a) for a in arrays)


def _on_cuda(x):
    if pool_library(x) == "torch":
        return x.is_cuda
    return True  # a cupy array


def empty_like(x, dtype=None):
    """An uninitialised array of x's library, length and device, of x's dtype or `dtype` (x: a
    sorted_apart array). cupy.empty, not cupy.empty_like: the same array for a 1-D contiguous x at
    fewer microseconds (no layout to work out)."""
    library = _library(x)
    if pool_library(x) == "torch":
        return library.empty_like(x, dtype=dtype)
    with x.device:
        return library.empty(x.shape, dtype=x.dtype if dtype is None else dtype)


def empty_indices(x, narrow):
    """Uninitialised int64 indices (int32 where narrow) of x's length on x's device, for argsort_into
    to fill (x: a sorted_apart array)."""
    library = _library(x)
    return empty_like(x, library.int32 if narrow else library.int64)


def copy(x, info):
    """A writable copy of x where x lives: numpy for host arrays, x's own library on its device."""
    if not is_device(info):
        return host_copy(x)
    if pool_library(x) == "torch":
        return x.clone()
    return x.copy()  # cupy and other array-API libraries


# The device's tuning for this package's own choices (int32 indices widened after an argsort, and
# temporaries lent by the array's library): a row of the library's tuning data, keyed by device class
# (_gpusort.array_library_tuning; gpusort/plan.hpp), read once per device.
_TUNING_OF_DEVICE: Dict[int, Dict[str, Any]] = {}


def device_tuning(info):
    """The ArrayLibraryTuning row of the CUDA device that holds the array info describes."""
    tuning = _TUNING_OF_DEVICE.get(info.device_id)
    if tuning is None:
        tuning = _TUNING_OF_DEVICE[info.device_id] = _gpusort.array_library_tuning(f"cuda:{info.device_id}")
    return tuning


# The default device's host_sort_below (its ArrayLibraryTuning row): host arrays of fewer keys are
# sorted by numpy on the host (_host). Read once, when the first host sort asks.
_HOST_SORT_BELOW: List[int] = []


def host_sort_below():
    """Host arrays of fewer keys than this are sorted on the host (the default device's tuning row)."""
    if not _HOST_SORT_BELOW:
        _HOST_SORT_BELOW.append(_gpusort.array_library_tuning("")["host_sort_below"])
    return _HOST_SORT_BELOW[0]


def narrow_indices(x, info):
    """Whether a device argsort of x sorts int32 indices, widened to int64 after the sort (the
    device's tuning row: device_tuning), for PyTorch and CuPy arrays."""
    if not is_device(info) or pool_library(x) is None:
        return False
    tuning = device_tuning(info)
    start = tuning["narrow_indices_from"].get(info.itemsize, 0)
    return 0 < start <= info.n <= tuning["narrow_indices_max"]


def device_indices(x, info, narrow=False):
    """0..n-1 on x's device, made by x's library: int64, or int32 where narrow. Producers other than
    PyTorch and CuPy (JAX) through the Array API: its arange's default integer dtype (JAX: int32
    unless 64-bit types are enabled, as its host argsort returns)."""
    library = _library(x)
    if pool_library(x) is None and hasattr(x, "__array_namespace__"):
        return x.__array_namespace__().arange(info.n, device=x.device)
    dtype = library.int32 if narrow else library.int64
    if pool_library(x) == "torch":
        return library.arange(info.n, dtype=dtype, device=x.device)
    with library.cuda.Device(info.device_id):
        return library.arange(info.n, dtype=dtype)


def widen_indices(x, info, order, into=None):
    """Narrow (int32) device indices, made by device_indices or filled by argsort_into, as int64 (x's
    library, x's device and stream): a new array, or `into` (an int64 array of the same length)."""
    library = _library(x)
    if pool_library(x) == "torch":
        return order.to(library.int64) if into is None else into.copy_(order)
    with library.cuda.Device(info.device_id):
        if into is None:
            return order.astype(library.int64)
        into[...] = order
        return into




def lent_temporaries(x, info, keys, values, value_itemsize, options, in_place=True):
    """A byte array from x's library (PyTorch or CuPy) for the sort of keys (and values) on the
    device, or None for gpusort's own pool: no info (the caller skipped inspecting an array no pool
    serves), host arrays, other libraries, read-only keys sorted in place (the sort refuses them),
    sorts below the device's tuning row's lend_temporaries_from, algorithms that do not report
    their needs. The loan stays in that library's pool
    after the sort, as its own arrays' memory does."""
    if info is None or not is_device(info) or (in_place and not info.writable) or pool_library(x) is None:
        return None
    lend_from = device_tuning(info)["lend_temporaries_from"]
    if not lend_from or info.n * (info.itemsize + value_itemsize) < lend_from:
        return None
    nbytes = _gpusort.temporary_bytes(keys, values, **options)
    if not nbytes:
        return None
    library = _library(x)
    if pool_library(x) == "torch":
        return library.empty(nbytes, dtype=library.uint8, device=x.device)
    with library.cuda.Device(info.device_id):
        return library.empty(nbytes, dtype=library.uint8)


def host_copy(x):
    """A writable numpy copy of an array inspect() accepted as a host array."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if hasattr(x, "__dlpack__"):
        if _is_bfloat16(x):
            return _bfloat16_host_copy(x)
        return np.from_dlpack(x).copy()
    return np.array(memoryview(x), copy=True)  # the buffer protocol (array.array, memoryview, bytes)


def _is_bfloat16(x):
    """Whether x holds bfloat16 keys (JAX's and PyTorch's dtype names end so), which numpy's DLPack
    import does not take."""
    return str(getattr(x, "dtype", "")).rpartition(".")[2] == "bfloat16"


def _bfloat16_host_copy(x):
    """A numpy (ml_dtypes) bfloat16 copy of a host bfloat16 array: through __array__ (JAX), or as its
    16 bits (PyTorch, whose tensors numpy cannot convert)."""
    if pool_library(x) != "torch":
        return np.array(x, copy=True)
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError("x: sorting a PyTorch CPU bfloat16 tensor into a new tensor needs ml_dtypes "
                        "(pip install ml_dtypes); gpusort.sort_(x) sorts it in place without it") from None
    return np.from_dlpack(x.view(_library(x).int16)).copy().view(ml_dtypes.bfloat16)


def empty_host_indices(n):
    """Uninitialised int64 host indices for argsort_host_into, which writes every one."""
    return np.empty(n, dtype=np.int64)


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
    if _is_bfloat16(x) and result.dtype.name == "bfloat16":  # no DLPack for numpy's bfloat16
        if pool_library(x) == "torch":
            return _library(x).from_dlpack(result.view(np.int16)).view(_library(x).bfloat16)
        if hasattr(x, "__array_namespace__"):
            return x.__array_namespace__().asarray(result)
    if hasattr(x, "__array_namespace__"):
        library = x.__array_namespace__()
    else:
        library = _library(x)
    from_dlpack = getattr(library, "from_dlpack", None)
    return from_dlpack(result) if from_dlpack is not None else result
