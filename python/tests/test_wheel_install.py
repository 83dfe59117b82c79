"""The wheel as users get it: installed with pip into a fresh virtual environment (numpy is its only
dependency), where the module imports, sorts on the CPU through PoCL, and the gpusort command that
comes with it sorts a file.

$GPUSORT_WHEEL names the wheel: `scripts/run-python-tests --wheel` builds it with `pip wheel .`,
makes it a manylinux wheel with `auditwheel repair` and sets it; without it these tests skip."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

WHEEL = os.environ.get("GPUSORT_WHEEL", "")
pytestmark = pytest.mark.skipif(not WHEEL, reason="GPUSORT_WHEEL is not set (scripts/run-python-tests --wheel sets it)")

# The first OpenCL CPU device (PoCL's), or "" where there is none.
POCL_DEVICE = """
import gpusort
print(next((d["id"] for d in gpusort.devices() if d["backend"] == "opencl" and not d["is_gpu"]), ""))
"""

SORT_ON = """
import sys
import numpy as np
import gpusort
keys = np.random.default_rng(7).integers(0, 2**32, 100_000, dtype=np.uint32)
out = gpusort.sort(keys, device=sys.argv[1])
assert np.array_equal(out, np.sort(keys)), "wrong order"
print(gpusort.__file__)
"""


def run(args, **kwargs):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("fresh-venv")
    run([sys.executable, "-m", "venv", root])
    run([root / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", WHEEL])
    return root


@pytest.fixture(scope="module")
def env():
    out = dict(os.environ)
    for name in ("PYTHONPATH", "GPUSORT_DEVICE", "GPUSORT_OPENCL_LIBRARY"):
        out.pop(name, None)
    return out


@pytest.fixture(scope="module")
def pocl_device(venv, env, tmp_path_factory):
    device = run([venv / "bin" / "python", "-c", POCL_DEVICE], env=env, cwd=tmp_path_factory.mktemp("cwd")).strip()
    if not device:
        pytest.skip("no OpenCL CPU device (PoCL: pocl-opencl-icd)")
    return device


def test_wheel_is_manylinux():
    assert re.search(r"-manylinux_\d+_\d+_\w+\.whl$", WHEEL), WHEEL


def test_module_sorts_on_pocl(venv, env, pocl_device, tmp_path):
    where = run([venv / "bin" / "python", "-c", SORT_ON, pocl_device], env=env, cwd=tmp_path).strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), f"gpusort imported from {where}, not from the fresh environment"


def test_command_sorts_a_file(venv, env, pocl_device, tmp_path):
    command = venv / "bin" / "gpusort"
    assert command.is_file() and os.access(command, os.X_OK)
    keys = np.random.default_rng(3).integers(-(2**63), 2**63 - 1, 50_000, dtype=np.int64)
    keys.tofile(tmp_path / "keys.i64")
    run([command, "sort", "--type", "i64", "--device", pocl_device, tmp_path / "keys.i64", "-o", tmp_path / "out.i64"],
        env=env, cwd=tmp_path)
    assert np.array_equal(np.fromfile(tmp_path / "out.i64", dtype=np.int64), np.sort(keys))


@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd")
def test_installed_files_do_not_link_the_opencl_loader(venv):
    modules = list((venv / "lib").glob("python3*/site-packages/gpusort/_gpusort*.so"))
    assert len(modules) == 1, modules
    for binary in (modules[0], venv / "bin" / "gpusort"):
        assert "libOpenCL" not in run(["ldd", binary]), binary
