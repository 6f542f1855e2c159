#!/usr/bin/env python3
"""Draws the model suite's time ratios as a PNG bar chart.

usage: chart.py [RESULTS] -o CHART.png

RESULTS is what `suite.py --out FILE` (or `bench/run.sh --models --out FILE`)
wrote, or the suite's whole output: only its `RESULT suite=models` lines are
read ("-" or nothing: standard input).  For each model there is a group of
bars, XLA time / xlac time and IREE time / xlac time at each thread count
(above 1: xlac is faster), on a log scale, with lines at 1 (parity) and 1.3
(the goal); the legend gives the geometric means, the caption the date and
load average of the run.  Needs matplotlib.
"""

import argparse
import math
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, NullLocator  # noqa: E402

ENGINES = [("xla", "XLA", "Blues"), ("iree", "IREE", "Oranges")]


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def read_results(f):
    """(rows: {(model, threads): fields}, geomeans: {threads: fields}, load fields)."""
    rows, geo, load = {}, {}, {}
    for line in f:
        words = line.split()
        if words[:2] != ["RESULT", "suite=models"]:
            continue
        d = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        name = d.get("name")
        if name == "load":
            load = d
        elif name == "geomean":
            geo[int(d["threads"])] = d
        elif name and "threads" in d and "kind" not in d:
            rows[name, int(d["threads"])] = d
    return rows, geo, load


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def draw(rows, geo, load, out):
    models = list(dict.fromkeys(m for m, _ in rows))
    threads = sorted({t for _, t in rows})
    series = []  # (engine, threads, label, color, [ratio or None per model])
    for key, engine, cmap in ENGINES:
        for i, t in enumerate(threads):
            vals = [number(rows.get((m, t), {}).get(key + "_over_xlac")) for m in models]
            if not any(vals):
                continue
            g = number(geo.get(t, {}).get(key + "_over_xlac")) or geomean(vals)
            label = "%s/xlac, %d thread%s (geomean %.2f)" % (engine, t, "" if t == 1 else "s", g)
            shade = 0.45 + 0.4 * i / max(1, len(threads) - 1)
            series.append((engine, t, label, plt.get_cmap(cmap)(shade), vals))
    if not series:
        sys.exit("chart.py: no XLA or IREE ratios in the input (run the suite with --xla or --iree)")

    fig, ax = plt.subplots(figsize=(max(10, 2.5 + 0.75 * len(models)), 6), layout="constrained")
    width = 0.8 / len(series)
    handles = []
    for j, (_, t, label, color, vals) in enumerate(series):
        xs = [i + (j - (len(series) - 1) / 2) * width for i in range(len(models))]
        # Bars start at parity: below 1 they go down.
        bars = ax.bar([x for x, v in zip(xs, vals) if v], [v - 1 for v in vals if v], width, bottom=1,
                      label=label, color=color, edgecolor="white", linewidth=0.4)
        ax.bar_label(bars, labels=["%.2f" % v for v in vals if v], rotation=90, fontsize=6, padding=2)
        handles.append(bars)
        for x, v, m in zip(xs, vals, models):
            if not v:  # the model failed or disagreed, or this engine failed on it
                status = rows.get((m, t), {}).get("status", "ok")
                ax.text(x, 1.02, "n/a" if status == "ok" else status, rotation=90, fontsize=6,
                        color="0.4", ha="center", va="bottom")
    handles.append(ax.axhline(1.0, color="black", linewidth=1, label="parity (1.0)"))
    handles.append(ax.axhline(1.3, color="tab:green", linewidth=1, linestyle="--", label="goal (1.3)"))

    ax.set_yscale("log")
    vals = [v for *_, vs in series for v in vs if v] + [1.0, 1.3]
    lo, hi = min(vals) / 1.3, max(vals) * 1.6
    ax.set_ylim(lo, hi)
    ticks = [t for t in (0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.3, 2, 3, 5, 7, 10, 20, 50, 100) if lo <= t <= hi]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_yticklabels(["%g" % t for t in ticks])
    ax.grid(axis="y", color="0.9", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_xticks(range(len(models)), models, rotation=40, ha="right", fontsize=8)
    ax.set_xlim(-0.6, len(models) - 0.4)
    ax.set_ylabel("other engine's time / xlac's time (above 1: xlac is faster)")
    engines = dict.fromkeys(e.replace("XLA", "XLA:CPU") for e, *_ in series)
    fig.suptitle("xlac against %s on the JAX model suite" % " and ".join(engines), fontsize=11)
    fig.legend(handles=handles, fontsize=8, loc="outside right upper", frameon=False)

    caption = ["median of per-round medians"]
    if load.get("date"):
        caption.insert(0, load["date"].replace("T", " ").replace("Z", " UTC"))
    if "start" in load:
        caption.append("1-minute load average %s at start, %s at end" % (load["start"], load.get("end", "-")))
    fig.supxlabel("; ".join(caption), x=0.01, ha="left", fontsize=7, color="0.35")
    fig.savefig(out, dpi=150)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="?", default="-",
                    help="the suite's --out file or output ('-': standard input)")
    ap.add_argument("-o", "--output", required=True, help="the PNG to write")
    o = ap.parse_args()
    if o.results == "-":
        rows, geo, load = read_results(sys.stdin)
    else:
        with open(o.results) as f:
            rows, geo, load = read_results(f)
    if not rows:
        sys.exit("chart.py: no `RESULT suite=models` lines in %s" % o.results)
    draw(rows, geo, load, o.output)


if __name__ == "__main__":
    main()
