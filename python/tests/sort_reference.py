"""What gpusort must return, computed with numpy, by gpusort's rules: integers in their natural
order; floats with -0.0 == +0.0 and NaN greater than every number (numpy's rules too); bools false
before true; stable;
descending is its own order, so equal keys keep their input order there as well."""
import os

import numpy as np

KEY_DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64,
              np.float32, np.float64, np.float16, np.bool_]
DISTRIBUTIONS = ["random", "sorted", "few-unique", "all-equal"]


def stable_order(x, descending=False):
    """The stable permutation that sorts x (argsort's answer)."""
    if not descending:
        return np.argsort(x, kind="stable")
    # A stable ascending sort of the reversed keys, reversed, is descending with equal keys in
    # input order; indices into the reversed array map back through n-1-i.
    n = len(x)
    return (n - 1 - np.argsort(x[::-1], kind="stable"))[::-1]


def bits(a):
    """a's elements as unsigned integers of the same size: compares floats bit for bit (-0.0 is not
    +0.0 there, NaN payloads count)."""
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def make_keys(dtype, n, distribution, seed=1):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        x = rng.standard_normal(n).astype(dtype) * dtype.type(1000)
    elif dtype.kind == "b":
        x = rng.integers(0, 2, size=n).astype(dtype)
    else:
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
    if distribution == "sorted":
        x.sort()
    elif distribution == "few-unique":
        x = rng.choice(x[:5] if n >= 5 else x, size=n) if n else x
    elif distribution == "all-equal":
        x = np.full(n, x[0] if n else 0, dtype=dtype)
    return np.ascontiguousarray(x, dtype=dtype)


def float_specials(dtype):
    """NaNs of several payloads and signs, both zeros, infinities, subnormals, repeats."""
    dtype = np.dtype(dtype)
    u = np.dtype(f"u{dtype.itemsize}")
    quiet = np.array([np.nan], dtype=dtype).view(u)[0]
    nans = np.array([quiet, quiet | u.type(1), quiet | u.type(5) | (u.type(1) << u.type(8 * dtype.itemsize - 1))],
                    dtype=u).view(dtype)
    tiny = np.finfo(dtype).smallest_subnormal
    numbers = np.array([0.0, -0.0, np.inf, -np.inf, 1.5, -1.5, tiny, -tiny, 0.0, -0.0, 2.0, -np.inf],
                       dtype=dtype)
    x = np.concatenate([numbers, nans, numbers[::-1], nans[::-1]])
    return np.random.default_rng(7).permutation(x)


def default_device():
    """The id of the device gpusort sorts on by default ($GPUSORT_DEVICE, else the first listed)."""
    import gpusort
    return os.environ.get("GPUSORT_DEVICE") or gpusort.devices()[0]["id"]


# Where a call sorts: gpusort's choice (small host arrays on the host, by numpy), or the device,
# asked for by name (device=), whatever the size.
WHERE = ["auto", "device"]


def where_options(where):
    return {} if where == "auto" else {"device": default_device()}
