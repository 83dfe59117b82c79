"""The package on a machine without an OpenCL loader: the module links no libOpenCL, imports, lists
no OpenCL device and names the loader it lacks when asked for an OpenCL device.

$GPUSORT_OPENCL_LIBRARY names the loader the library opens, so a path that does not exist stands
for such a machine. The loader is opened once per process, hence the fresh interpreter."""
import os
import shutil
import subprocess
import sys

import pytest

import gpusort

NO_LOADER = "/nonexistent/libOpenCL.so.1"
MISSING_LOADER = f"no OpenCL loader ({NO_LOADER}) found; install an ICD loader such as ocl-icd-libopencl1"

WITHOUT_LOADER = """
import numpy as np
import gpusort
print(sorted({d["backend"] for d in gpusort.devices()}))
try:
    gpusort.sort(np.array([3, 1, 2], dtype=np.uint32), device="opencl:0:0")
    print("sorted")
except Exception as e:  # the kind of error is the API's business; the message is this test's
    print(type(e).__name__, e)
"""


def test_module_does_not_link_the_opencl_loader():
    if shutil.which("ldd") is None:
        pytest.skip("no ldd")
    linked = subprocess.run(["ldd", gpusort._gpusort.__file__], capture_output=True, text=True, check=True).stdout
    assert "libOpenCL" not in linked, linked


def test_imports_and_names_the_missing_loader(tmp_path):
    env = dict(os.environ, GPUSORT_OPENCL_LIBRARY=NO_LOADER)
    env.pop("GPUSORT_DEVICE", None)
    run = subprocess.run([sys.executable, "-c", WITHOUT_LOADER], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    backends, outcome = run.stdout.splitlines()
    assert "opencl" not in backends
    assert MISSING_LOADER in outcome, outcome
