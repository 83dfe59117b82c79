"""out=: the caller's arrays that receive a sort's results, checked before anything is sorted.

An output must be what the call would return otherwise: an array of the same library (numpy for
numpy arrays, array-likes and buffers; a PyTorch tensor for a tensor, a CuPy array for a CuPy
array), in the same memory (host, or the same GPU), of the input's shape, contiguous and writable,
with the keys' dtype for sorted keys and int64 for indices (a PyTorch tensor of another shape is
resized to the result's first, as PyTorch's own out= does). Immutable arrays (JAX's) are refused
with TypeError, as is another library or dtype; another shape, place or layout, and read-only
memory, with ValueError. Nothing is written before every check has passed.
"""
from typing import Any, List, Tuple

import numpy as np

from . import _arrays


def result_type(x: Any) -> type:
    """The type of array an out-of-place call returns for x (before any out= is considered)."""
    if isinstance(x, np.ndarray) or not hasattr(x, "__dlpack__"):
        return np.ndarray
    return type(x)


def _outputs(out: Any, count: int, call: str) -> Tuple[Any, ...]:
    if count == 1:
        if isinstance(out, tuple):
            if len(out) != 1:
                raise TypeError(f"{call}: out must be one array (or a tuple of one), not a tuple of {len(out)}")
            return out
        return (out,)
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{call}: with return_indices=True, out must be a tuple (values, indices) of two arrays")
    return tuple(out)


def checked(out: Any, count: int, call: str, x: Any, info: Any, scalar: bool) -> Tuple[Any, ...]:
    """out as a tuple of `count` arrays (values and/or indices, see the module's description), each
    as the 1-D array gpusort writes (a 0-d output reshaped to one element: a view of it). x is the
    caller's array, info the compiled module's inspection of what is sorted, scalar whether x is 0-d."""
    arrays = _outputs(out, count, call)
    names = ["out"] if count == 1 else ["out[0] (values)", "out[1] (indices)"]
    for name, given in zip(names, arrays):  # first: an immutable output is refused as such wherever it lives
        library = _arrays.immutable_library(given)
        if library is not None:
            raise TypeError(f"{call}: {name} is a {library} array, and {library} arrays are immutable; call without out=")
    if info.memory == "cuda" and _arrays.pool_library(x) is None:
        raise TypeError(f"{call}: out= takes numpy, PyTorch and CuPy arrays, not {type(x).__name__}")
    dtypes = [info.dtype] if count == 1 else [info.dtype, "int64"]
    if call.startswith("gpusort.argsort"):
        dtypes = ["int64"]
    expected_type = result_type(x)
    shape = () if scalar else (info.n,)
    flat: List[Any] = []
    for index, name in enumerate(names):
        array: Any = arrays[index]
        dtype = dtypes[index]
        kind: type = type(array)
        if kind is not expected_type:
            raise TypeError(f"{call}: {name} must be a {_name(expected_type)} (what the call returns for x), "
                            f"not a {_name(kind)}")
        if tuple(array.shape) != shape and _arrays.pool_library(array) == "torch":
            array.resize_(shape)  # torch's rule: an out= tensor of another shape is resized to the result's
        if tuple(array.shape) != shape:
            raise ValueError(f"{call}: {name} must have x's shape {shape}, not {tuple(array.shape)}")
        one_d = array.reshape(1) if scalar else array
        try:
            out_info = _arrays.inspect(one_d, name, "values")
        except ValueError as e:
            if "contiguous" in str(e):
                raise ValueError(f"{call}: {name} must be contiguous") from None
            raise
        if out_info.dtype != dtype:
            raise TypeError(f"{call}: {name} must be of dtype {dtype}, not {out_info.dtype}")
        if (out_info.memory, out_info.device_id) != (info.memory, info.device_id):
            raise ValueError(f"{call}: {name} must live where x does ({_place(info)}), not on {_place(out_info)}")
        if not out_info.writable:
            raise ValueError(f"{call}: {name} is read-only")
        flat.append(one_d)
    if count == 2 and _overlap(flat[0], flat[1]):
        raise ValueError(f"{call}: out's values and indices share memory; pass separate arrays")
    return tuple(flat)


def _overlap(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return bool(np.may_share_memory(a, b))
    return False  # device arrays: the compiled sort checks their pointers


def _name(kind: type) -> str:
    return f"{kind.__module__.partition('.')[0]}.{kind.__name__}"


def _place(info: Any) -> str:
    return "the host" if info.memory == "host" else f"cuda:{info.device_id}"


def checked_along(out: Any, count: int, call: str, x: Any, a: Any, argsort: bool = False) -> Tuple[Any, ...]:
    """out as a tuple of `count` arrays for a sort of the n-D array a (x prepared) along an axis:
    the rules above with a's shape, any layout (the results are written through views)."""
    from . import _axes
    arrays = _outputs(out, count, call)
    names = ["out"] if count == 1 else ["out[0] (values)", "out[1] (indices)"]
    for name, given in zip(names, arrays):
        library = _arrays.immutable_library(given)
        if library is not None:
            raise TypeError(f"{call}: {name} is a {library} array, and {library} arrays are immutable; call without out=")
    if not _axes.on_host(a) and _arrays.pool_library(x) is None:
        raise TypeError(f"{call}: out= takes numpy, PyTorch and CuPy arrays, not {type(x).__name__}")
    dtypes = ["int64"] if argsort else [_dtype_name(a), "int64"][:count]
    expected_type = result_type(x)
    shape = tuple(a.shape)
    for name, array, dtype in zip(names, arrays, dtypes):
        kind: type = type(array)
        if kind is not expected_type:
            raise TypeError(f"{call}: {name} must be a {_name(expected_type)} (what the call returns for x), "
                            f"not a {_name(kind)}")
        if tuple(array.shape) != shape and _arrays.pool_library(array) == "torch":
            array.resize_(shape)  # torch's rule: an out= tensor of another shape is resized to the result's
        if tuple(array.shape) != shape:
            raise ValueError(f"{call}: {name} must have x's shape {shape}, not {tuple(array.shape)}")
        if _dtype_name(array) != dtype:
            raise TypeError(f"{call}: {name} must be of dtype {dtype}, not {_dtype_name(array)}")
        if _where(array) != _where(a):
            raise ValueError(f"{call}: {name} must live where x does ({_where(a)}), not on {_where(array)}")
        if not _arrays.writable(array):
            raise ValueError(f"{call}: {name} is read-only")
    if count == 2 and _overlap(arrays[0], arrays[1]):
        raise ValueError(f"{call}: out's values and indices share memory; pass separate arrays")
    return arrays


def _dtype_name(a: Any) -> str:
    """numpy's name of a's dtype (PyTorch's "torch.float32" as "float32")."""
    return str(a.dtype).rpartition(".")[2]


def _where(a: Any) -> str:
    from . import _axes
    if _axes.on_host(a):
        return "the host"
    if _arrays.pool_library(a) == "torch":
        return f"cuda:{a.device.index}"
    if _arrays.pool_library(a) == "cupy":
        return f"cuda:{a.device.id}"
    return f"device {a.__dlpack_device__()}"
