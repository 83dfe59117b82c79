"""gpusort as a drop-in for torch.sort, numpy.sort and the Array API's sort/argsort: signatures,
return types, values with indices, out=, the inputs the peers take (array-likes, 0-d, strided),
errors in Python terms, and small host sorts done on the host. Results are compared with numpy's
own (a stable sort, gpusort's order rules: sort_reference). Each call runs where gpusort chooses
(small host arrays on the host) and on the device (device=), which must agree."""
import inspect
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gpusort
from gpusort import _arrays, _gpusort
from sort_reference import KEY_DTYPES, WHERE, bits, default_device, float_specials, make_keys, stable_order, \
    where_options

ORDERS = [False, True]


def dtype_id(d):
    return np.dtype(d).name


# --- signatures and return types ------------------------------------------------------------------

def test_signatures_are_the_peers():
    """x positional-only, everything else keyword-only, as the Array API's sort and argsort."""
    for function, extra in [(gpusort.sort, ["return_indices", "out"]), (gpusort.argsort, ["out"])]:
        parameters = inspect.signature(function).parameters
        assert list(parameters)[0] == "x" and parameters["x"].kind is inspect.Parameter.POSITIONAL_ONLY
        for name in ["axis", "descending", "stable", *extra, "algorithm", "device", "comparator"]:
            assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert parameters["descending"].default is False and parameters["stable"].default is True
        assert parameters["axis"].default == -1  # the Array API's, numpy's and torch.sort's default
    for function in (gpusort.sort_pairs, gpusort.sort_, gpusort.sort_pairs_):
        assert inspect.signature(function).parameters["axis"].default == -1
    for function in (gpusort.sort, gpusort.argsort, gpusort.sort_pairs, gpusort.sort_, gpusort.sort_pairs_):
        hints = function.__annotations__
        assert "return" in hints and "descending" in hints, function.__name__
        assert "NaN" in (function.__doc__ or "") or "help(gpusort)" in (function.__doc__ or "") \
            or function in (gpusort.sort_pairs, gpusort.sort_, gpusort.sort_pairs_)
    assert "NaN" in gpusort._sorting.__doc__ and "stream" in gpusort._sorting.__doc__


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [0, 1, 2, 17, 1001, 10007])
@pytest.mark.parametrize("dtype", KEY_DTYPES, ids=dtype_id)
def test_values_and_indices_in_one_call(dtype, n, descending, where):
    """sort(x, return_indices=True) is torch.sort's (values, indices): a named pair, values of x's
    kind and dtype, int64 indices, the stable order, values == x[indices]; x unchanged."""
    x = make_keys(dtype, n, "few-unique")
    before = x.copy()
    result = gpusort.sort(x, return_indices=True, descending=descending, **where_options(where))
    assert isinstance(result, gpusort.SortResult) and isinstance(result, tuple) and len(result) == 2
    values, indices = result
    assert values is result.values and indices is result.indices
    assert type(values) is np.ndarray and values.dtype == x.dtype and values.shape == x.shape
    assert type(indices) is np.ndarray and indices.dtype == np.int64 and indices.shape == x.shape
    expected = stable_order(x, descending)
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(bits(values), bits(x[expected]))
    np.testing.assert_array_equal(bits(x), bits(before))
    if not descending:
        np.testing.assert_array_equal(indices, np.argsort(x, kind="stable"))
        np.testing.assert_array_equal(values, np.sort(x, kind="stable"))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_values_and_indices_keep_the_float_rules(dtype, descending, where):
    """NaN last ascending (first descending), -0.0 == +0.0 in input order, payloads kept bit for bit."""
    x = float_specials(dtype)
    values, indices = gpusort.sort(x, return_indices=True, descending=descending, **where_options(where))
    np.testing.assert_array_equal(indices, stable_order(x, descending))
    np.testing.assert_array_equal(bits(values), bits(x[indices]))
    nans = np.isnan(values)
    assert nans[-nans.sum():].all() if not descending else nans[:nans.sum()].all()


def test_values_and_indices_from_one_compiled_call_past_the_host_threshold():
    """Large host arrays (past the host threshold) take the compiled argsort that writes the keys
    too: one call into the module, no second sort or gather."""
    x = make_keys(np.uint32, 50001, "few-unique")
    calls = []
    real = _gpusort.argsort_host_into

    def recording(*args, **kwargs):
        calls.append(kwargs.get("keys_out") is not None)
        return real(*args, **kwargs)

    try:
        _gpusort.argsort_host_into = recording
        values, indices = gpusort.sort(x, return_indices=True)
    finally:
        _gpusort.argsort_host_into = real
    assert calls == [True]
    np.testing.assert_array_equal(indices, stable_order(x))
    np.testing.assert_array_equal(values, x[indices])


def test_sort_with_indices_into_the_keys_themselves():
    """The compiled argsort's keys_out may be the keys: sorted in place beside the indices."""
    x = make_keys(np.int32, 3001, "few-unique")
    expected = stable_order(x)
    sorted_x = x[expected]
    indices = np.empty(x.size, np.int64)
    _gpusort.argsort_host_into(x, indices, keys_out=x)
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(x, sorted_x)
    with pytest.raises(ValueError, match="length and dtype"):
        _gpusort.argsort_host_into(x, indices, keys_out=np.empty(x.size, np.int64))


# --- out= ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("descending", ORDERS, ids=["ascending", "descending"])
@pytest.mark.parametrize("n", [9, 5003])
def test_out_is_written_and_returned(n, descending, where):
    """out= as torch.sort(x, out=(v, i)): the caller's arrays are written and returned, the same
    objects; numpy's convention of a tuple of one for one output is taken too."""
    x = make_keys(np.float32, n, "few-unique")
    expected = stable_order(x, descending)
    options = dict(descending=descending, **where_options(where))
    v, i = np.empty_like(x), np.full(n, -1, np.int64)
    result = gpusort.sort(x, return_indices=True, out=(v, i), **options)
    assert isinstance(result, gpusort.SortResult) and result.values is v and result.indices is i
    np.testing.assert_array_equal(i, expected)
    np.testing.assert_array_equal(bits(v), bits(x[expected]))
    v2 = np.empty_like(x)
    assert gpusort.sort(x, out=v2, **options) is v2
    np.testing.assert_array_equal(bits(v2), bits(x[expected]))
    v3 = np.empty_like(x)
    assert gpusort.sort(x, out=(v3,), **options) is v3
    np.testing.assert_array_equal(bits(v3), bits(v2))
    i2 = np.full(n, -1, np.int64)
    assert gpusort.argsort(x, out=i2, **options) is i2
    np.testing.assert_array_equal(i2, expected)


@pytest.mark.parametrize("where", WHERE)
def test_out_may_be_the_input(where):
    """out=x sorts x in place (with indices too)."""
    x = make_keys(np.int64, 2001, "few-unique")
    expected = stable_order(x)
    sorted_x = x[expected]
    y = x.copy()
    assert gpusort.sort(y, out=y, **where_options(where)) is y
    np.testing.assert_array_equal(y, sorted_x)
    i = np.empty(x.size, np.int64)
    values, indices = gpusort.sort(x, return_indices=True, out=(x, i), **where_options(where))
    assert values is x and indices is i
    np.testing.assert_array_equal(x, sorted_x)
    np.testing.assert_array_equal(i, expected)


def read_only(a):
    a.setflags(write=False)
    return a


OUT_REFUSALS = [
    ("wrong dtype", lambda x: np.empty(x.size, np.float64), TypeError, "dtype float32"),
    ("wrong length", lambda x: np.empty(x.size + 1, np.float32), ValueError, "shape"),
    ("wrong rank", lambda x: np.empty((1, x.size), np.float32), ValueError, "shape"),
    ("another library", lambda x: list(x), TypeError, "numpy.ndarray"),
    ("read-only", lambda x: read_only(np.empty(x.size, np.float32)), ValueError, "read-only"),
    ("stride 0", lambda x: np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), (x.size,), (0,)), ValueError,
     "one memory location"),
]


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("case", OUT_REFUSALS, ids=[c[0] for c in OUT_REFUSALS])
def test_out_refusals(case, where):
    """A wrong output is refused before anything is written: its dtype and library as TypeError,
    its shape, writability and a view of one element repeated as ValueError (strided outputs are
    taken: test_strided_out.py)."""
    _, make, error, message = case
    x = make_keys(np.float32, 10, "random")
    before = x.copy()
    out = make(x)
    snapshot = np.array(out, copy=True)
    with pytest.raises(error, match=message):
        gpusort.sort(x, out=out, **where_options(where))
    with pytest.raises(error, match=message):
        gpusort.sort(x, return_indices=True, out=(out, np.empty(x.size, np.int64)), **where_options(where))
    np.testing.assert_array_equal(np.asarray(out), snapshot)
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("where", WHERE)
def test_out_refusals_of_indices(where):
    x = make_keys(np.float32, 10, "random")
    for bad, error, message in [(np.empty(10, np.int32), TypeError, "int64"),
                                (np.empty(10, np.float64), TypeError, "int64"),
                                (np.empty(9, np.int64), ValueError, "shape")]:
        with pytest.raises(error, match=message):
            gpusort.argsort(x, out=bad, **where_options(where))
        with pytest.raises(error, match=message):
            gpusort.sort(x, return_indices=True, out=(np.empty_like(x), bad), **where_options(where))
    with pytest.raises(TypeError, match="tuple"):
        gpusort.sort(x, return_indices=True, out=np.empty_like(x))
    with pytest.raises(TypeError, match="one array"):
        gpusort.sort(x, out=(np.empty_like(x), np.empty(10, np.int64)))
    shared = np.empty(10, np.int64)
    with pytest.raises(ValueError, match="share memory"):
        gpusort.sort(x.astype(np.int64), return_indices=True, out=(shared, shared), **where_options(where))


def test_out_of_jax_is_refused():
    jax = pytest.importorskip("jax")
    x = make_keys(np.float32, 10, "random")
    with pytest.raises(TypeError, match="immutable"):
        gpusort.sort(jax.numpy.asarray(x), out=jax.numpy.zeros(10, np.float32))


# --- the inputs the peers take ---------------------------------------------------------------------

@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("given", [[3, 1, 2, 1], (2.5, -1.0, float("nan"), 0.0), [7], [], [-(2**40), 5, 2**40]],
                         ids=["list", "tuple of floats", "one", "empty", "large ints"])
def test_array_likes_become_numpy_arrays(given, where):
    """As numpy.sort takes them: numpy's dtype, a numpy array back."""
    expected = np.asarray(given)
    result = gpusort.sort(given, **where_options(where))
    assert type(result) is np.ndarray and result.dtype == expected.dtype
    np.testing.assert_array_equal(result, np.sort(expected, kind="stable"))
    np.testing.assert_array_equal(gpusort.argsort(given, **where_options(where)), np.argsort(expected, kind="stable"))
    values, indices = gpusort.sort(given, return_indices=True, **where_options(where))
    np.testing.assert_array_equal(indices, np.argsort(expected, kind="stable"))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("given", [np.float32(2.5), np.array(7, np.int16), 3, 1.5], ids=["np.float32", "0-d", "int",
                                                                                    "float"])
def test_zero_dimensional_follows_numpy(given, where):
    """numpy's rule for 0-d arrays and scalars: argsort sees one element (a 1-D index array, as
    numpy.argsort returns), the sorts raise numpy's AxisError as numpy.sort does (cupy.sort too)."""
    expected = np.asarray(given)
    with pytest.raises(ValueError) as caught:
        np.sort(expected)
    numpy_error = type(caught.value)
    with pytest.raises(numpy_error, match="axis -1 is out of bounds"):
        gpusort.sort(given, **where_options(where))
    with pytest.raises(numpy_error):
        gpusort.sort(given, return_indices=True, **where_options(where))
    order = gpusort.argsort(given, **where_options(where))
    reference = np.argsort(expected, kind="stable")
    assert order.shape == reference.shape == (1,) and order.dtype == np.int64 and order[0] == 0
    if isinstance(given, np.ndarray):
        with pytest.raises(numpy_error):
            gpusort.sort_(given.copy(), **where_options(where))
        out = np.full(1, -1, np.int64)
        assert gpusort.argsort(given, out=out, **where_options(where)) is out and out[0] == 0


def test_jax_arrays_come_back_as_jax_arrays():
    jax = pytest.importorskip("jax")
    x = make_keys(np.float32, 11, "few-unique")
    values, indices = gpusort.sort(jax.numpy.asarray(x), return_indices=True)
    assert isinstance(values, jax.Array) and isinstance(indices, jax.Array)
    np.testing.assert_array_equal(np.asarray(indices), stable_order(x))
    np.testing.assert_array_equal(np.asarray(values), x[stable_order(x)])
    scalar = gpusort.sort(jax.numpy.float32(2.0))
    assert isinstance(scalar, jax.Array) and scalar.shape == ()


# --- Python that reads like Python ---------------------------------------------------------------

def test_errors_name_the_python_arguments():
    x = np.arange(10, dtype=np.uint32)
    with pytest.raises(gpusort.InvalidArgumentError) as caught:
        gpusort.sort(x, algorithm="bitonic")
    message = str(caught.value)
    assert "stable=False" in message and "algorithm=" in message and "SortOptions" not in message
    with pytest.raises(gpusort.Error) as caught:
        gpusort.sort(x, algorithm="radix", comparator="return a < b;")
    assert "comparator=" in str(caught.value) and "SortOptions" not in str(caught.value)


@pytest.mark.parametrize("device", ["opencl:99:0", "opencl:0:99", "cuda:99", "nonsense"])
def test_a_bad_device_id_is_a_value_error(device):
    x = np.arange(10, dtype=np.uint32)
    with pytest.raises(gpusort.InvalidArgumentError, match="device id") as caught:
        gpusort.sort(x, device=device)
    assert isinstance(caught.value, ValueError) and not isinstance(caught.value, NotImplementedError)
    assert "list_devices" not in str(caught.value)


def test_host_threshold_comes_from_the_devices_tuning(monkeypatch):
    """Host arrays below the default device's host_sort_below are sorted by numpy (no call into
    the compiled sort), unless algorithm=, device= or comparator= asks for the device; the
    threshold is the library's (array_library_tuning), not a constant of the package."""
    below = _gpusort.array_library_tuning(default_device())["host_sort_below"]
    assert below > 0
    assert _arrays.host_sort_below() == _gpusort.array_library_tuning("")["host_sort_below"]
    calls = []
    for name in ("sort_inplace", "argsort_host_into"):
        real = getattr(_gpusort, name)
        monkeypatch.setattr(_gpusort, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    small, large = make_keys(np.float32, below - 1, "random"), make_keys(np.float32, below, "random")
    for function in (gpusort.sort, gpusort.argsort, lambda x, **k: gpusort.sort(x, return_indices=True, **k),
                     lambda x, **k: gpusort.sort_(x.copy(), **k), lambda x, **k: gpusort.sort_pairs(x, x, **k)):
        calls.clear()
        function(small)
        assert calls == [], "a small host array went to the device"
        function(large)
        assert len(calls) == 1, "a host array at the threshold stayed on the host"
        for asked in (dict(algorithm="merge"), dict(device=default_device())):
            calls.clear()
            function(small, **asked)
            assert len(calls) == 1, f"{asked} did not reach the device"
    # the package reads the row: a lower threshold sends the same small array to the device
    monkeypatch.setattr(_arrays, "_HOST_SORT_BELOW", [2])
    calls.clear()
    gpusort.sort(small)
    assert calls == ["sort_inplace"]


def test_stub_and_marker_are_installed():
    import pathlib
    package = pathlib.Path(gpusort.__file__).parent
    assert (package / "py.typed").exists() and (package / "_gpusort.pyi").exists()


USAGE = textwrap.dedent('''
    import numpy as np
    import gpusort

    x = np.array([3.0, 1.0, 2.0], dtype=np.float32)
    s: np.ndarray = gpusort.sort(x, descending=True)
    r: gpusort.SortResult = gpusort.sort(x, return_indices=True)
    values, indices = r
    flag: bool = len(x) > 2
    either = gpusort.sort(x, return_indices=flag)
    if isinstance(either, gpusort.SortResult):
        print(either.indices)
    i: np.ndarray = gpusort.argsort(x, stable=False, out=np.empty(3, np.int64))
    k, v = gpusort.sort_pairs(x, indices)
    gpusort.sort_(x, algorithm="radix", device=None)
    rows: np.ndarray = gpusort.sort(np.zeros((2, 3), np.float32), axis=0)
    flat: np.ndarray = gpusort.argsort(np.zeros((2, 3), np.float32), axis=None)
    gpusort.sort_pairs_(np.zeros((2, 3)), np.zeros((2, 3)), axis=-2)
    ids = [d["id"] for d in gpusort.devices()]
    version: str = gpusort.__version__
    try:
        gpusort.sort(x, device="cuda:9")
    except gpusort.InvalidArgumentError as e:
        print(e)
''')


def test_mypy_strict_accepts_ordinary_use(tmp_path):
    pytest.importorskip("mypy")
    usage = tmp_path / "usage.py"
    usage.write_text(USAGE)
    package_root = __import__("pathlib").Path(gpusort.__file__).parent.parent
    # An installed package mypy finds in the interpreter's site-packages (it refuses that folder in
    # MYPYPATH); a package in a build folder through MYPYPATH.
    env = {"PATH": ""} if package_root.name.endswith("-packages") else {"MYPYPATH": str(package_root), "PATH": ""}
    # errors inside the package are not the user's (mypy silences installed packages the same way)
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
                             "--cache-dir", str(tmp_path / "cache"), str(usage)],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    # and the package's own annotations agree with its code
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                             "-p", "gpusort"], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
