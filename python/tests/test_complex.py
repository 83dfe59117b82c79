"""complex64 and complex128 keys against numpy's own complex order (np.sort / np.argsort,
kind="stable"): by real part, then imaginary part; an imaginary NaN next, then a real NaN, both NaN last; -0.0 == +0.0 in
each part. Compared bit for bit, so NaN payloads and the sign of zero must survive."""
import numpy as np
import pytest

import gpusort
from sort_reference import bits, stable_order

ORDERS = [False, True]


def complex_specials(n, seed):
    """complex64 keys with NaNs (several payloads, both signs), zeros of both signs, infinities and
    subnormals in either part or both, and many equal parts (small integers) so ties reach the
    imaginary part."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(2):
        p = rng.integers(-4, 4, n).astype(np.float32)
        m = rng.random(n) < 0.3
        p[m] = rng.standard_normal(m.sum())
        u = p.view(np.uint32)
        specials = np.array([0x7FC00000, 0x7FC00001, 0xFFC00005, 0x7F800001, 0x00000000, 0x80000000,
                             0x00000001, 0x80000001, 0x7F800000, 0xFF800000], dtype=np.uint32)
        where = rng.integers(0, n, n // 4)
        u[where] = rng.choice(specials, where.size)
        parts.append(p)
    x = np.empty(n, dtype=np.complex64)
    x.real, x.imag = parts
    return x


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [20011, 101])  # 101: below host_sort_below, sorted by numpy on the host
def test_numpy_complex64_sort_argsort_pairs(descending, n):
    x = complex_specials(n, 1)
    before = x.copy()
    order = stable_order(x, descending)
    result = gpusort.sort(x, descending=descending)
    assert result.dtype == np.complex64
    np.testing.assert_array_equal(bits(result), bits(x[order]))
    np.testing.assert_array_equal(bits(x), bits(before))  # the input is left alone
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending), order)
    keys_out, values_out = gpusort.sort_pairs(x, np.arange(n, dtype=np.uint32), descending=descending)
    np.testing.assert_array_equal(values_out, order)
    np.testing.assert_array_equal(bits(keys_out), bits(x[order]))
    values, indices = gpusort.sort(x, descending=descending, return_indices=True)
    np.testing.assert_array_equal(bits(values), bits(x[order]))
    np.testing.assert_array_equal(indices, order)


def test_numpy_order_classes_in_place():
    nan = np.float32(np.nan)
    x = np.array([complex(nan, nan), complex(nan, 1), complex(1, nan), complex(2, 0), complex(1, 5),
                  complex(nan, -1), complex(-1, nan), complex(1, -5), complex(-0.0, 0), complex(0, -0.0)],
                 dtype=np.complex64)
    x = np.tile(x, 400)  # past the host threshold: sorted on the device
    expected = np.sort(x, kind="stable")
    assert gpusort.sort_(x) is x
    np.testing.assert_array_equal(bits(x), bits(expected))


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
def test_complex64_along_an_axis(descending):
    x = complex_specials(64 * 333, 2).reshape(64, 333)
    got = gpusort.argsort(x, axis=1, descending=descending)
    for r in range(x.shape[0]):
        np.testing.assert_array_equal(got[r], stable_order(x[r], descending))
    s = gpusort.sort(x, axis=0)
    np.testing.assert_array_equal(bits(s), bits(np.sort(x, axis=0, kind="stable")))


def complex128_specials(n, seed):
    """complex128 keys of the kinds complex_specials makes, as float64 parts (payloads and
    subnormals of float64)."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(2):
        p = rng.integers(-4, 4, n).astype(np.float64)
        m = rng.random(n) < 0.3
        p[m] = rng.standard_normal(m.sum())
        specials = np.array([0x7FF8000000000000, 0x7FF8000000000001, 0xFFF8000000000005, 0x7FF0000000000001,
                             0, 0x8000000000000000, 1, 0x8000000000000001, 0x7FF0000000000000,
                             0xFFF0000000000000], dtype=np.uint64)
        where = rng.integers(0, n, n // 4)
        p.view(np.uint64)[where] = rng.choice(specials, where.size)
        parts.append(p)
    x = np.empty(n, dtype=np.complex128)
    x.real, x.imag = parts
    return x


def words(a):
    """complex128 keys as pairs of 64-bit words: compared bit for bit."""
    return a.view(np.uint64)


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [20011, 101])  # 101: below host_sort_below, sorted by numpy on the host
def test_numpy_complex128_sort(descending, n):
    x = complex128_specials(n, 2)
    before = x.copy()
    order = stable_order(x, descending)
    result = gpusort.sort(x, descending=descending)
    assert result.dtype == np.complex128
    np.testing.assert_array_equal(words(result), words(x[order]))
    np.testing.assert_array_equal(words(x), words(before))  # the input is left alone
    y = x.copy()
    assert gpusort.sort_(y, descending=descending) is y
    np.testing.assert_array_equal(words(y), words(x[order]))


def test_complex128_forms_not_taken_yet_are_refused():
    x = complex128_specials(20011, 3)  # past the host threshold: the device's sort decides
    with pytest.raises(gpusort.UnsupportedError, match="complex128"):
        gpusort.argsort(x)
    with pytest.raises(gpusort.UnsupportedError, match="complex128"):
        gpusort.sort_pairs(x, np.arange(x.size, dtype=np.uint32))
    with pytest.raises(gpusort.UnsupportedError, match="complex128"):
        gpusort.sort(x[:20000].reshape(100, 200), axis=1)
