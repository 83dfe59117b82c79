"""In-place calls write only memory the caller may change. JAX arrays are immutable (JAX shares one
buffer among arrays and jit constants, and its DLPack export carries no read-only flag), so sort_
and sort_pairs_ refuse them with TypeError, as JAX's own item assignment does; read-only numpy
arrays, read-only buffers and DLPack exports flagged read-only raise ValueError, as numpy's writes
do. Each message names the out-of-place call, which sorts all of them into new arrays; the refused
array and every alias of it stay as they were. The JAX tests run on JAX's CPU backend and, where
JAX has a CUDA device, on the GPU."""
import ctypes
import mmap
import os

import numpy as np
import pytest

import gpusort
from gpusort import _arrays as gpusort_arrays

KEYS = np.array([5, 3, 9, 1, 7, 3], dtype=np.int32)
VALUES = np.array([50, 30, 90, 10, 70, 31], dtype=np.int32)
SORTED_KEYS = np.array([1, 3, 3, 5, 7, 9], dtype=np.int32)
SORTED_VALUES = np.array([10, 30, 31, 50, 70, 90], dtype=np.int32)  # stable: 30 before 31
ORDER = np.array([3, 1, 5, 0, 4, 2])

# JAX on a GPU takes most of its memory at start unless told otherwise; gpusort and the other tests
# need it too.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

JAX_ARRAY = r"is a JAX array, and JAX arrays are immutable"
READ_ONLY = "is read-only"


def sort_refusal(why):
    """The message of sort_'s refusal of x, as a pattern."""
    return rf"gpusort\.sort_: x {why}; use gpusort\.sort\(x\), which returns a new array"


def pairs_refusal(name, why):
    """The message of sort_pairs_'s refusal of `name` (keys or values), as a pattern."""
    return rf"gpusort\.sort_pairs_: {name} {why}; use gpusort\.sort_pairs\(keys, values\), which returns new arrays"


def jax_device(platform):
    jax = pytest.importorskip("jax")
    try:
        return jax.devices(platform)[0]
    except RuntimeError:
        pytest.skip(f"needs JAX with a {platform} device")


def aligned_copy(host, alignment=64):
    """A copy of host at an address that is a multiple of `alignment`: JAX's CPU device_put then
    shares its memory instead of copying it (jaxlib 0.10)."""
    raw = np.empty(host.nbytes + alignment, np.uint8)
    start = -raw.ctypes.data % alignment
    copy = raw[start:start + host.nbytes].view(host.dtype)
    copy[:] = host
    return copy


def jax_array(host, platform):
    """A JAX array of host's elements, made from a copy: on JAX's CPU device it may share the
    memory of the numpy array it was made from."""
    import jax
    return jax.device_put(host.copy(), jax_device(platform))


@pytest.mark.parametrize("platform", ["cpu", "gpu"])
def test_jax_arrays_are_not_sorted_in_place(platform):
    import jax
    source = aligned_copy(KEYS)
    x = jax.device_put(source, jax_device(platform))  # on JAX's CPU device, x shares source's memory
    alias = x
    with pytest.raises(TypeError, match=sort_refusal(JAX_ARRAY)):
        gpusort.sort_(x)
    np.testing.assert_array_equal(np.asarray(alias), KEYS)
    np.testing.assert_array_equal(source, KEYS)
    if platform == "cpu":
        # numpy's view of the same buffer (read-only, as JAX hands it out): refused too
        view = np.asarray(x)
        with pytest.raises(ValueError, match=sort_refusal(READ_ONLY)):
            gpusort.sort_(view)
        np.testing.assert_array_equal(np.asarray(alias), KEYS)


@pytest.mark.parametrize("platform", ["cpu", "gpu"])
def test_jax_pairs_are_not_sorted_in_place(platform):
    keys, values = jax_array(KEYS, platform), jax_array(VALUES, platform)
    for given_keys, given_values, refused in [(keys, values, "keys"), (KEYS.copy(), values, "values"),
                                              (keys, VALUES.copy(), "keys")]:
        with pytest.raises(TypeError, match=pairs_refusal(refused, JAX_ARRAY)):
            gpusort.sort_pairs_(given_keys, given_values)
        np.testing.assert_array_equal(np.asarray(given_keys), KEYS)
        np.testing.assert_array_equal(np.asarray(given_values), VALUES)


@pytest.mark.parametrize("platform", ["cpu", "gpu"])
def test_jax_arrays_are_sorted_out_of_place(platform):
    import jax
    device = jax_device(platform)
    x, values = jax_array(KEYS, platform), jax_array(VALUES, platform)
    result = gpusort.sort(x)
    assert isinstance(result, jax.Array) and result.devices() == {device}
    np.testing.assert_array_equal(np.asarray(result), SORTED_KEYS)
    for _ in range(2):  # positions made afresh each time: a second argsort sees 0..n-1 again
        order = gpusort.argsort(x)
        assert isinstance(order, jax.Array) and order.devices() == {device}
        np.testing.assert_array_equal(np.asarray(order), ORDER)
    np.testing.assert_array_equal(np.asarray(jax.numpy.arange(len(KEYS), device=device)), np.arange(len(KEYS)))
    sorted_keys, sorted_values = gpusort.sort_pairs(x, values)
    assert isinstance(sorted_keys, jax.Array) and isinstance(sorted_values, jax.Array)
    np.testing.assert_array_equal(np.asarray(sorted_keys), SORTED_KEYS)
    np.testing.assert_array_equal(np.asarray(sorted_values), SORTED_VALUES)
    np.testing.assert_array_equal(np.asarray(x), KEYS)
    np.testing.assert_array_equal(np.asarray(values), VALUES)


def test_device_indices_of_array_api_producers():
    """argsort of a CUDA array of a library other than PyTorch and CuPy (JAX) takes its positions
    from that library's Array API arange, on the array's device; shown here on JAX's CPU device."""
    x = jax_array(KEYS, "cpu")
    info = gpusort_arrays.inspect(x, "x", "keys")
    indices = gpusort_arrays.device_indices(x, info)
    assert type(indices) is type(x) and indices.devices() == x.devices()
    np.testing.assert_array_equal(np.asarray(indices), np.arange(len(KEYS)))


def read_only_numpy():
    x = KEYS.copy()
    x.flags.writeable = False
    return x


def test_read_only_numpy_arrays():
    x = read_only_numpy()
    with pytest.raises(ValueError, match=sort_refusal(READ_ONLY)):
        gpusort.sort_(x)
    np.testing.assert_array_equal(x, KEYS)
    keys, values = KEYS.copy(), VALUES.copy()
    values.flags.writeable = False
    with pytest.raises(ValueError, match=pairs_refusal("values", READ_ONLY)):
        gpusort.sort_pairs_(keys, values)
    np.testing.assert_array_equal(keys, KEYS)  # the keys are checked before anything is sorted
    np.testing.assert_array_equal(gpusort.sort(x), SORTED_KEYS)
    np.testing.assert_array_equal(gpusort.argsort(x), ORDER)
    sorted_keys, sorted_values = gpusort.sort_pairs(keys, values)
    np.testing.assert_array_equal(sorted_keys, SORTED_KEYS)
    np.testing.assert_array_equal(sorted_values, SORTED_VALUES)


def read_only_buffers(tmp_path):
    """Buffer-protocol objects that refuse writes, and the bytes each one shows."""
    data = bytearray(KEYS.view(np.uint8).tobytes())
    path = tmp_path / "keys.bin"
    path.write_bytes(data)
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    return {
        "bytes": bytes(data),
        "memoryview of bytes": memoryview(bytes(data)),
        "read-only memoryview of a bytearray": memoryview(data).toreadonly(),
        "read-only mmap": mapped,
    }


@pytest.mark.parametrize("kind", ["bytes", "memoryview of bytes", "read-only memoryview of a bytearray",
                                  "read-only mmap"])
def test_read_only_buffers(kind, tmp_path):
    buffer = read_only_buffers(tmp_path)[kind]
    before = bytes(buffer)
    with pytest.raises(ValueError, match=sort_refusal(READ_ONLY)):
        gpusort.sort_(buffer)
    assert bytes(buffer) == before
    # a buffer of bytes is sorted as uint8 keys
    np.testing.assert_array_equal(gpusort.sort(buffer), np.sort(np.frombuffer(before, np.uint8)))
    np.testing.assert_array_equal(gpusort.argsort(buffer),
                                  np.argsort(np.frombuffer(before, np.uint8), kind="stable"))
    assert bytes(buffer) == before


class ReadOnlyDLPack:
    """A producer that offers only DLPack and exports versioned capsules flagged read-only."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


DLPACK_FLAG_BITMASK_READ_ONLY = 1


def versioned_flags(capsule):
    """DLManagedTensorVersioned::flags: after the version (2 x uint32), manager_ctx and deleter."""
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get_pointer(capsule, b"dltensor_versioned")
    return ctypes.c_uint64.from_address(address + 8 + 2 * ctypes.sizeof(ctypes.c_void_p)).value


def read_only_capsule(x):
    try:
        capsule = x.__dlpack__(copy=False, max_version=(1, 0))
    except (TypeError, BufferError) as e:
        pytest.skip(f"numpy {np.__version__} exports no versioned DLPack capsule of a read-only array ({e})")
    if not versioned_flags(capsule) & DLPACK_FLAG_BITMASK_READ_ONLY:
        pytest.skip(f"numpy {np.__version__} does not flag its read-only DLPack exports")
    return capsule


def test_dlpack_flagged_read_only():
    backing = read_only_numpy()
    read_only_capsule(backing)  # skips where numpy cannot flag it
    x = ReadOnlyDLPack(backing)
    with pytest.raises(ValueError, match=sort_refusal(READ_ONLY)):
        gpusort.sort_(x)
    with pytest.raises(ValueError, match=pairs_refusal("keys", READ_ONLY)):
        gpusort.sort_pairs_(x, VALUES.copy())
    # the capsule itself, as a consumer may be handed one
    with pytest.raises(ValueError, match=sort_refusal(READ_ONLY)):
        gpusort.sort_(read_only_capsule(backing))
    np.testing.assert_array_equal(backing, KEYS)
    np.testing.assert_array_equal(gpusort.sort(x), SORTED_KEYS)
    np.testing.assert_array_equal(gpusort.argsort(x), ORDER)
    np.testing.assert_array_equal(backing, KEYS)
