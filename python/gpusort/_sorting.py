"""The public sorting functions, shaped like the Array API's sort/argsort.

Every function: keys must be a 1-D C-contiguous array of uint8..uint64, int8..int64, float16,
bfloat16, float32, float64 or bool (TypeError for another dtype, ValueError for another shape or
layout); numpy arrays (bfloat16: ml_dtypes'), and host arrays of other libraries through DLPack.
16-bit floats keep float32's order rules; bools sort false first. `algorithm`: a name from gpusort.algorithms(), None
for gpusort's choice. `device`: an id from gpusort.devices() ("cuda:0", "opencl:0:0"), None for
the default ($GPUSORT_DEVICE, else the best device). `comparator`: a run-time order, the body of
`int before(K a, K b)` in the kernel dialect with K the key type (e.g. "return fabs(a) < fabs(b);"),
None for the natural order; it sorts with the merge algorithm unless `algorithm` names another
comparison sort (SortOptions::comparator). It must be a strict weak order (over floats that may hold
NaN: "return isnan(b) ? !isnan(a) : a < b;", not `a < b`); a sort that shows it is not one raises
gpusort.Error and leaves the arrays unchanged, and a sort by a comparator returns only once it is
done (it is checked). The first sort on a device opens it (and may
compile kernels, cached on disk); later ones reuse it. The GIL is released while sorting.
Calls on PyTorch and CuPy CUDA arrays return once the sort is enqueued on the array's current
stream, as those libraries' own calls do (radix sorts of more than 2^22 keys first wait for their
histogram, and on CUDA from 2^26-2^28 keys for their first two passes): work queued there later (and the host through that
library) sees the sorted result, and an input made on another stream needs the care those
libraries ask for there (PyTorch's record_stream); calls on other producers' CUDA arrays return
once the sort is done. A device error of a sort that was only enqueued surfaces in a later call.
"""
import operator

import numpy as np

from . import _arrays, _gpusort

# PyTorch and CuPy CUDA arrays: the call returns once the sort is enqueued (False), or once it is
# done on the device (True: one more round trip to the device per call). Returning early is safe for
# the arrays the call makes and the temporaries it borrows, all made on the stream the sort is
# ordered on: PyTorch's and CuPy's pools are stream-ordered (python/src/sort_inplace.cpp). Other
# producers' arrays always wait: their pools' ordering is not known.
WAIT_FOR_DEVICE = False


def _flag(value, name):
    """An order flag as numpy takes one: bool, numpy.bool_ or an integer (a string or None is refused)."""
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    try:
        return bool(operator.index(value))
    except TypeError:
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}") from None


def _options(descending, stable, algorithm, device, comparator):
    """The keyword arguments every compiled sort takes."""
    return dict(descending=_flag(descending, "descending"), stable=_flag(stable, "stable"), algorithm=algorithm,
                device=device, comparator=comparator)


def _refuse_immutable(call, instead, *named_arrays):
    """TypeError (as JAX's own item assignment raises) where an array given to an in-place call is
    of an immutable library (_arrays.immutable_library), naming the out-of-place call `instead`."""
    for name, array in named_arrays:
        library = _arrays.immutable_library(array)
        if library is not None:
            raise TypeError(f"{call}: {name} is a {library} array, and {library} arrays are immutable; use {instead}")


def _wait(owner):
    return WAIT_FOR_DEVICE or _arrays.pool_library(owner) is None


def _sort_in_place(owner, info, keys, values, value_itemsize, keys_name, options):
    """The compiled in-place sort on owner's current stream, with temporaries lent by owner's
    library where the sort is large (_arrays.lent_temporaries)."""
    temporary = _arrays.lent_temporaries(owner, info, keys, values, value_itemsize, options)
    _gpusort.sort_inplace(keys, values, keys_name=keys_name, stream=_arrays.stream_of(owner), temporary=temporary,
                          wait=_wait(owner), **options)


def _sort_into(keys, info, values, value_itemsize, keys_name, options, positions=False):
    """Sorts keys into an empty array of their library (_arrays.sorted_apart arrays), and values into
    another one, and returns (keys_out, values_out): the compiled out-of-place sort on keys' current
    stream, otherwise as _sort_in_place. positions (argsort): values are uninitialised indices that
    the sort fills with the sorting permutation in place (argsort_into)."""
    keys_out = _arrays.empty_like(keys)
    values_out = values if positions or values is None else _arrays.empty_like(values)
    temporary = _arrays.lent_temporaries(keys, info, keys_out, values_out, value_itemsize, options, in_place=False)
    call = dict(keys_name=keys_name, stream=_arrays.stream_of(keys), temporary=temporary, wait=_wait(keys), **options)
    if positions:
        _gpusort.argsort_into(keys, keys_out, values, **call)
    else:
        _gpusort.sort_into(keys, keys_out, values, values_out, **call)
    return keys_out, values_out


def sort(x, /, *, descending=False, stable=True, algorithm=None, device=None, comparator=None):
    """Returns a sorted copy of x, of the same kind as x (on x's GPU for CUDA arrays); a numpy array
    for buffer-protocol objects that are no array of a library (array.array, bytes, ctypes)."""
    options = _options(descending, stable, algorithm, device, comparator)
    info = _arrays.inspect(x, "x", "keys")
    if _arrays.sorted_apart(x):
        return _sort_into(x, info, None, 0, "x", options)[0]
    result = _arrays.copy(x, info)
    _sort_in_place(x, info, result, None, 0, "x", options)
    return _arrays.like(x, result)


def argsort(x, /, *, descending=False, stable=True, algorithm=None, device=None, comparator=None):
    """Returns the int64 indices that sort x: x[argsort(x)] == sort(x). Stable by default: equal
    keys keep their input order (indices ascending), in both orders."""
    options = _options(descending, stable, algorithm, device, comparator)
    info = _arrays.inspect(x, "x", "keys")
    # large device arrays: int32 indices sorted, then widened (the device's tuning row: _arrays.device_tuning)
    narrow = _arrays.narrow_indices(x, info)
    if _arrays.sorted_apart(x):
        # the positions are made by the sort itself, on the device: no arange of x's library
        order = _sort_into(x, info, _arrays.empty_indices(x, narrow), 4 if narrow else 8, "x", options,
                           positions=True)[1]
    elif not _arrays.is_device(info):
        # host keys: read where they lie, the indices made on the device where both fit it
        order = _arrays.empty_host_indices(info.n)
        _gpusort.argsort_host_into(x, order, keys_name="x", **options)
    else:
        order = _arrays.device_indices(x, info, narrow)
        _sort_in_place(x, info, _arrays.copy(x, info), order, 4 if narrow else 8, "x", options)
    if narrow:
        order = _arrays.widen_indices(x, info, order)
    return _arrays.like(x, order)


def sort_pairs(keys, values, /, *, descending=False, stable=True, algorithm=None, device=None, comparator=None):
    """Returns (sorted copy of keys, copy of values permuted alike). values: a 1-D array of the
    same length with elements of 1, 2, 4, 8 or 16 bytes (any dtype: they are moved as bytes)."""
    options = _options(descending, stable, algorithm, device, comparator)
    info = _arrays.inspect(keys, "keys", "keys")
    values_info = _arrays.inspect(_arrays.as_value_bytes(values), "values", "values")
    if _arrays.sorted_apart(keys, values):
        return _sort_into(keys, info, values, values_info.itemsize, "keys", options)
    sorted_keys = _arrays.copy(keys, info)
    sorted_values = _arrays.copy(values, values_info)
    _sort_in_place(keys, info, sorted_keys, _arrays.as_value_bytes(sorted_values), values_info.itemsize, "keys", options)
    return _arrays.like(keys, sorted_keys), _arrays.like(values, sorted_values)


def sort_(x, /, *, descending=False, stable=True, algorithm=None, device=None, comparator=None):
    """Sorts x in place (x must be writable) and returns x. No copy is made on the host; on any
    error x is unchanged. Immutable arrays (JAX's) raise TypeError, read-only ones ValueError: sort()
    returns a sorted copy of them."""
    options = _options(descending, stable, algorithm, device, comparator)
    _refuse_immutable("gpusort.sort_", "gpusort.sort(x), which returns a new array", ("x", x))
    # in place, the compiled sort inspects x itself: here only arrays a pool could lend for
    info = _arrays.inspect(x, "x", "keys") if _arrays.pool_library(x) else None
    _sort_in_place(x, info, x, None, 0, "x", options)
    return x


def sort_pairs_(keys, values, /, *, descending=False, stable=True, algorithm=None, device=None, comparator=None):
    """Sorts keys in place and permutes values in place alike; returns (keys, values). Immutable or
    read-only arrays are refused as in sort_ (sort_pairs() returns sorted copies)."""
    options = _options(descending, stable, algorithm, device, comparator)
    _refuse_immutable("gpusort.sort_pairs_", "gpusort.sort_pairs(keys, values), which returns new arrays",
                      ("keys", keys), ("values", values))
    plain_values = _arrays.as_value_bytes(values)
    info, value_itemsize = None, 0  # as in sort_: inspected only where a pool could lend
    if _arrays.pool_library(keys):
        info = _arrays.inspect(keys, "keys", "keys")
        value_itemsize = _arrays.inspect(plain_values, "values", "values").itemsize
    _sort_in_place(keys, info, keys, plain_values, value_itemsize, "keys", options)
    return keys, values
