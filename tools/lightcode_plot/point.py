"""One point's figures: gantt_<id>.png, its schedule (one track per hardware unit, coloured
by op kind; a generate point's steps follow each other, a dashed line where each decode step
starts), and energy_<id>.png, its energy breakdown (stacked bars by hardware and category).
point_title() names a point in any figure's title.
"""
import h5py
import numpy as np
from matplotlib.patches import Patch

from lightcode_results import read_columns, read_table

from .common import PJ_PER_J, PS_PER_S, note, number, plt, sort_key, time_unit


def plot_gantt(summary, f, pid, out):
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
        pid, summary.point_title(f, pid), len(tasks), t_end * scale, tunit))
    out.save(fig, name)


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


def plot_energy(summary, f, pid, out):
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
    ax.set_title("Energy breakdown of %s — %s (total %.4g J)" % (
        pid, summary.point_title(f, pid), total))
    out.save(fig, name)
