"""out= arrays that are strided views (every other element of a larger array, a reversed or
transposed view), as torch.sort(x, out=(values, indices)) takes them: the results are written
through the caller's views, the same objects are returned, and memory outside the views is not
touched. numpy arrays here, on the host (small arrays) and the device; PyTorch CPU tensors where
PyTorch is installed; PyTorch and CuPy CUDA arrays skip without a GPU."""
import numpy as np
import pytest

import gpusort
from sort_reference import WHERE, bits, make_keys, stable_order, where_options

try:
    import torch
except ImportError:
    torch = None
try:
    import cupy
except ImportError:
    cupy = None

ORDERS = [False, True]
SENTINEL = -7


def every_other(n, dtype):
    """A writable view of n elements, every other one of a larger array filled with SENTINEL (the
    base is returned too, to check that only the view's elements were written)."""
    base = np.full(2 * n + 1, SENTINEL, dtype)
    return base[1::2], base


def row_order(x, axis, descending=False):
    return np.apply_along_axis(lambda row: stable_order(row, descending), axis, x).astype(np.int64)


def untouched(base, view_step, start=1):
    """The elements of base outside base[start::view_step] still hold SENTINEL."""
    mask = np.ones(base.shape, bool)
    mask[start::view_step] = False
    return np.all(base[mask] == SENTINEL)


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [2, 17, 5003])
def test_strided_out_is_written_through(n, descending, where):
    """sort, argsort and the values-and-indices form into every other element of larger arrays."""
    x = make_keys(np.float32, n, "few-unique")
    before = x.copy()
    expected = stable_order(x, descending)
    options = dict(descending=descending, **where_options(where))
    values, values_base = every_other(n, np.float32)
    assert gpusort.sort(x, out=values, **options) is values
    np.testing.assert_array_equal(bits(values), bits(x[expected]))
    assert untouched(values_base, 2)
    order, order_base = every_other(n, np.int64)
    assert gpusort.argsort(x, out=order, **options) is order
    np.testing.assert_array_equal(order, expected)
    assert untouched(order_base, 2)
    values, values_base = every_other(n, np.float32)
    indices = np.full(3 * n, SENTINEL, np.int64)[::-3]  # reversed, stride 3
    result = gpusort.sort(x, return_indices=True, out=(values, indices), **options)
    assert isinstance(result, gpusort.SortResult) and result.values is values and result.indices is indices
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(bits(values), bits(x[expected]))
    assert untouched(values_base, 2)
    assert np.count_nonzero(indices.base == SENTINEL) == 2 * n
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.uint8, np.bool_])
def test_out_is_a_strided_input(dtype, where):
    """out=x with x a strided view sorts x in place (its base elsewhere untouched), with the
    indices too; an int64 x given as argsort's out= receives the indices of its old keys."""
    n = 1001
    keys = make_keys(dtype, n, "few-unique", seed=3)
    expected = stable_order(keys)
    base = np.zeros(2 * n, dtype)
    base[0::2] = keys
    x = base[0::2]
    assert gpusort.sort(x, out=x, **where_options(where)) is x
    np.testing.assert_array_equal(bits(x), bits(keys[expected]))
    assert not np.any(base[1::2])
    base[0::2] = keys
    indices = np.empty(n, np.int64)
    result = gpusort.sort(x, return_indices=True, out=(x, indices), **where_options(where))
    assert result.values is x and result.indices is indices
    np.testing.assert_array_equal(bits(x), bits(keys[expected]))
    np.testing.assert_array_equal(indices, expected)
    if dtype == np.int64:
        base[0::2] = keys
        assert gpusort.argsort(x, out=x, **where_options(where)) is x
        np.testing.assert_array_equal(x, expected)
        assert not np.any(base[1::2])


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_transposed_out_along_an_axis(axis, where):
    """A transposed 2-D view (and, for axis=None, a strided 1-D view) as out= of a sort along an axis."""
    x = make_keys(np.float32, 33 * 40, "few-unique", seed=5).reshape(33, 40)
    if axis is None:
        expected = stable_order(x.ravel())
        values, values_base = every_other(x.size, np.float32)
        indices, _ = every_other(x.size, np.int64)
        sorted_keys = x.ravel()[expected]
    else:
        expected = row_order(x, axis)
        values = np.full((40, 33), SENTINEL, np.float32).T
        indices = np.full((40, 33), SENTINEL, np.int64).T
        sorted_keys = np.take_along_axis(x, expected, axis)
    result = gpusort.sort(x, axis=axis, return_indices=True, out=(values, indices), **where_options(where))
    assert result.values is values and result.indices is indices
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(bits(values), bits(sorted_keys))
    values.fill(SENTINEL)
    assert gpusort.sort(x, axis=axis, out=values, **where_options(where)) is values
    np.testing.assert_array_equal(bits(values), bits(sorted_keys))
    if axis is not None:
        y = np.asfortranarray(x)[::-1]  # a reversed view of a Fortran-ordered copy, sorted in place
        assert gpusort.sort(y, axis=axis, out=y, **where_options(where)) is y
        np.testing.assert_array_equal(bits(y), bits(np.take_along_axis(x[::-1], row_order(x[::-1], axis), axis)))


@pytest.mark.parametrize("where", WHERE)
def test_strided_bfloat16_out(where):
    """ml_dtypes' bfloat16 (numpy reads it through its 16 bits): a strided out= of its own dtype."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([3, -1, 2, np.nan, -0.0, 0.0, 1, -1], ml_dtypes.bfloat16)
    expected = stable_order(x.astype(np.float32))
    values = np.zeros(2 * x.size, ml_dtypes.bfloat16)[::2]
    indices = np.zeros(2 * x.size, np.int64)[1::2]
    result = gpusort.sort(x, return_indices=True, out=(values, indices), **where_options(where))
    assert result.values is values and result.indices is indices
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(bits(values), bits(x[expected]))
    assert not np.any(bits(values.base[1::2]))


def read_only(a):
    a.setflags(write=False)
    return a


def test_refusals_are_unchanged_for_strided_outputs():
    """Read-only strided views, the wrong dtype or shape, and a view whose elements share one
    place (stride 0) are refused before anything is written; so is a JAX array."""
    x = make_keys(np.float32, 10, "random")
    before = x.copy()
    frozen = read_only(np.zeros(20, np.float32))[::2]
    for where in WHERE:
        with pytest.raises(ValueError, match="read-only"):
            gpusort.sort(x, out=frozen, **where_options(where))
        with pytest.raises(ValueError, match="read-only"):
            gpusort.sort(x, return_indices=True, out=(frozen, np.empty(10, np.int64)), **where_options(where))
        with pytest.raises(ValueError, match="read-only"):
            gpusort.argsort(x, out=read_only(np.zeros(20, np.int64))[::2], **where_options(where))
        with pytest.raises(ValueError, match="read-only"):
            gpusort.sort(x.reshape(2, 5), axis=0, out=read_only(np.zeros((5, 2), np.float32)).T)
        with pytest.raises(TypeError, match="dtype float32"):
            gpusort.sort(x, out=np.zeros(20, np.float64)[::2], **where_options(where))
        with pytest.raises(ValueError, match="shape"):
            gpusort.sort(x, out=np.zeros(22, np.float32)[::2], **where_options(where))
        zero_stride = np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), shape=(10,), strides=(0,))
        with pytest.raises(ValueError, match="one memory location"):
            gpusort.sort(x, out=zero_stride, **where_options(where))
        rows = np.lib.stride_tricks.as_strided(np.zeros(5, np.int64), shape=(2, 5), strides=(0, 8))
        with pytest.raises(ValueError, match="one memory location"):
            gpusort.argsort(x.reshape(2, 5), axis=1, out=rows, **where_options(where))
        assert not np.any(zero_stride) and not np.any(rows)
    shared = np.zeros(40, np.int64)
    with pytest.raises(ValueError, match="share memory"):
        gpusort.sort(x.astype(np.int64), return_indices=True, out=(shared[:20:2], shared[::4]))
    np.testing.assert_array_equal(frozen, 0)
    np.testing.assert_array_equal(x, before)


def test_strided_input_of_a_read_only_array_is_refused_as_out():
    """out=x on a read-only strided x: refused as read-only (gpusort.sort(x) returns a sorted copy)."""
    x = read_only(np.arange(20, 0, -1, dtype=np.int32))[::2]
    with pytest.raises(ValueError, match="read-only"):
        gpusort.sort(x, out=x)
    np.testing.assert_array_equal(x, np.arange(20, 0, -2))


def test_jax_out_is_still_refused():
    jax = pytest.importorskip("jax")
    x = make_keys(np.float32, 10, "random")
    with pytest.raises(TypeError, match="immutable"):
        gpusort.sort(x.reshape(2, 5), axis=0, out=jax.numpy.zeros((5, 2), np.float32).T)
    with pytest.raises(TypeError, match="immutable"):
        gpusort.sort(jax.numpy.asarray(x), out=jax.numpy.zeros(20, np.float32)[::2])


# --- PyTorch and CuPy ------------------------------------------------------------------------------

def torch_devices():
    if torch is None:
        return []
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def need_torch(device):
    if torch is None:
        pytest.skip("needs PyTorch")
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("needs PyTorch with a CUDA device")


@pytest.mark.parametrize("device", ["cpu", "cuda"])
@pytest.mark.parametrize("n", [6, 5003])
def test_torch_1d_output_discontiguous(n, device):
    """PyTorch's test_sort_1d_output_discontiguous: values of another shape (resized, as torch's
    out= resizes: contiguous then) and indices of the right shape with stride 3 (written through)."""
    need_torch(device)
    tensor = torch.randn(2 * n, device=device)[:n]
    values = torch.empty_like(tensor)[::2]
    indices_base = torch.full((3 * n,), SENTINEL, device=device, dtype=torch.long)
    indices = indices_base[::3]
    result = gpusort.sort(tensor, return_indices=True, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert indices.stride() == (3,) and tuple(values.shape) == (n,)
    reference = torch.sort(tensor, stable=True)
    assert torch.equal(indices, reference.indices) and torch.equal(values, reference.values)
    assert bool((indices_base.reshape(n, 3)[:, 1:] == SENTINEL).all())
    order = torch.full((2 * n,), SENTINEL, device=device, dtype=torch.long)[1::2]
    assert gpusort.argsort(tensor, descending=True, out=order) is order
    assert torch.equal(order, torch.sort(tensor, descending=True, stable=True).indices)
    strided_values = torch.zeros((n, 2), device=device)[:, 1]
    assert gpusort.sort(tensor, out=strided_values) is strided_values
    assert torch.equal(strided_values, reference.values)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_torch_in_place_on_a_strided_tensor(device):
    """torch.sort(y, out=(y, i)) with y a strided view: y sorted through the view."""
    need_torch(device)
    base = torch.randint(0, 50, (2049, 2), device=device).float()
    y = base[:, 0]
    keys = y.clone()
    other = base[:, 1].clone()
    indices = torch.empty(2049, dtype=torch.long, device=device)
    result = gpusort.sort(y, return_indices=True, out=(y, indices))
    reference = torch.sort(keys, stable=True)
    assert result.values is y and torch.equal(y, reference.values) and torch.equal(indices, reference.indices)
    assert torch.equal(base[:, 1], other)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
@pytest.mark.parametrize("dim", [0, 1])
def test_torch_transposed_out_along_an_axis(dim, device):
    need_torch(device)
    t = torch.randint(0, 20, (4, 2049), device=device).float()
    values = torch.empty((2049, 4), device=device).t()
    indices = torch.empty((2049, 4), device=device, dtype=torch.long).t()
    result = gpusort.sort(t, axis=dim, descending=True, return_indices=True, out=(values, indices))
    reference = torch.sort(t, dim=dim, descending=True, stable=True)
    assert result.values is values and result.indices is indices
    assert torch.equal(values, reference.values) and torch.equal(indices, reference.indices)
    assert values.stride() == (1, 4)  # written through the view, not restrided


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_torch_refusals_of_strided_outputs(device):
    """An expanded tensor (stride 0), and values and indices that are views of one tensor, are
    refused before anything is written."""
    need_torch(device)
    t = torch.randn(10, device=device)
    with pytest.raises(ValueError, match="one memory location"):
        gpusort.sort(t, out=torch.zeros(1, device=device).expand(10))
    keys = torch.arange(10, 0, -1, device=device)
    shared = torch.zeros(30, dtype=torch.long, device=device)
    with pytest.raises(ValueError, match="share memory"):
        gpusort.sort(keys, return_indices=True, out=(shared[::3], shared[1::3]))
    assert not bool(shared.any())


def need_cupy():
    if cupy is None:
        pytest.skip("needs CuPy")
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:
        pytest.skip("needs a CUDA device for CuPy")


@pytest.mark.parametrize("n", [17, 50021])
def test_cupy_strided_out(n):
    need_cupy()
    x = make_keys(np.float32, n, "few-unique", seed=9)
    expected = stable_order(x)
    d = cupy.asarray(x)
    values_base = cupy.full(2 * n, SENTINEL, cupy.float32)
    values = values_base[1::2]
    indices = cupy.full(3 * n, SENTINEL, cupy.int64)[::-3]
    result = gpusort.sort(d, return_indices=True, out=(values, indices))
    assert result.values is values and result.indices is indices
    np.testing.assert_array_equal(cupy.asnumpy(indices), expected)
    np.testing.assert_array_equal(bits(cupy.asnumpy(values)), bits(x[expected]))
    assert bool((values_base[0::2] == SENTINEL).all())
    order = cupy.zeros(2 * n, cupy.int64)[::2]
    assert gpusort.argsort(d, out=order) is order
    np.testing.assert_array_equal(cupy.asnumpy(order), expected)
    y = cupy.asarray(np.repeat(x, 2))[::2]
    assert gpusort.sort(y, out=y) is y
    np.testing.assert_array_equal(bits(cupy.asnumpy(y)), bits(x[expected]))
    shared = cupy.zeros(2 * n, cupy.int64)
    with pytest.raises(ValueError, match="share memory"):
        gpusort.sort(cupy.asarray(x.astype(np.int64)), return_indices=True, out=(shared[::2], shared[1::2]))
    assert not bool(shared.any())
    rows = cupy.asarray(x[: (n // 17) * 17].reshape(17, -1))
    out = cupy.empty(rows.shape[::-1], cupy.float32).T
    assert gpusort.sort(rows, axis=0, out=out) is out
    np.testing.assert_array_equal(cupy.asnumpy(out), np.sort(cupy.asnumpy(rows), axis=0, kind="stable"))
