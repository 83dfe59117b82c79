#!/usr/bin/env python3
"""gpusort beside torch.sort on CUDA tensors, same process: the values-and-indices call and the keys.

For each key type and n, on one random tensor already on the GPU:
  torch.sort       torch.sort(x) and torch.sort(x, stable=True), the faster of the two (the peer's
                   best form; both return values and int64 indices)
  cupy.sort        cupy.sort of the same memory (keys only), where CuPy takes the dtype
  gpusort.sort     gpusort.sort(x) (keys only)
  gpusort v+i      gpusort.sort(x, return_indices=True): values and int64 indices, stable
and the time of one device-to-device copy of the keys (the floor of any sort that reads and writes
them once). Times are CUDA-event milliseconds around one Python call, median of --repeats after
--warmup calls (which also compile gpusort's kernels). Every gpusort result is checked against
torch.sort(x, stable=True): values and indices equal element for element (NaN last, -0 == +0,
stable). Prints a table; --csv writes the rows.

  python3 bench/python_torch_sort.py [--types f32,i64,f16,bf16] [--min-log2 20] [--max-log2 28] [--step 2]
"""
import argparse
import csv
import statistics
import sys

import torch

import gpusort

try:
    import cupy
except ImportError:
    cupy = None

TORCH = {"f32": torch.float32, "f64": torch.float64, "i32": torch.int32, "i64": torch.int64,
         "u8": torch.uint8, "i16": torch.int16, "f16": torch.float16, "bf16": torch.bfloat16, "bool": torch.bool}


def timed(fn, warmup, repeats):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def random_keys(type_name, n, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    dtype = TORCH[type_name]
    if dtype.is_floating_point:
        return torch.randn(n, generator=g, device="cuda", dtype=torch.float32).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,), generator=g, device="cuda").bool()
    info = torch.iinfo(dtype)
    return torch.randint(info.min, info.max, (n,), generator=g, device="cuda", dtype=dtype)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--types", default="f32,i64,f16,bf16")
    p.add_argument("--min-log2", type=int, default=20)
    p.add_argument("--max-log2", type=int, default=28)
    p.add_argument("--step", type=int, default=2)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeats", type=int, default=9)
    p.add_argument("--csv", default="")
    a = p.parse_args()
    if not torch.cuda.is_available():
        sys.exit("python_torch_sort: needs a CUDA device")
    header = ("type", "n", "copy", "torch.sort", "torch form", "cupy.sort", "gpusort.sort", "gpusort v+i",
              "v+i x torch", "keys x torch", "keys x cupy")
    print(" | ".join(header))
    rows = []
    for t in a.types.split(","):
        for k in range(a.min_log2, a.max_log2 + 1, a.step):
            n = 1 << k
            x = random_keys(t, n, k)
            ref_values, ref_indices = torch.sort(x, stable=True)
            values, indices = gpusort.sort(x, return_indices=True)
            assert torch.equal(values, ref_values) and torch.equal(indices, ref_indices), f"{t} n={n}: differs"
            assert torch.equal(gpusort.sort(x), ref_values), f"{t} n={n}: keys differ"
            del values, indices, ref_values, ref_indices
            copy = timed(lambda: x.clone(), a.warmup, a.repeats)
            t_default = timed(lambda: torch.sort(x), a.warmup, a.repeats)
            t_stable = timed(lambda: torch.sort(x, stable=True), a.warmup, a.repeats)
            t_best, form = (t_default, "default") if t_default <= t_stable else (t_stable, "stable")
            c_sort = float("nan")
            if cupy is not None:
                try:
                    cx = cupy.from_dlpack(x)
                    c_sort = timed(lambda: cupy.sort(cx), a.warmup, a.repeats)
                except (TypeError, ValueError, RuntimeError, NotImplementedError):
                    pass  # this CuPy takes no such dtype
            g_keys = timed(lambda: gpusort.sort(x), a.warmup, a.repeats)
            g_vi = timed(lambda: gpusort.sort(x, return_indices=True), a.warmup, a.repeats)
            row = (t, n, copy, t_best, form, c_sort, g_keys, g_vi, t_best / g_vi, t_best / g_keys, c_sort / g_keys)
            rows.append(row)
            print(f"{t} | 2^{k} | {copy:.4f} | {t_best:.4f} | {form} | {c_sort:.4f} | {g_keys:.4f} | {g_vi:.4f} | "
                  f"{t_best / g_vi:.2f}x | {t_best / g_keys:.2f}x | {c_sort / g_keys:.2f}x", flush=True)
            del x
            torch.cuda.empty_cache()
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    main()
