#!/usr/bin/env python3
"""Top-k in Python: gpusort.topk beside torch.topk, same process, on CUDA tensors.

Issue 53's shapes: rows x length float32 tensors (standard normal, as logits) with k per row, and
1-D tensors of 2^24 / 2^28 keys drawn three ways (normal, uniform in [-1, 1), random bits that are
finite floats). For each case both libraries return the k largest, sorted, with int64 indices
(torch.topk(x, k, dim=-1, largest=True, sorted=True); gpusort.topk(x, k)). gpusort's values are
checked against torch's before timing (equal values in the same order; every index names its
value). Times are CUDA-event milliseconds around one call on the current stream, median of
--repeats after --warmup calls (which also compile gpusort's kernels), beside one read of the keys
(a sum over them, torch's own kernel). Prints a table; --csv writes the rows.

  python3 bench/python_topk.py [--cases 64x128256:50,1d:24:normal:1000] [--repeats 7] [--csv FILE]
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

DEFAULT_CASES = ("64x128256:50,64x128256:1024,256x131072:50,4096x32768:50,4096x32768:1024,16384x1024:50,"
                 "1d:24:normal:1000,1d:28:normal:10,1d:28:normal:1000,1d:28:normal:100000,"
                 "1d:28:uniform:1000,1d:28:bits:1000")


def parse_case(text):
    """('rows', R, L, k, 'normal') or ('1d', 1, 2^e, k, dist); ValueError otherwise."""
    parts = text.split(":")
    if parts[0] == "1d":
        if len(parts) != 4 or not parts[1].isdigit() or parts[2] not in ("normal", "uniform", "bits"):
            raise ValueError(f"'{text}' is not 1d:LOG2:normal|uniform|bits:K")
        return ("1d", 1, 1 << int(parts[1]), int(parts[3]), parts[2])
    if len(parts) != 2:
        raise ValueError(f"'{text}' is not RxL:K")
    rows, _, length = parts[0].partition("x")
    return ("rows", int(rows), int(length), int(parts[1]), "normal")


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--csv", default=None)
    args = ap.parse_args()
    if torch is None or not torch.cuda.is_available():
        print("python_topk: needs PyTorch with a CUDA device", file=sys.stderr)
        return 2
    if gpusort is None:
        print("python_topk: the gpusort module is not importable", file=sys.stderr)
        return 2
    cases = [parse_case(t) for t in args.cases.split(",") if t]
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, gpusort {gpusort.__version__}; ms, "
          f"median of {args.repeats}")
    header = ["case", "k", "read_ms", "torch_ms", "gpusort_ms", "x_torch", "check"]
    print("{:<24} {:>7} {:>9} {:>10} {:>11} {:>8}  {}".format(*header))
    out = []
    for i, (kind, rows, length, k, dist) in enumerate(cases):
        x = make_keys(rows, length, dist, 1234 + i)
        name = f"{rows}x{length}" if kind == "rows" else f"1d 2^{length.bit_length() - 1} {dist}"
        tv, ti = torch.topk(x, k, dim=-1, largest=True, sorted=True)
        gv, gi = gpusort.topk(x, k)
        ok = torch.equal(gv, tv) and torch.equal(torch.gather(x, -1, gi), gv)
        check = "ok" if ok else "MISMATCH"
        read = time_ms(lambda: x.sum(), args.repeats, args.warmup)
        t_torch = time_ms(lambda: torch.topk(x, k, dim=-1, largest=True, sorted=True), args.repeats, args.warmup)
        t_ours = time_ms(lambda: gpusort.topk(x, k), args.repeats, args.warmup) if ok else float("nan")
        row = [name, k, f"{read:.4f}", f"{t_torch:.4f}", f"{t_ours:.4f}", f"{t_torch / t_ours:.2f}", check]
        print("{:<24} {:>7} {:>9} {:>10} {:>11} {:>8}  {}".format(*row))
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
