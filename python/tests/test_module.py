"""The rest of the package: devices(), algorithms(), __version__, arrays of other libraries
(through DLPack), and sorts from several Python threads at once."""
import re
import threading

import numpy as np
import pytest

import gpusort


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", gpusort.__version__)


def test_devices():
    devices = gpusort.devices()
    assert devices, "no device: PoCL provides an OpenCL CPU device"
    for d in devices:
        assert d["backend"] in ("cuda", "opencl")
        assert re.fullmatch(r"cuda:\d+|opencl:\d+:\d+", d["id"])
        assert d["name"] and d["memory"] > 0


def test_algorithms():
    algorithms = {a["name"]: a for a in gpusort.algorithms()}
    assert {"radix", "merge", "bitonic"} <= algorithms.keys()
    assert algorithms["radix"]["stable"] and not algorithms["bitonic"]["stable"]
    assert algorithms["merge"]["comparator"] and not algorithms["radix"]["comparator"]
    assert all(a["description"] for a in algorithms.values())


class HostDLPackArray:
    """A host array of some other library: only the DLPack protocol, no buffer protocol."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_host_dlpack_arrays():
    x = HostDLPackArray(np.array([3.0, -1.0, 2.0]))
    np.testing.assert_array_equal(gpusort.sort(x), [-1.0, 2.0, 3.0])
    np.testing.assert_array_equal(gpusort.argsort(x), [1, 2, 0])
    # In place: the producer's memory, no copy.
    backing = np.array([5, 4, 6], dtype=np.int16)
    gpusort.sort_(HostDLPackArray(backing))
    np.testing.assert_array_equal(backing, [4, 5, 6])


def test_threads_share_a_device():
    arrays = [np.random.default_rng(seed).integers(0, 1000, 20011).astype(np.uint32) for seed in range(4)]
    results = [None] * len(arrays)

    def work(i):
        results[i] = gpusort.sort(arrays[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(arrays))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, r in zip(arrays, results):
        np.testing.assert_array_equal(r, np.sort(a))


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    x = torch.tensor([3, 1, 2], dtype=torch.int32)
    result = gpusort.sort(x)
    assert isinstance(result, torch.Tensor)
    assert result.tolist() == [1, 2, 3]
    assert gpusort.argsort(x).tolist() == [1, 2, 0]


def test_array_library_tuning_is_the_devices_row():
    """The package's own choices (int32 argsort indices, lent temporaries) come from the library's
    tuning row for the device, not from constants of the package: the CPU's row is the generic one."""
    from gpusort import _gpusort

    device = gpusort.devices()[0]["id"]
    tuning = _gpusort.array_library_tuning(device)
    assert tuning["row"]
    assert set(tuning["narrow_indices_from"]) == {1, 2, 4, 8}
    assert tuning["lend_temporaries_from"] > 0
    if not device.startswith("cuda"):
        assert tuning["row"] == "generic"
        assert all(v == 0 for v in tuning["narrow_indices_from"].values())
    with pytest.raises(Exception):
        _gpusort.array_library_tuning("opencl:99:99")
