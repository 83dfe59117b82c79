#!/usr/bin/env python3
"""Partition in Python: gpusort.partition and argpartition beside a full sort, same process, on CUDA tensors.

Issue 53's target: a partition of 2^28 keys at least 3x faster than a full sort. Cases are rows x
length float32 tensors (standard normal) or 1-D tensors of 2^LOG2 keys (normal, uniform in [-1, 1),
random bits that are finite floats), each partitioned around rank kth along the last axis. Times are
CUDA-event milliseconds around one call on the current stream, median of --repeats after --warmup
calls (which also compile gpusort's kernels), beside gpusort.sort and torch.sort of the same tensor
(torch.sort(stable=True)) and one read of the keys (a sum, torch's own kernel); CuPy's partition too
where CuPy is installed. The result is checked first (numpy's contract: the key of rank kth, as
torch.kthvalue has it, at kth, none greater before it, none smaller after it; argpartition's indices
give the same keys). Prints a table; --csv writes the rows.

  python3 bench/python_partition.py [--cases 1d:28:normal:134217728,4096x32768:1023] [--repeats 7] [--csv FILE]
"""
import argparse
import csv
import statistics
import sys

try:
    import torch
except ImportError:
    torch = None
try:
    import gpusort
except ImportError:
    gpusort = None
try:
    import cupy
except ImportError:
    cupy = None

DEFAULT_CASES = ("64x128256:49,4096x32768:1023,16384x1024:511,1d:24:normal:8388608,1d:28:normal:134217728,"
                 "1d:28:uniform:1000,1d:28:bits:134217728")


def parse_case(text):
    """(rows, length, kth, dist); ValueError otherwise."""
    parts = text.split(":")
    if parts[0] == "1d":
        if len(parts) != 4 or not parts[1].isdigit() or parts[2] not in ("normal", "uniform", "bits"):
            raise ValueError(f"'{text}' is not 1d:LOG2:normal|uniform|bits:KTH")
        return (1, 1 << int(parts[1]), int(parts[3]), parts[2])
    if len(parts) != 2:
        raise ValueError(f"'{text}' is not RxL:KTH")
    rows, _, length = parts[0].partition("x")
    return (int(rows), int(length), int(parts[1]), "normal")


def make_keys(rows, length, dist, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    shape = (rows, length) if rows > 1 else (length,)
    if dist == "normal":
        return torch.randn(shape, device="cuda", generator=g)
    if dist == "uniform":
        return torch.rand(shape, device="cuda", generator=g) * 2 - 1
    bits = torch.randint(-(1 << 31), (1 << 31) - 1, shape, device="cuda", dtype=torch.int32, generator=g)
    x = bits.view(torch.float32)
    return torch.where(torch.isfinite(x), x, torch.zeros_like(x))


def time_ms(fn, repeats, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def partitioned(x, result, indices, kth):
    """numpy's contract along the last axis (no NaN in these keys), and the indices naming the keys."""
    pivot = torch.kthvalue(x, kth + 1, dim=-1, keepdim=True).values
    ok = torch.equal(result[..., kth:kth + 1], pivot)
    ok = ok and bool((result[..., :kth] <= pivot).all()) and bool((result[..., kth + 1:] >= pivot).all())
    return ok and torch.equal(torch.gather(x, -1, indices), result)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--csv", default=None)
    args = ap.parse_args()
    if torch is None or not torch.cuda.is_available():
        print("python_partition: needs PyTorch with a CUDA device", file=sys.stderr)
        return 2
    if gpusort is None:
        print("python_partition: the gpusort module is not importable", file=sys.stderr)
        return 2
    cases = [parse_case(t) for t in args.cases.split(",") if t]
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, gpusort {gpusort.__version__}"
          f"{', cupy ' + cupy.__version__ if cupy else ''}; ms, median of {args.repeats}")
    header = ["case", "kth", "read_ms", "partition_ms", "argpartition_ms", "gpusort_sort_ms", "torch_sort_ms",
              "cupy_partition_ms", "x_sort", "check"]
    line = "{:<24} {:>10} {:>8} {:>12} {:>15} {:>15} {:>13} {:>17} {:>7}  {}"
    print(line.format(*header))
    out = []
    for i, (rows, length, kth, dist) in enumerate(cases):
        x = make_keys(rows, length, dist, 4321 + i)
        name = f"{rows}x{length}" if rows > 1 else f"1d 2^{length.bit_length() - 1} {dist}"
        ok = partitioned(x, gpusort.partition(x, kth), gpusort.argpartition(x, kth), kth)
        check = "ok" if ok else "MISMATCH"
        read = time_ms(lambda: x.sum(), args.repeats, args.warmup)
        t_part = time_ms(lambda: gpusort.partition(x, kth), args.repeats, args.warmup)
        t_arg = time_ms(lambda: gpusort.argpartition(x, kth), args.repeats, args.warmup)
        t_sort = time_ms(lambda: gpusort.sort(x), args.repeats, args.warmup)
        t_torch = time_ms(lambda: torch.sort(x, dim=-1, stable=True), args.repeats, args.warmup)
        t_cupy = float("nan")
        if cupy is not None:
            cx = cupy.asarray(x)
            t_cupy = time_ms(lambda: cupy.partition(cx, kth, axis=-1), args.repeats, args.warmup)
            del cx
        row = [name, kth, f"{read:.4f}", f"{t_part:.4f}", f"{t_arg:.4f}", f"{t_sort:.4f}", f"{t_torch:.4f}",
               f"{t_cupy:.4f}", f"{t_sort / t_part:.2f}", check]
        print(line.format(*row))
        out.append(dict(zip(header, row)))
        del x
        torch.cuda.empty_cache()
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header)
            w.writeheader()
            w.writerows(out)
    return 0 if all(r["check"] == "ok" for r in out) else 1


if __name__ == "__main__":
    sys.exit(main())
