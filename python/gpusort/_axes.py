"""Sorting n-D arrays along an axis: the axis argument's rules, and the copies that make the sorted
axis the rows of one segmented sort.

The compiled module sorts flat arrays; with row_length=L it sorts each run of L elements on its own
(gpusort/segmented.hpp, Segments::rows), and argsort's indices are positions within the run. An
n-D array sorted along axis k is such a flat array once its axes are put in a work order that ends
with k: the other axes by decreasing stride of the array the result goes to, then k. Where the
caller's array is already laid out so (a C-contiguous array sorted along its last axis, and any
array whose memory has k innermost), the sort reads and writes it in place of the copies; otherwise
the input is gathered into that order (by its own library, where it lives: numpy, PyTorch's
.contiguous(), cupy.ascontiguousarray on the array's device and current stream), and the result is
written back through a transposed view of the output. Outputs are laid out as the library's
empty_like(x) lays them out (numpy's order "K", PyTorch's preserve_format), as numpy.sort and
torch.sort return them.

Host arrays of fewer elements than the device's tuning row's host_sort_below are sorted here by
numpy along the axis (the rules of _host). Other producers' CUDA arrays (JAX) are permuted,
flattened and copied by their own library (the Array API's permute_dims and reshape), sorted in
place with their local indices made by that library, and permuted back.
"""
import operator
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _arrays, _gpusort

try:  # numpy 1.25 and later
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError  # type: ignore[attr-defined,misc]


def plain(axis: Any) -> bool:
    """Whether axis needs no checking for a 1-D array: -1, 0 (Python ints) or None."""
    return axis is None or (type(axis) is int and -1 <= axis <= 0)


def index_of(axis: Any) -> Optional[int]:
    """axis as an int (anything operator.index takes, as numpy does) or None; TypeError otherwise."""
    if axis is None:
        return None
    try:
        return operator.index(axis)
    except TypeError:
        raise TypeError(f"axis must be an integer or None, not {type(axis).__name__}") from None


def normalized(axis: int, ndim: int, x: Any) -> int:
    """axis as 0..ndim-1 for an array of ndim >= 1 axes, or the error x's library raises: IndexError
    for PyTorch tensors (torch.sort's), numpy's AxisError for the others (a ValueError and an
    IndexError: what numpy and CuPy raise, and a ValueError as JAX's own)."""
    if -ndim <= axis < ndim:
        return axis % ndim
    if _arrays.pool_library(x) == "torch":
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {axis})")
    raise AxisError(axis, ndim)


def ndim_of(a: Any) -> int:
    return int(getattr(a, "ndim", 1))


# --- where the work is done ------------------------------------------------------------------------

def on_host(a: Any) -> bool:
    """Whether a's memory is host memory (numpy and buffers, PyTorch CPU tensors, JAX CPU arrays)."""
    if isinstance(a, np.ndarray):
        return True
    if _arrays.pool_library(a) == "torch":
        return not a.is_cuda
    if _arrays.pool_library(a) == "cupy":
        return False
    device = getattr(a, "__dlpack_device__", None)
    if device is None:
        return True  # buffers and array-likes
    return device()[0] in (1, 3)  # DLPack's kDLCPU, kDLCUDAHost


def host_view(a: Any) -> np.ndarray:
    """A numpy view of a host array (no copy where numpy can share the memory)."""
    if isinstance(a, np.ndarray):
        return a
    if hasattr(a, "__dlpack__"):
        if _arrays._is_bfloat16(a):
            if _arrays.pool_library(a) == "torch":  # numpy reads no torch bfloat16: its 16 bits, viewed
                try:
                    import ml_dtypes
                except ImportError:
                    raise TypeError("x: sorting a PyTorch CPU bfloat16 tensor along an axis needs ml_dtypes "
                                    "(pip install ml_dtypes)") from None
                return np.from_dlpack(a.view(_arrays.library_of(a).int16)).view(ml_dtypes.bfloat16)
            return np.asarray(a)
        return np.from_dlpack(a)
    try:
        return np.asarray(memoryview(a))  # the buffer protocol
    except TypeError:
        return np.asarray(a)


def work_order(strides: Sequence[int], axis: int) -> List[int]:
    """The axes other than axis by decreasing stride (ties in axis order), then axis: the order in
    which an array with those strides is (closest to) rows along axis."""
    others = sorted((i for i in range(len(strides)) if i != axis), key=lambda i: -abs(strides[i]))
    return others + [axis]


def inverse(perm: Sequence[int]) -> List[int]:
    back = [0] * len(perm)
    for i, p in enumerate(perm):
        back[p] = i
    return back


class _Ops:
    """What the engine asks of an array library: views, copies and empty arrays where x lives."""
    host = True

    def __init__(self, like: Any) -> None:
        self.like = like

    def transpose(self, a: Any, perm: Sequence[int]) -> Any:
        return a.transpose(perm)

    def flat(self, a: Any) -> Any:
        """A 1-D view of a where a is C-contiguous, else None."""
        return a.reshape(-1) if a.flags.c_contiguous else None

    def contiguous(self, a: Any) -> Any:
        return np.ascontiguousarray(a)

    def empty(self, shape: Tuple[int, ...], dtype: Any) -> Any:
        return np.empty(shape, dtype)

    def empty_like(self, a: Any, dtype: Any = None) -> Any:
        return np.empty_like(a, dtype=dtype)

    def assign(self, dst: Any, src: Any) -> None:
        np.copyto(dst, src)

    def strides(self, a: Any) -> Sequence[int]:
        return a.strides  # type: ignore[no-any-return]

    def index_dtype(self) -> Any:
        return np.int64


class _TorchOps(_Ops):
    host = False

    def __init__(self, like: Any) -> None:
        super().__init__(like)
        self.torch = _arrays.library_of(like)

    def transpose(self, a: Any, perm: Sequence[int]) -> Any:
        return a.permute(*perm)

    def flat(self, a: Any) -> Any:
        return a.view(-1) if a.is_contiguous() else None

    def contiguous(self, a: Any) -> Any:
        return a.contiguous()

    def empty(self, shape: Tuple[int, ...], dtype: Any) -> Any:
        return self.torch.empty(shape, dtype=dtype, device=self.like.device)

    def empty_like(self, a: Any, dtype: Any = None) -> Any:
        return self.torch.empty_like(a, dtype=dtype)

    def assign(self, dst: Any, src: Any) -> None:
        dst.copy_(src)

    def strides(self, a: Any) -> Sequence[int]:
        return a.stride()  # type: ignore[no-any-return]

    def index_dtype(self) -> Any:
        return self.torch.int64


class _CupyOps(_Ops):
    host = False

    def __init__(self, like: Any) -> None:
        super().__init__(like)
        self.cupy = _arrays.library_of(like)

    def contiguous(self, a: Any) -> Any:
        with self.like.device:
            return self.cupy.ascontiguousarray(a)

    def empty(self, shape: Tuple[int, ...], dtype: Any) -> Any:
        with self.like.device:
            return self.cupy.empty(shape, dtype=dtype)

    def empty_like(self, a: Any, dtype: Any = None) -> Any:
        with self.like.device:
            return self.cupy.empty_like(a, dtype=dtype)

    def assign(self, dst: Any, src: Any) -> None:
        with self.like.device:
            dst[...] = src

    def index_dtype(self) -> Any:
        return self.cupy.int64


def ops_for(a: Any) -> _Ops:
    """The library operations for a (host arrays: numpy on a's numpy view)."""
    library = _arrays.pool_library(a)
    if library == "torch" and a.is_cuda:
        return _TorchOps(a)
    if library == "cupy":
        return _CupyOps(a)
    return _Ops(a)


# --- the sorts ---------------------------------------------------------------------------------------

class Call:
    """How the compiled sort is called for one request: options, the keys' name in messages, and
    for CUDA arrays the producer's stream and whether to wait for the sort."""

    def __init__(self, options: dict, keys_name: str, stream: int = 0, wait: bool = True) -> None:
        self.options = options
        self.keys_name = keys_name
        self.device_args: Dict[str, Any] = dict(stream=stream, wait=wait)

    def sort_in_place(self, ops: _Ops, keys: Any, values: Any, length: int) -> None:
        extra = {} if ops.host else self.device_args
        _gpusort.sort_inplace(keys, values, keys_name=self.keys_name, row_length=length, **extra, **self.options)

    def sort_into(self, ops: _Ops, keys: Any, keys_out: Any, values: Any, values_out: Any, length: int) -> None:
        if ops.host:  # the host sort is in place: the outputs take copies of the inputs first
            ops.assign(keys_out, keys)
            if values is not None and values_out is not values:
                ops.assign(values_out, values)
            self.sort_in_place(ops, keys_out, values_out, length)
            return
        _gpusort.sort_into(keys, keys_out, values, values_out, keys_name=self.keys_name, row_length=length,
                           **self.device_args, **self.options)

    def argsort(self, ops: _Ops, keys: Any, keys_out: Any, indices: Any, length: int) -> None:
        """indices (and keys_out where not None; keys itself: in place) from one sort of keys."""
        if ops.host:
            _gpusort.argsort_host_into(keys, indices, keys_out=keys_out, keys_name=self.keys_name, row_length=length,
                                       **self.options)
            return
        _gpusort.argsort_into(keys, keys_out, indices, keys_name=self.keys_name, row_length=length,
                              **self.device_args, **self.options)


class _Target:
    """Where one result goes: the flat view of the output in work order, or a contiguous temporary
    that is copied into the output's transposed view afterwards."""

    def __init__(self, ops: _Ops, out: Any, perm: Sequence[int]) -> None:
        self.ops = ops
        self.view = ops.transpose(out, perm)
        self.flat = ops.flat(self.view)
        self.temporary = None
        if self.flat is None:
            self.temporary = ops.empty(tuple(self.view.shape), out.dtype)
            self.flat = ops.flat(self.temporary)

    def adopt(self, flat: Any, shaped: Any) -> None:
        """Take a fresh contiguous copy (flat, shaped as the work order) as the temporary."""
        self.flat, self.temporary = flat, shaped

    def finish(self) -> None:
        if self.temporary is not None:
            self.ops.assign(self.view, self.temporary)


class _Source:
    """An input in work order, flat: a view of the caller's array, or a fresh contiguous copy
    (`fresh`, which the sort may overwrite)."""

    def __init__(self, ops: _Ops, a: Any, perm: Sequence[int]) -> None:
        view = ops.transpose(a, perm)
        self.flat = ops.flat(view)
        self.fresh = self.flat is None
        self.shaped = view
        if self.fresh:
            self.shaped = ops.contiguous(view)
            self.flat = ops.flat(self.shaped)


def sort_along(ops: _Ops, a: Any, axis: int, call: Call, values_out: Any = None, indices_out: Any = None,
               want_values: bool = True, want_indices: bool = False) -> Tuple[Any, Any]:
    """a (an n-D array of ops' library, where it lives) sorted along axis: (values, indices), each
    into the output given (values_out may be a itself: sorted in place) or a new array laid out as
    empty_like(a); None for what is not wanted."""
    length = a.shape[axis]
    values = values_out if values_out is not None else (ops.empty_like(a) if want_values else None)
    indices = None
    if want_indices:
        indices = indices_out if indices_out is not None else ops.empty_like(a, ops.index_dtype())
    if _size(a) == 0:
        return values, indices
    perm = work_order(ops.strides(values if values is not None else indices), axis)
    in_place = values is a
    keys_target = _Target(ops, values, perm) if values is not None else None
    if in_place:
        assert keys_target is not None
        if keys_target.temporary is not None:
            ops.assign(keys_target.temporary, keys_target.view)
        source_flat = keys_target.flat
    else:
        source = _Source(ops, a, perm)
        source_flat = source.flat
        if keys_target is not None and keys_target.temporary is not None and source.fresh:
            keys_target.adopt(source.flat, source.shaped)  # the copy of the input is sorted in place
            source_flat = keys_target.flat
    if indices is None:
        assert keys_target is not None
        if source_flat is keys_target.flat:
            call.sort_in_place(ops, keys_target.flat, None, length)
        else:
            call.sort_into(ops, source_flat, keys_target.flat, None, None, length)
        keys_target.finish()
        return values, None
    index_target = _Target(ops, indices, perm)
    keys_flat = keys_target.flat if keys_target is not None else None
    if keys_flat is None and not ops.host:
        # the device argsort writes the sorted keys somewhere: a fresh copy in place, else a temporary
        keys_flat = source_flat if not in_place and source.fresh else ops.flat(ops.empty((_size(a),), a.dtype))
    call.argsort(ops, source_flat, keys_flat, index_target.flat, length)
    if keys_target is not None:
        keys_target.finish()
    index_target.finish()
    return values, indices


def sort_pairs_along(ops: _Ops, keys: Any, values: Any, axis: int, call: Call, in_place: bool) -> Tuple[Any, Any]:
    """keys sorted along axis and values (keys' shape, any dtype of 1-16 bytes) permuted alike:
    in place (the caller's arrays), or into new arrays laid out as empty_like of each."""
    length = keys.shape[axis]
    keys_out = keys if in_place else ops.empty_like(keys)
    values_out = values if in_place else ops.empty_like(values)
    if _size(keys) == 0:
        return keys_out, values_out
    perm = work_order(ops.strides(keys_out), axis)
    targets = [_Target(ops, keys_out, perm), _Target(ops, values_out, perm)]
    if in_place:
        for target in targets:
            if target.temporary is not None:
                ops.assign(target.temporary, target.view)
        call.sort_in_place(ops, targets[0].flat, targets[1].flat, length)
    else:
        sources = [_Source(ops, keys, perm), _Source(ops, values, perm)]
        adopts = [t.temporary is not None and s.fresh for t, s in zip(targets, sources)]
        if not ops.host and adopts[0] and not adopts[1]:
            adopts[0] = False  # the device sort takes values in place beside keys out of place, not the reverse
        for target, source, adopt in zip(targets, sources, adopts):
            if adopt:
                target.adopt(source.flat, source.shaped)
        if all(t.flat is s.flat for t, s in zip(targets, sources)):
            call.sort_in_place(ops, targets[0].flat, targets[1].flat, length)
        else:
            call.sort_into(ops, sources[0].flat, targets[0].flat, sources[1].flat, targets[1].flat, length)
    for target in targets:
        target.finish()
    return keys_out, values_out


def _size(a: Any) -> int:
    size = 1
    for extent in a.shape:
        size *= int(extent)
    return size


class _OtherDeviceOps(_Ops):
    """Other producers' CUDA arrays (JAX): only the compiled call's device arguments are taken from here."""
    host = False


def sort_along_other_device(a: Any, axis: int, call: Call, want_values: bool, want_indices: bool,
                            values: Any = None) -> Tuple[Any, Any]:
    """a (a CUDA array of a library other than PyTorch and CuPy, with the Array API) sorted along
    axis: its own permute_dims, reshape and copy make the flat keys (and the values, or the local
    indices 0..L-1 of every row from its arange: its default integer dtype), sorted in place and
    permuted back. Returns (values or None, indices or permuted values or None)."""
    xp = a.__array_namespace__()
    length = int(a.shape[axis])
    perm = [i for i in range(a.ndim) if i != axis] + [axis]
    work = xp.permute_dims(a, tuple(perm))
    shape = tuple(work.shape)
    size = _size(a)
    keys = xp.reshape(work, (-1,)).copy()  # the sort's own buffer: a reshape may share a's
    moved = None
    if want_indices:
        rows = size // length if length else 0
        moved = xp.reshape(xp.broadcast_to(xp.arange(length), (rows, length)), (-1,)).copy()
    elif values is not None:
        moved = xp.reshape(xp.permute_dims(values, tuple(perm)), (-1,)).copy()
    if size:
        call.sort_in_place(_OtherDeviceOps(a), keys, moved, length)
    back = tuple(inverse(perm))

    def unflat(flat: Any) -> Any:
        return xp.permute_dims(xp.reshape(flat, shape), back)

    return (unflat(keys) if want_values or values is not None else None,
            unflat(moved) if moved is not None else None)
