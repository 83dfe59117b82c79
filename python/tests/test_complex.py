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
    """complex128 keys as pairs of 64-bit words: compared bit for bit (any layout)."""
    return np.ascontiguousarray(a).view(np.uint64)


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


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [20011, 101])  # 101: below host_sort_below, sorted by numpy on the host
def test_numpy_complex128_argsort_indices_and_pairs(descending, n):
    x = complex128_specials(n, 4)
    x[::7] = x[3]  # long runs of equal keys: stability shows in the indices
    before = x.copy()
    order = stable_order(x, descending)
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending), order)
    values, indices = gpusort.sort(x, descending=descending, return_indices=True)
    assert indices.dtype == np.int64 and values.dtype == np.complex128
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(words(values), words(x[order]))
    for value_dtype in [np.uint8, np.int16, np.float32, np.int64, np.complex128]:
        v = np.arange(n).astype(value_dtype)
        keys_out, values_out = gpusort.sort_pairs(x, v, descending=descending)
        np.testing.assert_array_equal(words(keys_out), words(x[order]))
        np.testing.assert_array_equal(values_out.view(np.uint8), v[order].view(np.uint8))
    k, v = x.copy(), np.arange(n, dtype=np.uint64)
    gpusort.sort_pairs_(k, v, descending=descending)
    np.testing.assert_array_equal(words(k), words(x[order]))
    np.testing.assert_array_equal(v, order)
    np.testing.assert_array_equal(words(x), words(before))  # the out-of-place calls left it alone


def test_numpy_complex128_matches_numpys_own_argsort():
    """numpy's own stable argsort is the reference: the NaN classes, -0.0 == +0.0 in each part."""
    nan, inf = np.nan, np.inf
    base = np.array([complex(nan, nan), complex(nan, 1), complex(1, nan), complex(2, 0), complex(1, 5),
                     complex(nan, -1), complex(-1, nan), complex(1, -5), complex(-0.0, 0), complex(0, -0.0),
                     complex(inf, -inf), complex(-inf, inf), complex(0, 0), complex(-0.0, -0.0)], dtype=np.complex128)
    x = np.tile(base, 2000)[np.random.default_rng(5).permutation(28000)]  # past the host threshold
    np.testing.assert_array_equal(gpusort.argsort(x), np.argsort(x, kind="stable"))
    _, indices = gpusort.sort(x, return_indices=True)
    np.testing.assert_array_equal(indices, np.argsort(x, kind="stable"))


def test_numpy_complex128_out_strided_and_flattened():
    x = complex128_specials(30000, 9)
    order = stable_order(x, True)
    v, i = np.empty_like(x), np.empty(x.size, dtype=np.int64)
    result = gpusort.sort(x, descending=True, return_indices=True, out=(v, i))
    assert result.values is v and result.indices is i
    np.testing.assert_array_equal(i, order)
    np.testing.assert_array_equal(words(v), words(x[order]))
    np.testing.assert_array_equal(gpusort.argsort(x[::2]), stable_order(x[::2]))  # a strided view, gathered
    np.testing.assert_array_equal(words(gpusort.sort(x.reshape(100, 300), axis=None)), words(x[stable_order(x)]))


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
def test_numpy_complex128_along_every_axis(descending):
    """Each row (any axis) in numpy's complex order, stable, values and indices too."""
    x = complex128_specials(20000, 3).reshape(100, 200)  # past the host threshold: sorted on the device
    x[:, ::7] = x[:, 1:2]  # ties within every row
    for axis in (1, 0, -1):
        order = np.stack([stable_order(r, descending) for r in np.moveaxis(x, axis, 0).T])  # rows along `axis`
        expected = np.take_along_axis(x, np.moveaxis(order.T, 0, axis), axis)
        np.testing.assert_array_equal(words(gpusort.sort(x, axis=axis, descending=descending)), words(expected))
        np.testing.assert_array_equal(gpusort.argsort(x, axis=axis, descending=descending),
                                      np.moveaxis(order.T, 0, axis))
        values, indices = gpusort.sort(x, axis=axis, descending=descending, return_indices=True)
        np.testing.assert_array_equal(words(values), words(expected))
        np.testing.assert_array_equal(indices, np.moveaxis(order.T, 0, axis))
    if not descending:  # numpy's own stable sort along an axis is the reference too
        np.testing.assert_array_equal(gpusort.argsort(x, axis=0), np.argsort(x, axis=0, kind="stable"))


def _cuda_library(name):
    """torch or cupy with a CUDA device, else the test is skipped."""
    library = pytest.importorskip(name)
    if name == "torch" and not library.cuda.is_available():
        pytest.skip("needs PyTorch with a CUDA device")
    if name == "cupy":
        try:
            library.cuda.runtime.getDeviceCount()
        except Exception:
            pytest.skip("needs a CUDA device for CuPy")
    return library


@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("library", ["torch", "cupy"])
def test_cuda_complex128_sort_argsort_pairs(library, descending):
    """PyTorch and CuPy complex128 arrays, sorted where they live (native views of the caller's memory)."""
    lib = _cuda_library(library)
    x = complex128_specials(30011, 6)
    x[::5] = x[1]
    order = stable_order(x, descending)
    to_device = (lambda a: lib.from_numpy(a).cuda()) if library == "torch" else lib.asarray
    to_host = (lambda a: a.cpu().numpy()) if library == "torch" else lib.asnumpy
    d = to_device(x)
    np.testing.assert_array_equal(words(to_host(gpusort.sort(d, descending=descending))), words(x[order]))
    np.testing.assert_array_equal(to_host(gpusort.argsort(d, descending=descending)), order)
    values, indices = gpusort.sort(d, descending=descending, return_indices=True)
    np.testing.assert_array_equal(words(to_host(values)), words(x[order]))
    np.testing.assert_array_equal(to_host(indices), order)
    v = np.arange(x.size, dtype=np.int32)
    keys_out, values_out = gpusort.sort_pairs(d, to_device(v), descending=descending)
    np.testing.assert_array_equal(words(to_host(keys_out)), words(x[order]))
    np.testing.assert_array_equal(to_host(values_out), v[order])
    np.testing.assert_array_equal(words(to_host(d)), words(x))  # the out-of-place calls left it alone
    assert gpusort.sort_(d, descending=descending) is d
    np.testing.assert_array_equal(words(to_host(d)), words(x[order]))
