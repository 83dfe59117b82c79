"""16-bit float and bool keys from numpy, ml_dtypes and JAX (CPU) against numpy's stable order: floats
by f32's rules (-0.0 == +0.0 in input order, NaN last ascending and first descending, payloads kept),
bools false before true with any nonzero byte true. ml_dtypes' bfloat16 arrays reach the module as
their 16 bits (numpy exports them through neither DLPack nor the buffer protocol); JAX's through DLPack."""
import numpy as np
import pytest

import gpusort
from sort_reference import bits, stable_order

ORDERS = [False, True]


def half_specials(dtype, n, seed):
    """Random values of `dtype` with NaNs of several payloads and both signs, both zeros, infinities
    and subnormals mixed in, as (keys, float32 values for the reference: every value is one exactly)."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 100).astype(np.float32).astype(dtype)
    u16 = x.view(np.uint16)
    quiet = np.array([np.nan], dtype=dtype).view(np.uint16)[0]
    specials = np.array([quiet, quiet | 1, quiet | 0x8005, 0x0000, 0x8000, 0x0001, 0x8001, 0x0003], dtype=np.uint16)
    inf = np.array([np.inf], dtype=dtype).view(np.uint16)[0]
    specials = np.concatenate([specials, [inf, inf | 0x8000]]).astype(np.uint16)
    where = rng.integers(0, n, n // 3)
    u16[where] = rng.choice(specials, where.size)
    return x, x.astype(np.float32)


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
def test_numpy_float16_specials_and_pairs(descending):
    x, ref = half_specials(np.float16, 20011, 1)
    order = stable_order(ref, descending)
    np.testing.assert_array_equal(bits(gpusort.sort(x, descending=descending)), bits(x[order]))
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending), order)
    values = np.arange(x.size, dtype=np.uint32)
    keys_out, values_out = gpusort.sort_pairs(x, values, descending=descending)
    np.testing.assert_array_equal(values_out, order)
    np.testing.assert_array_equal(bits(keys_out), bits(x[order]))


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [10007, 101])  # 101: below host_sort_below, sorted by numpy on the host
def test_bool_any_nonzero_byte_is_true(descending, n):
    rng = np.random.default_rng(2)
    raw = rng.choice(np.array([0, 1, 0, 1, 2, 255], dtype=np.uint8), n)
    x = raw.view(np.bool_)
    truth = raw != 0
    order = stable_order(truth, descending)
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending), order)
    keys_out, values_out = gpusort.sort_pairs(x, np.arange(x.size, dtype=np.int64), descending=descending)
    np.testing.assert_array_equal(values_out, order)
    np.testing.assert_array_equal(keys_out.view(np.uint8) != 0, truth[order])
    result = gpusort.sort(x, descending=descending)
    assert result.dtype == np.bool_
    np.testing.assert_array_equal(result.view(np.uint8) != 0, truth[order])


def test_bool_and_float16_in_place():
    x = np.random.default_rng(3).integers(0, 2, 3001).astype(np.bool_)
    expected = np.sort(x)
    assert gpusort.sort_(x) is x
    np.testing.assert_array_equal(x, expected)
    h, ref = half_specials(np.float16, 3001, 4)
    expected = h[stable_order(ref)]
    gpusort.sort_(h)
    np.testing.assert_array_equal(bits(h), bits(expected))


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
def test_ml_dtypes_bfloat16(descending):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x, ref = half_specials(ml_dtypes.bfloat16, 20011, 5)
    order = stable_order(ref, descending)
    before = x.copy()
    result = gpusort.sort(x, descending=descending)
    assert result.dtype == x.dtype and result is not x
    np.testing.assert_array_equal(result.view(np.uint16), x.view(np.uint16)[order])
    np.testing.assert_array_equal(x.view(np.uint16), before.view(np.uint16))  # the input is left alone
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending), order)
    # bfloat16 values travel as their bytes too
    keys_out, values_out = gpusort.sort_pairs(x, x, descending=descending)
    np.testing.assert_array_equal(values_out.view(np.uint16), x.view(np.uint16)[order])
    assert values_out.dtype == x.dtype
    gpusort.sort_(before, descending=descending)
    np.testing.assert_array_equal(before.view(np.uint16), x.view(np.uint16)[order])


def test_ml_dtypes_bfloat16_read_only_is_refused_in_place_and_sorted_out_of_place():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([3, 1, 2], dtype=ml_dtypes.bfloat16)
    x.setflags(write=False)
    with pytest.raises(ValueError):
        gpusort.sort_(x)
    np.testing.assert_array_equal(gpusort.sort(x).astype(np.float32), [1, 2, 3])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "bool"])
def test_jax_cpu_arrays(dtype):
    jnp = pytest.importorskip("jax.numpy")
    if dtype == "bool":
        host = np.random.default_rng(6).integers(0, 2, 5003).astype(np.bool_)
        ref = host
    else:
        host, ref = half_specials(np.float16 if dtype == "float16" else jnp.bfloat16, 5003, 6)
    x = jnp.asarray(host)
    assert str(x.dtype) == dtype
    for descending in ORDERS:
        order = stable_order(ref, descending)
        result = gpusort.sort(x, descending=descending)
        assert type(result) is type(x) and str(result.dtype) == dtype
        np.testing.assert_array_equal(np.asarray(result).view(f"u{host.itemsize}"),
                                      host.view(f"u{host.itemsize}")[order])
        np.testing.assert_array_equal(np.asarray(gpusort.argsort(x, descending=descending)), order)
