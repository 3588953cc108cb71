#!/usr/bin/python3
"""Plot a LightCode results file (HDF5, written by `lightcode run` / `lightcode sweep`).

Reads only the HDF5 file and draws, by what it contains (a plot whose data is absent is
skipped with a one-line note):

  hardware_comparison.png  makespan and energy per system and sequence length, grouped bars
                           (drawn when the file has >= 2 distinct systems)
  phu_scaling.png          makespan and energy vs PHU cores, one line per multiplex and
                           system/model (drawn when a /summary column "param.*cores" exists)
  crossover.png            makespan and energy vs sequence length per system, with the
                           lengths where the best system changes marked (drawn when >= 2
                           systems share >= 3 sequence lengths)
  gantt_<id>.png           one point's schedule: one track per hardware unit, coloured by op
  energy_<id>.png          that point's energy breakdown: stacked bars by hardware/category

Failed points (status != "ok") are left out of every plot. Needs only h5py and matplotlib
(Debian: python3-h5py python3-matplotlib).
"""
import argparse
import math
import os
import sys

try:
    import h5py
    import numpy as np  # h5py's own dependency
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import NullLocator
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit("plot.py: needs h5py and matplotlib (apt-get install python3-h5py "
             "python3-matplotlib): %s" % e)

PS_PER_S = 1e12
PJ_PER_J = 1e12


# ----------------------------------------------------------------------------- reading

def text(v):
    """A string field from h5py (bytes, numpy.bytes_, str or anything) as str."""
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).split(b"\0", 1)[0].decode("utf-8", "replace")
    if isinstance(v, str):
        return v.split("\0", 1)[0]
    if hasattr(v, "tobytes") and getattr(v, "dtype", None) is not None and v.dtype.kind in "SV":
        return v.tobytes().split(b"\0", 1)[0].decode("utf-8", "replace")
    if hasattr(v, "item"):
        return text(v.item())
    return str(v)


def value(v):
    """A field value as a plain Python str / int / float."""
    if isinstance(v, (bytes, bytearray, str)):
        return text(v)
    if hasattr(v, "dtype"):
        k = v.dtype.kind
        if k in "SOUV":
            return text(v)
        if k in "iu":
            return int(v)
        if k == "f":
            return float(v)
        if k == "b":
            return bool(v)
    if hasattr(v, "item"):
        return value(v.item())
    return v


def number(v):
    """A float from a number or a numeric string; None when it is neither (or not finite)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        f = float(v)
    else:
        try:
            f = float(str(v).strip())
        except ValueError:
            return None
    return f if math.isfinite(f) else None


def read_table(ds):
    """A compound dataset as a list of dicts of plain values ([] when it is not a table)."""
    names = ds.dtype.names
    if not names or ds.shape is None or len(ds.shape) != 1:
        return []
    rows = ds[()]
    return [{n: value(r[n]) for n in names} for r in rows]


def read_columns(ds, wanted):
    """Selected fields of a compound dataset as lists (fast path for large task tables)."""
    names = ds.dtype.names or ()
    data = ds[()]
    out = {}
    for n in wanted:
        if n not in names:
            out[n] = None
            continue
        col = data[n]
        if col.dtype.kind in "SU":  # fixed-width: decode each distinct value once
            uniq, inv = np.unique(col, return_inverse=True)
            dec = [text(x) for x in uniq]
            out[n] = [dec[i] for i in inv.ravel().tolist()]
        elif col.dtype.kind in "OV":
            out[n] = [text(x) for x in col]
        else:
            out[n] = col.tolist()
    return out


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
    return ", ".join("%s=%s" % (short(f), fmt_value(row.get(f, ""))) for f in fields)


def fmt_value(v):
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


def maybe_log(ax, values, axis="y"):
    if span_decades(values) > 2:
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
        return True
    return False


def time_unit(max_s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if max_s >= scale:
            return unit, scale
    return "ps", 1e-12


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

def plot_phu_scaling(rows, out_dir, written, title):
    params = param_columns(rows)
    cores_cols = [p for p in params if p.endswith("cores")]
    if not cores_cols:
        note("phu_scaling.png: no param.*cores column in /summary")
        return
    cores = next((p for p in cores_cols if "phu" in p), cores_cols[0])
    prefix = cores[: -len("cores")]
    mult_cols = [p for p in params if p.endswith("multiplex")]
    mult = next((p for p in mult_cols if p.startswith(prefix)), mult_cols[0] if mult_cols else None)
    ok = [r for r in rows if is_ok(r) and number(r.get(cores)) is not None]
    if not ok:
        note("phu_scaling.png: no ok point with a numeric %s" % cores)
        return
    line_fields = ["system", "model"] + ([mult] if mult else [])
    line_fields += other_config(ok, exclude=set(line_fields) | {cores, "param.system"})
    # keep only fields that vary (system and model always shown when there is more than one)
    shown = [f for f in line_fields if f in varying(ok, line_fields) or f == mult]
    lines = {}
    for r in ok:
        key = tuple(sort_key(r.get(f, "")) for f in line_fields)
        ln = lines.setdefault(key, {"label": label_of(r, shown) or r.get("system", ""),
                                    "pts": {}})
        ln["pts"].setdefault(number(r[cores]), r)
    keys = sorted(lines)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    cmap = plt.get_cmap("tab10" if len(keys) <= 10 else "tab20")
    markers = "osD^v<>phX*"
    xs_all = sorted({x for k in keys for x in lines[k]["pts"]})
    for ax, (mname, ylabel, get) in zip(axes, METRICS):
        allv = []
        for li, k in enumerate(keys):
            pts = sorted((x, get(r)) for x, r in lines[k]["pts"].items() if get(r) is not None)
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=markers[li % len(markers)],
                    color=cmap(li % cmap.N), label=lines[k]["label"])
            allv += [p[1] for p in pts]
        if xs_all and min(xs_all) > 0 and max(xs_all) / min(xs_all) >= 4:
            ax.set_xscale("log", base=2)
            ax.set_xticks(xs_all)
            ax.set_xticklabels([fmt_value(x) for x in xs_all])
            ax.xaxis.set_minor_locator(NullLocator())
        log = maybe_log(ax, allv)
        ax.set_xlabel("PHU cores (%s)" % short(cores))
        ax.set_ylabel(ylabel + (" (log)" if log else ""))
        ax.set_title("%s vs PHU cores" % mname.capitalize())
        ax.grid(alpha=0.3, which="both" if log else "major")
    if len(keys) > 6:
        axes[1].legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1))
    else:
        axes[0].legend(fontsize="small")
    fig.suptitle("PHU scaling — %s" % title)
    save(fig, out_dir, "phu_scaling.png", written)


# ----------------------------------------------------------------------------- 3. crossover

def crossing(x0, x1, a0, a1, b0, b1):
    """Where curves a and b (from (x0, a0/b0) to (x1, a1/b1)) meet, on log-log axes."""
    try:
        lx0, lx1 = math.log(x0), math.log(x1)
        d0 = math.log(a0) - math.log(b0)
        d1 = math.log(a1) - math.log(b1)
    except ValueError:  # a zero or negative value: interpolate linearly instead
        lx0, lx1, d0, d1 = x0, x1, a0 - b0, a1 - b1
        t = d0 / (d0 - d1) if d0 != d1 else 0.5
        return lx0 + t * (lx1 - lx0)
    t = d0 / (d0 - d1) if d0 != d1 else 0.5
    t = min(1.0, max(0.0, t))
    return math.exp(lx0 + t * (lx1 - lx0))


def plot_crossover(rows, out_dir, written, title):
    ok = [r for r in rows if is_ok(r) and r.get("system", "") != "" and seq_len(r) is not None]
    series_fields = ["system"] + other_config(
        ok, exclude={"system", "param.system", "sequence_length", "param.sequence_length"})
    series = {}
    for r in ok:
        key = tuple(sort_key(r.get(f, "")) for f in series_fields)
        s = series.setdefault(key, {"label": label_of(r, series_fields[1:]), "system": r["system"],
                                    "pts": {}})
        s["pts"].setdefault(seq_len(r), r)
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
    for k in keys:
        lbl = series[k]["label"]
        series[k]["name"] = series[k]["system"] + (" (%s)" % lbl if lbl else "")
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
        # best series at each shared length
        best = []
        for x in shared:
            cands = [(get(series[k]["pts"][x]), k) for k in keys
                     if x in series[k]["pts"] and get(series[k]["pts"][x]) is not None]
            if cands:
                v, k = min(cands, key=lambda c: c[0])
                best.append((x, k))
        crosses = 0
        for (x0, k0), (x1, k1) in zip(best, best[1:]):
            if k0 == k1:
                continue
            p0, p1 = series[k0]["pts"], series[k1]["pts"]
            xc = x1
            if x0 in p1 and x1 in p0:
                xc = crossing(x0, x1, get(p0[x0]), get(p0[x1]), get(p1[x0]), get(p1[x1]))
            ax.axvline(xc, color="0.3", linestyle="--", linewidth=1)
            ax.annotate("%s → %s\n≈ %d tokens" % (series[k0]["system"], series[k1]["system"],
                                                   round(xc)),
                        xy=(xc, 0.97 - 0.13 * (crosses % 4)), xycoords=("data", "axes fraction"),
                        ha="left", va="top", fontsize="small",
                        xytext=(4, 0), textcoords="offset points",
                        bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="0.6", alpha=0.85))
            summary_lines.append("%s: %s -> %s at ~%d tokens" % (
                mname, series[k0]["name"], series[k1]["name"], round(xc)))
            crosses += 1
        if min(shared) > 0:
            ax.set_xscale("log")
            xs = sorted({x for k in keys for x in series[k]["pts"]})
            if len(xs) <= 12:
                ax.set_xticks(xs)
                ax.set_xticklabels([fmt_value(x) for x in xs])
                ax.xaxis.set_minor_locator(NullLocator())
        log = maybe_log(ax, allv)
        ax.set_xlabel("Sequence length [tokens]")
        ax.set_ylabel(ylabel + (" (log)" if log else ""))
        sub = "" if crosses else " (no crossover in range)"
        if best and not crosses:
            sub = " (%s best throughout)" % series[best[0][1]]["system"]
        ax.set_title("%s vs sequence length%s" % (mname.capitalize(), sub), fontsize="medium")
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize="small", title="System", loc="best")
    fig.suptitle("Crossover — %s" % title)
    save(fig, out_dir, "crossover.png", written)
    for s in summary_lines:
        print("  crossover %s" % s)


# ----------------------------------------------------------------------------- 4. gantt

def plot_gantt(f, pid, out_dir, written):
    name = "gantt_%s.png" % pid
    ds = f.get("points/%s/tasks" % pid)
    if not isinstance(ds, h5py.Dataset) or not ds.dtype.names:
        note("%s: no /points/%s/tasks" % (name, pid))
        return
    need = ["hardware", "unit", "start_ps", "end_ps", "op"]
    if any(n not in ds.dtype.names for n in ("start_ps", "end_ps")):
        note("%s: tasks lack start_ps/end_ps" % name)
        return
    cols = read_columns(ds, need)
    n = len(cols["start_ps"])
    hw = cols["hardware"] or ["?"] * n
    unit = cols["unit"] or [0] * n
    op = cols["op"] or ["task"] * n
    tasks = [(hw[i], unit[i], op[i], cols["start_ps"][i], cols["end_ps"][i]) for i in range(n)
             if hw[i] != "start"]
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
    if seq_len(row) is not None:
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
    order = ["compute", "data_movement", "memory", "conversion", "static"]
    cats = sorted({c for cs in data.values() for c in cs},
                  key=lambda c: (order.index(c) if c in order else len(order), c))
    cmap = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(max(7.0, 0.7 * len(hws) + 3), 5))
    bottom = [0.0] * len(hws)
    for ci, c in enumerate(cats):
        vals = [data[h].get(c, 0.0) for h in hws]
        ax.bar(range(len(hws)), vals, 0.7, bottom=bottom, label=c, color=cmap(ci % 10))
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


# ----------------------------------------------------------------------------- main

def file_title(rows):
    ok = [r for r in rows if is_ok(r)] or rows
    parts = []
    for field in ("model", "stage", "profile", "fidelity"):
        vals = sorted({str(r.get(field, "")) for r in ok if r.get(field, "") != ""})
        if vals:
            parts.append("/".join(vals) if len(vals) <= 3 else "%d %ss" % (len(vals), field))
    return ", ".join(parts) or "LightCode results"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="plot.py",
        description=__doc__.split("\n\n", 1)[1] if "\n\n" in __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: /usr/bin/python3 tools/plot.py results/seed_table.h5 --out /tmp/plots")
    ap.add_argument("results", help="a LightCode results file (.h5)")
    ap.add_argument("--out", metavar="DIR",
                    help="output directory (default: <results stem>_plots/ beside the file)")
    ap.add_argument("--point", metavar="ID",
                    help="point id for the Gantt chart and energy breakdown (default: the "
                         "first ok point)")
    args = ap.parse_args(argv)

    path = args.results
    if not os.path.isfile(path):
        print("plot.py: %s: no such file" % path, file=sys.stderr)
        return 2
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        print("plot.py: %s: not an HDF5 file (%s)" % (path, e), file=sys.stderr)
        return 2
    with f:
        summary = f.get("summary")
        if not isinstance(summary, h5py.Dataset) or not summary.dtype.names:
            print("plot.py: %s: not a LightCode results file (no /summary table)" % path,
                  file=sys.stderr)
            return 2
        rows = read_table(summary)
        SUMMARY_BY_ID.update((str(r["id"]), r) for r in rows if "id" in r)
        points = f.get("points")
        ids = [k for k in points] if isinstance(points, h5py.Group) else []
        pid = args.point
        if pid is not None:
            if pid not in ids:
                print("plot.py: %s: no point %r (points: %s)" % (
                    path, pid, ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")),
                    file=sys.stderr)
                return 2
        else:
            ok_ids = [str(r.get("id", "")) for r in rows if is_ok(r)]
            pid = next((i for i in ok_ids if i in ids), None)
            if pid is None:  # fall back on the point groups' own status attribute
                pid = next((i for i in ids
                            if text(points[i].attrs.get("status", "ok")) == "ok"), None)
        out_dir = args.out
        if not out_dir:
            stem = os.path.splitext(os.path.basename(path))[0]
            out_dir = os.path.join(os.path.dirname(os.path.abspath(path)), stem + "_plots")
        os.makedirs(out_dir, exist_ok=True)
        written = []
        title = file_title(rows)
        if not rows:
            note("/summary has no points")
        jobs = [("hardware_comparison.png", plot_hardware_comparison, (rows,)),
                ("phu_scaling.png", plot_phu_scaling, (rows,)),
                ("crossover.png", plot_crossover, (rows,))]
        if pid is None:
            note("gantt/energy: no ok point with a /points/<id> group")
        else:
            jobs += [("gantt_%s.png" % pid, plot_gantt, (f, pid)),
                     ("energy_%s.png" % pid, plot_energy, (f, pid))]
        for name, fn, fargs in jobs:
            extra = (out_dir, written) + ((title,) if fargs == (rows,) else ())
            try:
                fn(*(fargs + extra))
            except Exception as e:  # an unexpected layout: say so, draw the others
                plt.close("all")
                note("%s: could not draw it from this file (%s: %s)" % (
                    name, type(e).__name__, e))
        if not written:
            print("no plots written (nothing in %s to plot)" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
