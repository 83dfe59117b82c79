"""axis=: n-D arrays sorted along any axis, each row on its own (the segmented sort, one call), as
numpy.sort/argsort and torch.sort(dim=) do. Results are compared with numpy's stable sort of each
row (sort_reference), on the default device (device=) and where gpusort chooses (small host arrays
by numpy), which must agree. PyTorch and CuPy arrays: test_axis_cuda.py."""
import numpy as np
import pytest

import gpusort
from sort_reference import WHERE, bits, float_specials, make_keys, stable_order, where_options

try:
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError

ORDERS = [False, True]


def dtype_id(d):
    return np.dtype(d).name


def row_order(x, axis, descending=False):
    """The reference: each row along axis ordered on its own by sort_reference.stable_order."""
    if x.size == 0:
        return np.zeros(x.shape, np.int64)
    return np.apply_along_axis(lambda row: stable_order(row, descending), axis, x).astype(np.int64)


def random_keys(shape, dtype=np.float32, seed=1, distribution="few-unique"):
    size = int(np.prod(shape))
    return make_keys(dtype, size, distribution, seed).reshape(shape)


def all_axes(shape):
    return [(shape, axis) for axis in range(-len(shape), len(shape))]


# Rows of 0, 1, 31, 33 and 1023 elements along some axis of each shape; every axis of each.
SHAPES = [(0, 5), (4, 1), (1, 31), (3, 33), (33, 31), (5, 1023), (2, 0, 3), (3, 31, 33), (2, 1023, 3)]
CASES = [case for shape in SHAPES for case in all_axes(shape)]


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("shape,axis", CASES, ids=[f"{s}-axis{a}" for s, a in CASES])
def test_every_axis(shape, axis, descending, where):
    """sort, argsort and the values-and-indices form along every axis: the stable order of each row
    (indices local to the row, as numpy.argsort(kind="stable")), results of x's shape, x unchanged."""
    x = random_keys(shape)
    before = x.copy()
    options = dict(axis=axis, descending=descending, **where_options(where))
    expected = row_order(x, axis, descending)
    if not descending:
        np.testing.assert_array_equal(expected, np.argsort(x, axis=axis, kind="stable"))
    values = gpusort.sort(x, **options)
    order = gpusort.argsort(x, **options)
    values2, order2 = gpusort.sort(x, return_indices=True, **options)
    for result, dtype in [(values, x.dtype), (order, np.int64), (values2, x.dtype), (order2, np.int64)]:
        assert type(result) is np.ndarray and result.shape == x.shape and result.dtype == dtype
        assert result.flags.c_contiguous  # laid out as numpy.empty_like(x)
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(order2, expected)
    np.testing.assert_array_equal(values, np.take_along_axis(x, expected, axis))
    np.testing.assert_array_equal(values2, values)
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("shape,axis", all_axes((3, 31, 33)) + all_axes((5, 1023)))
def test_in_place_forms_along_every_axis(shape, axis, where):
    """sort_ and sort_pairs_ sort the caller's arrays along the axis (the same data pointer), stable."""
    x = random_keys(shape, np.int32, seed=2)
    values = np.arange(x.size, dtype=np.float64).reshape(shape)
    expected = row_order(x, axis)
    keys = x.copy()
    pointer = keys.ctypes.data
    assert gpusort.sort_(keys, axis=axis, **where_options(where)) is keys
    assert keys.ctypes.data == pointer
    np.testing.assert_array_equal(keys, np.take_along_axis(x, expected, axis))
    keys = x.copy()
    k, v = gpusort.sort_pairs_(keys, values, axis=axis, descending=True, **where_options(where))
    assert k is keys and v is values
    down = row_order(x, axis, descending=True)
    np.testing.assert_array_equal(keys, np.take_along_axis(x, down, axis))
    np.testing.assert_array_equal(values, np.take_along_axis(np.arange(x.size, dtype=np.float64).reshape(shape),
                                                             down, axis))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("axis", [0, 1, 2, None])
def test_sort_pairs_along_an_axis(axis, where):
    """Values of any dtype (moved as bytes) travel with their keys along the axis; None flattens both."""
    x = random_keys((4, 33, 31), np.uint16, seed=3)
    values = np.empty(x.shape, dtype=[("a", np.int32), ("b", np.int16), ("c", np.int16)])
    values["a"] = np.arange(x.size).reshape(x.shape)
    k, v = gpusort.sort_pairs(x, values, axis=axis, **where_options(where))
    if axis is None:
        expected = stable_order(x.ravel())
        np.testing.assert_array_equal(k, x.ravel()[expected])
        np.testing.assert_array_equal(v["a"], expected)
        return
    expected = row_order(x, axis)
    assert k.shape == v.shape == x.shape and v.dtype == values.dtype
    np.testing.assert_array_equal(k, np.take_along_axis(x, expected, axis))
    np.testing.assert_array_equal(v, np.take_along_axis(values, expected, axis))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=dtype_id)
def test_float_rules_along_an_axis(dtype, descending, where):
    """NaN last ascending (first descending), -0.0 == +0.0 keeping input order, payloads kept, per row."""
    specials = float_specials(dtype)
    x = np.stack([np.roll(specials, shift) for shift in range(5)], axis=1)  # (30, 5): sorted along axis 0
    values, order = gpusort.sort(x, axis=0, return_indices=True, descending=descending, **where_options(where))
    expected = row_order(x, 0, descending)
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(bits(values), bits(np.take_along_axis(x, expected, 0)))
    nans = np.isnan(values)
    count = nans[:, 0].sum()
    assert (nans[-count:] if not descending else nans[:count]).all()


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64, np.uint64, np.float64, np.bool_], ids=dtype_id)
def test_key_types_along_an_axis(dtype, descending, where):
    """Every kind of key, stable in both orders, along a middle and the last axis."""
    x = random_keys((3, 33, 41), dtype, seed=4)
    for axis in (1, 2):
        order = gpusort.argsort(x, axis=axis, descending=descending, **where_options(where))
        np.testing.assert_array_equal(order, row_order(x, axis, descending))
        np.testing.assert_array_equal(gpusort.sort(x, axis=axis, descending=descending, **where_options(where)),
                                      np.take_along_axis(x, order, axis))


@pytest.mark.parametrize("where", WHERE)
def test_bfloat16_along_an_axis(where):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = random_keys((33, 40), np.float32, seed=5).astype(ml_dtypes.bfloat16)
    x[3, 7] = np.nan
    values, order = gpusort.sort(x, axis=0, return_indices=True, descending=True, **where_options(where))
    expected = row_order(x.astype(np.float32), 0, descending=True)
    assert values.dtype == x.dtype
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(bits(values), bits(np.take_along_axis(x, expected, 0)))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("layout", ["transposed", "fortran", "sliced", "negative"])
def test_any_layout(layout, where):
    """Strided inputs are sorted along each axis; results are laid out as numpy.empty_like(x) (order
    "K": a Fortran-ordered input gives a Fortran-ordered result, as numpy.sort does)."""
    base = random_keys((40, 33, 6), np.int32, seed=6)
    x = {"transposed": base.transpose(2, 0, 1), "fortran": np.asfortranarray(base), "sliced": base[::2, 1:, ::3],
         "negative": base[::-1, :, ::-2]}[layout]
    for axis in range(x.ndim):
        values, order = gpusort.sort(x, axis=axis, return_indices=True, **where_options(where))
        expected = row_order(x, axis)
        np.testing.assert_array_equal(order, expected)
        np.testing.assert_array_equal(values, np.take_along_axis(x, expected, axis))
        assert values.strides == np.empty_like(x).strides and order.strides == np.empty_like(x, np.int64).strides
        in_place = x.copy(order="K") if layout != "sliced" else base.copy()[::2, 1:, ::3]
        gpusort.sort_(in_place, axis=axis, **where_options(where))
        np.testing.assert_array_equal(in_place, values)


@pytest.mark.parametrize("where", WHERE)
def test_axis_none_flattens(where):
    """axis=None sorts x flattened (C order) into a 1-D result, as numpy does, for every form but
    the in-place ones (numpy's ndarray.sort refuses None too)."""
    x = random_keys((7, 33, 5), np.int64, seed=7)
    flat = x.ravel()
    expected = stable_order(flat)
    np.testing.assert_array_equal(gpusort.sort(x, axis=None, **where_options(where)), flat[expected])
    np.testing.assert_array_equal(gpusort.argsort(x, axis=None, **where_options(where)), expected)
    values, order = gpusort.sort(x.transpose(1, 0, 2), axis=None, return_indices=True, **where_options(where))
    np.testing.assert_array_equal(order, stable_order(x.transpose(1, 0, 2).ravel()))
    out = np.empty(x.size, x.dtype)
    assert gpusort.sort(x, axis=None, out=out, **where_options(where)) is out
    np.testing.assert_array_equal(out, flat[expected])
    for in_place in (lambda: gpusort.sort_(x.copy(), axis=None), lambda: gpusort.sort_(flat.copy(), axis=None),
                     lambda: gpusort.sort_pairs_(x.copy(), x.copy(), axis=None)):
        with pytest.raises(TypeError, match="axis=None"):
            in_place()


@pytest.mark.parametrize("where", WHERE)
def test_out_along_an_axis(where):
    """out= takes arrays of x's shape and any layout; out=x (values) sorts x in place beside the indices."""
    x = random_keys((33, 40), np.float32, seed=8)
    expected = row_order(x, 0, descending=True)
    values, indices = np.empty_like(x), np.empty(x.shape, np.int64, order="F")
    result = gpusort.sort(x, axis=0, descending=True, return_indices=True, out=(values, indices),
                          **where_options(where))
    assert result.values is values and result.indices is indices
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(values, np.take_along_axis(x, expected, 0))
    order = np.empty_like(x, np.int64)
    assert gpusort.argsort(x, axis=0, descending=True, out=order, **where_options(where)) is order
    np.testing.assert_array_equal(order, expected)
    y = x.copy()
    assert gpusort.sort(y, axis=-2, descending=True, out=y, **where_options(where)) is y
    np.testing.assert_array_equal(y, values)
    y = x.copy()
    gpusort.sort(y, axis=0, descending=True, return_indices=True, out=(y, order), **where_options(where))
    np.testing.assert_array_equal(y, values)
    np.testing.assert_array_equal(order, expected)


def test_out_refusals_along_an_axis():
    x = random_keys((4, 6), np.float32)
    with pytest.raises(ValueError, match=r"shape \(4, 6\)"):
        gpusort.sort(x, axis=0, out=np.empty((6, 4), np.float32))
    with pytest.raises(ValueError, match=r"shape"):
        gpusort.argsort(x, axis=1, out=np.empty(24, np.int64))
    with pytest.raises(TypeError, match="int64"):
        gpusort.argsort(x, axis=0, out=np.empty((4, 6), np.int32))
    with pytest.raises(TypeError, match="float32"):
        gpusort.sort(x, axis=0, out=np.empty((4, 6), np.float64))
    frozen = np.empty_like(x)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        gpusort.sort(x, axis=0, out=frozen)
    shared = np.empty((2, 4, 6), np.int64)
    with pytest.raises(ValueError, match="share memory"):
        gpusort.sort(x.view(np.int32).astype(np.int64), axis=0, return_indices=True, out=(shared[0], shared[0]))


@pytest.mark.parametrize("function", [gpusort.sort, gpusort.argsort, gpusort.sort_])
@pytest.mark.parametrize("shape,axis", [((2, 3), 2), ((2, 3), -3), ((5,), 1), ((5,), -2), ((2, 2, 2), 7)])
def test_an_axis_out_of_range_is_numpys_axis_error(function, shape, axis):
    """numpy's AxisError (a ValueError and an IndexError), as numpy.sort raises, before anything is sorted."""
    x = np.arange(int(np.prod(shape)), 0, -1).reshape(shape)
    before = x.copy()
    with pytest.raises(AxisError, match=f"axis {axis} is out of bounds for array of dimension {len(shape)}"):
        function(x, axis=axis)
    np.testing.assert_array_equal(x, before)


def test_axis_types():
    """Integers of any kind numpy takes (numpy integers, bools as numpy reads them), else TypeError."""
    x = random_keys((3, 4), np.int8)
    np.testing.assert_array_equal(gpusort.sort(x, axis=np.int64(0)), np.sort(x, axis=0, kind="stable"))
    np.testing.assert_array_equal(gpusort.argsort(x, axis=np.uint8(1)), np.argsort(x, axis=1, kind="stable"))
    for bad in (1.0, "0", [0]):
        with pytest.raises(TypeError, match="axis"):
            gpusort.sort(x, axis=bad)
        with pytest.raises(TypeError, match="axis"):
            gpusort.argsort(np.arange(3), axis=bad)


def test_zero_dimensional_arrays_along_an_axis():
    """numpy's rules for 0-d arrays: its sorts refuse an axis (AxisError) and flatten for None (one
    element, 1-D); argsort takes axis 0 and -1 (one index, 1-D)."""
    x = np.array(3.5, np.float32)
    for axis in (0, -1, 1):
        with pytest.raises(AxisError, match="dimension 0"):
            gpusort.sort(x, axis=axis)
    np.testing.assert_array_equal(gpusort.sort(x, axis=None), [3.5])
    values, order = gpusort.sort(x, axis=None, return_indices=True)
    assert values.shape == order.shape == (1,)
    for axis in (0, -1, None):
        np.testing.assert_array_equal(gpusort.argsort(x, axis=axis), np.argsort(x, axis=axis))
    with pytest.raises(AxisError):
        gpusort.argsort(x, axis=1)


def test_pairs_along_an_axis_need_one_shape():
    keys = random_keys((4, 6), np.int32)
    with pytest.raises(ValueError, match="shape"):
        gpusort.sort_pairs(keys, np.zeros((6, 4)), axis=0)
    with pytest.raises(ValueError, match="shape"):
        gpusort.sort_pairs_(keys, np.zeros((4, 5)), axis=1)
    frozen = keys.copy()
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        gpusort.sort_(frozen, axis=0)
    with pytest.raises(ValueError, match="read-only"):
        gpusort.sort_pairs_(frozen, np.zeros((4, 6)), axis=0)
    with pytest.raises(TypeError, match="complex"):
        gpusort.sort(np.zeros((3, 3), np.complex256), axis=0)


def test_nested_lists_sort_along_an_axis():
    np.testing.assert_array_equal(gpusort.sort([[3, 1, 2], [0, 9, 5]]), [[1, 2, 3], [0, 5, 9]])
    np.testing.assert_array_equal(gpusort.argsort([[3, 1, 2], [0, 9, 5]], axis=0), [[1, 0, 0], [0, 1, 1]])


def test_the_compiled_rows_are_checked():
    """row_length must cut the flat array into whole rows."""
    x = np.arange(12, dtype=np.uint32)
    with pytest.raises(ValueError, match="row_length 5"):
        gpusort._gpusort.sort_inplace(x, row_length=5)
    with pytest.raises(ValueError, match="row_length 0"):
        gpusort._gpusort.argsort_host_into(x, np.empty(12, np.int64), row_length=0)
    y = x[::-1].copy()
    gpusort._gpusort.sort_inplace(y, row_length=4)
    np.testing.assert_array_equal(y, np.sort(y.reshape(3, 4), axis=1).ravel())


# --- JAX (CPU here) --------------------------------------------------------------------------------

@pytest.mark.parametrize("where", WHERE)
def test_jax_arrays_along_every_axis(where):
    """JAX arrays come back as JAX arrays of their shape; argsort's indices in JAX's default integer dtype."""
    jnp = pytest.importorskip("jax.numpy")
    host = random_keys((5, 33, 31), np.float32, seed=9)
    x = jnp.asarray(host)
    for axis in (-1, 0, 1):
        expected = row_order(host, axis, descending=True)
        values = gpusort.sort(x, axis=axis, descending=True, **where_options(where))
        order = gpusort.argsort(x, axis=axis, descending=True, **where_options(where))
        pair = gpusort.sort(x, axis=axis, descending=True, return_indices=True, **where_options(where))
        for result in (values, order, *pair):
            assert isinstance(result, type(x)) and result.shape == x.shape
        np.testing.assert_array_equal(np.asarray(order), expected)
        np.testing.assert_array_equal(np.asarray(pair.indices), expected)
        np.testing.assert_array_equal(np.asarray(values), np.take_along_axis(host, expected, axis))
        np.testing.assert_array_equal(np.asarray(jnp.sort(x, axis=axis)), np.asarray(gpusort.sort(x, axis=axis)))
    np.testing.assert_array_equal(np.asarray(gpusort.sort(x, axis=None)), np.sort(host, axis=None))
    with pytest.raises(ValueError, match="out of bounds"):  # JAX's own sort raises a ValueError too
        gpusort.sort(x, axis=3)
    with pytest.raises(TypeError, match="immutable"):
        gpusort.sort_(x, axis=0)


def test_rows_are_read_where_they_lie(monkeypatch):
    """No copy where the axis is innermost in memory: a C-contiguous array along its last axis, and
    a Fortran-ordered one along its first, reach the compiled sort at the caller's own address;
    other axes go through one contiguous copy."""
    seen = []
    real_inplace, real_argsort = gpusort._gpusort.sort_inplace, gpusort._gpusort.argsort_host_into

    def inplace(keys, *args, **kwargs):
        seen.append((keys.ctypes.data, kwargs.get("row_length")))
        return real_inplace(keys, *args, **kwargs)

    def argsort(keys, *args, **kwargs):
        seen.append((keys.ctypes.data, kwargs.get("row_length")))
        return real_argsort(keys, *args, **kwargs)

    monkeypatch.setattr(gpusort._gpusort, "sort_inplace", inplace)
    monkeypatch.setattr(gpusort._gpusort, "argsort_host_into", argsort)
    device = where_options("device")
    x = random_keys((30, 200), np.float32)
    gpusort.argsort(x, axis=-1, **device)
    f = np.asfortranarray(x.reshape(30, 20, 10))
    gpusort.sort_(f, axis=0, **device)
    assert seen == [(x.ctypes.data, 200), (f.ctypes.data, 30)]
    seen.clear()
    gpusort.sort_(x, axis=0, **device)
    assert len(seen) == 1 and seen[0][0] != x.ctypes.data and seen[0][1] == 30


def test_jax_zero_dimensional_arrays_along_an_axis():
    """JAX's 0-d arrays take the package's PyTorch rule (one element, 0-d results) for axis 0 and -1;
    another axis is numpy's AxisError, a ValueError as JAX's own; None flattens into one element."""
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.asarray(np.float32(2.5))
    for axis in (0, -1):
        values, indices = gpusort.sort(x, axis=axis, return_indices=True)
        assert values.shape == () and indices.shape == () and float(values) == 2.5 and int(indices) == 0
    with pytest.raises(ValueError, match="out of bounds"):
        gpusort.argsort(x, axis=1)
    assert gpusort.sort(x, axis=None).shape == (1,)
