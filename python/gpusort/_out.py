"""out=: the caller's arrays that receive a sort's results, checked before anything is sorted.

An output must be what the call would return otherwise: an array of the same library (numpy for
numpy arrays, array-likes and buffers; a PyTorch tensor for a tensor, a CuPy array for a CuPy
array), in the same memory (host, or the same GPU), of the input's shape and writable, with the
keys' dtype for sorted keys and int64 for indices. A PyTorch tensor of another shape is resized to
the result's first, as PyTorch's own out= does (resize_: the tensor becomes contiguous); one of the
result's shape keeps its layout. Any layout is taken, as torch.sort(out=) takes it: a strided
(non-contiguous) numpy, PyTorch or CuPy output, a slice or a transposed view, gets the sort's result
in a contiguous temporary of its own library, made where it lives, copied through the view after
the sort (by that library, on the device and stream the sort ran on). A view in which several
elements share one memory location (a stride of 0: numpy's broadcast_to, PyTorch's expand) cannot
hold a sort's result and is refused, as are values and indices whose memory spans intersect.
Immutable arrays (JAX's) are refused with TypeError, as is another library or dtype; another shape
or place, a self-overlapping view and read-only memory, with ValueError. Nothing is written before
every check has passed.
"""
from typing import Any, List, NamedTuple, Optional, Tuple

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


class Outputs(NamedTuple):
    """The checked out= of a 1-D sort: the arrays the sort writes, and what goes through views after."""
    arrays: Tuple[Any, ...]  # 1-D contiguous: the caller's arrays (a 0-d one as one element), or temporaries
    through: Tuple[Tuple[Any, Any], ...]  # (the caller's strided array, the temporary written in its place)

    def finish(self) -> None:
        """Copies each temporary through the caller's view (call once the sort has written them)."""
        for view, temporary in self.through:
            copy_through(view, temporary)


def checked(out: Any, count: int, call: str, x: Any, info: Any, scalar: bool,
            gathered: Optional[Any] = None) -> Outputs:
    """out as `count` arrays (values and/or indices, see the module's description), each as the 1-D
    contiguous array gpusort writes (a 0-d output reshaped to one element: a view of it; a strided
    output replaced by a temporary, Outputs.finish copies it through). x is the caller's array, info
    the compiled module's inspection of what is sorted, scalar whether x is 0-d; gathered the
    contiguous copy of a strided x that is sorted (_inputs.Prepared.gathered), which takes the place
    of a temporary where out's values are x itself: out=x sorts that copy in place, then writes it
    back through x."""
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
        strided = _strided(one_d)
        try:
            # a strided output is inspected through its first element (contiguous as one element):
            # its dtype, place and writability are the view's
            out_info = _arrays.inspect(one_d[:1] if strided else one_d, name, "values")
        except ValueError as e:
            if "contiguous" in str(e) and not strided:  # another library's strided array: no copy through it
                raise ValueError(f"{call}: {name} must be contiguous") from None
            raise
        if out_info.dtype != dtype:
            raise TypeError(f"{call}: {name} must be of dtype {dtype}, not {out_info.dtype}")
        if (out_info.memory, out_info.device_id) != (info.memory, info.device_id):
            raise ValueError(f"{call}: {name} must live where x does ({_place(info)}), not on {_place(out_info)}")
        if not out_info.writable:
            raise ValueError(f"{call}: {name} is read-only")
        if strided and _self_overlapping(one_d):
            raise ValueError(f"{call}: {name} has elements that share one memory location (a stride of 0); "
                             "pass an array with one place per result")
        flat.append(one_d)
    if count == 2 and _overlap(flat[0], flat[1]):
        raise ValueError(f"{call}: out's values and indices share memory; pass separate arrays")
    written: List[Any] = []
    through: List[Tuple[Any, Any]] = []
    for index, one_d in enumerate(flat):
        if not _strided(one_d):
            written.append(one_d)
            continue
        values_slot = index == 0 and not call.startswith("gpusort.argsort")
        if values_slot and one_d is x and gathered is not None:
            temporary = gathered  # out=x on a strided x: its gathered copy, sorted in place
        else:
            temporary = _contiguous_like(one_d)
        written.append(temporary)
        through.append((one_d, temporary))
    return Outputs(tuple(written), tuple(through))


def _strided(a: Any) -> bool:
    """Whether a is a numpy, PyTorch or CuPy array the sort cannot write where it lies (not
    C-contiguous); other arrays are left to inspect(), which refuses a strided one."""
    if isinstance(a, np.ndarray):
        return not a.flags.c_contiguous
    library = _arrays.pool_library(a)
    if library == "torch":
        return not a.is_contiguous()
    if library == "cupy":
        return not a.flags.c_contiguous
    return False


def _self_overlapping(a: Any) -> bool:
    """Whether two elements of a share one memory location: an axis of more than one element and
    stride 0 (broadcast views; other overlaps need views made by hand, as_strided)."""
    strides = a.stride() if _arrays.pool_library(a) == "torch" else getattr(a, "strides", None)
    if strides is None:
        return False
    return any(extent > 1 and stride == 0 for extent, stride in zip(a.shape, strides))


def _contiguous_like(a: Any) -> Any:
    """An uninitialised C-contiguous array of a's library, shape and dtype, where a lives."""
    library = _arrays.pool_library(a)
    if library == "torch":
        return _arrays.library_of(a).empty(tuple(a.shape), dtype=a.dtype, device=a.device)
    if library == "cupy":
        with a.device:
            return _arrays.library_of(a).empty(a.shape, dtype=a.dtype)
    return np.empty(a.shape, dtype=a.dtype)


def copy_through(view: Any, result: Any) -> None:
    """result (an array of view's library and shape) written through view by that library: on the
    device and current stream for CUDA arrays (the stream the sort was enqueued on)."""
    library = _arrays.pool_library(view)
    if library == "torch":
        view.copy_(result)
    elif library == "cupy":
        with view.device:
            view[...] = result
    else:
        np.copyto(view, result)


def _overlap(a: Any, b: Any) -> bool:
    """Whether the memory a and b span intersects (numpy's may_share_memory: their bounds; PyTorch
    and CuPy arrays alike, as the compiled sort checks contiguous ones, which strided outputs are
    replaced by before it sees them)."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return bool(np.may_share_memory(a, b))
    a_span, b_span = _span(a), _span(b)
    if a_span is None or b_span is None:
        return False
    return a_span[0] < b_span[1] and b_span[0] < a_span[1]


def _span(a: Any) -> Optional[Tuple[int, int]]:
    """The bytes [start, end) a PyTorch or CuPy array's elements lie in; None when empty or another library."""
    library = _arrays.pool_library(a)
    if library == "torch":
        start, itemsize = a.data_ptr(), a.element_size()
        strides = [stride * itemsize for stride in a.stride()]
    elif library == "cupy":
        start, itemsize, strides = a.data.ptr, a.itemsize, list(a.strides)
    else:
        return None
    if any(extent == 0 for extent in a.shape):
        return None
    low = start + sum(min(0, stride * (extent - 1)) for extent, stride in zip(a.shape, strides))
    high = start + sum(max(0, stride * (extent - 1)) for extent, stride in zip(a.shape, strides)) + itemsize
    return low, high


def _name(kind: type) -> str:
    return f"{kind.__module__.partition('.')[0]}.{kind.__name__}"


def _place(info: Any) -> str:
    return "the host" if info.memory == "host" else f"cuda:{info.device_id}"


def checked_along(out: Any, count: int, call: str, x: Any, a: Any, argsort: bool = False) -> Tuple[Any, ...]:
    """out as a tuple of `count` arrays for a sort of the n-D array a (x prepared) along an axis:
    the rules above with a's shape, any layout (_axes writes the results through views)."""
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
        if _self_overlapping(array):
            raise ValueError(f"{call}: {name} has elements that share one memory location (a stride of 0); "
                             "pass an array with one place per result")
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
