"""The public functions' branch for n-D arrays sorted along an axis: the axis argument checked by
its library's rules, where each array is sorted (small host arrays by numpy, other host arrays
through the device, CUDA arrays where they live), out= checked, results of the caller's kind.
_axes does the copies and the compiled calls."""
from typing import Any, Optional, Tuple

import numpy as np

from . import _arrays, _axes, _host, _inputs, _out


def resolve(x: Any, prepared: _inputs.Prepared, axis: Any, sorts: bool,
            in_place: bool = False) -> Tuple[_inputs.Prepared, Optional[int]]:
    """(prepared, None) where the call takes the 1-D path (prepared.array flattened for axis=None
    on an n-D array; a 0-d array's result 1-D then), or (prepared, k): sort along axis k (0..ndim-1)
    of the n-D prepared.array. Raises the library's error for an axis out of range (_axes.normalized),
    numpy's AxisError for a numpy-family 0-d array a sort (not argsort) is asked to sort along an
    axis, and TypeError for axis=None in place (numpy's ndarray.sort refuses it too)."""
    a = prepared.array
    if _axes.plain(axis) and not prepared.scalar and _axes.ndim_of(a) <= 1:
        if axis is None and in_place:
            raise TypeError("axis=None is for the out-of-place sorts (it flattens); sort x.reshape(-1) in place")
        return prepared, None
    index = _axes.index_of(axis)
    if index is None and in_place:
        raise TypeError("axis=None is for the out-of-place sorts (it flattens); sort x.reshape(-1) in place")
    if prepared.scalar:
        if index is None:  # flattened: one element, 1-D (numpy's rule)
            return prepared._replace(scalar=False, numpy_rule=False), None
        if prepared.numpy_rule and sorts:
            _inputs.refuse_numpy_scalar(prepared, index)
        _axes.normalized(index, 1, x)  # argsort of numpy's 0-d, and PyTorch's rule: axis 0 or -1
        return prepared, None
    ndim = _axes.ndim_of(a)
    if index is None:
        return (prepared, None) if ndim <= 1 else (prepared._replace(array=flattened(a)), None)
    k = _axes.normalized(index, max(ndim, 1), x)
    return (prepared, None) if ndim <= 1 else (prepared, k)


def flattened(a: Any) -> Any:
    """a as 1-D in C order, by its own library where it lives (a view where a is contiguous)."""
    if isinstance(a, np.ndarray):
        return a.ravel()
    if _arrays.pool_library(a) == "torch":
        return a.reshape(-1)
    if hasattr(a, "__array_namespace__"):
        return a.__array_namespace__().reshape(a, (-1,))
    if hasattr(a, "ravel"):
        return a.ravel()
    return _axes.host_view(a).ravel()


def _host_keys(a: Any, name: str) -> np.ndarray:
    """The numpy view of host keys a, their dtype checked as the compiled module checks it."""
    if isinstance(a, np.ma.MaskedArray):
        _arrays.inspect(a.reshape(-1)[:0], name, "keys")  # refused, with the module's message
    h = _axes.host_view(a)
    if h.dtype not in _host._KEY_DTYPES_SEEN:
        _arrays.inspect(np.empty(0, h.dtype), name, "keys")
        _host._KEY_DTYPES_SEEN.add(h.dtype)
    return h


def _on_host_here(size: int, options: dict) -> bool:
    """Whether host keys of this size are sorted by numpy here (as _host.applies for 1-D arrays)."""
    return (options["algorithm"] is None and options["device"] is None and options["comparator"] is None
            and size < _arrays.host_sort_below())


def sort(x: Any, a: Any, axis: int, options: dict, wait: bool, want_values: bool, want_indices: bool,
         out: Any = None, call: str = "gpusort.sort") -> Tuple[Any, Any]:
    """x (prepared as the n-D array a) sorted along axis: (values, indices), each where wanted, as
    x's kind, or out's arrays where out is given (out's values may be x: sorted in place)."""
    outs: Tuple[Any, ...] = ()
    if out is not None:
        count = 2 if want_values and want_indices else 1
        outs = _out.checked_along(out, count, call, x, a, argsort=not want_values)
    values_out = outs[0] if outs and want_values else None
    indices_out = outs[-1] if outs and want_indices else None
    in_place = values_out is not None and values_out is x
    if _axes.on_host(a):
        h = _host_keys(a, "x")
        values_into = h if in_place else (None if values_out is None else _axes.host_view(values_out))
        indices_into = None if indices_out is None else _axes.host_view(indices_out)
        if _on_host_here(h.size, options):
            values, indices = _host.sort_along(h, options["descending"], axis, want_values, want_indices,
                                               values_into, indices_into)
        else:
            values, indices = _axes.sort_along(_axes.ops_for(h), h, axis, _axes.Call(options, "x"), values_into,
                                               indices_into, want_values, want_indices)
        if out is not None:
            return values_out, indices_out
        return (None if values is None else _arrays.like(x, values),
                None if indices is None else _arrays.like(x, indices))
    call_args = _axes.Call(options, "x", _arrays.stream_of(a), wait)
    if _arrays.pool_library(a) is None:  # JAX's and other producers' CUDA arrays
        return _axes.sort_along_other_device(a, axis, call_args, want_values, want_indices)
    values, indices = _axes.sort_along(_axes.ops_for(a), a, axis, call_args, x if in_place else values_out,
                                       indices_out, want_values, want_indices)
    return values, indices


def sort_in_place(x: Any, a: Any, axis: int, options: dict, wait: bool) -> None:
    """x (prepared as the n-D array a: x itself, or its numpy view) sorted in place along axis."""
    if not _arrays.writable(a):
        raise ValueError("gpusort.sort_: x is read-only; use gpusort.sort(x), which returns a new array")
    if _axes.on_host(a):
        h = _host_keys(a, "x")
        if _on_host_here(h.size, options):
            _host.sort_along(h, options["descending"], axis, True, False, h)
        else:
            _axes.sort_along(_axes.ops_for(h), h, axis, _axes.Call(options, "x"), h)
        return
    _axes.sort_along(_axes.ops_for(a), a, axis, _axes.Call(options, "x", _arrays.stream_of(a), wait), a)


def sort_pairs(keys: Any, values: Any, k: Any, v: Any, axis: int, options: dict, wait: bool,
               in_place: bool) -> Tuple[Any, Any]:
    """keys (prepared as the n-D array k) sorted along axis and values (v, keys' shape) permuted
    alike: in place (returns the caller's arrays) or into new arrays of each input's kind."""
    if tuple(k.shape) != tuple(v.shape):
        raise ValueError(f"keys and values differ in shape: {tuple(k.shape)} and {tuple(v.shape)}")
    call = "gpusort.sort_pairs_" if in_place else "gpusort.sort_pairs"
    if in_place:
        for name, array in (("keys", k), ("values", v)):
            if not _arrays.writable(array):
                raise ValueError(f"{call}: {name} is read-only; use gpusort.sort_pairs(keys, values), "
                                 "which returns new arrays")
    if _axes.on_host(k) != _axes.on_host(v) or _out._where(k) != _out._where(v):
        raise ValueError("keys and values must live in the same memory (both host arrays, or both on one GPU)")
    if _axes.on_host(k):
        hk = _host_keys(k, "keys")
        hv = _axes.host_view(v)
        plain = _arrays.as_value_bytes(hv)
        _arrays.inspect(np.empty(0, plain.dtype), "values", "values")
        if np.may_share_memory(hk, hv):
            raise ValueError("keys and values share memory; pass separate arrays")
        if _on_host_here(hk.size, options):
            order = _host.order_along(hk, options["descending"], axis)
            sorted_keys, sorted_values = np.take_along_axis(hk, order, axis), np.take_along_axis(hv, order, axis)
            if in_place:
                np.copyto(hk, sorted_keys)
                np.copyto(hv, sorted_values)
                return keys, values
        else:
            sorted_keys, sorted_plain = _axes.sort_pairs_along(_axes.ops_for(hk), hk, plain, axis,
                                                               _axes.Call(options, "keys"), in_place)
            if in_place:
                return keys, values
            sorted_values = sorted_plain.view(hv.dtype)
        return _arrays.like(keys, sorted_keys), _arrays.like(values, sorted_values)
    call_args = _axes.Call(options, "keys", _arrays.stream_of(k), wait)
    if _arrays.pool_library(k) is None or _arrays.pool_library(v) != _arrays.pool_library(k):
        if in_place or _arrays.pool_library(k) is not None:
            raise ValueError("keys and values must be arrays of one library on the device")
        return _axes.sort_along_other_device(k, axis, call_args, True, False, values=v)
    result = _axes.sort_pairs_along(_axes.ops_for(k), k, v, axis, call_args, in_place)
    return (keys, values) if in_place else result
