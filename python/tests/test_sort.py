"""gpusort.sort, argsort, sort_pairs and the in-place forms against numpy, on the default device
(PoCL on a machine without a GPU). Every sort uses gpusort's own choice of algorithm, so each key
type compiles few kernel programs (cached on disk: $GPUSORT_CACHE_DIR)."""
import numpy as np
import pytest

import gpusort
from sort_reference import (DISTRIBUTIONS, KEY_DTYPES, WHERE, bits, float_specials, make_keys, stable_order,
                            where_options)

SIZES = [0, 1, 2, 3, 1001, 10007]
ORDERS = [False, True]  # descending


def dtype_id(d):
    return np.dtype(d).name


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", KEY_DTYPES, ids=dtype_id)
def test_sort_sizes(dtype, n, descending, where):
    x = make_keys(dtype, n, "random")
    before = x.copy()
    result = gpusort.sort(x, descending=descending, **where_options(where))
    assert result.dtype == x.dtype and result.shape == x.shape and result is not x
    np.testing.assert_array_equal(bits(result), bits(x[stable_order(x, descending)]))
    np.testing.assert_array_equal(bits(x), bits(before))  # the input is left alone


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
@pytest.mark.parametrize("dtype", KEY_DTYPES, ids=dtype_id)
def test_argsort_distributions(dtype, distribution, descending):
    x = make_keys(dtype, 10007, distribution)
    order = gpusort.argsort(x, descending=descending)
    assert order.dtype == np.int64
    # Stable: equal keys keep their input order (indices ascending), in both orders.
    np.testing.assert_array_equal(order, stable_order(x, descending))
    if not descending:
        np.testing.assert_array_equal(order, np.argsort(x, kind="stable"))


def test_argsort_host_into_reads_the_keys_where_they_lie():
    """argsort of host keys writes every index itself (they start poisoned, 4 or 8 bytes), reads the
    keys without copying them (a read-only array is fine, and stays as it was), and refuses indices
    it cannot fill before it touches them."""
    x = make_keys(np.int16, 3001, "few-unique")
    x.setflags(write=False)
    before = x.copy()
    for index_dtype in [np.int64, np.uint32, np.int32]:
        order = np.full(x.size, 77, dtype=index_dtype)
        gpusort._gpusort.argsort_host_into(x, order, descending=True)
        np.testing.assert_array_equal(order, stable_order(x, True))
    np.testing.assert_array_equal(x, before)
    for bad, why in [(np.zeros(x.size, np.float64), "integers"), (np.zeros(x.size, np.int16), "integers"),
                     (np.zeros(x.size - 1, np.int64), "length")]:
        with pytest.raises(ValueError, match=why):
            gpusort._gpusort.argsort_host_into(x, bad)
        assert not bad.any()
    frozen = np.zeros(x.size, np.int64)
    frozen.setflags(write=False)
    with pytest.raises(ValueError):
        gpusort._gpusort.argsort_host_into(x, frozen)


def test_buffer_protocol_hosts_sort_and_argsort():
    """Host arrays that are not numpy (array.array, memoryview, bytes) sort and argsort alike."""
    import array
    values = [5, 3, 9, 3, 0, 250, 7]
    for x in [array.array("I", values), memoryview(array.array("i", values)), bytes(values)]:
        expect = np.argsort(np.asarray(memoryview(x)), kind="stable")
        np.testing.assert_array_equal(gpusort.argsort(x), expect)
        np.testing.assert_array_equal(np.asarray(gpusort.sort(x)), np.sort(np.asarray(memoryview(x))))


@pytest.mark.parametrize("ctype", ["c_int32", "c_uint8", "c_double", "c_uint64"])
def test_ctypes_arrays_sort_argsort_and_sort_in_place(ctype):
    """ctypes arrays export their buffer without strides; they go through a memoryview."""
    import ctypes
    values = [5, 3, 9, 3, 0, 250, 7]
    kind = getattr(ctypes, ctype) * len(values)
    expect = np.asarray(memoryview(kind(*values)))
    np.testing.assert_array_equal(gpusort.argsort(kind(*values)), np.argsort(expect, kind="stable"))
    np.testing.assert_array_equal(np.asarray(gpusort.sort(kind(*values))), np.sort(expect))
    x = kind(*values)
    assert gpusort.sort_(x) is x
    np.testing.assert_array_equal(np.asarray(memoryview(x)), np.sort(expect))
    keys, order = kind(*values), np.arange(len(values), dtype=np.int64)
    gpusort.sort_pairs_(keys, order)
    np.testing.assert_array_equal(order, np.argsort(expect, kind="stable"))


def test_order_flags_take_any_truth_value():
    """numpy's booleans and integers, as numpy's own flags do."""
    x = np.array([3, 1, 2, 1], dtype=np.int16)
    np.testing.assert_array_equal(gpusort.sort(x, descending=np.True_), [3, 2, 1, 1])
    np.testing.assert_array_equal(gpusort.argsort(x, descending=1, stable=np.True_), [0, 2, 1, 3])
    np.testing.assert_array_equal(gpusort.sort_pairs(x, x, descending=np.False_)[1], [1, 1, 2, 3])
    for flag in ("no", None, 1.0):
        with pytest.raises(TypeError, match="descending must be a bool"):
            gpusort.sort(x, descending=flag)


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=dtype_id)
def test_float_specials(dtype, descending, where):
    x = float_specials(dtype)
    result = gpusort.sort(x, descending=descending, **where_options(where))
    # NaN last ascending (numpy's np.sort agrees), first descending; -0.0 and +0.0 equal, so they
    # keep their input order; NaN payloads are kept bit for bit.
    np.testing.assert_array_equal(bits(result), bits(x[stable_order(x, descending)]))
    nan_count = np.isnan(x).sum()
    nans = result[-nan_count:] if not descending else result[:nan_count]
    assert np.isnan(nans).all()
    if not descending:
        np.testing.assert_array_equal(result[~np.isnan(result)], np.sort(x)[:-nan_count])
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending, **where_options(where)),
                                  stable_order(x, descending))


@pytest.mark.parametrize("n", [5003, 11])  # the device, and numpy on the host
@pytest.mark.parametrize("value_dtype", [np.uint8, np.float16, np.int32, np.float64, np.complex128, "V16"],
                         ids=dtype_id)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
def test_sort_pairs_value_sizes(value_dtype, descending, n):
    keys = make_keys(np.uint32, n, "few-unique")
    raw = np.random.default_rng(3).integers(0, 256, size=n * np.dtype(value_dtype).itemsize, dtype=np.uint8)
    values = raw.view(value_dtype)
    sorted_keys, sorted_values = gpusort.sort_pairs(keys, values, descending=descending)
    order = stable_order(keys, descending)
    np.testing.assert_array_equal(sorted_keys, keys[order])
    assert sorted_values.dtype == values.dtype
    np.testing.assert_array_equal(sorted_values.view(np.uint8), values[order].view(np.uint8))


def test_sort_pairs_structured_values():
    keys = np.array([3, 1, 2], dtype=np.int16)
    records = np.array([(30, 3.0), (10, 1.0), (20, 2.0)], dtype=[("a", "<i4"), ("b", "<f4")])
    sorted_keys, sorted_records = gpusort.sort_pairs(keys, records)
    np.testing.assert_array_equal(sorted_keys, [1, 2, 3])
    np.testing.assert_array_equal(sorted_records["a"], [10, 20, 30])


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("dtype", [np.int64, np.float32], ids=dtype_id)
def test_sort_in_place(dtype, where):
    x = make_keys(dtype, 1001, "random")
    expected = x[stable_order(x, True)]
    assert gpusort.sort_(x, descending=True, **where_options(where)) is x
    np.testing.assert_array_equal(bits(x), bits(expected))


@pytest.mark.parametrize("where", WHERE)
def test_sort_pairs_in_place(where):
    keys = make_keys(np.uint16, 1001, "few-unique")
    values = np.arange(1001, dtype=np.int64)
    order = stable_order(keys)
    expected_keys = keys[order]
    returned_keys, returned_values = gpusort.sort_pairs_(keys, values, **where_options(where))
    assert returned_keys is keys and returned_values is values
    np.testing.assert_array_equal(keys, expected_keys)
    np.testing.assert_array_equal(values, order)


def test_read_only_input_is_copied():
    x = np.array([3, 1, 2], dtype=np.uint32)
    x.flags.writeable = False
    np.testing.assert_array_equal(gpusort.sort(x), [1, 2, 3])
    np.testing.assert_array_equal(gpusort.argsort(x), [1, 2, 0])


def test_unstable_request_and_chosen_algorithm():
    x = make_keys(np.uint32, 1001, "random")
    np.testing.assert_array_equal(gpusort.sort(x, stable=False), np.sort(x))
    np.testing.assert_array_equal(gpusort.sort(x, algorithm="radix"), np.sort(x))


def test_device_by_id():
    x = make_keys(np.int32, 1001, "random")
    device = gpusort.devices()[0]["id"]
    np.testing.assert_array_equal(gpusort.sort(x, device=device), np.sort(x))


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
def test_comparator_orders_by_the_users_rule(descending):
    # u32 keys by their low byte: 256 classes of ties, kept in input order (stable)
    rng = np.random.default_rng(41)
    x = rng.integers(0, 2**32, 20001, dtype=np.uint32)
    low = (x & 255).astype(np.int64)
    expect = x[np.argsort(-low if descending else low, kind="stable")]
    got = gpusort.sort(x, descending=descending, comparator="return (a & 255u) < (b & 255u);")
    np.testing.assert_array_equal(got, expect)
    # argsort and pairs take it too: float keys by magnitude
    f = (rng.integers(-1000, 1001, 5003) / 8).astype(np.float32)
    order = gpusort.argsort(f, comparator="return fabs(a) < fabs(b);")
    np.testing.assert_array_equal(order, np.argsort(np.abs(f), kind="stable"))


def test_comparator_that_does_not_compile_names_its_line():
    x = np.arange(10, dtype=np.uint32)
    with pytest.raises(gpusort.Error, match="comparator"):
        gpusort.sort(x, comparator="int y = a;\nreturn a < ;")
