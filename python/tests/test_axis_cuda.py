"""axis= on PyTorch and CuPy arrays: every axis sorted where the array lives (the segmented sort on
the device, transposed copies by the array's own library), against numpy's stable sort of each row
and the library's own sort, with the library's error rules. CUDA tests skip without a GPU; the
PyTorch CPU tests need PyTorch only."""
import numpy as np
import pytest

import gpusort
from sort_reference import stable_order

try:
    import torch
except ImportError:
    torch = None
try:
    import cupy
except ImportError:
    cupy = None

try:
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover
    AxisError = np.AxisError

SHAPES = [(3, 31, 33), (5, 1023), (2049, 3), (4, 0, 2), (7, 1)]
CASES = [(shape, axis) for shape in SHAPES for axis in range(-len(shape), len(shape))]


def need_torch_cuda():
    if torch is None or not torch.cuda.is_available():
        pytest.skip("needs PyTorch with a CUDA device")


def need_cupy():
    if cupy is None:
        pytest.skip("needs CuPy")
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:
        pytest.skip("needs a CUDA device for CuPy")


def row_order(x, axis, descending=False):
    if x.size == 0:
        return np.zeros(x.shape, np.int64)
    return np.apply_along_axis(lambda row: stable_order(row, descending), axis, x).astype(np.int64)


def host_keys(shape, dtype, seed=1):
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    if np.dtype(dtype).kind == "f":
        x = np.round(rng.standard_normal(size) * 4).astype(dtype)  # repeats: stability shows
        x[rng.integers(0, size, size // 50 + 1) if size else []] = np.nan
        x[rng.integers(0, size, size // 50 + 1) if size else []] = -0.0
    elif np.dtype(dtype).kind == "b":
        x = rng.integers(0, 2, size).astype(dtype)
    else:
        x = rng.integers(0, 9, size).astype(dtype)
    return x.reshape(shape)


# --- PyTorch ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("shape,axis", CASES)
def test_torch_every_axis(shape, axis, descending):
    need_torch_cuda()
    x = host_keys(shape, np.float32)
    t = torch.from_numpy(x).cuda()
    before = t.clone()
    values, indices = gpusort.sort(t, axis=axis, descending=descending, return_indices=True)
    order = gpusort.argsort(t, axis=axis, descending=descending)
    expected = row_order(x, axis, descending)
    for result in (values, indices, order):
        assert result.is_cuda and result.device == t.device and tuple(result.shape) == shape
    assert indices.dtype == torch.int64 and order.dtype == torch.int64
    np.testing.assert_array_equal(indices.cpu().numpy(), expected)
    np.testing.assert_array_equal(order.cpu().numpy(), expected)
    np.testing.assert_array_equal(values.cpu().numpy(), np.take_along_axis(x, expected, axis))
    np.testing.assert_array_equal(t.cpu().numpy(), before.cpu().numpy())  # t unchanged


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64", "int64", "int8", "uint8", "bool"])
def test_torch_key_types(dtype):
    need_torch_cuda()
    x = host_keys((33, 31), np.float32 if dtype == "bfloat16" else dtype)
    t = torch.from_numpy(x).cuda().to(getattr(torch, dtype))
    reference_keys = t.float().cpu().numpy() if dtype == "bfloat16" else x
    for axis in (0, 1):
        for descending in (False, True):
            indices = gpusort.argsort(t, axis=axis, descending=descending)
            np.testing.assert_array_equal(indices.cpu().numpy(), row_order(reference_keys, axis, descending))
            values = gpusort.sort(t, axis=axis, descending=descending)
            assert values.dtype == t.dtype and values.is_cuda
            np.testing.assert_array_equal(values.float().cpu().numpy() if dtype == "bfloat16" else values.cpu().numpy(),
                                          np.take_along_axis(reference_keys, indices.cpu().numpy(), axis))


def test_torch_results_keep_the_inputs_strides():
    """As torch.sort: results laid out as torch.empty_like(t) (a permuted input's strides kept)."""
    need_torch_cuda()
    base = torch.randn(5, 7, 2049, device="cuda")
    for perm in [(0, 1, 2), (2, 0, 1), (1, 2, 0)]:
        t = base.permute(perm)
        for dim in range(3):
            values, indices = gpusort.sort(t, axis=dim, return_indices=True)
            reference = torch.sort(t, dim=dim, stable=True)
            assert torch.equal(values, reference.values) and torch.equal(indices, reference.indices)
            assert values.stride() == t.stride() and indices.stride() == t.stride()


def test_torch_out_and_in_place():
    need_torch_cuda()
    t = torch.randint(0, 50, (4, 2049), device="cuda").float()
    reference = torch.sort(t, dim=0, descending=True, stable=True)
    values, indices = torch.tensor((), device="cuda"), torch.tensor((), device="cuda", dtype=torch.long)
    result = gpusort.sort(t, axis=0, descending=True, return_indices=True, out=(values, indices))
    assert result.values is values and result.indices is indices  # resized, as torch's out= is
    assert torch.equal(values, reference.values) and torch.equal(indices, reference.indices)
    y = t.clone()
    y_indices = torch.tensor((), dtype=torch.int64, device="cuda")
    gpusort.sort(y, axis=0, descending=True, return_indices=True, out=(y, y_indices))
    assert torch.equal(y, reference.values) and torch.equal(y_indices, reference.indices)
    for dim in (0, 1):
        y = t.clone()
        pointer = y.data_ptr()
        assert gpusort.sort_(y, axis=dim) is y and y.data_ptr() == pointer
        assert torch.equal(y, torch.sort(t, dim=dim, stable=True).values)
        keys, payload = t.clone(), torch.arange(t.numel(), device="cuda").reshape(t.shape)
        gpusort.sort_pairs_(keys, payload, axis=dim)
        order = torch.sort(t, dim=dim, stable=True).indices
        assert torch.equal(payload, torch.take_along_dim(torch.arange(t.numel(), device="cuda").reshape(t.shape),
                                                         order, dim))
        k, v = gpusort.sort_pairs(t, payload.double(), axis=dim)
        assert torch.equal(k, torch.sort(t, dim=dim, stable=True).values) and v.dtype == torch.float64


def test_torch_dim_rules():
    """An axis out of range is torch's IndexError; a 0-d tensor takes axis 0 and -1 (0-d results);
    axis=None flattens (numpy's rule)."""
    need_torch_cuda()
    t = torch.randn(3, 4, device="cuda")
    for axis in (2, -3):
        with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\]"):
            gpusort.sort(t, axis=axis)
        with pytest.raises(IndexError):
            torch.sort(t, dim=axis)
    scalar = torch.tensor(2.5, device="cuda")
    for axis in (0, -1):
        values, indices = gpusort.sort(scalar, axis=axis, return_indices=True)
        assert values.shape == () and indices.shape == () and indices.item() == 0
    with pytest.raises(IndexError):
        gpusort.argsort(scalar, axis=1)
    assert torch.equal(gpusort.sort(t, axis=None), torch.sort(t.reshape(-1)).values)


def test_torch_on_another_stream():
    """The copies and the sort are ordered on the caller's current stream."""
    need_torch_cuda()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        t = torch.randn(2049, 5, device="cuda")
        values, indices = gpusort.sort(t, axis=0, return_indices=True)
        reference = torch.sort(t, dim=0, stable=True)
    stream.synchronize()
    assert torch.equal(values, reference.values) and torch.equal(indices, reference.indices)


def test_torch_cpu_tensors_along_an_axis():
    """Host tensors are sorted through numpy views and come back as tensors."""
    if torch is None:
        pytest.skip("needs PyTorch")
    t = torch.randint(0, 9, (33, 2049), dtype=torch.int32)
    for dim in (0, 1):
        values, indices = gpusort.sort(t, axis=dim, return_indices=True)
        reference = torch.sort(t, dim=dim, stable=True)
        assert isinstance(values, torch.Tensor) and torch.equal(values, reference.values)
        assert torch.equal(indices, reference.indices)
        y = t.clone()
        gpusort.sort_(y, axis=dim)
        assert torch.equal(y, reference.values)
    with pytest.raises(IndexError):
        gpusort.sort(t, axis=2)


# --- CuPy ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("shape,axis", CASES)
def test_cupy_every_axis(shape, axis, descending):
    need_cupy()
    x = host_keys(shape, np.float32, seed=2)
    d = cupy.asarray(x)
    values, indices = gpusort.sort(d, axis=axis, descending=descending, return_indices=True)
    order = gpusort.argsort(d, axis=axis, descending=descending)
    expected = row_order(x, axis, descending)
    for result in (values, indices, order):
        assert isinstance(result, cupy.ndarray) and result.shape == shape and result.device.id == d.device.id
    np.testing.assert_array_equal(cupy.asnumpy(indices), expected)
    np.testing.assert_array_equal(cupy.asnumpy(order), expected)
    np.testing.assert_array_equal(cupy.asnumpy(values), np.take_along_axis(x, expected, axis))
    if not descending:
        np.testing.assert_array_equal(cupy.asnumpy(values), cupy.asnumpy(cupy.sort(d, axis=axis)))
    np.testing.assert_array_equal(cupy.asnumpy(d), x)


def test_cupy_in_place_out_and_pairs():
    need_cupy()
    x = host_keys((33, 1023, 2), np.int32, seed=3)
    for axis in (0, 1, 2):
        expected = row_order(x, axis)
        d = cupy.asarray(x)
        gpusort.sort_(d, axis=axis)
        np.testing.assert_array_equal(cupy.asnumpy(d), np.take_along_axis(x, expected, axis))
        out = cupy.empty(x.shape, cupy.int64)
        assert gpusort.argsort(cupy.asarray(x), axis=axis, out=out) is out
        np.testing.assert_array_equal(cupy.asnumpy(out), expected)
        payload = np.arange(x.size, dtype=np.float32).reshape(x.shape)
        k, v = gpusort.sort_pairs(cupy.asarray(x), cupy.asarray(payload), axis=axis)
        np.testing.assert_array_equal(cupy.asnumpy(v), np.take_along_axis(payload, expected, axis))
    transposed = cupy.asarray(x).transpose(2, 0, 1)
    np.testing.assert_array_equal(cupy.asnumpy(gpusort.sort(transposed, axis=1)),
                                  np.sort(x.transpose(2, 0, 1), axis=1, kind="stable"))


def test_cupy_axis_rules():
    """numpy's AxisError (cupy.sort's), 0-d arrays by numpy's rules, axis=None flattening."""
    need_cupy()
    d = cupy.arange(12).reshape(3, 4)
    for axis in (2, -3):
        with pytest.raises(AxisError):
            gpusort.sort(d, axis=axis)
        with pytest.raises(AxisError):
            cupy.sort(d, axis=axis)
    scalar = cupy.array(3)
    with pytest.raises(AxisError):
        gpusort.sort(scalar, axis=0)
    assert gpusort.argsort(scalar, axis=0).shape == (1,)
    np.testing.assert_array_equal(cupy.asnumpy(gpusort.sort(d[:, ::-1], axis=None)), np.arange(12))
