"""The public sorting functions, shaped like torch.sort, numpy.sort and the Array API's sort/argsort.

Inputs (x, keys): arrays of uint8..uint64, int8..int64, float16, bfloat16 (ml_dtypes'), float32,
float64, bool, complex64 or complex128 (TypeError for another dtype): numpy arrays, host arrays of other libraries through DLPack (a PyTorch CPU tensor), PyTorch
and CuPy CUDA arrays, JAX arrays, buffer-protocol objects (array.array, bytes, ctypes arrays), and
array-likes numpy.asarray reads (lists, tuples, scalars: numpy's dtype rules). Any number of
dimensions: 0-d as the array's own library does (PyTorch and JAX sort it as one element with 0-d
results; for numpy and CuPy arrays and array-likes argsort returns one index, 1-D, and the sorts
raise numpy's AxisError); strided 1-D arrays are gathered by their own library where they live.
Out-of-place calls return arrays of the input's own kind on its device (numpy for numpy arrays,
array-likes and buffers), of its shape.

axis (every function; default -1, the last): each row along that axis is sorted on its own, as
numpy.sort(axis=) and torch.sort(dim=) do; argsort's indices are positions within the row (int64).
Negative axes count from the end; None sorts the array flattened into a 1-D result (numpy's rule;
not for the in-place forms, as ndarray.sort). An axis out of range raises what the array's library
raises: IndexError for PyTorch tensors, numpy's AxisError (a ValueError and an IndexError)
otherwise. The rows are sorted by one segmented sort on the device (gpusort/segmented.hpp): an
array whose sorted axis lies innermost in memory (a C-contiguous array along its last axis) is
read and written where it is; another axis goes through a copy with that axis moved last, made by
the array's library where it lives, and the result is written back through a transposed view.
Results are laid out as the library's empty_like(x) (numpy's order "K", PyTorch's
preserve_format: as numpy.sort and torch.sort return them).

out= (sort, argsort, sort(return_indices=True)): the caller's arrays, of the kind, dtype (int64 for
indices), shape and device of the result, written and returned. Any layout, as torch.sort(out=)
takes it: a strided numpy, PyTorch or CuPy view (a slice, a reversed or transposed view) receives
the result through a contiguous temporary of its library, copied into the view where it lives (on
the sort's stream for CUDA arrays); memory outside the view is not written. PyTorch tensors of
another shape are resized first (resize_, as torch's out= does: contiguous then). Refused before
anything is written: JAX arrays (immutable) and another library or dtype (TypeError), another shape
or device, read-only memory and a view whose elements share one place (a stride of 0) (ValueError).

Order: ascending, or descending=True; stable unless stable=False (equal keys keep their input
order, in both orders: argsort(x) equals numpy.argsort(x, kind="stable")). Floats: -0.0 == +0.0;
NaN is greater than every number (last ascending, first descending) and NaN payloads are kept;
16-bit floats keep these rules. Bools sort false first. complex64 and complex128 sort as numpy.sort has it: by real
part, then imaginary part, each by the float rules; keys with an imaginary NaN next (by real part),
then those with a real NaN (by imaginary part), those with both NaN last; no comparator takes them.
complex128 keys take every form here, along any axis, with indices and values (numpy, PyTorch and CuPy
arrays); gpusort.topk and gpusort.partition refuse them (UnsupportedError).

`algorithm`: a name from gpusort.algorithms(), None for gpusort's choice. `device`: an id from
gpusort.devices() ("cuda:0", "opencl:0:0"), None for the default ($GPUSORT_DEVICE, else the best
device); an id this machine lacks raises gpusort.InvalidArgumentError (a ValueError). `comparator`: a
run-time order, the body of `int before(K a, K b)` in the kernel dialect with K the key type (e.g.
"return fabs(a) < fabs(b);"), None for the natural order; it sorts with the merge algorithm unless
`algorithm` names another comparison sort. It must be a strict weak order (over floats that may hold
NaN: "return isnan(b) ? !isnan(a) : a < b;", not `a < b`); a sort that shows it is not one raises
gpusort.Error and leaves the arrays unchanged, and a sort by a comparator returns only once it is
done (it is checked).

Where the sort runs: host arrays of fewer keys (all rows together) than the default device's tuning row says
(host_sort_below: gpusort._gpusort.array_library_tuning) are sorted by numpy on the host, with the
same results, unless algorithm=, device= or comparator= is given; other host arrays go to the device
and back; CUDA arrays are sorted on their own GPU. The first sort on a device opens it (and may
compile kernels, cached on disk); later ones reuse it. The GIL is released while sorting.

Streams: calls on PyTorch and CuPy CUDA arrays return once the sort is enqueued on the array's
current stream, as those libraries' own calls do (radix sorts of more than 2^22 keys first wait for
their histogram, and on CUDA from 2^26-2^28 keys for their first two passes): work queued there
later (and the host through that library) sees the sorted result, and an input made on another
stream needs the care those libraries ask for there (PyTorch's record_stream); calls on other
producers' CUDA arrays, and on host arrays, return once the sort is done. A device error of a sort
that was only enqueued surfaces in a later call.
"""
import operator
from typing import Any, Literal, NamedTuple, Optional, Tuple, TypeVar, Union, overload

import numpy as np

from . import _along, _arrays, _axes, _gpusort, _host, _inputs, _out

# PyTorch and CuPy CUDA arrays: the call returns once the sort is enqueued (False), or once it is
# done on the device (True: one more round trip to the device per call). Returning early is safe for
# the arrays the call makes and the temporaries it borrows, all made on the stream the sort is
# ordered on: PyTorch's and CuPy's pools are stream-ordered (python/src/sort_inplace.cpp). Other
# producers' arrays always wait: their pools' ordering is not known.
WAIT_FOR_DEVICE = False

ArrayT = TypeVar("ArrayT")


class SortResult(NamedTuple):
    """sort(x, return_indices=True)'s result, as torch.sort's: values (x sorted, x's kind and dtype)
    and indices (int64 positions in x: values == x[indices])."""
    values: Any
    indices: Any


def _flag(value: Any, name: str) -> bool:
    """An order flag as numpy takes one: bool, numpy.bool_ or an integer (a string or None is refused)."""
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    try:
        return bool(operator.index(value))
    except TypeError:
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}") from None


def _options(descending: Any, stable: Any, algorithm: Optional[str], device: Optional[str],
             comparator: Optional[str]) -> dict:
    """The keyword arguments every compiled sort takes."""
    return dict(descending=_flag(descending, "descending"), stable=_flag(stable, "stable"), algorithm=algorithm,
                device=device, comparator=comparator)


def _refuse_immutable(call: str, instead: str, *named_arrays: Tuple[str, Any]) -> None:
    """TypeError (as JAX's own item assignment raises) where an array given to an in-place call is
    of an immutable library (_arrays.immutable_library), naming the out-of-place call `instead`."""
    for name, array in named_arrays:
        library = _arrays.immutable_library(array)
        if library is not None:
            raise TypeError(f"{call}: {name} is a {library} array, and {library} arrays are immutable; use {instead}")


def _refuse_converted(call: str, instead: str, name: str, x: Any, prepared: _inputs.Prepared) -> None:
    """In-place calls write arrays: an array-like (a list) or a read-only strided view cannot be."""
    if prepared.converted:
        raise TypeError(f"{call}: {name} is a {type(x).__name__}, not an array it can sort in place; use {instead}")
    if prepared.gathered and not _arrays.writable(x):
        raise ValueError(f"{call}: {name} is read-only; use {instead}")


def _wait(owner: Any) -> bool:
    return WAIT_FOR_DEVICE or _arrays.pool_library(owner) is None


def _sort_in_place(owner, info, keys, values, value_itemsize, keys_name, options):
    """The compiled in-place sort on owner's current stream, with temporaries lent by owner's
    library where the sort is large (_arrays.lent_temporaries)."""
    temporary = _arrays.lent_temporaries(owner, info, keys, values, value_itemsize, options)
    _gpusort.sort_inplace(keys, values, keys_name=keys_name, stream=_arrays.stream_of(owner), temporary=temporary,
                          wait=_wait(owner), **options)


def _sort_into(keys, info, values, value_itemsize, keys_name, options, positions=False, keys_out=None):
    """Sorts keys into keys_out (default: an empty array of their library; _arrays.sorted_apart
    arrays; keys itself: in place), and values into another one, and returns (keys_out, values_out):
    the compiled out-of-place sort on keys' current stream, otherwise as _sort_in_place. positions
    (argsort): values are uninitialised indices that the sort fills with the sorting permutation in
    place (argsort_into)."""
    if keys_out is None:
        keys_out = _arrays.empty_like(keys)
    values_out = values if positions or values is None else _arrays.empty_like(values)
    temporary = _arrays.lent_temporaries(keys, info, keys_out, values_out, value_itemsize, options,
                                         in_place=keys_out is keys)
    call = dict(keys_name=keys_name, stream=_arrays.stream_of(keys), temporary=temporary, wait=_wait(keys), **options)
    if positions:
        _gpusort.argsort_into(keys, keys_out, values, **call)
    elif keys_out is keys:
        _gpusort.sort_inplace(keys, values, **call)
    else:
        _gpusort.sort_into(keys, keys_out, values, values_out, **call)
    return keys_out, values_out


def _sorted_values(a, info, options, out):
    """a (the prepared keys) sorted, into out where given (a 1-D writable array checked by _out)."""
    if _host.applies(a, info, options):
        return _host.sort_values(_host.view(a), options["descending"], None if out is None else _host.view(out))
    if _arrays.sorted_apart(a):
        return _sort_into(a, info, None, 0, "x", options, keys_out=out)[0]
    if out is None:
        result = _arrays.copy(a, info)
    else:
        result = out
        if out is not a:
            np.copyto(_host.view(out), _host.view(a))  # out= takes host arrays here (_out.checked)
    _sort_in_place(a, info, result, None, 0, "x", options)
    return result


def _sorted_with_indices(a, info, options, keys_out=None, indices_out=None, want_keys=True):
    """(a sorted, the int64 permutation that sorts a) from one sort, into the outputs where given;
    want_keys False (argsort): the sorted keys are not needed (None where nothing kept them)."""
    descending = options["descending"]
    if _host.applies(a, info, options):
        keys = _host.view(a)
        if not want_keys:
            order = _host.order(keys, descending)
            if indices_out is None:
                return None, np.ascontiguousarray(order)
            np.copyto(_host.view(indices_out), order)
            return None, indices_out
        return _host.sort_with_order(keys, descending, None if keys_out is None else _host.view(keys_out),
                                     None if indices_out is None else _host.view(indices_out))
    # large device arrays: int32 indices sorted, then widened (the device's tuning row: _arrays.device_tuning)
    narrow = _arrays.narrow_indices(a, info)
    if _arrays.sorted_apart(a):
        # the positions are made by the sort itself, on the device: no arange of a's library
        indices = indices_out if indices_out is not None and not narrow else _arrays.empty_indices(a, narrow)
        keys, order = _sort_into(a, info, indices, 4 if narrow else 8, "x", options, positions=True,
                                 keys_out=keys_out)
    elif not _arrays.is_device(info):
        # host keys: read where they lie, the indices made on the device where both fit it
        order = _arrays.empty_host_indices(info.n) if indices_out is None else indices_out
        keys = None
        if want_keys:
            keys = np.empty_like(_host.view(a)) if keys_out is None else keys_out
        _gpusort.argsort_host_into(a, order, keys_name="x", keys_out=keys, **options)
    else:
        # other producers' CUDA arrays (JAX): their own arange, sorted as values of a copy of the keys
        order = _arrays.device_indices(a, info, narrow)
        keys = _arrays.copy(a, info)
        _sort_in_place(a, info, keys, order, 4 if narrow else 8, "x", options)
    if narrow:
        order = _arrays.widen_indices(a, info, order, into=indices_out)
    return keys, order


@overload
def sort(x: ArrayT, /, *, axis: Optional[int] = ..., descending: bool = ..., stable: bool = ...,
         return_indices: Literal[False] = ...,
         out: Optional[ArrayT] = ..., algorithm: Optional[str] = ..., device: Optional[str] = ...,
         comparator: Optional[str] = ...) -> ArrayT: ...


@overload
def sort(x: ArrayT, /, *, axis: Optional[int] = ..., descending: bool = ..., stable: bool = ...,
         return_indices: Literal[True],
         out: Optional[Tuple[ArrayT, Any]] = ..., algorithm: Optional[str] = ..., device: Optional[str] = ...,
         comparator: Optional[str] = ...) -> SortResult: ...


@overload
def sort(x: ArrayT, /, *, axis: Optional[int] = ..., descending: bool = ..., stable: bool = ...,
         return_indices: bool,
         out: Any = ..., algorithm: Optional[str] = ..., device: Optional[str] = ...,
         comparator: Optional[str] = ...) -> Union[ArrayT, SortResult]: ...


def sort(x: Any, /, *, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
         return_indices: bool = False, out: Any = None, algorithm: Optional[str] = None,
         device: Optional[str] = None, comparator: Optional[str] = None) -> Any:
    """Returns x sorted along axis: an array of x's kind (on x's GPU for CUDA arrays; numpy for
    numpy arrays, array-likes and buffer-protocol objects), dtype and shape. x is left unchanged.

    axis: the axis sorted (default the last; negative counts from the end), every row along it on
    its own; None sorts x flattened (a 1-D result), as numpy does.

    return_indices=True: returns SortResult(values, indices), as torch.sort does: indices are the
    int64 positions in x of the sorted values (values == x[indices]; stable unless stable=False),
    both from one sort (the keys travel with the indices). out=: an array (out=(values, indices)
    with return_indices) of the kind, dtype (int64 for indices), shape and device of the result,
    any layout (a strided view is written through), written and returned instead of new arrays;
    out=x sorts x in place. Order rules, out=, devices and streams: see the package's description
    (help(gpusort))."""
    with_indices = _flag(return_indices, "return_indices")
    if (out is None and algorithm is None and device is None and comparator is None
            and (axis == -1 and type(axis) is int or _axes.plain(axis)) and _host.quick(x)):
        _flag(stable, "stable")  # checked as below; the host's sorts are stable either way
        down = _flag(descending, "descending")
        return SortResult(*_host.sort_with_order(x, down)) if with_indices else _host.sort_values(x, down)
    options = _options(descending, stable, algorithm, device, comparator)
    prepared, along = _along.resolve(x, _inputs.prepare(x), axis, sorts=True)
    if along is not None:
        values, order = _along.sort(x, prepared.array, along, options, _wait(x), True, with_indices, out)
        return SortResult(values, order) if with_indices else values
    _inputs.refuse_numpy_scalar(prepared)
    a = prepared.array
    info = _arrays.inspect(a, "x", "keys")
    outs = None
    if out is not None:
        outs = _out.checked(out, 2 if with_indices else 1, "gpusort.sort", x, info, _inputs.scalar_result(prepared),
                            gathered=a if prepared.gathered else None)
    if with_indices:
        keys, order = _sorted_with_indices(a, info, options, *(outs.arrays if outs else (None, None)))
        if outs is not None:
            outs.finish()
            return SortResult(*out)
        return SortResult(_inputs.shaped(prepared, _arrays.like(x, keys)),
                          _inputs.shaped(prepared, _arrays.like(x, order)))
    result = _sorted_values(a, info, options, outs.arrays[0] if outs else None)
    if outs is not None:
        outs.finish()
        return out[0] if isinstance(out, tuple) else out
    return _inputs.shaped(prepared, _arrays.like(x, result))


def argsort(x: Any, /, *, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
            out: Any = None, algorithm: Optional[str] = None, device: Optional[str] = None,
            comparator: Optional[str] = None) -> Any:
    """Returns the int64 indices that sort x along axis: x[argsort(x)] == sort(x) for 1-D x, and
    numpy.take_along_axis(x, argsort(x, axis=k), k) == sort(x, axis=k) (each index a position
    within its row, as numpy.argsort and torch.argsort return); an array of x's kind and shape on
    x's device (JAX arrays: JAX's default integer dtype, int32 unless 64-bit types are enabled).
    axis as sort's (None: indices into x flattened). Stable by default: equal keys keep their input
    order (indices ascending), in both orders. out=: an int64 array of x's kind, shape and device,
    any layout, written and returned. Order rules, devices and streams: see the package's description
    (help(gpusort))."""
    if (out is None and algorithm is None and device is None and comparator is None
            and (axis == -1 and type(axis) is int or _axes.plain(axis)) and _host.quick(x)):
        _flag(stable, "stable")  # checked as below; the host's sorts are stable either way
        return np.ascontiguousarray(_host.order(x, _flag(descending, "descending")))
    options = _options(descending, stable, algorithm, device, comparator)
    prepared, along = _along.resolve(x, _inputs.prepare(x), axis, sorts=False)
    if along is not None:
        return _along.sort(x, prepared.array, along, options, _wait(x), False, True, out, "gpusort.argsort")[1]
    a = prepared.array
    info = _arrays.inspect(a, "x", "keys")
    outs = _out.checked(out, 1, "gpusort.argsort", x, info, _inputs.scalar_result(prepared)) if out is not None else None
    order = _sorted_with_indices(a, info, options, indices_out=outs.arrays[0] if outs else None, want_keys=False)[1]
    if outs is not None:
        outs.finish()
        return out[0] if isinstance(out, tuple) else out
    return _inputs.shaped(prepared, _arrays.like(x, order))


def sort_pairs(keys: Any, values: Any, /, *, axis: Optional[int] = -1, descending: bool = False,
               stable: bool = True, algorithm: Optional[str] = None, device: Optional[str] = None,
               comparator: Optional[str] = None) -> Tuple[Any, Any]:
    """Returns (sorted copy of keys, copy of values permuted alike), each of its input's kind.
    values: an array of the keys' shape and memory with elements of 1, 2, 4, 8 or 16 bytes (any
    dtype: they are moved as bytes). axis as sort's (None: both flattened). Inputs as sort's; the
    inputs are left unchanged."""
    options = _options(descending, stable, algorithm, device, comparator)
    prepared_keys, along = _along.resolve(keys, _inputs.prepare(keys), axis, sorts=True)
    prepared_values = _inputs.prepare(values)
    if along is not None:
        return _along.sort_pairs(keys, values, prepared_keys.array, prepared_values.array, along, options,
                                 _wait(keys), in_place=False)
    if axis is None and _axes.ndim_of(prepared_values.array) > 1:
        prepared_values = prepared_values._replace(array=_along.flattened(prepared_values.array))
    _inputs.refuse_numpy_scalar(prepared_keys)
    k, v = prepared_keys.array, prepared_values.array
    info = _arrays.inspect(k, "keys", "keys")
    values_info = _arrays.inspect(_arrays.as_value_bytes(v), "values", "values")
    if _host.applies(k, info, options) and values_info.memory == "host" and values_info.n == info.n:
        order = _host.order(_host.view(k), options["descending"])
        sorted_keys, sorted_values = _host.view(k)[order], _host.view(v)[order]
    elif _arrays.sorted_apart(k, v):
        sorted_keys, sorted_values = _sort_into(k, info, v, values_info.itemsize, "keys", options)
    else:
        sorted_keys = _arrays.copy(k, info)
        sorted_values = _arrays.copy(v, values_info)
        _sort_in_place(k, info, sorted_keys, _arrays.as_value_bytes(sorted_values), values_info.itemsize, "keys",
                       options)
    return (_inputs.shaped(prepared_keys, _arrays.like(keys, sorted_keys)),
            _inputs.shaped(prepared_values, _arrays.like(values, sorted_values)))


def sort_(x: ArrayT, /, *, axis: int = -1, descending: bool = False, stable: bool = True,
          algorithm: Optional[str] = None, device: Optional[str] = None, comparator: Optional[str] = None) -> ArrayT:
    """Sorts x in place along axis (as sort's; not None, which ndarray.sort refuses too; x must be
    a writable array) and returns x. No copy is made on the host where x's rows lie in memory as
    rows (a strided view, or an axis that is not innermost, is sorted as a contiguous copy written
    back through it); on any error before the sort x is unchanged. Immutable arrays (JAX's) and
    array-likes (lists) raise TypeError, read-only ones ValueError: sort() returns a sorted copy of them."""
    options = _options(descending, stable, algorithm, device, comparator)
    instead = "gpusort.sort(x), which returns a new array"
    _refuse_immutable("gpusort.sort_", instead, ("x", x))
    prepared = _inputs.prepare(x)
    _refuse_converted("gpusort.sort_", instead, "x", x, prepared)
    prepared, along = _along.resolve(x, prepared, axis, sorts=True, in_place=True)
    if along is not None:
        _along.sort_in_place(x, prepared.array, along, options, _wait(x))
        return x
    _inputs.refuse_numpy_scalar(prepared)
    a = prepared.array
    if _arrays.host_sortable_in_place(a) and a.shape[0] < _arrays.host_sort_below():
        info = _arrays.inspect(a, "x", "keys")
        if _host.applies(a, info, options):
            _host.sort_values(a, options["descending"], out=a)
            _inputs.write_back(x, prepared)
            return x
    # in place, the compiled sort inspects x itself: here only arrays a pool could lend for
    info = _arrays.inspect(a, "x", "keys") if _arrays.pool_library(a) else None
    _sort_in_place(a, info, a, None, 0, "x", options)
    _inputs.write_back(x, prepared)
    return x


def sort_pairs_(keys: ArrayT, values: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True,
                algorithm: Optional[str] = None, device: Optional[str] = None,
                comparator: Optional[str] = None) -> Tuple[ArrayT, Any]:
    """Sorts keys in place along axis (as sort_'s) and permutes values (keys' shape) in place alike;
    returns (keys, values). Immutable, read-only or array-like inputs are refused as in sort_
    (sort_pairs() returns sorted copies)."""
    options = _options(descending, stable, algorithm, device, comparator)
    instead = "gpusort.sort_pairs(keys, values), which returns new arrays"
    _refuse_immutable("gpusort.sort_pairs_", instead, ("keys", keys), ("values", values))
    prepared_keys, prepared_values = _inputs.prepare(keys), _inputs.prepare(values)
    _refuse_converted("gpusort.sort_pairs_", instead, "keys", keys, prepared_keys)
    _refuse_converted("gpusort.sort_pairs_", instead, "values", values, prepared_values)
    prepared_keys, along = _along.resolve(keys, prepared_keys, axis, sorts=True, in_place=True)
    if along is not None:
        return _along.sort_pairs(keys, values, prepared_keys.array, prepared_values.array, along, options,
                                 _wait(keys), in_place=True)
    _inputs.refuse_numpy_scalar(prepared_keys)
    k, v = prepared_keys.array, prepared_values.array
    plain_values = _arrays.as_value_bytes(v)
    if (_arrays.host_sortable_in_place(k) and _arrays.host_sortable_in_place(v) and k.shape == v.shape
            and k.shape[0] < _arrays.host_sort_below() and not np.may_share_memory(k, v)):
        info = _arrays.inspect(k, "keys", "keys")
        _arrays.inspect(plain_values, "values", "values")
        if _host.applies(k, info, options):
            order = _host.order(k, options["descending"])
            k[...], v[...] = k[order], v[order]
            _inputs.write_back(keys, prepared_keys)
            _inputs.write_back(values, prepared_values)
            return keys, values
    info, value_itemsize = None, 0  # as in sort_: inspected only where a pool could lend
    if _arrays.pool_library(k):
        info = _arrays.inspect(k, "keys", "keys")
        value_itemsize = _arrays.inspect(plain_values, "values", "values").itemsize
    _sort_in_place(k, info, k, plain_values, value_itemsize, "keys", options)
    _inputs.write_back(keys, prepared_keys)
    _inputs.write_back(values, prepared_values)
    return keys, values
