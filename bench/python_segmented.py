#!/usr/bin/env python3
"""Many sorts at once in Python: torch.sort(dim=-1), cupy.sort(axis=-1) and gpusort's axis=-1, same process.

The shapes of `gpusort-bench segmented` (same names, same segment lengths for the same name):
RxL is a (R, L) float32 tensor of standard normal keys; tiny[:R:MAX] and powerlaw[:S:N] have lengths
that vary, which no peer here sorts as such: tiny is padded to (R, MAX) with +inf (the padding is
sorted too, and timed), powerlaw (whose longest segment is too long to pad) is sorted by torch as two
stable sorts (the keys, then the segment ids in the keys' order: the usual workaround; forms v+i and
desc) and by nothing else. Rates (Mkey/s) and the copy count the shape's keys, not the padding. For
each shape and form:

  keys      torch.sort(x, dim=-1).values (torch makes the indices either way), cupy.sort(x, axis=-1),
            gpusort.sort(x, axis=-1)
  v+i       values and int64 indices: torch.sort(x, dim=-1) and stable=True, cupy.argsort then
            take_along_axis, gpusort.sort(x, axis=-1, return_indices=True)
  argsort   int64 indices alone: torch.argsort(x, dim=-1) and stable=True, cupy.argsort(x, axis=-1),
            gpusort.argsort(x, axis=-1)
  desc      keys and v+i descending (torch and gpusort; CuPy sorts ascending only)

beside a device-to-device copy of the same bytes (keys, and indices where the form has them). Times
are CUDA-event milliseconds around one Python call on the current stream, median of --repeats (7)
after --warmup calls (which also compile gpusort's kernels). gpusort's results are checked against
torch's (values equal; every index names its value) before timing. gpusort's axis= is new: where the
installed module refuses it, its rows say "not yet". Prints a table; --csv writes the rows.

  python3 bench/python_segmented.py [--shapes 64x128256,tiny] [--forms keys,v+i,argsort,desc] [--csv FILE]
  python3 bench/python_peers.py segmented [the same options]
"""
import argparse
import csv
import math
import statistics
import sys

try:
    import torch
except ImportError:
    torch = None
try:
    import cupy
except ImportError:
    cupy = None
try:
    import gpusort
except ImportError:
    gpusort = None

DEFAULT_SHAPES = "32x131072,64x128256,256x131072,4096x32768,16384x1024,1048576x32,4x16777216,powerlaw,tiny"
QUICK_SHAPES = "64x128256,16384x1024,tiny"
FORMS = ("keys", "v+i", "argsort", "desc")
PAD_LIMIT = 8  # pad a shape of varying lengths only while the padded tensor holds at most 8x its keys

# --- the shapes, as bench/segmented_shapes.cpp makes them --------------------------------------
M64 = (1 << 64) - 1


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def unit(seed, i):
    return ((mix64((seed + i * 0x9E3779B97F4A7C15) & M64) >> 11) + 1) * 2.0 ** -53


def parse_shape(text):
    """(kind, segments, length) as gpusort-bench segmented reads --shapes; ValueError otherwise."""
    if text == "powerlaw":
        return ("powerlaw", 1 << 16, 1 << 26)
    if text == "tiny":
        return ("tiny", 1 << 17, 64)
    for kind in ("powerlaw", "tiny"):
        if text.startswith(kind + ":"):
            parts = text.split(":")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() and int(parts[1]) > 0:
                if kind == "tiny" or int(parts[2]) > 0:
                    return (kind, int(parts[1]), int(parts[2]))
            raise ValueError(f"'{text}' is not {kind}:S:N")
    rows, _, length = text.partition("x")
    if rows.isdigit() and length.isdigit() and int(rows) > 0 and int(length) > 0:
        return ("rows", int(rows), int(length))
    raise ValueError(f"'{text}' is not RxL, powerlaw[:S:N] or tiny[:R:MAX]")


def shape_name(shape):
    kind, segments, length = shape
    return f"{segments}x{length}" if kind == "rows" else f"{kind}:{segments}:{length}"


def shape_seed(name):
    seed = 0x5E65E6
    for c in name.encode():
        seed = mix64(seed ^ c)
    return seed


def segment_lengths(shape):
    """The lengths gpusort-bench segmented gives the shape's segments (powerlaw: up to a rounding)."""
    kind, segments, length = shape
    if kind == "rows":
        return [length] * segments
    seed = shape_seed(shape_name(shape))
    if kind == "tiny":
        return [mix64((seed + s) & M64) % (length + 1) for s in range(segments)]
    w = [unit(seed, s) ** (-1.0 / 1.2) - 1 for s in range(segments)]
    total = sum(w)
    lens = [int(x / total * length) for x in w]
    given, s = sum(lens), 0
    while given < length:
        lens[s] += 1
        given += 1
        s = (s + 1) % segments
    return lens


# --- timing --------------------------------------------------------------------------------------
def timed(fn, warmup, repeats):
    """Median CUDA-event time of fn() in ms, on torch's current stream."""
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


def gpusort_axis_ready(x):
    """"" when gpusort takes axis= here, else why not."""
    if gpusort is None:
        return "not installed"
    try:
        got = gpusort.sort(x[:2, :8].contiguous(), axis=-1)
        want = torch.sort(x[:2, :8], dim=-1).values
        if not torch.equal(torch.as_tensor(got, device=x.device), want):
            return "not yet (axis=-1 gave another result)"
    except Exception as e:  # noqa: BLE001 - any refusal means the feature is not there yet
        return f"not yet ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})"
    return ""


def check_pair(values, indices, x, want_values, what):
    if not torch.equal(values, want_values):
        raise SystemExit(f"python_segmented: {what}: values differ from torch.sort")
    if not torch.equal(torch.gather(x, -1, indices), values):
        raise SystemExit(f"python_segmented: {what}: an index does not name its value")


def entries(x, form, shape_kind, segments_of=None):
    """(peer, call, check) for one form on a 2-D tensor x (ragged: a 1-D tensor with segment ids)."""
    out = []
    if shape_kind == "ragged":
        seg, start = segments_of

        def two_sorts(descending=False):
            v, i = torch.sort(x, stable=True, descending=descending)
            s, j = torch.sort(seg[i], stable=True)
            return v[j], i[j] - start[s]

        if form == "v+i":
            out.append(("torch two stable sorts", lambda: two_sorts(), None))
        elif form == "desc":
            out.append(("torch two stable sorts desc", lambda: two_sorts(True), None))
        return out
    c = cupy.from_dlpack(x) if cupy is not None else None
    g = gpusort
    if form == "keys":
        out.append(("torch.sort(dim=-1).values", lambda: torch.sort(x, dim=-1).values, None))
        if c is not None:
            out.append(("cupy.sort(axis=-1)", lambda: cupy.sort(c, axis=-1), None))
        out.append(("gpusort.sort(axis=-1)", lambda: g.sort(x, axis=-1),
                    lambda r: torch.equal(torch.as_tensor(r), torch.sort(x, dim=-1).values)))
    elif form == "v+i":
        out.append(("torch.sort(dim=-1)", lambda: torch.sort(x, dim=-1), None))
        out.append(("torch.sort(dim=-1, stable=True)", lambda: torch.sort(x, dim=-1, stable=True), None))
        if c is not None:
            def cupy_vi():
                i = cupy.argsort(c, axis=-1)
                return cupy.take_along_axis(c, i, axis=-1), i
            out.append(("cupy.argsort + take_along_axis", cupy_vi, None))
        out.append(("gpusort.sort(axis=-1, return_indices=True)", lambda: g.sort(x, axis=-1, return_indices=True),
                    lambda r: check_pair(torch.as_tensor(r[0]), torch.as_tensor(r[1]), x,
                                         torch.sort(x, dim=-1, stable=True).values, "gpusort v+i") is None))
    elif form == "argsort":
        out.append(("torch.argsort(dim=-1)", lambda: torch.argsort(x, dim=-1), None))
        out.append(("torch.argsort(dim=-1, stable=True)", lambda: torch.argsort(x, dim=-1, stable=True), None))
        if c is not None:
            out.append(("cupy.argsort(axis=-1)", lambda: cupy.argsort(c, axis=-1), None))
        out.append(("gpusort.argsort(axis=-1)", lambda: g.argsort(x, axis=-1),
                    lambda r: torch.equal(torch.gather(x, -1, torch.as_tensor(r)), torch.sort(x, dim=-1).values)))
    elif form == "desc":
        out.append(("torch.sort(dim=-1, descending=True)", lambda: torch.sort(x, dim=-1, descending=True), None))
        out.append(("gpusort.sort(axis=-1, descending=True)", lambda: g.sort(x, axis=-1, descending=True),
                    lambda r: torch.equal(torch.as_tensor(r), torch.sort(x, dim=-1, descending=True).values)))
        out.append(("gpusort.sort(axis=-1, descending=True, return_indices=True)",
                    lambda: g.sort(x, axis=-1, descending=True, return_indices=True),
                    lambda r: check_pair(torch.as_tensor(r[0]), torch.as_tensor(r[1]), x,
                                         torch.sort(x, dim=-1, descending=True, stable=True).values,
                                         "gpusort desc v+i") is None))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", default="", help=f"a,b,... : RxL, powerlaw[:S:N], tiny[:R:MAX] (default {DEFAULT_SHAPES})")
    p.add_argument("--quick", action="store_true", help=f"{QUICK_SHAPES} (unless --shapes says otherwise)")
    p.add_argument("--forms", default=",".join(FORMS), help="a,b,... : keys, v+i, argsort, desc (default all)")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--csv", default="")
    a = p.parse_args(argv)
    try:
        shapes = [parse_shape(t) for t in (a.shapes or (QUICK_SHAPES if a.quick else DEFAULT_SHAPES)).split(",") if t]
    except ValueError as e:
        p.error(f"--shapes: {e}")
    forms = [f for f in a.forms.split(",") if f]
    for f in forms:
        if f not in FORMS:
            p.error(f"--forms: '{f}' is not one of {', '.join(FORMS)}")
    if torch is None or not torch.cuda.is_available():
        sys.exit("python_segmented: needs PyTorch with a CUDA device")
    dev = torch.device("cuda")
    header = ("shape", "form", "entry", "ms", "Mkey/s", "copy_ms", "frac_of_copy_bw", "x torch best", "status")
    print(f"torch {torch.__version__}, cupy {cupy.__version__ if cupy else 'absent'}, "
          f"gpusort {getattr(gpusort, '__version__', 'absent') if gpusort else 'absent'} on {torch.cuda.get_device_name()}")
    print(f"{'shape':24} {'form':8} {'entry':58} {'ms':>9} {'Mkey/s':>9} {'%copy':>7} {'x torch':>8}  status")
    rows = []
    gen = torch.Generator(device=dev)
    for shape in shapes:
        name = shape_name(shape)
        kind, segments, length = shape
        lens = segment_lengths(shape)
        n = sum(lens)
        gen.manual_seed(shape_seed(name) & 0x7FFFFFFF)
        ragged_note = ""
        if kind == "rows":
            x = torch.randn(segments, length, device=dev, generator=gen)
            layout = "rows"
        elif segments * max(lens) <= PAD_LIMIT * n:
            width = max(lens)
            flat = torch.randn(n, device=dev, generator=gen)
            lt = torch.tensor(lens, device=dev)
            start = torch.cumsum(lt, 0) - lt
            seg = torch.repeat_interleave(torch.arange(segments, device=dev), lt, output_size=n)
            col = torch.arange(n, device=dev) - start[seg]
            x = torch.full((segments, width), math.inf, device=dev)
            x[seg, col] = flat
            layout = "rows"
            ragged_note = f" (padded to {segments}x{width} with +inf)"
        else:
            x = torch.randn(n, device=dev, generator=gen)
            lt = torch.tensor(lens, device=dev)
            start = torch.cumsum(lt, 0) - lt
            seg = torch.repeat_interleave(torch.arange(segments, device=dev), lt, output_size=n)
            layout = "ragged"
        axis_state = gpusort_axis_ready(x) if layout == "rows" else "n/a (no segment offsets in Python)"
        print(f"== {name}: {segments} segments, {n} keys{ragged_note}; gpusort axis=: {axis_state or 'yes'}",
              file=sys.stderr, flush=True)
        for form in forms:
            index_bytes = 8 if form in ("v+i", "argsort", "desc") else 0
            nbytes = n * (4 + index_bytes)
            src = torch.empty(nbytes, dtype=torch.uint8, device=dev)
            dst = torch.empty_like(src)
            copy_ms = timed(lambda: dst.copy_(src), a.warmup, a.repeats)
            del src, dst
            measured = []
            for entry, call, check in entries(x, form, layout, (seg, start) if layout == "ragged" else None):
                status = "ok"
                ms = float("nan")
                if entry.startswith("gpusort") and axis_state:
                    status = axis_state
                else:
                    try:
                        if check is not None and check(call()) is False:
                            raise SystemExit(f"python_segmented: {entry} on {name}: wrong result")
                        ms = timed(call, a.warmup, a.repeats)
                    except (RuntimeError, TypeError, ValueError, MemoryError) as e:
                        status = f"error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
                measured.append([name, form, entry, ms, status])
            torch_best = min((m[3] for m in measured if m[2].startswith("torch") and m[3] == m[3]), default=math.nan)
            for m in [[name, form, "device-to-device copy", copy_ms, "ok"]] + measured:
                ms = m[3]
                keys_per_s = n / (ms * 1e-3) if ms == ms else math.nan
                frac = copy_ms / ms if ms == ms else math.nan
                ratio = torch_best / ms if ms == ms and not m[2].startswith("device") else math.nan
                rows.append((m[0], m[1], m[2], ms, keys_per_s, copy_ms, frac, ratio, m[4]))
                print(f"{m[0]:24} {m[1]:8} {m[2]:58} {ms:9.4f} {keys_per_s / 1e6:9.1f} {100 * frac:6.1f}% "
                      f"{ratio:8.2f}  {m[4]}", flush=True)
        del x
        torch.cuda.empty_cache()
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
