#!/usr/bin/python3
"""Plot a LightCode results file (HDF5, written by `lightcode run` / `sweep` / `merge`, format
version 1 to 5) or a crossover dispatch table (JSON, written by `lightcode crossover`).

From a results file (.h5) it draws, by what the file contains (a plot whose data is absent
is skipped with a one-line note):

  hardware_comparison.png  makespan and energy per system and sequence length, grouped bars
                           (drawn when the file has >= 2 distinct systems)
  phu_scaling.png          makespan and energy vs PHU cores: one row of panels per (system,
                           objective) present, makespan and energy side by side, one line per
                           multiplex and per other varying parameter such as the model (drawn
                           when a /summary column "param.*cores" exists, numeric or text)
  crossover.png            makespan and energy vs sequence length per system; where the best
                           system (compared within one configuration: model, objective, ...)
                           changes between two probed lengths, that bracket is shaded and
                           labelled "between A and B": nothing in between was evaluated, so no
                           crossing point is interpolated (drawn when >= 2 systems share >= 3
                           sequence lengths)
  gantt_<id>.png           one point's schedule: one track per hardware unit, coloured by op
                           (a generate point: every step, a dashed line where each decode
                           step starts)
  energy_<id>.png          that point's energy breakdown: stacked bars by hardware/category
  pareto.png               the joint placement search's non-dominated placements, energy vs
                           makespan, for each point that has a /points/<id>/pareto table
                           (a scenario's `pareto: true`), one panel each (the first 12),
                           the point's reported answer ringed
  latency_cdf.png          stage serve: the empirical CDF of each request's latency, time to
                           first token and time per output token (one column each, log x where
                           the values span > 1.5 decades), one row per arrival rate (up to 6,
                           evenly chosen), one line per dispatch policy (colour) and other
                           varying field such as the system (line style), each line's p99
                           (nearest rank: the ceil(0.99 n)-th smallest) ringed and listed
                           (drawn when a serve point has a /points/<id>/requests table)
  serve_load.png           stage serve: throughput, p99 latency, p99 TTFT and energy per
                           output token (static power included) vs arrival rate, lines as in
                           latency_cdf.png (drawn when the serve points have >= 2 rates)
  serve_queue_<id>.png     stage serve, the point of gantt_<id>.png (--point, else the first
                           ok point): each replica's waiting (queue) and running sequences
                           over time, one panel per replica (the first 16)
  failures.csv             the failed points (status != "ok"): id, each sweep parameter, error;
                           written only when a point failed (a stale one is removed)

Failed points are left out of every plot, listed on stderr and in failures.csv, and make the
exit status 3: the plots are still drawn from the ok points. Format 2 stores numeric sweep
parameters as numbers, format 1 as text; both plot alike. A serve point's arrival rate is the
summary's arrival_rate_per_s, else the number its arrival_rate parameter starts with ("20
req/s"); a trace-driven point has none ("trace").

From a crossover dispatch table (.json) it draws, per objective with evaluated curves:

  crossover_<objective>.png  the metric the tool evaluated vs sequence length, one line per
                           system (above), the same relative to the best system at each length
                           (below), each dispatch range shaded in its system's colour and the
                           switch lengths (the "from" of every range after the first) marked
                           exactly as the tool reported them, nothing recomputed; also printed
                           as "crossover <objective>: switches at 54" (or "no switch ...")

An axis whose values span more than 1.5 decades is logarithmic. Output goes to --out
(default: <file stem>_plots/ beside the file), one "wrote <path>" line per file.

Exit status: 0 drawn, no failed point; 2 the input is missing, unreadable or not a LightCode
file, or --point names no point; 3 some sweep points failed (the plots are still drawn).

Needs only h5py, numpy and matplotlib (Debian: python3-h5py python3-matplotlib), and
tools/lightcode_results.py beside this file for reading (it needs pandas only for its own
DataFrame loaders, which plotting does not use).
"""
import argparse
import csv
import json
import math
import os
import re
import sys

try:
    import h5py
    import numpy as np  # h5py's own dependency
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator
    # the reading helpers are shared with the pandas loader (beside this file)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from lightcode_results import (leading_number, number, open_results, read_columns,
                                   read_table, text)
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit("plot.py: needs h5py and matplotlib (apt-get install python3-h5py "
             "python3-matplotlib) and tools/lightcode_results.py beside it: %s" % e)

PS_PER_S = 1e12
PJ_PER_J = 1e12
EXIT_BAD_INPUT = 2
EXIT_FAILED_POINTS = 3
FAILURES_CSV = "failures.csv"


# ----------------------------------------------------------------------------- reading

def makespan_s(row):
    v = number(row.get("makespan_s"))
    if v is None:
        ps = number(row.get("makespan_ps"))
        v = ps / PS_PER_S if ps is not None else None
    return v


def energy_j(row):
    v = number(row.get("energy_pj"))
    return v / PJ_PER_J if v is not None else None


def seq_len(row):
    v = number(row.get("sequence_length"))
    if v is None:
        v = number(row.get("param.sequence_length"))
    return v


def is_ok(row):
    return str(row.get("status", "ok")) == "ok"


# Fields that identify a configuration (besides the sweep parameters); the rest are results.
CONFIG_FIELDS = ["model", "stage", "sequence_length", "system", "objective", "profile",
                 "fidelity"]


def varying(rows, fields):
    """The fields (in order) that take more than one value over rows."""
    out = []
    for f in fields:
        if len({str(r.get(f, "")) for r in rows}) > 1:
            out.append(f)
    return out


def short(field):
    field = field[len("param."):] if field.startswith("param.") else field
    return "seq" if field == "sequence_length" else field


def label_of(row, fields):
    return ", ".join("%s=%s" % (short(f), fmt_value(row.get(f, ""), MISSING)) for f in fields)


MISSING = "–"  # how a legend shows a parameter the point lacks ("" in format 1, NaN in 2)


def fmt_value(v, missing=""):
    """A value as text: integral floats without ".0"; a missing value (None, NaN, "") as
    `missing` ("" for CSV cells, MISSING in legends)."""
    if v is None or v == "" or (isinstance(v, float) and math.isnan(v)):
        return missing
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def sort_key(v):
    n = number(v)
    return (0, n, "") if n is not None else (1, 0.0, str(v))


# Parameter columns that duplicate a config field (the sweep axis "system" holds the path,
# the summary's "system" the name).
def param_columns(rows):
    if not rows:
        return []
    return [k for k in rows[0] if k.startswith("param.")]


def other_config(rows, exclude):
    """Config fields and param columns that vary over rows, minus `exclude`."""
    fields = CONFIG_FIELDS + [p for p in param_columns(rows)
                              if p[len("param."):] not in CONFIG_FIELDS]
    return [f for f in varying(rows, fields) if f not in exclude]


# ----------------------------------------------------------------------------- helpers

def span_decades(values):
    vals = [v for v in values if v is not None and v > 0]
    if len(vals) < 2:
        return 0.0
    return math.log10(max(vals) / min(vals))


def maybe_log(ax, values, axis="y", decades=1.5):
    """A log scale on `axis` when the positive values span more than `decades`; True if set."""
    if span_decades(values) > decades:
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
        return True
    return False


def scaled_unit(max_v, base):
    """(unit, scale) that shows values up to max_v (in `base`: "s", "J") as numbers >= 1:
    ("ms", 1e-3) for 0.25 s; pico is the smallest."""
    for prefix, scale in (("", 1.0), ("m", 1e-3), ("µ", 1e-6), ("n", 1e-9)):
        if max_v >= scale:
            return prefix + base, scale
    return "p" + base, 1e-12


def time_unit(max_s):
    return scaled_unit(max_s, "s")


def fmt_seconds(v):
    """A duration in its own unit, 4 digits: "35.24 ms"."""
    unit, scale = time_unit(v)
    return "%.4g %s" % (v / scale, unit)


def label_probed(ax, xs):
    """One labelled x tick per probed value (on a log axis: no minor ticks between)."""
    ax.set_xticks(xs)
    ax.set_xticklabels([fmt_value(x) for x in xs])
    ax.xaxis.set_minor_locator(NullLocator())


def save(fig, out_dir, name, written):
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    written.append(path)
    print("wrote %s" % path)


def note(msg):
    print("skip: %s" % msg)


METRICS = [("makespan", "Makespan [s]", makespan_s), ("energy", "Energy [J]", energy_j)]


# ----------------------------------------------------------------------------- 1. bars

def plot_hardware_comparison(rows, out_dir, written, title):
    ok = [r for r in rows if is_ok(r) and r.get("system", "") != ""]
    systems = sorted({r["system"] for r in ok})
    if len(systems) < 2:
        note("hardware_comparison.png: fewer than 2 systems with ok points")
        return
    group_fields = ["sequence_length"] + other_config(
        ok, exclude={"system", "param.system", "sequence_length", "param.sequence_length"})
    groups = {}
    for r in ok:
        key = tuple(sort_key(r.get(f, "")) for f in group_fields)
        g = groups.setdefault(key, {"row": r, "vals": {}})
        # first point wins where several share a group and system
        g["vals"].setdefault(r["system"], r)
    keys = sorted(groups)
    n_groups, n_sys = len(keys), len(systems)
    width = 0.8 / n_sys
    cmap = plt.get_cmap("tab10" if n_sys <= 10 else "tab20")
    n_bars = n_groups * n_sys
    if n_bars <= 24:
        fig, axes = plt.subplots(1, 2, figsize=(13, 5), layout="constrained")
    else:  # many bars: one panel per row, wider
        fig, axes = plt.subplots(2, 1, figsize=(min(40.0, 0.22 * n_bars + 4), 10),
                                 layout="constrained")
    for ax, (mname, ylabel, get) in zip(axes, METRICS):
        allv = []
        for si, s in enumerate(systems):
            xs, ys = [], []
            for gi, k in enumerate(keys):
                r = groups[k]["vals"].get(s)
                v = get(r) if r is not None else None
                if v is None:
                    continue
                xs.append(gi - 0.4 + width * (si + 0.5))
                ys.append(v)
            allv += ys
            ax.bar(xs, ys, width * 0.95, label=s, color=cmap(si % cmap.N))
        log = maybe_log(ax, allv)
        ax.set_xticks(range(n_groups))
        # tick labels are the group's values; the axis label names the fields
        labels = [" / ".join(fmt_value(groups[k]["row"].get(f, "")) for f in group_fields)
                  for k in keys]
        ax.set_xlabel(" / ".join("sequence length [tokens]" if f == "sequence_length"
                                 else short(f) for f in group_fields))
        rot = 0 if max(len(l) for l in labels) * n_groups < 60 else 45
        ax.set_xticklabels(labels, rotation=rot, ha="right" if rot else "center")
        ax.set_ylabel(ylabel + (" (log)" if log else ""))
        ax.set_title("%s per system" % mname.capitalize())
        ax.grid(axis="y", alpha=0.3, which="both" if log else "major")
        ax.set_axisbelow(True)
    axes[0].legend(title="System", fontsize="small")
    fig.suptitle("Hardware comparison — %s" % title)
    save(fig, out_dir, "hardware_comparison.png", written)


# ----------------------------------------------------------------------------- 2. scaling

def scaling_columns(rows):
    """(cores column, multiplex column or None) among the param columns: the PHU's when
    there are several (`phu.cores` over `cpu.cores`), the multiplex of the same unit."""
    params = param_columns(rows)
    cores_cols = [p for p in params if p.endswith("cores")]
    if not cores_cols:
        return None, None
    cores = next((p for p in cores_cols if "phu" in p), cores_cols[0])
    prefix = cores[: -len("cores")]
    mult_cols = [p for p in params if p.endswith("multiplex")]
    mult = next((p for p in mult_cols if p.startswith(prefix)),
                mult_cols[0] if mult_cols else None)
    return cores, mult


def facet_title(row):
    """A panel's (system, objective) as a title: "CPU/PHU, time objective"."""
    parts = [str(row.get("system", ""))]
    if row.get("objective", "") != "":
        parts.append("%s objective" % row["objective"])
    return ", ".join(p for p in parts if p)


def line_styles(colour_keys, style_keys, sequential):
    """{colour key: colour} and {style key: (linestyle, marker)}. A sequential colour map
    (viridis, short of its pale yellow end) when the colour key is ordinal (multiplex)."""
    n = len(colour_keys)
    if sequential:
        cmap = plt.get_cmap("viridis")
        colours = {k: cmap(0.85 * i / max(1, n - 1)) for i, k in enumerate(colour_keys)}
    else:
        cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
        colours = {k: cmap(i % cmap.N) for i, k in enumerate(colour_keys)}
    dashes, marks = ["-", "--", ":", "-."], "osD^v<>phX*"
    styles = {k: (dashes[i % len(dashes)], marks[i % len(marks)])
              for i, k in enumerate(style_keys)}
    return colours, styles


def set_cores_axis(ax, xs):
    """Base-2 log x with one labelled tick per probed core count when they span >= 4x."""
    if xs and min(xs) > 0 and max(xs) / min(xs) >= 4:
        ax.set_xscale("log", base=2)
        label_probed(ax, xs)


def plot_phu_scaling(rows, out_dir, written, title):
    """phu_scaling.png: a grid with one row per (system, objective) present and the two
    metrics as columns (x shared: PHU cores), one line per multiplex value (colour) and per
    combination of the other varying fields such as the model (line style). Prints the
    panel count ("phu scaling: N facets ... = M axes") after the "wrote" line."""
    cores, mult = scaling_columns(rows)
    if cores is None:
        note("phu_scaling.png: no param.*cores column in /summary")
        return
    ok = [r for r in rows if is_ok(r) and number(r.get(cores)) is not None]
    if not ok:
        note("phu_scaling.png: no ok point with a numeric %s" % cores)
        return
    facet_fields = ["system", "objective"]
    others = other_config(ok, exclude=set(facet_fields) | {cores, mult})
    line_fields = ([mult] if mult else []) + others
    facets = {}
    for r in ok:
        fkey = tuple(sort_key(r.get(f, "")) for f in facet_fields)
        okey = tuple(sort_key(r.get(f, "")) for f in others)
        ckey = sort_key(r.get(mult, "")) if mult else okey
        skey = okey if mult else ()
        fc = facets.setdefault(fkey, {"title": facet_title(r), "lines": {}})
        # values only: the legend's title names the fields
        label = ", ".join(fmt_value(r.get(f, ""), MISSING) for f in line_fields)
        ln = fc["lines"].setdefault((ckey, skey), {"label": label, "pts": {}})
        ln["pts"].setdefault(number(r[cores]), r)  # first point wins on duplicates
    colours, styles = line_styles(sorted({k[0] for fc in facets.values() for k in fc["lines"]}),
                                  sorted({k[1] for fc in facets.values() for k in fc["lines"]}),
                                  sequential=bool(mult))
    fkeys = sorted(facets)
    fig, axes = plt.subplots(len(fkeys), 2, figsize=(12, 2.8 * len(fkeys) + 1.0), sharex=True,
                             squeeze=False, layout="constrained")
    xs_all = sorted({x for fc in facets.values() for ln in fc["lines"].values() for x in ln["pts"]})
    handles = {}
    column_values = [[] for _ in METRICS]
    for row_axes, fkey in zip(axes, fkeys):
        fc = facets[fkey]
        for j, (ax, (mname, ylabel, get)) in enumerate(zip(row_axes, METRICS)):
            allv = column_values[j]
            for lkey in sorted(fc["lines"]):
                ln = fc["lines"][lkey]
                pts = sorted((x, get(r)) for x, r in ln["pts"].items() if get(r) is not None)
                if not pts:
                    continue
                ls, mk = styles[lkey[1]]
                h, = ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle=ls, marker=mk,
                             markersize=4, color=colours[lkey[0]], label=ln["label"])
                handles.setdefault(lkey, (h, ln["label"]))
                allv += [p[1] for p in pts]
            set_cores_axis(ax, xs_all)
            ax.set_title("%s — %s" % (fc["title"], mname), fontsize="medium")
    # one scale per metric column, so that the panels of a column read alike
    for j, (mname, ylabel, get) in enumerate(METRICS):
        for ax in axes[:, j]:
            log = maybe_log(ax, column_values[j])
            ax.set_ylabel(ylabel + (" (log)" if log else ""))
            ax.grid(alpha=0.3, which="both" if log else "major")
    for ax in axes[-1]:
        ax.set_xlabel("PHU cores (%s)" % short(cores))
    labelled = [handles[k] for k in sorted(handles) if handles[k][1]]
    if labelled:  # beside the grid, so that it covers no panel
        fig.legend([h for h, _ in labelled], [l for _, l in labelled],
                   loc="upper left", bbox_to_anchor=(1.0, 0.97), fontsize="small",
                   title=", ".join(short(f) for f in line_fields))
    fig.suptitle("PHU scaling — %s" % title)
    n_axes = len(fig.axes)
    save(fig, out_dir, "phu_scaling.png", written)
    print("  phu scaling: %d facet%s (system x objective) x makespan, energy = %d axes" % (
        len(fkeys), "" if len(fkeys) == 1 else "s", n_axes))


# ----------------------------------------------------------------------------- 3. crossover

def crossover_series(ok, other):
    """Series of the sweep: {(system, other values...): {system, group, name, pts}} with
    pts {sequence length: row} (first point wins on duplicates). `group` is the key of the
    other varying fields: systems are compared only within a group (same model, objective,
    ...), never a system of one configuration against another configuration."""
    series = {}
    for r in ok:
        group = tuple(sort_key(r.get(f, "")) for f in other)
        s = series.setdefault((sort_key(r["system"]),) + group, {
            "system": r["system"], "group": group, "label": label_of(r, other), "pts": {}})
        s["pts"].setdefault(seq_len(r), r)
    for s in series.values():
        s["name"] = s["system"] + (" (%s)" % s["label"] if s["label"] else "")
    return series


def winners(series, keys, get):
    """[(length, key of the best series)] at each length where >= 2 of `keys` have a value,
    ascending; ties go to the series sorted first."""
    lengths = sorted({x for k in keys for x in series[k]["pts"]})
    out = []
    for x in lengths:
        cands = [(get(series[k]["pts"][x]), i, k) for i, k in enumerate(keys)
                 if x in series[k]["pts"] and get(series[k]["pts"][x]) is not None]
        if len(cands) >= 2:
            out.append((x, min(cands)[2]))
    return out


def brackets(best):
    """[(x0, old key, x1, new key)] for each change of winner between consecutive probed
    lengths: the switch lies somewhere in (x0, x1]; nothing in between was evaluated."""
    return [(x0, k0, x1, k1) for (x0, k0), (x1, k1) in zip(best, best[1:]) if k0 != k1]


def plot_crossover(rows, out_dir, written, title):
    ok = [r for r in rows if is_ok(r) and r.get("system", "") != "" and seq_len(r) is not None]
    other = other_config(
        ok, exclude={"system", "param.system", "sequence_length", "param.sequence_length"})
    series = crossover_series(ok, other)
    # sequence lengths shared by >= 2 distinct systems
    systems_at = {}
    for s in series.values():
        for x in s["pts"]:
            systems_at.setdefault(x, set()).add(s["system"])
    shared = sorted(x for x, syss in systems_at.items() if len(syss) >= 2)
    if len(shared) < 3:
        note("crossover.png: fewer than 2 systems share 3 or more sequence lengths")
        return
    keys = [k for k in sorted(series) if len(set(series[k]["pts"]) & set(shared)) >= 2]
    groups = sorted({series[k]["group"] for k in keys})
    cmap = plt.get_cmap("tab10" if len(keys) <= 10 else "tab20")
    colour = {k: cmap(i % cmap.N) for i, k in enumerate(keys)}
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5))
    summary_lines = []
    for ax, (mname, ylabel, get) in zip(axes, METRICS):
        allv = []
        for k in keys:
            pts = sorted((x, get(r)) for x, r in series[k]["pts"].items() if get(r) is not None)
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=colour[k],
                    label=series[k]["name"])
            allv += [p[1] for p in pts]
        marks, constant = [], []
        for g in groups:
            best = winners(series, [k for k in keys if series[k]["group"] == g], get)
            marks += brackets(best)
            if best and not brackets(best):
                constant.append(best[0][1])
        for i, (x0, k0, x1, k1) in enumerate(marks):
            mark_bracket(ax, i, x0, series[k0], x1, series[k1], len(groups) > 1)
            summary_lines.append("%s: %s -> %s between %s and %s tokens" % (
                mname, series[k0]["name"], series[k1]["name"], fmt_value(x0), fmt_value(x1)))
        if min(shared) > 0:
            ax.set_xscale("log")
            xs = sorted({x for k in keys for x in series[k]["pts"]})
            if len(xs) <= 12:
                label_probed(ax, xs)
        log = maybe_log(ax, allv)
        ax.set_xlabel("Sequence length [tokens]")
        ax.set_ylabel(ylabel + (" (log)" if log else ""))
        sub = "" if marks else " (no crossover in range)"
        if len(groups) == 1 and constant and not marks:
            sub = " (%s best throughout)" % series[constant[0]]["system"]
        ax.set_title("%s vs sequence length%s" % (mname.capitalize(), sub), fontsize="medium")
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize="small", title="System", loc="best")
    fig.suptitle("Crossover — %s" % title)
    save(fig, out_dir, "crossover.png", written)
    for s in summary_lines:
        print("  crossover %s" % s)


def mark_bracket(ax, i, x0, s0, x1, s1, show_group):
    """Shade (x0, x1), the interval that holds the switch from s0's system to s1's, and
    label it "A → B / between x0 and x1"; labels stack down from the top (i-th mark)."""
    ax.axvspan(x0, x1, color="0.55", alpha=0.18, linewidth=0)
    label = "%s → %s\nbetween %s and %s" % (s0["system"], s1["system"], fmt_value(x0),
                                            fmt_value(x1))
    if show_group and s1["label"]:
        label += "\n(%s)" % s1["label"]
    ax.annotate(label, xy=(x0, 0.97 - 0.14 * (i % 4)), xycoords=("data", "axes fraction"),
                ha="left", va="top", fontsize="small", xytext=(4, 0), textcoords="offset points",
                bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="0.6", alpha=0.85))


# ----------------------------------------------------------------------------- 4. gantt

def plot_gantt(f, pid, out_dir, written):
    name = "gantt_%s.png" % pid
    ds = f.get("points/%s/tasks" % pid)
    if not isinstance(ds, h5py.Dataset) or not ds.dtype.names:
        note("%s: no /points/%s/tasks" % (name, pid))
        return
    need = ["hardware", "unit", "start_ps", "end_ps", "op", "step"]
    if any(n not in ds.dtype.names for n in ("start_ps", "end_ps")):
        note("%s: tasks lack start_ps/end_ps" % name)
        return
    cols = read_columns(ds, need)
    # numeric columns come as numpy arrays: plain ints draw and sum faster in Python
    start, end = cols["start_ps"].tolist(), cols["end_ps"].tolist()
    n = len(start)
    hw = cols["hardware"] if cols["hardware"] is not None else ["?"] * n
    unit = np.asarray(cols["unit"]).tolist() if cols["unit"] is not None else [0] * n
    op = cols["op"] if cols["op"] is not None else ["task"] * n
    tasks = [(hw[i], unit[i], op[i], start[i], end[i]) for i in range(n) if hw[i] != "start"]
    if not tasks:
        note("%s: the schedule is empty" % name)
        return
    t_end = max(t[4] for t in tasks) or 1
    tunit, tscale = time_unit(t_end / PS_PER_S)
    scale = 1.0 / (PS_PER_S * tscale)
    tracks = sorted({(t[0], t[1]) for t in tasks}, key=lambda k: (k[0], sort_key(k[1])))
    track_idx = {k: i for i, k in enumerate(tracks)}
    # colour the busiest op kinds, the rest "other"
    busy = {}
    for t in tasks:
        busy[t[2]] = busy.get(t[2], 0) + (t[4] - t[3])
    kinds = sorted(busy, key=lambda k: -busy[k])
    top = kinds[:19] if len(kinds) > 20 else kinds
    cmap = plt.get_cmap("tab20")
    colour = {k: cmap(i % 20) for i, k in enumerate(top)}
    other = (0.55, 0.55, 0.55, 1.0)
    bars = {}
    min_w = t_end * 2e-4  # so that short tasks stay visible at this resolution
    for h, u, o, s, e in tasks:
        kind = o if o in colour else "other"
        w = max(e - s, min_w)
        bars.setdefault((track_idx[(h, u)], kind), []).append((s * scale, w * scale))
    height = min(14.0, max(3.0, 0.45 * len(tracks) + 1.8))
    fig, ax = plt.subplots(figsize=(14, height))
    for (ti, kind), segs in bars.items():
        ax.broken_barh(merge_segments(segs, min_w * scale), (ti - 0.4, 0.8),
                       facecolors=colour.get(kind, other), edgecolor="none")
    # A generate point's steps (format 5: 0 = prefill, t = decode step t) follow each other:
    # a dashed line where each decode step starts.
    if cols["step"] is not None and len(start) and int(np.max(cols["step"])) > 0:
        step = cols["step"].tolist()
        first = {}
        for i in range(n):
            first[step[i]] = min(first.get(step[i], start[i]), start[i])
        for k, at in sorted(first.items()):
            if k > 0:
                ax.axvline(at * scale, color="0.3", linestyle="--", linewidth=0.6)
    ax.set_yticks(range(len(tracks)))
    ax.set_yticklabels(["%s %s" % (h, u) for h, u in tracks])
    ax.set_ylim(-0.6, len(tracks) - 0.4)
    ax.invert_yaxis()
    ax.set_xlim(0, t_end * scale)
    ax.set_xlabel("Time [%s]" % tunit)
    ax.set_ylabel("Hardware unit")
    handles = [Patch(color=colour[k], label=k) for k in top]
    if len(kinds) > len(top):
        handles.append(Patch(color=other, label="other (%d kinds)" % (len(kinds) - len(top))))
    ax.legend(handles=handles, title="Op kind", loc="upper left", bbox_to_anchor=(1.01, 1),
              fontsize="small")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Schedule of %s — %s (%d tasks, makespan %.6g %s)" % (
        pid, point_title(f, pid), len(tasks), t_end * scale, tunit))
    save(fig, out_dir, name, written)


SUMMARY_BY_ID = {}  # /summary rows by point id, filled by main()


def merge_segments(segs, gap):
    """(start, width) segments with those closer than `gap` (below a pixel) joined: the same
    picture with far fewer rectangles, so that schedules of 10^5+ tasks draw fast."""
    segs = sorted(segs)
    out = []
    cs, ce = segs[0][0], segs[0][0] + segs[0][1]
    for st, w in segs[1:]:
        if st <= ce + gap:
            ce = max(ce, st + w)
        else:
            out.append((cs, ce - cs))
            cs, ce = st, st + w
    out.append((cs, ce - cs))
    return out


def point_title(f, pid):
    row = SUMMARY_BY_ID.get(pid)
    if row is None:
        ds = f.get("points/%s/summary" % pid)
        t = read_table(ds) if isinstance(ds, h5py.Dataset) else []
        row = t[0] if t else {}
    parts = [str(row[k]) for k in ("system", "model", "stage") if row.get(k)]
    if row.get("stage") == "serve":
        parts += ["%s dispatch" % dispatch_of(row), rate_label(arrival_rate(row))]
    elif seq_len(row) is not None:
        parts.append("%d tokens" % seq_len(row))
    return ", ".join(parts) or pid


# ----------------------------------------------------------------------------- 5. energy

def plot_energy(f, pid, out_dir, written):
    name = "energy_%s.png" % pid
    ds = f.get("points/%s/energy_breakdown" % pid)
    if not isinstance(ds, h5py.Dataset) or not ds.dtype.names or "energy_pj" not in ds.dtype.names:
        note("%s: no /points/%s/energy_breakdown" % (name, pid))
        return
    rows = read_table(ds)
    data = {}
    for r in rows:
        v = number(r.get("energy_pj"))
        if v is None:
            continue
        h = str(r.get("hardware", "?"))
        c = str(r.get("category", "energy"))
        data.setdefault(h, {})
        data[h][c] = data[h].get(c, 0.0) + v / PJ_PER_J
    data = {h: cs for h, cs in data.items() if sum(cs.values()) > 0}
    if not data:
        note("%s: the energy breakdown is empty" % name)
        return
    hws = sorted(data, key=lambda h: -sum(data[h].values()))
    # Known categories first in this order (a device-built PHU's laser, modulation and
    # detection beside compute); any other category after them, alphabetically.
    order = ["compute", "laser", "modulation", "detection", "data_movement", "memory",
             "conversion", "static"]
    cats = sorted({c for cs in data.values() for c in cs},
                  key=lambda c: (order.index(c) if c in order else len(order), c))
    cmap = plt.get_cmap("tab10" if len(cats) <= 10 else "tab20")
    fig, ax = plt.subplots(figsize=(max(7.0, 0.7 * len(hws) + 3), 5))
    bottom = [0.0] * len(hws)
    for ci, c in enumerate(cats):
        vals = [data[h].get(c, 0.0) for h in hws]
        ax.bar(range(len(hws)), vals, 0.7, bottom=bottom, label=c, color=cmap(ci % cmap.N))
        bottom = [b + v for b, v in zip(bottom, vals)]
    total = sum(bottom)
    for i, b in enumerate(bottom):
        ax.annotate("%.3g J\n%.1f%%" % (b, 100 * b / total), (i, b), ha="center", va="bottom",
                    fontsize="x-small", xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(range(len(hws)))
    rot = 30 if len(hws) > 5 else 0
    ax.set_xticklabels(hws, rotation=rot, ha="right" if rot else "center")
    ax.set_xlabel("Hardware (unit type, or link src->dst)")
    ax.set_ylabel("Energy [J]")
    ax.set_ylim(0, max(bottom) * 1.15)
    ax.legend(title="Category", loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title("Energy breakdown of %s — %s (total %.4g J)" % (pid, point_title(f, pid), total))
    save(fig, out_dir, name, written)


MAX_PARETO_PANELS = 12


def plot_pareto(f, out_dir, written):
    name = "pareto.png"
    points = f.get("points")
    fronts = []
    for pid in (sorted(points) if isinstance(points, h5py.Group) else []):
        ds = points[pid].get("pareto")
        if isinstance(ds, h5py.Dataset) and ds.dtype.names and "makespan_ps" in ds.dtype.names:
            rows = read_table(ds)
            xs = [number(r.get("makespan_ps")) for r in rows]
            ys = [number(r.get("energy_pj")) for r in rows]
            pts = sorted((x / PS_PER_S, y / PJ_PER_J) for x, y in zip(xs, ys) if x is not None and y is not None)
            if pts:
                fronts.append((pid, pts))
    if not fronts:
        note("%s: no point has a /points/<id>/pareto table (scenario key `pareto: true`)" % name)
        return
    fronts = fronts[:MAX_PARETO_PANELS]
    cols = min(3, len(fronts))
    rows_n = (len(fronts) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(4.6 * cols, 3.8 * rows_n), squeeze=False)
    for k, (pid, pts) in enumerate(fronts):
        ax = axes[k // cols][k % cols]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", drawstyle="steps-post", color="tab:blue",
                label="front (%d)" % len(pts))
        row = SUMMARY_BY_ID.get(pid)
        objective = text(row.get("objective", "")) if row is not None else ""
        if row is not None:
            mx, en = number(row.get("makespan_s")), number(row.get("energy_pj"))
            if mx is not None and en is not None:
                ax.plot([mx], [en / PJ_PER_J], "o", markersize=13, markerfacecolor="none", color="tab:red",
                        label="answer (%s)" % objective if objective else "answer")
        ax.set_xlabel("Makespan [s]")
        ax.set_ylabel("Energy [J]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small")
        ax.set_title("%s — %s" % (pid, point_title(f, pid)), fontsize="small")
    for k in range(len(fronts), rows_n * cols):
        axes[k // cols][k % cols].set_visible(False)
    fig.suptitle("Non-dominated (makespan, energy) placements of the joint search")
    fig.tight_layout()
    save(fig, out_dir, name, written)


# ----------------------------------------------------------------------------- 6. dispatch table

OBJECTIVE_NAMES = {"time": "Makespan", "energy": "Energy", "edp": "Energy-delay product"}


def load_crossover_json(path):
    """The crossover dispatch table at `path` as a dict. ValueError naming the path when it
    is not JSON or has no "dispatch" object (what every `lightcode crossover` table has)."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError("%s: not a JSON file (%s)" % (path, e)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("dispatch"), dict):
        raise ValueError('%s: not a LightCode crossover table (no "dispatch" object)' % path)
    return doc


def switches(dispatch):
    """[(length, old system, new system)]: the "from" of every dispatch range after the
    first, exactly as the tool reported it (nothing is recomputed or interpolated)."""
    ranges = (dispatch or {}).get("ranges") or []
    return [(r["from"], p.get("system", "?"), r.get("system", "?"))
            for p, r in zip(ranges, ranges[1:])]


def switch_line(objective, dispatch):
    """The one-line summary printed per objective: "crossover energy: switches at 54"."""
    sw = switches(dispatch)
    if sw:
        return "crossover %s: switches at %s" % (objective, ", ".join(str(x) for x, _, _ in sw))
    ranges = (dispatch or {}).get("ranges") or []
    if ranges:
        return "crossover %s: no switch (%s best from %s to %s)" % (
            objective, ranges[0].get("system", "?"), ranges[0].get("from"), ranges[-1].get("to"))
    return "crossover %s: no dispatch ranges" % objective


def curve_problem(curves):
    """Why `curves` (one objective's {"unit", "lengths", "systems"}) cannot be drawn, or None."""
    if not isinstance(curves, dict):
        return "no curves (a table from an older lightcode crossover?)"
    lengths, systems = curves.get("lengths"), curves.get("systems")
    if not isinstance(lengths, list) or not lengths or not isinstance(systems, dict) or not systems:
        return "its curves have no lengths or no systems"
    bad = [s for s, v in systems.items() if not isinstance(v, list) or len(v) != len(lengths)]
    if bad:
        return "curve(s) %s do not have one value per length" % ", ".join(bad)
    return None


def system_colours(doc, objective):
    """A colour per system name, in the table's system order (the same in every figure)."""
    names = [s.get("name") for s in doc.get("systems") or [] if isinstance(s, dict)]
    for c in (doc.get("curves") or {}).values():
        names += list((c or {}).get("systems") or {})
    names += [r.get("system") for r in (doc["dispatch"].get(objective) or {}).get("ranges", [])]
    names = list(dict.fromkeys(n for n in names if n))
    cmap = plt.get_cmap("tab10")
    return {n: cmap(i % cmap.N) for i, n in enumerate(names)}


def shade_dispatch(ax, dispatch, colour):
    """Each dispatch range shaded in its system's colour; legend patches for them."""
    ranges = (dispatch or {}).get("ranges") or []
    handles = []
    for r, nxt in zip(ranges, ranges[1:] + [None]):
        # up to the next range's start, so that the shading has no gap at the switch
        hi = nxt["from"] if nxt else r["to"]
        c = colour.get(r.get("system"), "0.5")
        ax.axvspan(r["from"], hi, color=c, alpha=0.10, linewidth=0)
        handles.append(Patch(color=c, alpha=0.25, label="best: %s (%s–%s)" % (
            r.get("system", "?"), r["from"], r["to"])))
    return handles


def mark_switches(ax, sw):
    """A dashed line at each switch length, labelled with the length above the axes (so that
    the label covers no curve); close labels alternate between two heights."""
    prev = None
    level = 0
    for x, _, _ in sw:
        level = (level + 1) % 2 if prev and x / prev < 1.6 else 0
        ax.axvline(x, color="0.2", linestyle="--", linewidth=1.1)
        ax.annotate(str(x), xy=(x, 1.0), xycoords=("data", "axes fraction"), ha="center",
                    va="bottom", xytext=(0, 2 + 11 * level), textcoords="offset points",
                    fontsize="small", fontweight="bold")
        prev = x


def curve_points(curves):
    """{system: [(length, value)]} of one objective's curves, null (not evaluated) left out."""
    return {system: [(x, v) for x, v in zip(curves["lengths"], vals) if number(v) is not None]
            for system, vals in curves["systems"].items()}


def relative_to_best(points):
    """{system: [(length, value / best value at that length)]} at the lengths where >= 2
    systems were evaluated: the winner reads 1, so that near-equal curves stay apart."""
    at = {}
    for system, pts in points.items():
        for x, v in pts:
            at.setdefault(x, {})[system] = v
    out = {}
    for x in sorted(at):
        vals = at[x]
        best = min(vals.values())
        if len(vals) < 2 or best <= 0:
            continue
        for system, v in vals.items():
            out.setdefault(system, []).append((x, v / best))
    return out


def draw_curves(ax, points, colour, markersize=3.5):
    """One line with markers per system; returns every value drawn."""
    allv = []
    for system, pts in points.items():
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=markersize,
                color=colour.get(system), label=system)
        allv += [p[1] for p in pts]
    return allv


def plot_crossover_objective(doc, objective, out_dir, written):
    """crossover_<objective>.png: above, the evaluated curves (metric vs length, one line
    with markers per system; null values, i.e. lengths not evaluated for that system, left
    out); below, the same values relative to the best system at each length. The dispatch
    ranges are shaded in their system's colour and the switch lengths marked, as the table
    gives them. Prints switch_line after the "wrote" line."""
    name = "crossover_%s.png" % re.sub(r"[^A-Za-z0-9_.-]", "_", objective)
    dispatch = doc["dispatch"].get(objective)
    curves = (doc.get("curves") or {}).get(objective)
    problem = curve_problem(curves)
    if problem:
        note("%s: %s" % (name, problem))
        print("  " + switch_line(objective, dispatch))
        return
    colour = system_colours(doc, objective)
    points = curve_points(curves)
    sw = switches(dispatch)
    fig, (ax, rel) = plt.subplots(2, 1, figsize=(11, 7.5), sharex=True, layout="constrained",
                                  gridspec_kw={"height_ratios": [3, 2]})
    allv = draw_curves(ax, points, colour)
    relv = draw_curves(rel, relative_to_best(points), colour, markersize=3)
    handles = shade_dispatch(ax, dispatch, colour)
    shade_dispatch(rel, dispatch, colour)
    mark_switches(ax, sw)
    for x, _, _ in sw:
        rel.axvline(x, color="0.2", linestyle="--", linewidth=1.1)
    if min(curves["lengths"]) > 0:
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
    unit = curves.get("unit") or (dispatch or {}).get("unit") or ""
    log = maybe_log(ax, allv)
    ax.set_ylabel("%s%s%s" % (OBJECTIVE_NAMES.get(objective, objective),
                              " [%s]" % unit if unit else "", " (log)" if log else ""))
    rel_log = maybe_log(rel, relv)
    rel.set_ylabel("relative to the best (1 = best)" + (" (log)" if rel_log else ""))
    rel.set_xlabel("Sequence length [tokens]")
    for a, lg in ((ax, log), (rel, rel_log)):
        a.grid(alpha=0.3, which="both" if lg else "major")
    lines, labels = ax.get_legend_handles_labels()
    ax.legend(lines + handles, labels + [h.get_label() for h in handles], fontsize="small",
              title="System (line) / dispatch", loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(crossover_title(doc, objective, dispatch, sw), fontsize="medium",
                 pad=26 if len(sw) > 1 else 16)
    save(fig, out_dir, name, written)
    print("  " + switch_line(objective, dispatch))


def crossover_title(doc, objective, dispatch, sw):
    what = " ".join(str(doc[k]) for k in ("model", "stage") if doc.get(k))
    if doc.get("profile"):
        what += ", %s profile" % doc["profile"]
    how = ""
    if dispatch and dispatch.get("evaluations") is not None:
        how = " — %s evaluations at %s lengths" % (dispatch["evaluations"],
                                                   dispatch.get("lengths_probed", "?"))
    marks = "no switch"
    if sw:
        marks = "switch%s at %s" % ("es" if len(sw) > 1 else "",
                                    ", ".join(str(x) for x, _, _ in sw))
    return "Crossover, %s objective: %s\n%s%s" % (objective, marks, what, how)


# ----------------------------------------------------------------------------- 7. serving

# The dispatch policies (sim/serve/dispatch.hpp) in the order that gives their colours; any
# other name comes after them, alphabetically.
DISPATCH_ORDER = ["round_robin", "least_outstanding_tokens", "prompt_length"]
# The requests table's columns drawn as CDFs: (field, panel title), one column of panels each.
REQUEST_METRICS = [("latency_s", "Request latency"), ("ttft_s", "Time to first token"),
                   ("tpot_s", "Time per output token")]
MAX_CDF_ROWS = 6  # arrival rates drawn in latency_cdf.png; more are thinned evenly
MAX_QUEUE_REPLICAS = 16  # replicas drawn in serve_queue_<id>.png, the first ones


def is_serve(row):
    return is_ok(row) and str(row.get("stage", "")) == "serve"


def rate_columns(rows):
    """The arrival-rate parameter columns: "param.arrival_rate" (or one whose name ends so)."""
    return [p for p in param_columns(rows) if p.endswith("arrival_rate")]


def arrival_rate(row):
    """A serve point's requests per second: the summary's arrival_rate_per_s where positive,
    else the leading number of its arrival_rate parameter ("20 req/s" -> 20.0); None for a
    trace-driven point (no rate)."""
    v = number(row.get("arrival_rate_per_s"))
    if v is not None and v > 0:
        return v
    for p in rate_columns([row]):
        v = leading_number(row.get(p))
        if v is not None and v > 0:
            return v
    return None


def dispatch_of(row):
    return str(row.get("dispatch") or row.get("param.dispatch") or "?")


def dispatch_key(name):
    return (DISPATCH_ORDER.index(name) if name in DISPATCH_ORDER else len(DISPATCH_ORDER), name)


def rate_label(rate):
    return "%s req/s" % fmt_value(rate) if rate else "trace"


def serve_lines(serve):
    """The serve points as lines, colour by dispatch policy, line style and marker by the
    other varying fields (system, model, ...): ({key: {"name", "pts": {rate: row}, "look":
    (colour, linestyle, marker)}}, the other fields). The rate of a trace-driven point is 0;
    the first point wins where several share a line and rate."""
    others = other_config(serve, exclude={"dispatch", "param.dispatch"} | set(rate_columns(serve)))
    lines = {}
    for r in serve:
        d = dispatch_of(r)
        key = (dispatch_key(d), tuple(sort_key(r.get(f, "")) for f in others))
        label = label_of(r, others)
        ln = lines.setdefault(key, {"name": d + (" (%s)" % label if label else ""), "pts": {}})
        ln["pts"].setdefault(arrival_rate(r) or 0.0, r)
    colours, styles = line_styles(sorted({k[0] for k in lines}), sorted({k[1] for k in lines}),
                                  sequential=False)
    for k, ln in lines.items():
        ln["look"] = (colours[k[0]],) + styles[k[1]]
    return lines, others


def legend_title(others):
    return "dispatch" + (" (%s)" % ", ".join(short(f) for f in others) if others else "")


def ecdf(values):
    """The empirical CDF of `values`: (the values sorted, the fraction of values <= each),
    the i-th smallest (from 1) at i / n."""
    xs = sorted(values)
    return xs, [(i + 1) / len(xs) for i in range(len(xs))]


def nearest_rank(values, p):
    """(value, rank): the nearest-rank p-th percentile of `values`, the ceil(p/100 n)-th
    smallest, computed as the simulator computes its summary's (sim/serve/metrics.cpp)."""
    xs = sorted(values)
    rank = max(1, int(math.ceil(p / 100.0 * len(xs))))
    return xs[rank - 1], rank


def request_values(f, pid):
    """{field: [float]} of the REQUEST_METRICS columns of /points/<pid>/requests (a column
    the table lacks is left out); None when the point has no requests table."""
    ds = f.get("points/%s/requests" % pid)
    if not isinstance(ds, h5py.Dataset) or not ds.dtype.names:
        return None
    cols = read_columns(ds, [m for m, _ in REQUEST_METRICS])
    return {m: c.tolist() for m, c in cols.items() if c is not None}


def cdf_rates(rates):
    """At most MAX_CDF_ROWS of the sorted `rates`, evenly spread, the first and last kept."""
    if len(rates) <= MAX_CDF_ROWS:
        return rates
    step = (len(rates) - 1) / (MAX_CDF_ROWS - 1)
    return [rates[int(round(i * step))] for i in range(MAX_CDF_ROWS)]


def plot_latency_cdf(f, rows, out_dir, written, title):
    """latency_cdf.png: the empirical CDF of each request's latency, TTFT and TPOT (one
    column of panels each, x shared down a column, logarithmic where it spans > 1.5 decades),
    one row of panels per arrival rate, one line per dispatch policy (and other varying
    fields), each line's p99 (nearest rank) ringed and listed in the panel's legend."""
    lines, others = serve_lines([r for r in rows if is_serve(r)])
    data = {}
    for ln in lines.values():
        for r in ln["pts"].values():
            vals = request_values(f, r["id"])
            if vals:
                data[r["id"]] = vals
    if not data:
        note("latency_cdf.png: no serve point has a /points/<id>/requests table")
        return
    metrics = [(m, t) for m, t in REQUEST_METRICS if any(v.get(m) for v in data.values())]
    rates = sorted({x for ln in lines.values() for x, r in ln["pts"].items() if r["id"] in data})
    shown = cdf_rates(rates)
    if len(shown) < len(rates):
        print("  latency cdf: %d of %d arrival rates drawn (%s)" % (
            len(shown), len(rates), ", ".join(rate_label(x) for x in shown)))
    fig, axes = plt.subplots(len(shown), len(metrics), squeeze=False, sharex="col",
                             figsize=(5.2 * len(metrics), 2.9 * len(shown) + 1.2),
                             layout="constrained")
    handles = {}
    for j, (field, mtitle) in enumerate(metrics):
        column = [x for v in data.values() for x in v.get(field, [])]
        unit, scale = time_unit(max(column))
        for ax, rate in zip(axes[:, j], shown):
            for key in sorted(lines):
                ln = lines[key]
                r = ln["pts"].get(rate)
                vals = [v / scale for v in data.get(r["id"], {}).get(field, [])] if r else []
                if not vals:
                    continue
                colour, ls, mk = ln["look"]
                xs, fs = ecdf(vals)
                h, = ax.step([xs[0]] + xs, [0.0] + fs, where="post", color=colour, linestyle=ls,
                             linewidth=1.4, label="_" + ln["name"])  # in the figure's legend
                handles.setdefault(key, h)
                p99, rank = nearest_rank(vals, 99)
                # one point: only the ring shows; the legend gives it the line's style
                ax.plot([p99], [rank / len(vals)], marker="o", markersize=7, linestyle=ls,
                        markerfacecolor="none", markeredgewidth=1.5, color=colour, gid="p99",
                        label="p99 %s" % fmt_seconds(p99 * scale))
            if ax.lines:  # the p99 rings, with their values
                ax.legend(loc="best", fontsize="x-small", handletextpad=0.3)
            ax.set_title("%s — %s" % (mtitle, rate_label(rate)), fontsize="medium")
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3, which="both")
        log = False
        for ax in axes[:, j]:
            log = maybe_log(ax, [v / scale for v in column], axis="x")
        axes[-1, j].set_xlabel("%s [%s]%s" % (mtitle, unit, " (log)" if log else ""))
    for ax in axes[:, 0]:
        ax.set_ylabel("Fraction of requests")
    keys = sorted(handles)
    fig.legend([handles[k] for k in keys], [lines[k]["name"] for k in keys], loc="upper left",
               bbox_to_anchor=(1.0, 0.97), fontsize="small", title=legend_title(others))
    fig.suptitle("Request latency CDFs (p99 ringed) — %s" % title)
    save(fig, out_dir, "latency_cdf.png", written)


def energy_per_token_j(row):
    v = number(row.get("energy_per_token_pj"))
    if v is None:
        e, n = number(row.get("energy_pj")), number(row.get("output_tokens"))
        v = e / n if e is not None and n else None
    return v / PJ_PER_J if v is not None else None


# (title, unit base: "s" and "J" take a prefix, None none, value) of serve_load.png's panels
LOAD_METRICS = [
    ("Throughput", "tokens/s", None, lambda r: number(r.get("throughput_tokens_per_s"))),
    ("p99 request latency", "s", "s", lambda r: number(r.get("latency_p99_s"))),
    ("p99 time to first token", "s", "s", lambda r: number(r.get("ttft_p99_s"))),
    ("Energy per output token", "J", "J", energy_per_token_j),
]


def plot_serve_load(rows, out_dir, written, title):
    """serve_load.png: throughput, p99 latency, p99 TTFT and energy per output token (incl.
    static power) against the arrival rate, one line per dispatch policy (and other varying
    fields), from /summary."""
    lines, others = serve_lines([r for r in rows if is_serve(r)])
    rates = sorted({x for ln in lines.values() for x in ln["pts"] if x > 0})
    if len(rates) < 2:
        note("serve_load.png: fewer than 2 arrival rates among the serve points (%s)" % (
            ", ".join(rate_label(x) for x in rates) or "none"))
        return
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharex=True, layout="constrained")
    handles = {}
    for ax, (mtitle, unit, base, get) in zip(axes.flat, LOAD_METRICS):
        curves = {k: sorted((x, get(r)) for x, r in ln["pts"].items()
                            if x > 0 and get(r) is not None) for k, ln in lines.items()}
        allv = [y for pts in curves.values() for _, y in pts]
        unit, scale = scaled_unit(max(allv), base) if allv and base else (unit, 1.0)
        for key in sorted(curves):
            if not curves[key]:
                continue
            colour, ls, mk = lines[key]["look"]
            h, = ax.plot([p[0] for p in curves[key]], [p[1] / scale for p in curves[key]],
                         color=colour, linestyle=ls, marker=mk, markersize=5,
                         label=lines[key]["name"])
            handles.setdefault(key, h)
        log = maybe_log(ax, [v / scale for v in allv])
        ax.set_ylabel("%s [%s]%s" % (mtitle, unit, " (log)" if log else ""))
        ax.set_title("%s vs arrival rate" % mtitle, fontsize="medium")
        ax.grid(alpha=0.3, which="both" if log else "major")
    for ax in axes.flat:
        xlog = maybe_log(ax, rates, axis="x")
        if len(rates) <= 12:
            label_probed(ax, rates)
    for ax in axes[-1]:
        ax.set_xlabel("Arrival rate [requests/s]%s" % (" (log)" if xlog else ""))
    keys = sorted(handles)
    fig.legend([handles[k] for k in keys], [lines[k]["name"] for k in keys], loc="upper left",
               bbox_to_anchor=(1.0, 0.97), fontsize="small", title=legend_title(others))
    fig.suptitle("Serving under load — %s" % title)
    save(fig, out_dir, "serve_load.png", written)


def plot_serve_queue(f, pid, out_dir, written):
    """serve_queue_<id>.png: each replica's waiting (queue) and running sequences over the
    point's run, one panel per replica (the first MAX_QUEUE_REPLICAS), as step functions
    held from each sample to the next and from the last to the end of the run."""
    name = "serve_queue_%s.png" % pid
    need = ["replica", "time_ps", "queue", "running"]
    ds = f.get("points/%s/serve_series" % pid)
    if not isinstance(ds, h5py.Dataset) or any(n not in (ds.dtype.names or ()) for n in need):
        note("%s: no /points/%s/serve_series (not a serve point)" % (name, pid))
        return
    cols = {n: c.tolist() for n, c in read_columns(ds, need).items()}
    if not cols["time_ps"]:
        note("%s: the serve series is empty" % name)
        return
    series = {}
    for rp, t, q, run in zip(*(cols[n] for n in need)):
        series.setdefault(rp, []).append((t, q, run))
    mk = makespan_s(SUMMARY_BY_ID.get(pid, {}))
    t_end = max(max(cols["time_ps"]), int(round(mk * PS_PER_S)) if mk else 0) or 1
    tunit, tscale = time_unit(t_end / PS_PER_S)
    scale = 1.0 / (PS_PER_S * tscale)
    replicas = sorted(series)
    shown = replicas[:MAX_QUEUE_REPLICAS]
    if len(shown) < len(replicas):
        print("  serve queue: the first %d of %d replicas drawn" % (len(shown), len(replicas)))
    fig, axes = plt.subplots(len(shown), 1, figsize=(12, min(22.0, 1.8 * len(shown) + 1.4)),
                             sharex=True, squeeze=False, layout="constrained")
    for ax, rp in zip(axes[:, 0], shown):
        # nothing is dispatched before the first sample: from 0 until then, both are 0
        samples = [(0, 0, 0)] + sorted(series[rp], key=lambda s: s[0])
        xs = [s[0] * scale for s in samples] + [t_end * scale]
        for k, label, colour in ((2, "running", "tab:blue"), (1, "queue (waiting)", "tab:orange")):
            ys = [s[k] for s in samples] + [samples[-1][k]]
            ax.step(xs, ys, where="post", color=colour, linewidth=1.2, label=label)
            ax.fill_between(xs, ys, step="post", color=colour, alpha=0.15, linewidth=0)
        ax.set_ylabel("replica %s\nsequences" % rp)
        ax.set_ylim(bottom=0)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
    axes[0, 0].legend(loc="upper right", fontsize="small")
    axes[-1, 0].set_xlim(0, t_end * scale)
    axes[-1, 0].set_xlabel("Time [%s]" % tunit)
    fig.suptitle("Queue and running sequences of %s — %s" % (pid, point_title(f, pid)))
    save(fig, out_dir, name, written)


def serve_jobs(f, rows, pid, out_dir, written, title):
    """The serving plots' jobs for run_jobs: none, with a note, when no ok point is of stage
    serve."""
    if not any(is_serve(r) for r in rows):
        note("latency_cdf.png, serve_load.png, serve_queue_<id>.png: no ok point of stage serve")
        return []
    jobs = [("latency_cdf.png", plot_latency_cdf, (f, rows, out_dir, written, title)),
            ("serve_load.png", plot_serve_load, (rows, out_dir, written, title))]
    if pid is not None:
        jobs.append(("serve_queue_%s.png" % pid, plot_serve_queue, (f, pid, out_dir, written)))
    return jobs


# ----------------------------------------------------------------------------- failures

def failure_fields(rows):
    """[(CSV header, /summary field)]: id, each sweep parameter (named without "param.",
    unless that would repeat the "id" or "error" header), error."""
    params = [(p if short_name in ("id", "error") else short_name, p)
              for p in param_columns(rows) for short_name in [p[len("param."):]]]
    return [("id", "id")] + params + [("error", "error")]


def write_failures(rows, failed, out_dir):
    """failures.csv in out_dir, one line per failed point; returns its path."""
    path = os.path.join(out_dir, FAILURES_CSV)
    fields = failure_fields(rows)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow([h for h, _ in fields])
        for r in failed:
            w.writerow([fmt_value(r.get(f, "")) for _, f in fields])
    print("wrote %s" % path)
    return path


def report_failures(rows, out_dir, max_listed=20):
    """Failed points: written to failures.csv and listed on stderr; a stale failures.csv
    from an earlier run is removed when there are none (it would contradict this file).
    Returns EXIT_FAILED_POINTS when a point failed, else 0."""
    failed = [r for r in rows if not is_ok(r)]
    stale = os.path.join(out_dir, FAILURES_CSV)
    if not failed:
        if os.path.isfile(stale):
            os.remove(stale)
        return 0
    path = write_failures(rows, failed, out_dir)
    params = param_columns(rows)
    print("plot.py: %d of %d points failed (left out of the plots; listed in %s):" % (
        len(failed), len(rows), path), file=sys.stderr)
    for r in failed[:max_listed]:
        where = label_of(r, [p for p in params if fmt_value(r.get(p, "")) != ""])
        print("  %s%s: %s" % (r.get("id", "?"), " (%s)" % where if where else "",
                              r.get("error", "") or "(no message)"), file=sys.stderr)
    if len(failed) > max_listed:
        print("  ... and %d more" % (len(failed) - max_listed), file=sys.stderr)
    return EXIT_FAILED_POINTS


# ----------------------------------------------------------------------------- main

def file_title(rows):
    ok = [r for r in rows if is_ok(r)] or rows
    parts = []
    for field in ("model", "stage", "profile", "fidelity"):
        vals = sorted({str(r.get(field, "")) for r in ok if r.get(field, "") != ""})
        if vals:
            parts.append("/".join(vals) if len(vals) <= 3 else "%d %ss" % (len(vals), field))
    return ", ".join(parts) or "LightCode results"


def run_jobs(jobs):
    """Calls each (name, function, args); an exception in one is reported as a skip note
    (the file has a layout that plot does not expect) and the others still run."""
    for name, fn, fargs in jobs:
        try:
            fn(*fargs)
        except Exception as e:
            plt.close("all")
            note("%s: could not draw it from this file (%s: %s)" % (name, type(e).__name__, e))


def looks_like_json(path):
    """True for a .json name or content that starts with "{" (HDF5 starts with \\x89HDF)."""
    if path.lower().endswith(".json"):
        return True
    with open(path, "rb") as fh:
        return fh.read(64).lstrip()[:1] == b"{"


def output_dir(path, out):
    if out:
        return out
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.join(os.path.dirname(os.path.abspath(path)), stem + "_plots")


def default_point(rows, points, ids):
    """The first ok point of /summary that has a /points group, else the first group whose
    own status attribute is ok, else None."""
    ok_ids = [str(r.get("id", "")) for r in rows if is_ok(r)]
    pid = next((i for i in ok_ids if i in ids), None)
    if pid is None:
        pid = next((i for i in ids if text(points[i].attrs.get("status", "ok")) == "ok"), None)
    return pid


def plot_results_file(path, point, out_dir):
    """Every plot of a results file; the exit status (0, EXIT_BAD_INPUT, EXIT_FAILED_POINTS)."""
    try:
        f = open_results(path)
    except (OSError, ValueError) as e:
        print("plot.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    with f:
        rows = read_table(f["summary"])
        SUMMARY_BY_ID.update((str(r["id"]), r) for r in rows if "id" in r)
        points = f.get("points")
        ids = [k for k in points] if isinstance(points, h5py.Group) else []
        pid = point
        if pid is not None and pid not in ids:
            print("plot.py: %s: no point %r (points: %s)" % (
                path, pid, ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")),
                file=sys.stderr)
            return EXIT_BAD_INPUT
        if pid is None:
            pid = default_point(rows, points, ids)
        os.makedirs(out_dir, exist_ok=True)
        written = []
        title = file_title(rows)
        if not rows:
            note("/summary has no points")
        jobs = [("hardware_comparison.png", plot_hardware_comparison,
                 (rows, out_dir, written, title)),
                ("phu_scaling.png", plot_phu_scaling, (rows, out_dir, written, title)),
                ("crossover.png", plot_crossover, (rows, out_dir, written, title)),
                ("pareto.png", plot_pareto, (f, out_dir, written))]
        if pid is None:
            note("gantt/energy: no ok point with a /points/<id> group")
        else:
            jobs += [("gantt_%s.png" % pid, plot_gantt, (f, pid, out_dir, written)),
                     ("energy_%s.png" % pid, plot_energy, (f, pid, out_dir, written))]
        jobs += serve_jobs(f, rows, pid, out_dir, written, title)
        run_jobs(jobs)
        if not written:
            print("no plots written (nothing in %s to plot)" % path)
    return report_failures(rows, out_dir)


def plot_json_file(path, point, out_dir):
    """crossover_<objective>.png per objective of a dispatch table; the exit status."""
    try:
        doc = load_crossover_json(path)
    except (OSError, ValueError) as e:
        print("plot.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    if point is not None:
        note("--point %s: a crossover table has no points" % point)
    os.makedirs(out_dir, exist_ok=True)
    written = []
    objectives = list(dict.fromkeys(list(doc["dispatch"]) + list(doc.get("curves") or {})))
    run_jobs([("crossover_%s.png" % o, plot_crossover_objective, (doc, o, out_dir, written))
              for o in objectives])
    if not written:
        print("no plots written (nothing in %s to plot)" % path)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="plot.py",
        description=__doc__.split("\n\n", 1)[1] if "\n\n" in __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Examples: /usr/bin/python3 tools/plot.py results/seed_table.h5 --out /tmp/plots\n"
               "          /usr/bin/python3 tools/plot.py results/crossover.json")
    ap.add_argument("results", help="a LightCode results file (.h5) or a crossover dispatch "
                                    "table (.json)")
    ap.add_argument("--out", metavar="DIR",
                    help="output directory (default: <file stem>_plots/ beside the file)")
    ap.add_argument("--point", metavar="ID",
                    help="point id for the Gantt chart, energy breakdown and (a serve "
                         "point's) queue plot (default: the first ok point)")
    args = ap.parse_args(argv)

    path = args.results
    if not os.path.isfile(path):
        print("plot.py: %s: no such file" % path, file=sys.stderr)
        return EXIT_BAD_INPUT
    out_dir = output_dir(path, args.out)
    if looks_like_json(path):
        return plot_json_file(path, args.point, out_dir)
    return plot_results_file(path, args.point, out_dir)


if __name__ == "__main__":
    sys.exit(main())
