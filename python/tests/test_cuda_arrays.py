"""PyTorch and CuPy CUDA arrays: sorted where they live (no copy to the host), on the producer's
current stream, for every dtype, with numpy's float rules. Skipped without a CUDA device."""
import numpy as np
import pytest

import gpusort
from gpusort import _arrays as gpusort_arrays
from sort_reference import stable_order as reference_order

try:
    import torch
except ImportError:
    torch = None
try:
    import cupy
except ImportError:
    cupy = None

TORCH_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float32", "float64", "uint16", "uint32", "uint64",
                "float16", "bool", "complex64", "complex128"]
NUMPY_DTYPES = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float32", "float64",
                "float16", "bool", "complex64", "complex128"]


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


def host_keys(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "c":  # parts of few values (ties in the real part), NaN and zeros in either
        part = np.dtype(dtype).char.lower()
        x = np.empty(n, dtype=dtype)
        x.real = np.round(host_keys(part, n, seed))
        x.imag = host_keys(part, n, seed + 1)
        return x
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(n).astype(dtype)
        specials = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf], dtype=dtype)
        x[rng.integers(0, n, 64)] = rng.choice(specials, 64)
        return x
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_cupy_every_dtype(dtype, descending):
    need_cupy()
    x = host_keys(dtype, 30011, 7)
    d = cupy.asarray(x)
    result = gpusort.sort(d, descending=descending)
    assert isinstance(result, cupy.ndarray) and result.device.id == d.device.id
    expected = x[reference_order(x, descending)]
    np.testing.assert_array_equal(cupy.asnumpy(result).view(np.uint8), expected.view(np.uint8))
    idx = gpusort.argsort(d, descending=descending)
    assert idx.dtype == cupy.int64
    np.testing.assert_array_equal(cupy.asnumpy(idx), reference_order(x, descending))


@pytest.mark.parametrize("narrow", [True, False])  # int32 indices widened afterwards, or int64 throughout
@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_device_argsort_both_index_widths(library, narrow, monkeypatch):
    if library == "cupy":
        need_cupy()
    else:
        need_torch_cuda()
    tuning = {"narrow_indices_from": {4: 1} if narrow else {}, "narrow_indices_max": 2**31,
              "lend_temporaries_from": 64 << 20}
    monkeypatch.setattr(gpusort_arrays, "device_tuning", lambda info: tuning)
    x = host_keys("float32", 50021, 11)
    x[::7] = x[3]  # runs of equal keys: indices ascending within each
    d = cupy.asarray(x) if library == "cupy" else torch.from_numpy(x).cuda()
    for descending in (False, True):
        idx = gpusort.argsort(d, descending=descending)
        host = cupy.asnumpy(idx) if library == "cupy" else idx.cpu().numpy()
        assert host.dtype == np.int64
        np.testing.assert_array_equal(host, reference_order(x, descending))


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_device_sorts_with_lent_temporaries(library, monkeypatch):
    """Every sort of device arrays with its temporaries from the caller's library (as large sorts
    take them), checked against the reference; too small a loan is refused before anything moves."""
    if library == "cupy":
        need_cupy()
    else:
        need_torch_cuda()
    lent = []
    real = gpusort_arrays.lent_temporaries

    def spy(*args, **kwargs):
        t = real(*args, **kwargs)
        lent.append(t)
        return t

    tuning = {"narrow_indices_from": {}, "narrow_indices_max": 0, "lend_temporaries_from": 1}
    monkeypatch.setattr(gpusort_arrays, "device_tuning", lambda info: tuning)
    monkeypatch.setattr(gpusort_arrays, "lent_temporaries", spy)
    x = host_keys("uint32", 40009, 5)
    values = np.arange(x.size, dtype=np.int64)[::-1].copy()
    order = reference_order(x, False)

    def dev(a):
        return cupy.asarray(a) if library == "cupy" else torch.from_numpy(a).cuda()

    def host(a):
        return cupy.asnumpy(a) if library == "cupy" else a.cpu().numpy()

    np.testing.assert_array_equal(host(gpusort.sort(dev(x))), x[order])
    np.testing.assert_array_equal(host(gpusort.argsort(dev(x))), order)
    k, v = gpusort.sort_pairs(dev(x), dev(values))
    np.testing.assert_array_equal(host(k), x[order])
    np.testing.assert_array_equal(host(v), values[order])
    d = dev(x)
    gpusort.sort_(d)
    np.testing.assert_array_equal(host(d), x[order])
    dk, dv = dev(x), dev(values)
    gpusort.sort_pairs_(dk, dv)
    np.testing.assert_array_equal(host(dv), values[order])
    assert len(lent) == 5 and all(t is not None and t.nbytes > 0 for t in lent)
    d = dev(x)
    need = gpusort._gpusort.temporary_bytes(d)
    small = cupy.empty(need - 1, dtype=cupy.uint8) if library == "cupy" else torch.empty(need - 1, dtype=torch.uint8, device="cuda")
    with pytest.raises(ValueError):
        gpusort._gpusort.sort_inplace(d, temporary=small)
    np.testing.assert_array_equal(host(d), x)


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_device_out_of_place_sorts_leave_the_input_alone(library, monkeypatch):
    """sort, argsort and sort_pairs of PyTorch and CuPy arrays sort into new arrays (the radix reads
    the input where it lies): every input stays as it was, on a stream of the caller's own, and the
    results match the reference, for keys whose constant digits leave fewer passes than planned."""
    if library == "cupy":
        need_cupy()
    else:
        need_torch_cuda()
    into = []

    def spying_on(name):
        real = getattr(gpusort._gpusort, name)

        def spy(*args, **kwargs):
            into.append((name, kwargs.get("wait")))
            return real(*args, **kwargs)

        monkeypatch.setattr(gpusort._gpusort, name, spy)

    spying_on("sort_into")
    spying_on("argsort_into")
    n = (1 << 22) + 5  # the onesweep path that plans its passes before reading the histogram
    for mask in (0xFFFFFFFF, 0x00FF00FF, 0xFF):
        x = host_keys("uint32", n, mask) & np.uint32(mask)
        values = host_keys("int64", n, 3)
        order = reference_order(x, False)
        if library == "cupy":
            stream = cupy.cuda.Stream(non_blocking=True)
            with stream:
                dx, dv = cupy.asarray(x), cupy.asarray(values)
                k = gpusort.sort(dx)
                i = gpusort.argsort(dx)
                pk, pv = gpusort.sort_pairs(dx, dv)
                got = [cupy.asnumpy(a, stream=stream) for a in (k, i, pk, pv, dx, dv)]
            stream.synchronize()
        else:
            stream = torch.cuda.Stream()
            with torch.cuda.stream(stream):
                dx, dv = torch.from_numpy(x).cuda(), torch.from_numpy(values).cuda()
                k = gpusort.sort(dx)
                i = gpusort.argsort(dx)
                pk, pv = gpusort.sort_pairs(dx, dv)
                got = [a.cpu().numpy() for a in (k, i, pk, pv, dx, dv)]
        np.testing.assert_array_equal(got[0], x[order])
        np.testing.assert_array_equal(got[1], order)
        np.testing.assert_array_equal(got[2], x[order])
        np.testing.assert_array_equal(got[3], values[order])
        np.testing.assert_array_equal(got[4], x)
        np.testing.assert_array_equal(got[5], values)
    # every call sorted into new arrays and returned once enqueued
    assert into == [("sort_into", False), ("argsort_into", False), ("sort_into", False)] * 3


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_argsort_into_makes_the_positions(library):
    """argsort_into fills indices the caller did not initialise (poisoned here) with the sorting
    permutation, for the one-launch sorts and the passes, both index widths, keys apart or in place;
    wrong indices are refused before anything is written."""
    if library == "cupy":
        need_cupy()
        dev, host, full = cupy.asarray, cupy.asnumpy, lambda n, dt: cupy.full(n, -7, dtype=dt)
        dtypes = (cupy.int32, cupy.int64)
    else:
        need_torch_cuda()
        dev, host = (lambda a: torch.from_numpy(a).cuda()), (lambda a: a.cpu().numpy())
        full = lambda n, dt: torch.full((n,), -7, dtype=dt, device="cuda")
        dtypes = (torch.int32, torch.int64)
    for n in (1, 1000, 300007):
        x = host_keys("uint32", n, 9) & np.uint32(0xFFF)  # runs of equal keys
        order = reference_order(x, False)
        for dtype in dtypes:
            d = dev(x)
            keys_out, idx = dev(np.zeros_like(x)), full(n, dtype)
            gpusort._gpusort.argsort_into(d, keys_out, idx)
            np.testing.assert_array_equal(host(idx), order)
            np.testing.assert_array_equal(host(keys_out), x[order])
            np.testing.assert_array_equal(host(d), x)
            idx = full(n, dtype)
            gpusort._gpusort.argsort_into(d, d, idx)  # keys sorted in place
            np.testing.assert_array_equal(host(idx), order)
            np.testing.assert_array_equal(host(d), x[order])
    d = dev(x)
    for bad in (full(n - 1, dtypes[1]), dev(np.zeros(n, dtype=np.int16)), dev(np.zeros(n, dtype=np.float32)),
                np.zeros(n, dtype=np.int64)):
        with pytest.raises(ValueError):
            gpusort._gpusort.argsort_into(d, dev(np.zeros_like(x)), bad)
    np.testing.assert_array_equal(host(d), x)


def test_cupy_in_place_is_zero_copy_and_stream_ordered():
    need_cupy()
    n = 1 << 20
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        d = n - cupy.arange(n, dtype=cupy.uint32)  # producer kernels before the sort, on `stream`
        pointer = d.data.ptr
        gpusort.sort_(d)
        assert d.data.ptr == pointer
        d += 1  # consumer kernel after the sort, on the same stream, no synchronize between
        host = cupy.asnumpy(d, stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(host, np.arange(2, n + 2, dtype=np.uint32))


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_every_dtype(dtype):
    need_torch_cuda()
    tdtype = getattr(torch, dtype, None)
    if tdtype is None:
        pytest.skip(f"this PyTorch has no {dtype}")
    x = host_keys(dtype, 20011, 3)
    try:
        t = torch.from_numpy(x).cuda()
    except TypeError:
        pytest.skip(f"this PyTorch cannot take {dtype} from numpy")
    result = gpusort.sort(t)
    assert isinstance(result, torch.Tensor) and result.is_cuda
    expected = x[reference_order(x, False)]
    np.testing.assert_array_equal(result.cpu().numpy().view(np.uint8), expected.view(np.uint8))
    idx = gpusort.argsort(t, descending=True)
    assert idx.dtype == torch.int64 and idx.is_cuda
    np.testing.assert_array_equal(idx.cpu().numpy(), reference_order(x, True))


def test_torch_in_place_is_zero_copy_and_stream_ordered():
    need_torch_cuda()
    n = 1 << 20
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        t = torch.arange(n, 0, -1, dtype=torch.int32, device="cuda")  # producer kernel on `stream`
        pointer = t.data_ptr()
        gpusort.sort_(t)
        assert t.data_ptr() == pointer
        t.add_(1)  # consumer kernel after the sort, same stream, no synchronize between
        host = t.to("cpu", non_blocking=False)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(host.numpy(), np.arange(2, n + 2, dtype=np.int32))


def test_torch_pairs_on_device():
    need_torch_cuda()
    keys = torch.tensor([3, 1, 2, 1], dtype=torch.float32, device="cuda")
    values = torch.tensor([30, 10, 20, 11], dtype=torch.int64, device="cuda")
    k, v = gpusort.sort_pairs(keys, values)
    assert k.is_cuda and v.is_cuda
    assert k.tolist() == [1, 1, 2, 3] and v.tolist() == [10, 11, 20, 30]


def device_library(library):
    """(to device, to host, empty int64 indices of n, the library's int64) for PyTorch or CuPy, or skip."""
    if library == "cupy":
        need_cupy()
        return cupy.asarray, cupy.asnumpy, (lambda n: cupy.full(n, -7, dtype=cupy.int64)), cupy.int64
    need_torch_cuda()
    return ((lambda a: torch.from_numpy(np.ascontiguousarray(a)).cuda()), (lambda a: a.cpu().numpy()),
            (lambda n: torch.full((n,), -7, dtype=torch.int64, device="cuda")), torch.int64)


@pytest.mark.parametrize("narrow", [True, False])
@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_device_values_and_indices_and_out(library, narrow, monkeypatch):
    """sort(return_indices=True) on CUDA arrays: values and int64 indices of the input's library on
    its device, from one sort (argsort_into writes the keys beside the indices), with out= too
    (out=(v, i) returned as the same objects), both index widths; wrong outputs are refused."""
    dev, host, indices_of, int64 = device_library(library)
    tuning = {"narrow_indices_from": {4: 1} if narrow else {}, "narrow_indices_max": 2**31,
              "lend_temporaries_from": 64 << 20}
    monkeypatch.setattr(gpusort_arrays, "device_tuning", lambda info: tuning)
    x = host_keys("float32", 50021, 13)
    x[::7] = x[3]
    d = dev(x)
    for descending in (False, True):
        order = reference_order(x, descending)
        values, indices = gpusort.sort(d, return_indices=True, descending=descending)
        assert type(values) is type(d) and type(indices) is type(d) and indices.dtype == int64
        np.testing.assert_array_equal(host(indices), order)
        np.testing.assert_array_equal(host(values).view(np.uint32), x[order].view(np.uint32))
        v, i = dev(np.zeros_like(x)), indices_of(x.size)
        result = gpusort.sort(d, return_indices=True, descending=descending, out=(v, i))
        assert result.values is v and result.indices is i
        np.testing.assert_array_equal(host(i), order)
        np.testing.assert_array_equal(host(v).view(np.uint32), x[order].view(np.uint32))
        i2 = indices_of(x.size)
        assert gpusort.argsort(d, descending=descending, out=i2) is i2
        np.testing.assert_array_equal(host(i2), order)
        v2 = dev(np.zeros_like(x))
        assert gpusort.sort(d, descending=descending, out=v2) is v2
        np.testing.assert_array_equal(host(v2).view(np.uint32), x[order].view(np.uint32))
    np.testing.assert_array_equal(host(d), x)
    if library == "torch":  # a host tensor: the right library, the wrong place
        with pytest.raises(ValueError, match="where x does"):
            gpusort.sort(d, out=torch.zeros(x.size))
    else:
        with pytest.raises(TypeError, match="cupy.ndarray"):
            gpusort.sort(d, out=np.zeros_like(x))
    with pytest.raises(TypeError, match="dtype"):
        gpusort.argsort(d, out=dev(np.zeros(x.size, np.int32)))


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_strided_device_arrays_are_gathered_on_the_device(library):
    """Non-contiguous CUDA arrays are gathered by their own library on their device, not refused;
    in place, the sorted copy goes back through the view; 0-d arrays sort as one element."""
    dev, host, _, int64 = device_library(library)
    base = host_keys("int32", 2 * 30011, 5)
    d = dev(base)
    view = d[::2]
    expected = np.sort(base[::2], kind="stable")
    result = gpusort.sort(view)
    assert type(result) is type(d)
    np.testing.assert_array_equal(host(result), expected)
    np.testing.assert_array_equal(host(gpusort.argsort(view)), np.argsort(base[::2], kind="stable"))
    assert gpusort.sort_(view) is view
    np.testing.assert_array_equal(host(d)[::2], expected)
    np.testing.assert_array_equal(host(d)[1::2], base[1::2])
    scalar = dev(np.array(3.5, np.float32)).reshape(())  # (np.ascontiguousarray makes 0-d arrays 1-D)
    if library == "torch":  # torch.sort's rule: one element, 0-d results
        values, indices = gpusort.sort(scalar, return_indices=True)
        assert tuple(values.shape) == () and tuple(indices.shape) == ()
        assert float(values) == 3.5 and int(indices) == 0
    else:  # numpy's, which CuPy follows: argsort returns one index, 1-D; sort raises AxisError
        assert host(gpusort.argsort(scalar)).tolist() == [0]
        with pytest.raises(ValueError, match="out of bounds"):
            gpusort.sort(scalar)


def torch_keys(dtype, n, seed):
    """A tensor of torch's `dtype` on the CPU (float16, bfloat16, bool: bfloat16 from float32, which
    numpy cannot hold), with the float32 (or bool) numpy array of its values for the reference."""
    x = host_keys("bool" if dtype == "bool" else "float32", n, seed)
    t = torch.from_numpy(x).to(getattr(torch, dtype))
    return t, (t.numpy() if dtype == "bool" else t.float().numpy())


def torch_bits(t):
    return t.view(torch.uint8 if t.dtype == torch.bool else torch.int16).cpu().numpy()


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "bool"])
def test_torch_half_and_bool_on_device(dtype, descending):
    need_torch_cuda()
    t, values = torch_keys(dtype, 20011, 5)
    d = t.cuda()
    result = gpusort.sort(d, descending=descending)
    assert result.dtype == d.dtype and result.is_cuda
    order = reference_order(values, descending)
    np.testing.assert_array_equal(torch_bits(result), torch_bits(t)[order])
    idx = gpusort.argsort(d, descending=descending)
    assert idx.dtype == torch.int64
    np.testing.assert_array_equal(idx.cpu().numpy(), order)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "bool"])
def test_torch_half_and_bool_on_the_cpu(dtype):
    if torch is None:
        pytest.skip("needs PyTorch")
    t, values = torch_keys(dtype, 5003, 9)
    order = reference_order(values, False)
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")  # a new CPU bfloat16 tensor is made through numpy
    result = gpusort.sort(t)
    assert isinstance(result, torch.Tensor) and result.dtype == t.dtype and not result.is_cuda
    np.testing.assert_array_equal(torch_bits(result), torch_bits(t)[order])
    np.testing.assert_array_equal(gpusort.argsort(t).numpy(), order)
    in_place = t.clone()
    gpusort.sort_(in_place)
    np.testing.assert_array_equal(torch_bits(in_place), torch_bits(t)[order])


def test_torch_out_tensors_of_another_shape_are_resized():
    """torch.sort's out= rule: empty (or otherwise shaped) out tensors are resized to the result."""
    need_torch_cuda()
    x = host_keys("float32", 3001, 17)
    d = torch.from_numpy(x).cuda()
    values = torch.tensor((), device="cuda")
    indices = torch.tensor(0, dtype=torch.int64, device="cuda")
    result = gpusort.sort(d, return_indices=True, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert tuple(values.shape) == (x.size,) and values.stride() == (1,) and tuple(indices.shape) == (x.size,)
    order = reference_order(x, False)
    np.testing.assert_array_equal(indices.cpu().numpy(), order)
    np.testing.assert_array_equal(values.cpu().numpy().view(np.uint32), x[order].view(np.uint32))
