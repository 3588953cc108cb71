"""tp_scaling.png: latency, communication share and group energy against the tensor-parallel
degree, from a sweep whose ok model points have >= 2 distinct tensor_parallel values (the
/summary columns of format 11: tensor_parallel, communication_s, group_energy_pj).

One row of panels per (stage, model) present, three panels side by side (x shared: devices
in the tensor-parallel group, base-2 log with one tick per probed count): the latency
(makespan: a prefill point's time to first token, a decode point's time per output token),
the communication share (communication_s / makespan_s: the time the simulated device spends
in collectives, in %) and the energy of every device of the group (J). One line per system
(colour) and per combination of the other varying fields such as the sequence length (line
style); one legend beside the grid. Prints the panel count after the "wrote" line:
"tp scaling: N rows (stage x model) x latency, communication share, group energy = M axes".
A file without a tensor_parallel column (format 10 and before) or with one value is skipped
with a note.
"""
import re

from matplotlib.ticker import FormatStrFormatter, LogLocator

from .common import (MISSING, PJ_PER_J, finish_grid, fmt_value, label_probed, line_styles, makespan_s,
                     maybe_log, note, number, other_config, plt, sort_key, time_unit)

NAME = "tp_scaling.png"
TP_FIELDS = ("tensor_parallel", "param.tensor_parallel")
FACET_FIELDS = ["stage", "model"]
STAGE_LATENCY = {"prefill": "time to first token", "decode": "time per output token"}
STAGE_ORDER = {"prefill": 0, "decode": 1}  # rows: prefill above decode, other stages after


def tensor_parallel(row):
    """The point's tensor-parallel degree: the summary's column, else its sweep parameter."""
    for f in TP_FIELDS:
        v = number(row.get(f))
        if v is not None:
            return v
    return None


def communication_pct(row):
    """communication_s as a share of the makespan, in %."""
    c, m = number(row.get("communication_s")), makespan_s(row)
    return 100.0 * c / m if c is not None and m else None


def group_energy_j(row):
    v = number(row.get("group_energy_pj"))
    return v / PJ_PER_J if v is not None else None


# (name, y label, getter); the latency's unit is chosen per panel
PANELS = [("latency", "Latency", makespan_s),
          ("communication share", "Communication share [%]", communication_pct),
          ("group energy", "Group energy [J]", group_energy_j)]


def facet_title(row):
    """A row's (stage, model): "prefill (time to first token), llama-2-70b"."""
    stage = str(row.get("stage", ""))
    if stage in STAGE_LATENCY:
        stage = "%s (%s)" % (stage, STAGE_LATENCY[stage])
    return ", ".join(p for p in (stage, str(row.get("model", ""))) if p)


def natural_key(v):
    """Text with its digits compared as numbers: llama-2-7b before llama-2-13b."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"(\d+)", str(v)) if p)


def label_log_y(ax):
    """Tick labels at 1, 2 and 5 of each decade of a log y axis (a prefill column spans
    little more than a decade, which log ticks alone would label once)."""
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))


def set_tp_axis(ax, xs):
    """Base-2 log x with one labelled tick per probed group size."""
    if xs and min(xs) > 0:
        ax.set_xscale("log", base=2)
        label_probed(ax, xs)


def tp_facets(ok, line_fields):
    """{facet key: {"title", "lines": {(colour key, style key): {"label", "pts"}}}} with pts
    {tensor parallel: row} (first point wins on duplicates). Colour by system, line style by
    the other line fields."""
    style_fields = [f for f in line_fields if f != "system"]
    facets = {}
    for r in ok:
        stage = str(r.get("stage", ""))
        fkey = (STAGE_ORDER.get(stage, len(STAGE_ORDER)), stage,
                natural_key(r.get("model", "")))
        ckey = sort_key(r.get("system", ""))
        skey = tuple(sort_key(r.get(f, "")) for f in style_fields)
        fc = facets.setdefault(fkey, {"title": facet_title(r), "lines": {}})
        # values only: the legend's title names the fields
        label = ", ".join(fmt_value(r.get(f, ""), MISSING) for f in line_fields)
        ln = fc["lines"].setdefault((ckey, skey), {"label": label, "pts": {}})
        ln["pts"].setdefault(tensor_parallel(r), r)
    return facets


def plot_tp_scaling(summary, out):
    """tp_scaling.png as the module says."""
    rows = summary.model_points()
    if not rows:
        note(NAME + ": no ok model point")
        return
    if not any(f in r for r in rows for f in TP_FIELDS):
        note(NAME + ": no tensor_parallel column in /summary (a file of format 10 or before)")
        return
    ok = [r for r in rows if tensor_parallel(r) is not None]
    xs_all = sorted({tensor_parallel(r) for r in ok})
    if len(xs_all) < 2:
        note(NAME + ": one tensor_parallel value (%s): no scaling to draw"
             % (", ".join(fmt_value(x) for x in xs_all) or "none"))
        return
    others = other_config(ok, exclude=set(FACET_FIELDS) | {"param.stage", "param.model"}
                          | set(TP_FIELDS))
    line_fields = (["system"] if "system" in others else []) + [f for f in others
                                                                 if f != "system"]
    facets = tp_facets(ok, line_fields)
    keys = {k for fc in facets.values() for k in fc["lines"]}
    colours, styles = line_styles(sorted({k[0] for k in keys}), sorted({k[1] for k in keys}),
                                  sequential=False)
    fkeys = sorted(facets)
    fig, axes = plt.subplots(len(fkeys), len(PANELS), figsize=(15, 2.9 * len(fkeys) + 1.0),
                             sharex=True, squeeze=False, layout="constrained")
    handles = {}
    for row_axes, fkey in zip(axes, fkeys):
        fc = facets[fkey]
        for ax, (pname, ylabel, get) in zip(row_axes, PANELS):
            series = {}
            for lkey, ln in fc["lines"].items():
                pts = sorted((x, get(r)) for x, r in ln["pts"].items() if get(r) is not None)
                if pts:
                    series[lkey] = pts
            values = [y for pts in series.values() for _, y in pts]
            scale = 1.0
            if pname == "latency" and values:
                unit, scale = time_unit(max(values))
                ylabel = "%s [%s]" % (ylabel, unit)
            for lkey in sorted(series):
                pts = series[lkey]
                ls, mk = styles[lkey[1]]
                h, = ax.plot([p[0] for p in pts], [p[1] / scale for p in pts], linestyle=ls,
                             marker=mk, markersize=4, color=colours[lkey[0]],
                             label=fc["lines"][lkey]["label"])
                handles.setdefault(lkey, (h, fc["lines"][lkey]["label"]))
            log = pname != "communication share" and maybe_log(ax, values)
            if log:
                label_log_y(ax)
            if pname == "communication share" and values:  # from 0 (TP 1), its marker whole
                ax.set_ylim(bottom=-0.03 * max(max(values), 1.0))
            ax.set_ylabel(ylabel + (" (log)" if log else ""))
            ax.grid(alpha=0.3, which="both" if log else "major")
            set_tp_axis(ax, xs_all)
            ax.set_title("%s — %s" % (fc["title"], pname), fontsize="medium")
    for ax in axes[-1]:
        ax.set_xlabel("Tensor-parallel devices")
    n_axes = finish_grid(fig, handles, line_fields, "Tensor-parallel scaling — %s" % summary.title, out, NAME)
    print("  tp scaling: %d row%s (stage x model) x latency, communication share, "
          "group energy = %d axes" % (len(fkeys), "" if len(fkeys) == 1 else "s", n_axes))
