"""phu_scaling.png: makespan and energy against PHU cores, from a sweep with a
"param.*cores" column (model points only).

One row of panels per (system, objective) present, makespan and energy side by side (x
shared: PHU cores, base-2 log with a tick per probed count when they span >= 4x), one line
per multiplex value (colour, sequential) and per combination of the other varying fields such
as the model (line style); one legend beside the grid. Prints the panel count after the
"wrote" line: "phu scaling: N facets (system x objective) x makespan, energy = M axes".
"""
from .common import (METRICS, MISSING, finish_grid, fmt_value, label_probed, line_styles, maybe_log, note,
                     number, other_config, param_columns, plt, short, sort_key)

NAME = "phu_scaling.png"


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




def set_cores_axis(ax, xs):
    """Base-2 log x with one labelled tick per probed core count when they span >= 4x."""
    if xs and min(xs) > 0 and max(xs) / min(xs) >= 4:
        ax.set_xscale("log", base=2)
        label_probed(ax, xs)


def plot_phu_scaling(summary, out):
    """phu_scaling.png as the module says."""
    rows = summary.model_points()
    cores, mult = scaling_columns(rows)
    if cores is None:
        note(NAME + ": no param.*cores column in /summary")
        return
    ok = [r for r in rows if number(r.get(cores)) is not None]
    if not ok:
        note(NAME + ": no ok point with a numeric %s" % cores)
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
    n_axes = finish_grid(fig, handles, line_fields, "PHU scaling — %s" % summary.title, out, NAME)
    print("  phu scaling: %d facet%s (system x objective) x makespan, energy = %d axes" % (
        len(fkeys), "" if len(fkeys) == 1 else "s", n_axes))


