"""gpusort.partition and argpartition against numpy.partition's contract along the axis: the result a
permutation of each row, the element of rank kth (numpy's sort of the row, NaN last) at index kth, no
greater element before it, no smaller after it; argpartition's indices a permutation that gives the
same through take_along_axis. Shapes and axes (None among them), kth at both ends, in the middle and
negative, several kth, ties, NaN and signed zeros, the key dtypes, empty arrays, and the errors.
PyTorch tensors where PyTorch is installed (CUDA ones where a GPU is)."""
import numpy as np
import pytest

import gpusort
from sort_reference import KEY_DTYPES, float_specials, make_keys


def not_greater(a, b):
    """a <= b elementwise in gpusort's order (NaN greatest)."""
    if a.dtype.kind == "f":
        return (a <= b) | np.isnan(b)
    return a <= b


def check_contract(x, result, kth, axis):
    """result is a partition of x along axis around every rank in kth, as numpy.partition's."""
    assert result.shape == x.shape and result.dtype == x.dtype
    moved, got = np.moveaxis(x, axis, -1), np.moveaxis(result, axis, -1)
    length = moved.shape[-1]
    np.testing.assert_array_equal(np.sort(got, axis=-1), np.sort(moved, axis=-1))  # the same multiset
    for k in np.atleast_1d(kth):
        k = int(k) % length
        pivot = np.sort(moved, axis=-1)[..., k:k + 1]
        np.testing.assert_array_equal(got[..., k:k + 1], pivot)
        np.testing.assert_array_equal(np.partition(moved, k, axis=-1)[..., k], got[..., k])
        assert not_greater(got[..., :k], pivot).all(), "a greater element before kth"
        assert not_greater(pivot, got[..., k + 1:]).all(), "a smaller element after kth"


def check(x, kth, axis=-1):
    result = gpusort.partition(x, kth, axis=axis)
    indices = gpusort.argpartition(x, kth, axis=axis)
    if axis is None:
        x, axis = x.reshape(-1), 0
    check_contract(x, result, kth, axis)
    assert indices.dtype == np.int64 and indices.shape == x.shape
    moved = np.moveaxis(indices, axis, -1)
    np.testing.assert_array_equal(np.sort(moved, axis=-1), np.broadcast_to(np.arange(moved.shape[-1]), moved.shape))
    check_contract(x, np.take_along_axis(x, indices, axis=axis), kth, axis)
    # one layout on every call: the keys partition's result holds are those the indices name
    np.testing.assert_array_equal(result, np.take_along_axis(x, indices, axis=axis))


def kths_for(length):
    return sorted({k for k in (0, 1, length // 2, length - 1, -1, -length) if -length <= k < length})


@pytest.mark.parametrize("distribution", ["random", "few-unique", "all-equal"])
def test_rows_and_kth(distribution):
    for length in (1, 31, 33, 1000, 4097):
        x = make_keys(np.float32, 3 * length, distribution, seed=length).reshape(3, length)
        for kth in kths_for(length):
            check(x, kth)


def test_one_long_row():
    x = make_keys(np.uint32, 100000, "few-unique")
    for kth in (0, 50000, 99999):
        check(x, kth)


def test_axes_and_none():
    x = make_keys(np.int64, 4 * 5 * 6, "few-unique").reshape(4, 5, 6)
    for axis in (0, 1, 2, -1, -3):
        check(x, 2, axis=axis)
        check(x, -1, axis=axis)
    check(x, 57, axis=None)


def test_ties_keep_the_row_order():
    x = np.full((2, 50), 7, dtype=np.uint16)
    np.testing.assert_array_equal(gpusort.argpartition(x, 10), np.tile(np.arange(50), (2, 1)))
    check(x, 10)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_and_signed_zeros(dtype):
    x = np.tile(float_specials(dtype), 3)
    for kth in kths_for(len(x)):
        check(x, kth)
    assert np.isnan(gpusort.partition(x, -1)[-1])  # NaN is the greatest


@pytest.mark.parametrize("dtype", KEY_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_key_dtype(dtype):
    x = make_keys(dtype, 2 * 300, "few-unique", seed=3).reshape(2, 300)
    check(x, 17)
    check(x, -100)


def test_several_kth_sort_the_rows():
    x = make_keys(np.float64, 4 * 100, "random").reshape(4, 100)
    check(x, [3, 50, -1])
    np.testing.assert_array_equal(gpusort.partition(x, (1, 2)), np.sort(x, axis=-1))
    np.testing.assert_array_equal(gpusort.argpartition(x, [0, 99]), np.argsort(x, axis=-1, kind="stable"))


def test_empty_arrays_take_any_kth():
    for shape in ((3, 0), (0, 5), (0,)):
        x = np.empty(shape, dtype=np.float32)
        assert gpusort.partition(x, 7).shape == shape
        assert gpusort.argpartition(x, -9).shape == shape


def test_errors():
    x = np.arange(10, dtype=np.float32)
    for kth in (10, -11, [2, 10], True):
        with pytest.raises(ValueError):
            gpusort.partition(x, kth)
    for kth in (1.0, []):
        with pytest.raises(TypeError):
            gpusort.argpartition(x, kth)
    with pytest.raises((ValueError, IndexError)):
        gpusort.partition(x, 1, axis=1)
    with pytest.raises((ValueError, IndexError)):
        gpusort.partition(np.float32(3), 0)


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(make_keys(np.float32, 4 * 1000, "random").reshape(4, 1000))
    result, indices = gpusort.partition(x, 10), gpusort.argpartition(x, 10)
    assert isinstance(result, torch.Tensor) and indices.dtype == torch.int64
    check_contract(x.numpy(), result.numpy(), 10, -1)
    assert torch.equal(torch.gather(x, 1, indices), result)


def test_cuda_arrays_where_they_live():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device for PyTorch")
    x = torch.randn(64, 128256, device="cuda")
    for kth in (50, 64127, -1):
        result, indices = gpusort.partition(x, kth), gpusort.argpartition(x, kth)
        assert result.is_cuda and indices.is_cuda and indices.dtype == torch.int64
        check_contract(x.cpu().numpy(), result.cpu().numpy(), kth, -1)
        assert torch.equal(torch.gather(x, 1, indices), result)
    down = gpusort.partition(x[:, :1000], 7, axis=0)
    check_contract(x[:, :1000].cpu().numpy(), down.cpu().numpy(), 7, 0)
    one = torch.randn(1 << 24, device="cuda")
    check_contract(one.cpu().numpy(), gpusort.partition(one, 1 << 23).cpu().numpy(), 1 << 23, 0)
