"""Small host sorts done by numpy on the host, where a call costs less than the device's round trip.

Below the default device's threshold (its ArrayLibraryTuning row's host_sort_below, read through
_arrays.host_sort_below; the package keeps no threshold of its own) a host array is sorted here,
unless the caller names an algorithm, a device or a comparator. The results are gpusort's, bit for
bit: numpy's stable sorts order floats as gpusort does (-0.0 == +0.0, every NaN greater than every
number, payloads kept), and a stable descending order is the stable ascending order of the reversed
keys, reversed (equal keys keep their input order, NaN first). Integer keys without indices use
numpy's default sort: equal integers are indistinguishable.
"""
from typing import Any, Literal, Optional, Set, Tuple

import numpy as np

from . import _arrays


# numpy dtypes the compiled module accepted as keys (inspect), learned as calls show them: the quick
# check below then needs no call into the module (the module's key types stay the one table).
_KEY_DTYPES_SEEN: Set[np.dtype] = set()


def applies(x: Any, info: Any, options: dict) -> bool:
    """Whether this call on x (inspected as info) is sorted by numpy here."""
    if options["algorithm"] is not None or options["device"] is not None or options["comparator"] is not None:
        return False
    if info.memory != "host" or info.n >= _arrays.host_sort_below():
        return False
    if type(x) is np.ndarray:
        _KEY_DTYPES_SEEN.add(x.dtype)
    return True


def quick(x: Any) -> bool:
    """Whether x is a 1-D contiguous numpy array of a key dtype seen before, small enough to be
    sorted here: the call skips inspect() and the rest (what applies() would say, sooner)."""
    return (type(x) is np.ndarray and x.ndim == 1 and x.dtype in _KEY_DTYPES_SEEN
            and x.shape[0] < _arrays.host_sort_below() and x.flags.c_contiguous)


def _kind(keys: np.ndarray) -> Optional[Literal["stable"]]:
    return None if keys.dtype.kind in "iu" else "stable"


def _truth(keys: np.ndarray) -> np.ndarray:
    """Bool keys as gpusort orders them, any nonzero byte true (numpy compares a bool's bytes, so a
    byte 2 would sort after 1); other keys as they are."""
    return keys.view(np.uint8) != 0 if keys.dtype == np.bool_ else keys


def _bfloat16(keys: np.ndarray) -> bool:
    return keys.dtype.name == "bfloat16"


def _comparable(keys: np.ndarray) -> np.ndarray:
    """Keys numpy orders as gpusort does: bools by their truth; ml_dtypes' bfloat16 as float32, which
    holds every bfloat16 exactly (numpy 2.5.2 with ml_dtypes misorders a stable argsort of bfloat16
    itself: seen on an H100 machine, 2026-12-06); other keys as they are."""
    return keys.astype(np.float32) if _bfloat16(keys) else _truth(keys)


def order(keys: np.ndarray, descending: bool) -> np.ndarray:
    """The stable int64 permutation that sorts keys."""
    keys = _comparable(keys)
    if not descending:
        return np.argsort(keys, kind="stable")
    n = keys.shape[0]
    return (n - 1 - np.argsort(keys[::-1], kind="stable"))[::-1]


def sort_values(keys: np.ndarray, descending: bool, out: Optional[np.ndarray] = None) -> np.ndarray:
    """keys sorted (into out where given, which may be keys itself)."""
    if _bfloat16(keys):  # by their order as float32, the keys' own bits moved (NaN payloads kept)
        result = keys[order(keys, descending)]
        if out is None:
            return result
        np.copyto(out, result)
        return out
    # bools by their truth, written back as 0 and 1, as gpusort's one-block device sorts write them
    ordered = _truth(keys)
    if not descending:
        if out is keys and ordered is keys:
            keys.sort(kind=_kind(keys))
            return keys
        result = np.sort(ordered, kind=_kind(keys))
    else:
        result = np.sort(ordered[::-1], kind=_kind(keys))[::-1]
    if out is None:
        return np.ascontiguousarray(result)
    np.copyto(out, result)
    return out


def sort_with_order(keys: np.ndarray, descending: bool, keys_out: Optional[np.ndarray] = None,
                    indices_out: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """(sorted keys, their int64 positions in keys), into the outputs where given (keys_out may be
    keys itself)."""
    positions = order(keys, descending)
    if keys_out is keys:
        np.copyto(keys_out, keys[positions])
    else:
        keys_out = np.take(keys, positions, out=keys_out)
    if indices_out is None:
        return keys_out, np.ascontiguousarray(positions)
    np.copyto(indices_out, positions)
    return keys_out, indices_out


def view(x: Any) -> np.ndarray:
    """A numpy view of a host array inspect() accepted (no copy)."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__"):
        return np.from_dlpack(x)
    return np.asarray(memoryview(x))


# --- along an axis of an n-D array (the same rules, row by row) ------------------------------------

def order_along(keys: np.ndarray, descending: bool, axis: int) -> np.ndarray:
    """The stable int64 permutation that sorts each row of keys along axis (positions in the row)."""
    keys = _comparable(keys)
    if not descending:
        return np.argsort(keys, axis=axis, kind="stable")
    n = keys.shape[axis]
    return np.flip(n - 1 - np.argsort(np.flip(keys, axis), axis=axis, kind="stable"), axis)


def sort_along(keys: np.ndarray, descending: bool, axis: int, want_values: bool, want_indices: bool,
               values_out: Optional[np.ndarray] = None,
               indices_out: Optional[np.ndarray] = None) -> Tuple[Optional[np.ndarray], Optional[np.ndarray]]:
    """(keys sorted along axis, their int64 positions in each row), each where wanted, into the
    outputs where given (values_out may be keys itself), else into arrays laid out as keys."""
    if values_out is None and want_values:
        values_out = np.empty_like(keys)
    if indices_out is None and want_indices:
        indices_out = np.empty_like(keys, dtype=np.int64)
    if not want_indices and not _bfloat16(keys):
        assert values_out is not None
        ordered = _truth(keys)
        if not descending:
            result = np.sort(ordered, axis=axis, kind=_kind(keys))
        else:
            result = np.flip(np.sort(np.flip(ordered, axis), axis=axis, kind=_kind(keys)), axis)
        np.copyto(values_out, result)
        return values_out, None
    positions = order_along(keys, descending, axis)
    if values_out is not None:
        np.copyto(values_out, np.take_along_axis(keys, positions, axis))
    if indices_out is not None:
        np.copyto(indices_out, positions)
    return values_out, indices_out
