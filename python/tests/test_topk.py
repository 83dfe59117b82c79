"""gpusort.topk against numpy's stable sort of each row along the axis, its first k (sort_reference):
shapes and axes, k from 0 to the axis's length, both orders, sorted and unsorted (compared as sets of
indices: the tie rule makes the set unique), ties (lowest indices), NaN and signed zeros, the key
dtypes, and the errors. PyTorch CPU tensors where PyTorch is installed."""
import numpy as np
import pytest

import gpusort
from sort_reference import KEY_DTYPES, bits, float_specials, make_keys, stable_order


def reference(x, k, axis, largest):
    """The first k of the stable order of each row along axis: (values, indices) as topk returns them."""
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1]) if moved.shape[-1] else moved.reshape(-1, 0)
    idx = np.array([stable_order(row, largest)[:k] for row in flat], dtype=np.int64).reshape(flat.shape[0], k)
    vals = np.take_along_axis(flat, idx, axis=1)
    shape = moved.shape[:-1] + (k,)
    return np.moveaxis(vals.reshape(shape), -1, axis), np.moveaxis(idx.reshape(shape), -1, axis)


def check(x, k, axis=-1, largest=True, sorted=True):
    values, indices = gpusort.topk(x, k, axis=axis, largest=largest, sorted=sorted)
    ref_values, ref_indices = reference(x, k, axis, largest)
    assert values.shape == ref_values.shape and indices.shape == ref_indices.shape
    assert values.dtype == x.dtype and indices.dtype == np.int64
    if sorted:
        np.testing.assert_array_equal(indices, ref_indices)
    else:
        np.testing.assert_array_equal(np.sort(indices, axis=axis), np.sort(ref_indices, axis=axis))
    # every value is the key at its index, bit for bit
    np.testing.assert_array_equal(bits(values), bits(np.take_along_axis(x, indices, axis=axis)))


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("sorted", [True, False])
def test_rows_and_k(largest, sorted):
    for length in (1, 31, 32, 33, 1000, 4097):
        x = make_keys(np.float32, 3 * length, "few-unique" if length % 2 else "random", seed=length).reshape(3, length)
        for k in sorted_ks(length):
            check(x, k, largest=largest, sorted=sorted)


def sorted_ks(length):
    return sorted({k for k in (0, 1, 2, 32, 256, length) if k <= length})


def test_axes_and_one_dimension():
    x = make_keys(np.int64, 4 * 5 * 6, "few-unique").reshape(4, 5, 6)
    for axis in (0, 1, 2, -1, -3):
        check(x, 3, axis=axis)
        check(x, 2, axis=axis, largest=False, sorted=False)
    one = make_keys(np.uint32, 70000, "random")
    check(one, 100)
    check(one, 70000, largest=False)


def test_long_one_dimension():
    """1-D arrays long enough for a sample's threshold before the rounds (from 65536 keys on the CPU,
    2^24 on GPUs), with NaN, ties and sorted runs among the keys."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(200003).astype(np.float32)
    x[rng.integers(0, x.size, 300)] = np.nan
    x[:5000] = np.sort(x[:5000])
    for k in (1, 50, 1000):
        check(x, k)
        check(x, k, largest=False, sorted=False)
    ties = make_keys(np.int16, 131072, "few-unique", seed=9)
    check(ties, 600)
    check(ties, 7, largest=False)


def test_ties_take_the_lowest_indices():
    x = np.full((2, 50), 7, dtype=np.uint16)
    values, indices = gpusort.topk(x, 10, sorted=False)
    np.testing.assert_array_equal(indices, np.tile(np.arange(10), (2, 1)))
    check(x, 10, largest=False)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_and_signed_zeros(dtype):
    x = np.tile(float_specials(dtype), 3)
    for k in (1, 5, len(x) // 2, len(x)):
        check(x, k)
        check(x, k, largest=False, sorted=False)
    values, _ = gpusort.topk(x, 1)
    assert np.isnan(values[0])  # NaN is the greatest


@pytest.mark.parametrize("dtype", KEY_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_key_dtype(dtype):
    x = make_keys(dtype, 2 * 300, "few-unique", seed=3).reshape(2, 300)
    check(x, 17)
    check(x, 17, largest=False, sorted=False)


def test_errors():
    x = np.arange(10, dtype=np.float32)
    with pytest.raises(ValueError):
        gpusort.topk(x, 11)
    with pytest.raises(ValueError):
        gpusort.topk(x, -1)
    with pytest.raises((ValueError, IndexError)):
        gpusort.topk(x, 1, axis=1)


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(make_keys(np.float32, 4 * 1000, "random").reshape(4, 1000))
    values, indices = gpusort.topk(x, 50)
    ref_values, ref_indices = torch.topk(x, 50)  # distinct random floats: one answer
    assert isinstance(values, torch.Tensor) and indices.dtype == torch.int64
    assert torch.equal(values, ref_values) and torch.equal(indices, ref_indices)


def test_cuda_arrays_where_they_live():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device for PyTorch")
    x = torch.randn(64, 128256, device="cuda")
    for k in (50, 1024):
        values, indices = gpusort.topk(x, k)
        ref_values, ref_indices = torch.topk(x, k)  # distinct random floats: one answer
        assert values.is_cuda and indices.dtype == torch.int64
        assert torch.equal(values, ref_values) and torch.equal(indices, ref_indices)
    low, low_idx = gpusort.topk(x, 7, axis=0, largest=False, sorted=False)
    ref, ref_idx = torch.topk(x, 7, dim=0, largest=False)
    assert torch.equal(torch.sort(low_idx, dim=0).values, torch.sort(ref_idx, dim=0).values)
    assert torch.equal(torch.gather(x, 0, low_idx), low)
