#!/usr/bin/env python3
"""Charts from gpusort-bench output (docs/PERFORMANCE.md).

usage: bench/plot.py [DIR] [--out OUTDIR] [--dist uniform] [--markdown]
  DIR holds sweep.csv and/or tables.csv (default ./bench-out); charts go to OUTDIR (default DIR):
  sweep_<type>.png/.svg   keys/s vs n, one line per algorithm and peer (one chart per key type)
  tables_local_<kv>.png/.svg   keys/s vs work-group size per local tile kernel (Bainville's tables)
  tables_merge_pass.png/.svg   keys/s vs run width per global merge variant (one pass each)
"""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f)]


def num(s):
    try:
        v = float(s)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def save(fig, outdir, name):
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(outdir, f"{name}.{ext}"), dpi=90 if ext == "png" else None, bbox_inches="tight")
    plt.close(fig)
    print(f"wrote {os.path.join(outdir, name)}.png/.svg")


def device_of(rows):
    for r in rows:
        if r["mode"] != "peer" and r.get("device"):
            return r["device"]
    return rows[0].get("device", "") if rows else ""


def plot_sweep(rows, outdir, dist):
    ok = [r for r in rows if r["status"] == "ok" and num(r["keys_per_s"]) and r["algorithm"] != "copy"]
    by_type = defaultdict(lambda: defaultdict(list))
    for r in ok:
        if r["distribution"] != dist:
            continue
        kv = r["key_type"] + ("/" + r["value_type"] if r["value_type"] else "")
        by_type[kv][r["algorithm"]].append((int(r["n"]), num(r["keys_per_s"])))
    dev = device_of(rows)
    for kv, algs in sorted(by_type.items()):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        ax.set_prop_cycle(color=[plt.cm.tab20(i % 20) for i in range(40)])
        for alg, pts in sorted(algs.items()):
            pts.sort()
            style = "--" if alg.startswith(("std::", "cub_")) else "-"
            ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], style, marker=".", label=alg)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("n (keys)")
        ax.set_ylabel("Mkeys/s (median)")
        ax.set_title(f"{kv}, {dist} keys - {dev}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        save(fig, outdir, "sweep_" + kv.replace("/", "_"))


def plot_tables(rows, outdir):
    ok = [r for r in rows if r["status"] == "ok" and num(r["keys_per_s"])]
    dev = device_of(rows)
    for kv_label, want_values in (("key+value", True), ("keys", False)):
        curves = defaultdict(list)
        for r in ok:
            if r["mode"] == "local" and bool(r["value_type"]) == want_values:
                curves[r["algorithm"]].append((int(r["work_group_size"]), num(r["keys_per_s"])))
        if not curves:
            continue
        fig, ax = plt.subplots(figsize=(6, 4))
        for k, pts in curves.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], marker="o", label=k)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("work-group size (keys per tile, 1 per work-item)")
        ax.set_ylabel("Mkeys/s (median)")
        ax.set_title(f"local tile sorts, u32 {kv_label} - {dev}", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, outdir, "tables_local_" + ("kv" if want_values else "keys"))
    curves = defaultdict(list)
    for r in ok:
        if r["mode"] == "merge-pass":
            curves[r["algorithm"]].append((int(r["variant"].split("=")[1]), num(r["keys_per_s"])))
    if curves:
        fig, ax = plt.subplots(figsize=(6, 4))
        for k, pts in curves.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], marker="o", label=k)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("input run width (one pass: width -> 2*width)")
        ax.set_ylabel("Mkeys/s per pass (median)")
        ax.set_title(f"global merge passes, u32/u32 - {dev}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, outdir, "tables_merge_pass")


def fmt(v, digits=3):
    return "" if v is None else f"{v:.{digits}g}"


def markdown(sweep, tables, dist):
    """Markdown tables for docs/PERFORMANCE.md: the sweep at its largest n per key type, and the
    seeds' work-group tables (Mkeys/s, one row per local kernel, one column per WG)."""
    out = []
    ok = [r for r in sweep if r["status"] == "ok" and r["distribution"] == dist and num(r["median_ms"])]
    kvs = sorted({r["key_type"] + ("/" + r["value_type"] if r["value_type"] else "") for r in ok})
    for kv in kvs:
        rows = [r for r in ok if r["key_type"] + ("/" + r["value_type"] if r["value_type"] else "") == kv]
        by_alg = {}
        for r in rows:
            if r["algorithm"] not in by_alg or int(r["n"]) > int(by_alg[r["algorithm"]]["n"]):
                by_alg[r["algorithm"]] = r
        out.append(f"\n**{kv}, {dist}** (largest n each algorithm reached)\n")
        out.append("| algorithm | n | median ms | Mkeys/s | GB/s | of copy BW | x CUB radix | x CUB merge |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for alg, r in sorted(by_alg.items(), key=lambda kv_: -(num(kv_[1]["keys_per_s"]) or 0)):
            name = alg + (f" ({r['variant']})" if alg == "auto" and r["variant"] else "")
            out.append(f"| {name} | 2^{int(math.log2(int(r['n'])))} | {fmt(num(r['median_ms']))} | "
                       f"{fmt((num(r['keys_per_s']) or 0) / 1e6)} | {fmt(num(r['gb_per_s']))} | "
                       f"{fmt(num(r['frac_of_copy_bw']), 2)} | {fmt(num(r['ratio_to_cub_radix']), 2)} | "
                       f"{fmt(num(r['ratio_to_cub_merge']), 2)} |")
    okt = [r for r in tables if r["status"] == "ok" and num(r["keys_per_s"])]
    for label, want in (("key+value (u32/u32), as Bainville", True), ("keys only (u32)", False)):
        cells = {(r["algorithm"], int(r["work_group_size"])): num(r["keys_per_s"]) / 1e6
                 for r in okt if r["mode"] == "local" and bool(r["value_type"]) == want}
        if not cells:
            continue
        wgs = sorted({w for _, w in cells})
        kernels = list(dict.fromkeys(k for k, _ in cells))
        out.append(f"\n**Local tile sorts, Mkeys/s, {label}; tile = WG keys**\n")
        out.append("| kernel | " + " | ".join(f"WG {w}" for w in wgs) + " |")
        out.append("|---|" + "---:|" * len(wgs))
        for k in kernels:
            out.append(f"| {k} | " + " | ".join(fmt(cells.get((k, w)), 3) for w in wgs) + " |")
    passes = {}
    for r in okt:
        if r["mode"] == "merge-pass":
            passes.setdefault(r["algorithm"], []).append((int(r["variant"].split("=")[1]), num(r["keys_per_s"]) / 1e6,
                                                          num(r["gb_per_s"])))
    if passes:
        widths = sorted({w for v in passes.values() for w, _, _ in v})
        out.append("\n**Global merge passes, u32/u32, Mkeys/s per pass (run width -> 2x width)**\n")
        out.append("| variant | " + " | ".join(f"w={w}" for w in widths) + " |")
        out.append("|---|" + "---:|" * len(widths))
        for v, pts in passes.items():
            d = {w: k for w, k, _ in pts}
            out.append(f"| {v} | " + " | ".join(fmt(d.get(w)) for w in widths) + " |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", default="bench-out")
    ap.add_argument("--out", default=None)
    ap.add_argument("--dist", default="uniform")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables instead of plotting")
    a = ap.parse_args()
    outdir = a.out or a.dir
    os.makedirs(outdir, exist_ok=True)
    sweep = read(os.path.join(a.dir, "sweep.csv"))
    tables = read(os.path.join(a.dir, "tables.csv"))
    if not sweep and not tables:
        sys.exit(f"plot.py: no sweep.csv or tables.csv in {a.dir}")
    if a.markdown:
        sys.stdout.write(markdown(sweep, tables, a.dist))
        return
    if sweep:
        plot_sweep(sweep, outdir, a.dist)
    if tables:
        plot_tables(tables, outdir)


if __name__ == "__main__":
    main()
