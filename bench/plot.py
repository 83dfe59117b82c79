#!/usr/bin/env python3
"""Charts and markdown tables from gpusort-bench output (docs/PERFORMANCE.md).

usage: bench/plot.py [DIR] [--sweep CSV] [--tables CSV] [--out OUTDIR] [--prefix P] [--dist uniform]
                     [--types u32,u32/u32] [--formats png,svg] [--device D] [--date D] [--commit C]
                     [--markdown]

  DIR holds sweep.csv and/or tables.csv (default ./bench-out); --sweep / --tables name the files
  instead. Charts go to OUTDIR (default DIR), each name preceded by --prefix:
    sweep_<type>.png          sort throughput (Gkeys/s) vs n, one line per algorithm and peer
    tables_local_<kv>.png     local tile sorts: Gkeys/s vs work-group size (Bainville's tables)
    tables_merge_pass.png     global merge variants: Gkeys/s per pass vs run width
  Every chart carries a footer with the device, the date, the gpusort version and the commit of the
  measurement: taken from the CSV's columns (device, version, commit) or the JSON beside it
  (gpusort-bench writes sweep.json / tables.json with the date, device, version and commit), else
  from --device / --date; --commit, where given, replaces the recorded commit.
  --markdown prints markdown tables instead of drawing (needs no matplotlib).

Drawing needs matplotlib (Debian/Ubuntu: apt-get install python3-matplotlib); reading the CSV and
--markdown do not.
"""
import argparse
import csv
import json
import math
import os
import sys
from collections import defaultdict

# One colour per algorithm (and local kernel / merge variant) on every chart. gpusort's own
# algorithms get saturated colours; the peers are drawn apart in greys with dashed/dotted lines.
COLOURS = {
    "radix": "#1f77b4",
    "merge": "#ff7f0e",
    "bitonic": "#2ca02c",
    "section-merge": "#d62728",
    "hybrid": "#9467bd",
    "naive-merge": "#8c564b",
    "rank": "#e377c2",
    "odd-even": "#bcbd22",
    "batcher-recursive": "#17becf",
    "batcher-iterative": "#0b5563",
    "bubble": "#7b4173",
    # global merge variants (tables mode)
    "path": "#ff7f0e",
    "half": "#393b79",
    "cached": "#637939",
    "hashed": "#843c39",
}
PEERS = {  # name: (colour, line style, marker)
    "cub_radix": ("#222222", "--", "s"),
    "cub_merge": ("#6f6f6f", "--", "D"),
    "std::sort": ("#9a9a9a", ":", "v"),
    "std::stable_sort": ("#b5b5b5", ":", "^"),
}
PEER_LABELS = {"cub_radix": "CUB radix sort (peer)", "cub_merge": "CUB merge sort (peer)",
               "std::sort": "std::sort, 1 host thread (peer)",
               "std::stable_sort": "std::stable_sort, 1 host thread (peer)"}
MARKERS = "osD^vP*Xph<>"
FALLBACK = ["#7f7f7f", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5"]


def read(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f)]


def num(s):
    try:
        v = float(s)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def pyplot():
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot.py: drawing charts needs matplotlib, which this Python lacks "
                 "(Debian/Ubuntu: apt-get install python3-matplotlib; elsewhere: pip install matplotlib). "
                 "--markdown works without it.")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def json_meta(csv_path):
    """The meta block of the JSON gpusort-bench writes beside its CSV (sweep.json, tables.json)."""
    if not csv_path:
        return {}
    path = os.path.splitext(csv_path)[0] + ".json"
    try:
        with open(path) as f:
            return json.load(f).get("meta", {})
    except (OSError, ValueError):
        return {}


def provenance(rows, csv_path, args):
    """Footer text: device, date, version and commit from the CSV (or its JSON), else the command line."""
    def col(name):  # gpusort's own rows name the device as selected (peers name their API)
        own = [r for r in rows if r.get("mode") != "peer"] or rows
        return ", ".join(dict.fromkeys(r[name] for r in own if r.get(name)))
    meta = json_meta(csv_path)
    device = col("device") or meta.get("device_name", "") or args.device or "device unknown"
    date = col("date") or meta.get("date", "")[:10] or args.date or "date unknown"
    # --commit, where given, wins: a build outside a git checkout records "unknown", and a copy of the
    # sources carrying another checkout's git metadata records that checkout's commit.
    commit = next((c for c in (args.commit, col("commit"), meta.get("commit", "")) if c and c != "unknown"), "unknown")
    version = col("version") or meta.get("version", "")
    src = os.path.basename(csv_path) if csv_path else ""
    return (f"{device}  ·  {date}  ·  " + (f"gpusort {version}, " if version else "") + f"commit {commit}"
            + (f"  ·  data: {src}" if src else ""))


def style_for(name, i, count):
    """Colour, line style, marker and widths of series i of count; earlier series are drawn wider
    and lower, so a series that coincides with another still shows as a rim around it."""
    lw = 1.3 + 2.9 * (count - 1 - i) / max(1, count - 1)
    ms = 3.5 + 6.0 * (count - 1 - i) / max(1, count - 1)
    if name in PEERS:
        colour, ls, marker = PEERS[name]
        return dict(color=colour, linestyle=ls, marker=marker, linewidth=lw, markersize=ms, zorder=2 + i)
    colour = COLOURS.get(name, FALLBACK[sum(name.encode()) % len(FALLBACK)])
    return dict(color=colour, linestyle="-", marker=MARKERS[i % len(MARKERS)], linewidth=lw, markersize=ms,
                zorder=2 + i)


def draw(plt, series, xlabel, ylabel, title, footer, logy, outdir, name, formats, ratios=None):
    """series: list of (name, label, [(x, y)]) in legend order. ratios, where given: the same form,
    each gpusort series as a multiple of the best peer at each x, drawn in a panel below."""
    from matplotlib.ticker import FuncFormatter
    if ratios:
        fig, (ax, rax) = plt.subplots(2, 1, figsize=(8.6, 6.6), sharex=True, gridspec_kw={"height_ratios": [3, 1.4]})
    else:
        fig, ax = plt.subplots(figsize=(8.6, 4.8))
    count = len(series)
    for i, (key, label, pts) in enumerate(series):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **style_for(key, i, count))
    ax.set_xscale("log", base=2)
    xs = sorted({p[0] for _, _, pts in series for p in pts})
    if len(xs) <= 16:  # a tick at every measured size, labelled as a power of two
        ax.set_xticks(xs)
        ax.set_xticklabels([f"$2^{{{int(math.log2(x))}}}$" if x > 0 and x & (x - 1) == 0 else str(x) for x in xs])
        ax.xaxis.set_minor_locator(plt.NullLocator())
    if logy:
        ax.set_yscale("log")
        ys = [p[1] for _, _, pts in series for p in pts if p[1] > 0]
        if ys:  # the lowest series above a labelled power of ten where one is close
            decade = 10 ** math.floor(math.log10(min(ys)))
            ax.set_ylim(bottom=decade if min(ys) < 2 * decade else min(ys) / 1.4)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    if ratios:
        for i, (key, label, pts) in enumerate(ratios):
            pts.sort()
            rax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **style_for(key, i, len(series)))
        rax.axhline(1.0, color="#444444", linewidth=0.9, linestyle=":")
        rax.set_ylabel("x best peer\n(above 1: faster)", fontsize=8)
        rax.set_xlabel(xlabel)
        rax.grid(True, which="major", alpha=0.35)
    else:
        ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", alpha=0.12)
    ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    fig.text(0.01, 0.005, footer, fontsize=7, color="#555555", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.035, 1, 1))
    for ext in formats:
        fig.savefig(os.path.join(outdir, f"{name}.{ext}"), dpi=150 if ext == "png" else None, bbox_inches="tight")
    plt.close(fig)
    print("wrote " + ", ".join(os.path.join(outdir, f"{name}.{ext}") for ext in formats))


def order(curves):
    """gpusort's series first, fastest (at its best point) first; then the peers in a fixed order."""
    ours = sorted((k for k in curves if k not in PEERS), key=lambda k: -max(y for _, y in curves[k]))
    return ours + [k for k in PEERS if k in curves]


def kv_of(r):
    return r["key_type"] + ("/" + r["value_type"] if r["value_type"] else "")


def plot_sweep(plt, rows, csv_path, args, outdir):
    footer = provenance(rows, csv_path, args)
    ok = [r for r in rows if r["status"] == "ok" and num(r["keys_per_s"]) and r["algorithm"] != "copy"]
    by_type = defaultdict(lambda: defaultdict(list))
    auto_is = defaultdict(set)
    for r in ok:
        if r["distribution"] != args.dist:
            continue
        by_type[kv_of(r)][r["algorithm"]].append((int(r["n"]), num(r["keys_per_s"]) / 1e9))
        if r["algorithm"] == "auto":
            auto_is[kv_of(r)].add(r["variant"])
    wanted = {t.strip() for t in args.types.split(",") if t.strip()}
    for kv, curves in sorted(by_type.items()):
        if wanted and kv not in wanted:
            continue
        labels = {k: PEER_LABELS.get(k, k) for k in curves}
        # auto picks radix: its line would lie under radix's, so it is named in radix's label instead.
        if "auto" in curves and "radix" in curves and auto_is[kv] <= {"radix"}:
            del curves["auto"]
            labels["radix"] = "radix (= auto)"
        series = [(k, labels[k], curves[k]) for k in order(curves)]
        # x best peer: each gpusort series against the fastest peer form at the same n
        best = defaultdict(float)
        for k in curves:
            if k in PEERS:
                for n, y in curves[k]:
                    best[n] = max(best[n], y)
        ratios = [(k, labels[k], [(n, y / best[n]) for n, y in curves[k] if best.get(n)])
                  for k in order(curves) if k not in PEERS]
        ratios = [r for r in ratios if r[2]]
        kind = "pairs" if "/" in kv else "keys"
        draw(plt, series, "n (keys)", "Gkeys/s (median; higher is better)",
             f"Sort throughput, {kv} {kind}, {args.dist}", footer, True, outdir,
             args.prefix + "sweep_" + kv.replace("/", "_"), args.formats, ratios or None)


def plot_tables(plt, rows, csv_path, args, outdir):
    footer = provenance(rows, csv_path, args)
    ok = [r for r in rows if r["status"] == "ok" and num(r["keys_per_s"])]
    for kv_label, want_values in (("u32/u32 pairs", True), ("u32 keys", False)):
        curves = defaultdict(list)
        for r in ok:
            if r["mode"] == "local" and bool(r["value_type"]) == want_values:
                curves[r["algorithm"]].append((int(r["work_group_size"]), num(r["keys_per_s"]) / 1e9))
        if not curves:
            continue
        series = [(k, k, curves[k]) for k in order(curves)]
        draw(plt, series, "work-group size = tile (one key per work-item)", "Gkeys/s (median)",
             f"Local tile sorts, {kv_label}", footer, True, outdir,
             args.prefix + "tables_local_" + ("kv" if want_values else "keys"), args.formats)
    curves = defaultdict(list)
    for r in ok:
        if r["mode"] == "merge-pass":
            curves[r["algorithm"]].append((int(r["variant"].split("=")[1]), num(r["keys_per_s"]) / 1e9))
    if curves:
        series = [(k, k, curves[k]) for k in order(curves)]
        draw(plt, series, "input run width w (one pass merges runs of w into 2w)", "Gkeys/s per pass (median)",
             "Global merge passes, u32/u32 pairs", footer, True, outdir, args.prefix + "tables_merge_pass",
             args.formats)


def fmt(v, digits=3):
    return "" if v is None else f"{v:.{digits}g}"


def markdown(sweep, tables, dist):
    """Markdown tables for docs/PERFORMANCE.md: the sweep at its largest n per key type, and the
    seeds' work-group tables (Mkeys/s, one row per local kernel, one column per WG)."""
    out = []
    ok = [r for r in sweep if r["status"] == "ok" and r["distribution"] == dist and num(r["median_ms"])]
    kvs = sorted({kv_of(r) for r in ok})
    for kv in kvs:
        rows = [r for r in ok if kv_of(r) == kv]
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
    ap.add_argument("dir", nargs="?", default="bench-out", help="folder with sweep.csv / tables.csv")
    ap.add_argument("--sweep", help="a sweep CSV (instead of DIR/sweep.csv)")
    ap.add_argument("--tables", help="a tables CSV (instead of DIR/tables.csv)")
    ap.add_argument("--out", default=None, help="folder for the charts (default DIR)")
    ap.add_argument("--prefix", default="", help="put before every chart's file name, e.g. h200-")
    ap.add_argument("--dist", default="uniform")
    ap.add_argument("--types", default="", help="sweep charts only for these, e.g. u32,u32/u32 (default: all)")
    ap.add_argument("--formats", default="png,svg", help="comma-separated: png, svg, pdf")
    ap.add_argument("--device", default="", help="footer: device, where the CSV does not say")
    ap.add_argument("--date", default="", help="footer: date of the measurement, where the CSV does not say")
    ap.add_argument("--commit", default="", help="footer: commit measured, where the CSV does not say")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables instead of plotting")
    a = ap.parse_args()
    a.formats = [f.strip() for f in a.formats.split(",") if f.strip()]
    sweep_path = a.sweep or (None if a.tables else os.path.join(a.dir, "sweep.csv"))
    tables_path = a.tables or (None if a.sweep else os.path.join(a.dir, "tables.csv"))
    sweep = read(sweep_path)
    tables = read(tables_path)
    if not sweep and not tables:
        sys.exit(f"plot.py: no sweep or tables CSV found ({sweep_path or '-'}, {tables_path or '-'})")
    if a.markdown:
        sys.stdout.write(markdown(sweep, tables, a.dist))
        return
    plt = pyplot()
    outdir = a.out or (a.dir if not (a.sweep or a.tables) else os.path.dirname(a.sweep or a.tables) or ".")
    os.makedirs(outdir, exist_ok=True)
    if sweep:
        plot_sweep(plt, sweep, sweep_path, a, outdir)
    if tables:
        plot_tables(plt, tables, tables_path, a, outdir)


if __name__ == "__main__":
    main()
