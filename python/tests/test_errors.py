"""What gpusort refuses, and how: TypeError for a dtype, ValueError for a shape or layout, gpusort's
own errors as gpusort.Error subclasses that are also the matching built-in exception. A refused
call leaves the caller's arrays unchanged."""
import numpy as np
import pytest

import gpusort

SUPPORTED = "uint8, uint16, uint32, uint64, int8, int16, int32, int64, float16, bfloat16, float32, float64, bool, complex64, complex128"


@pytest.mark.parametrize("dtype", [np.complex256, object, ">u4", ">f2"],
                         ids=lambda d: np.dtype(d).str)
@pytest.mark.parametrize("function", [gpusort.sort, gpusort.argsort, gpusort.sort_])
def test_unsupported_key_dtype(function, dtype):
    with pytest.raises(TypeError, match="float32, float64"):
        function(np.zeros(4, dtype=dtype))


def test_not_an_array():
    """Objects numpy cannot make a numeric array of are refused naming their type."""
    with pytest.raises(TypeError, match="object"):
        gpusort.sort([3, "a", None])
    with pytest.raises(TypeError, match="object"):
        gpusort.sort(object())


def test_unreadable_buffers_are_named_as_given():
    """A buffer-protocol object goes through a memoryview; a refusal names the caller's type."""
    import array
    with pytest.raises(TypeError, match="array.array"):
        gpusort.sort(array.array("u", "abc"))


@pytest.mark.parametrize("x", [np.zeros((2, 3), np.uint32), np.zeros((1, 4), np.float32)], ids=["2-D", "1x4"])
def test_the_compiled_sorts_take_flat_arrays(x):
    """The package sorts n-D arrays along an axis (test_axis.py) as flat rows; the compiled module
    itself takes 1-D arrays only."""
    with pytest.raises(ValueError, match="1-D"):
        gpusort._gpusort.sort_inplace(x)


@pytest.mark.parametrize("function", [gpusort.sort, gpusort.argsort, gpusort.sort_])
def test_masked_arrays_are_refused(function):
    """numpy.ma arrays: sorting their data alone would leave the mask where it was."""
    x = np.ma.array([3, 1, 2], mask=[0, 1, 0])
    with pytest.raises(TypeError, match=r"masked arrays.*x\.compressed\(\)"):
        function(x)
    np.testing.assert_array_equal(x.data, [3, 1, 2])
    np.testing.assert_array_equal(x.mask, [False, True, False])


def test_masked_values_are_refused():
    values = np.ma.array([30, 10, 20], mask=[1, 0, 0])
    for function in (gpusort.sort_pairs, gpusort.sort_pairs_):
        keys = np.array([3, 1, 2])
        with pytest.raises(TypeError, match="masked arrays"):
            function(keys, values)
        np.testing.assert_array_equal(keys, [3, 1, 2])
    np.testing.assert_array_equal(values.data, [30, 10, 20])


def test_values_of_unsupported_size():
    keys = np.arange(3, dtype=np.uint8)
    with pytest.raises(TypeError, match="1, 2, 4, 8 or 16 bytes"):
        gpusort.sort_pairs(keys, np.array([b"abc", b"d", b"e"]))  # 3-byte elements
    with pytest.raises(TypeError, match="object"):
        gpusort.sort_pairs(keys, np.array([1, "a", None], dtype=object))


def test_length_mismatch():
    with pytest.raises(ValueError, match="3 keys, 2 values"):
        gpusort.sort_pairs(np.arange(3, dtype=np.uint8), np.arange(2, dtype=np.uint8))


def test_in_place_needs_writable_and_separate_arrays():
    x = np.array([3, 1, 2], dtype=np.uint32)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gpusort.sort_(x)
    keys = np.array([3, 1, 2], dtype=np.uint32)
    with pytest.raises(ValueError, match="share memory"):
        gpusort.sort_pairs_(keys, keys)


def test_gpusort_errors_map_to_builtin_exceptions():
    x = np.array([3, 1, 2], dtype=np.uint32)
    with pytest.raises(gpusort.InvalidArgumentError, match="unknown algorithm 'nope'") as caught:
        gpusort.sort(x, algorithm="nope")
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, gpusort.Error)
    # bitonic cannot be stable, and sorts are stable unless asked otherwise.
    with pytest.raises(ValueError, match="cannot sort stably"):
        gpusort.sort(x, algorithm="bitonic")
    with pytest.raises(gpusort.Error, match="opencl:99:0"):
        gpusort.sort(x, device="opencl:99:0")
    np.testing.assert_array_equal(x, [3, 1, 2])


def test_error_hierarchy():
    assert issubclass(gpusort.Error, RuntimeError)
    assert issubclass(gpusort.InvalidArgumentError, ValueError)
    assert issubclass(gpusort.UnsupportedError, NotImplementedError)
    assert issubclass(gpusort.OutOfMemoryError, MemoryError)
    for e in (gpusort.InvalidArgumentError, gpusort.UnsupportedError, gpusort.OutOfMemoryError,
              gpusort.DeviceError, gpusort.KernelBuildError):
        assert issubclass(e, gpusort.Error)


def test_a_temporary_loan_is_for_cuda_arrays_only():
    """The compiled sort's `temporary` (device memory lent by PyTorch or CuPy) is refused for host
    keys, which the sort copies to the device itself; the keys stay as they were."""
    x = np.array([3, 1, 2], dtype=np.uint32)
    with pytest.raises(ValueError, match="temporary is for CUDA arrays"):
        gpusort._gpusort.sort_inplace(x, temporary=np.empty(4096, dtype=np.uint8))
    assert x.tolist() == [3, 1, 2]


def test_sort_into_is_for_cuda_arrays_only():
    """The compiled out-of-place sort (which sort/argsort/sort_pairs use for PyTorch and CuPy CUDA
    arrays) refuses host arrays, which the out-of-place functions copy and sort in place instead,
    and outputs that cannot take the input; nothing is touched."""
    x = np.array([3, 1, 2], dtype=np.uint32)
    out = np.zeros(3, dtype=np.uint32)
    with pytest.raises(ValueError, match="must be CUDA arrays"):
        gpusort._gpusort.sort_into(x, out)
    with pytest.raises(ValueError, match="length and dtype"):
        gpusort._gpusort.sort_into(x, np.zeros(4, dtype=np.uint32))
    with pytest.raises(ValueError, match="length and dtype"):
        gpusort._gpusort.sort_into(x, np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="length and dtype"):
        gpusort._gpusort.sort_into(x, out, np.arange(3, dtype=np.int64), np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="together"):
        gpusort._gpusort.sort_into(x, out, np.arange(3, dtype=np.int64))
    assert x.tolist() == [3, 1, 2] and out.tolist() == [0, 0, 0]
