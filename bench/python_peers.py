#!/usr/bin/env python3
"""gpusort's Python API beside CuPy and PyTorch, data already on the GPU, same process.

For each key type and n: gpusort.sort vs cupy.sort (both return a sorted copy), gpusort.argsort vs
cupy.argsort and torch.sort (values + int64 indices; torch has no uint32/uint64 sort on every
version: those rows say n/a). Times are CUDA-event milliseconds around one Python call, median of
--repeats after --warmup calls (which also compile and cache gpusort's kernels); every gpusort
result is checked against the peer's. Prints a table and writes CSV rows to --csv if given.

  python3 bench/python_peers.py [--min-log2 10] [--max-log2 28] [--step 2] [--types u32,f32,u64,f64]
  python3 bench/python_peers.py segmented [--quick] [--shapes ...]   (many sorts at once: python_segmented.py)
"""
import argparse
import csv
import statistics
import sys

import numpy as np

import gpusort

try:
    import cupy
except ImportError:
    cupy = None
try:
    import torch
except ImportError:
    torch = None

NUMPY = {"u32": np.uint32, "f32": np.float32, "u64": np.uint64, "f64": np.float64, "i32": np.int32,
         "i64": np.int64}


def timed(fn, warmup, repeats):
    """Median CUDA-event time of fn() in ms (events on the current CuPy stream, the legacy default)."""
    for _ in range(warmup):
        fn()
    cupy.cuda.runtime.deviceSynchronize()
    times = []
    for _ in range(repeats):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def keys_on_device(type_name, n, seed):
    rng = np.random.default_rng(seed)
    dtype = NUMPY[type_name]
    if np.dtype(dtype).kind == "f":
        host = rng.standard_normal(n, dtype=np.float64).astype(dtype)
    else:
        host = rng.integers(0, np.iinfo(dtype).max, n, dtype=dtype, endpoint=True)
    return cupy.asarray(host)


def torch_dtype(type_name):
    name = {"u32": "uint32", "f32": "float32", "u64": "uint64", "f64": "float64", "i32": "int32", "i64": "int64"}
    dt = getattr(torch, name[type_name], None) if torch is not None else None
    return dt


def main():
    if sys.argv[1:2] == ["segmented"]:
        import python_segmented  # next to this script
        return python_segmented.main(sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--min-log2", type=int, default=10)
    p.add_argument("--max-log2", type=int, default=28)
    p.add_argument("--step", type=int, default=2)
    p.add_argument("--types", default="u32,f32,u64,f64")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeats", type=int, default=9)
    p.add_argument("--csv", default="")
    a = p.parse_args()
    if cupy is None:
        sys.exit("python_peers: needs CuPy (and a CUDA device)")
    rows = []
    header = ("type", "n", "gpusort.sort", "cupy.sort", "sort x", "gpusort.argsort", "cupy.argsort", "torch.sort",
              "argsort x (best peer)")
    print(" | ".join(header))
    for t in a.types.split(","):
        for k in range(a.min_log2, a.max_log2 + 1, a.step):
            n = 1 << k
            x = keys_on_device(t, n, k)
            g_sort = timed(lambda: gpusort.sort(x), a.warmup, a.repeats)
            c_sort = timed(lambda: cupy.sort(x), a.warmup, a.repeats)
            assert bool((gpusort.sort(x) == cupy.sort(x)).all()), f"sort differs from cupy for {t} n={n}"
            g_arg = timed(lambda: gpusort.argsort(x), a.warmup, a.repeats)
            c_arg = timed(lambda: cupy.argsort(x), a.warmup, a.repeats)
            idx = gpusort.argsort(x)
            assert bool((x[idx] == cupy.sort(x)).all()), f"argsort wrong for {t} n={n}"
            t_sort = float("nan")
            dt = torch_dtype(t)
            if torch is not None and dt is not None:
                try:
                    tx = torch.from_dlpack(x)
                    torch.sort(tx)
                    t_sort = timed(lambda: torch.sort(tx), a.warmup, a.repeats)
                except (RuntimeError, TypeError):
                    pass  # this torch cannot sort the type on CUDA
            best_arg = min(v for v in (c_arg, t_sort) if v == v)
            row = (t, n, g_sort, c_sort, c_sort / g_sort, g_arg, c_arg, t_sort, best_arg / g_arg)
            rows.append(row)
            print(f"{t} | 2^{k} | {g_sort:.4f} | {c_sort:.4f} | {c_sort / g_sort:.2f}x | {g_arg:.4f} | {c_arg:.4f} | "
                  f"{t_sort:.4f} | {best_arg / g_arg:.2f}x", flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
