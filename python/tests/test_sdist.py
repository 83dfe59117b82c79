"""The source distribution (`pip download`, `python -m build --sdist`): everything the build needs,
the SPDX licence in its metadata, and none of the lab's raw measurements or the charts drawn from
them (pyproject.toml's sdist.exclude)."""
import os
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    backend = pytest.importorskip("scikit_build_core.build")
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("not run from a source tree")
    out = tmp_path_factory.mktemp("sdist")
    here = os.getcwd()
    os.chdir(ROOT)  # the backend builds the project of the working directory
    try:
        name = backend.build_sdist(str(out))
    finally:
        os.chdir(here)
    with tarfile.open(out / name) as archive:
        top = name.removesuffix(".tar.gz")
        names = {m.name.removeprefix(top + "/") for m in archive.getmembers()}
        metadata = archive.extractfile(f"{top}/PKG-INFO").read().decode()
    return names, metadata


def test_sdist_has_the_sources(sdist):
    names, _ = sdist
    for needed in ("CMakeLists.txt", "pyproject.toml", "LICENSE", "python/CMakeLists.txt",
                   "python/gpusort/__init__.py", "src/runtime/opencl/opencl_api.cpp", "kernels/prelude.h"):
        assert needed in names, needed


def test_sdist_leaves_out_raw_measurements(sdist):
    names, _ = sdist
    raw = sorted(n for n in names if n.startswith(("lab/perf/", "lab/notes/data/", "docs/charts/")))
    assert not raw, raw[:5]


def test_sdist_metadata_has_the_spdx_licence(sdist):
    _, metadata = sdist
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert any(line.startswith("Classifier: ") for line in metadata.splitlines())
