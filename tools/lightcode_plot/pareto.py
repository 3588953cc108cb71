"""pareto.png: the joint placement search's non-dominated (makespan, energy) placements, for
each point that has a /points/<id>/pareto table (a scenario's `pareto: true`), one panel each
(the first MAX_PANELS), the point's reported answer ringed.

Honest axes: fronts are often a fraction of a percent apart in energy, and an axis fitted to
the data would blow 0.3 % up to the full panel. Each axis starts at the front's minimum (its
baseline, named in the axis label) and shows at least MIN_SPAN of it above, so a 0.3 %
difference stays a small step; the opposite side of each panel reads "% above the minimum",
and the title gives each metric's spread over the front. One legend for the figure, below
the panels, covers no data. Prints "pareto: N fronts, spread ..." per panel after "wrote".
"""
import h5py

from lightcode_results import number, read_table, text

from .common import PJ_PER_J, PS_PER_S, note, plt, scaled_unit

NAME = "pareto.png"
MAX_PANELS = 12
MIN_SPAN = 0.02   # each axis spans at least 2 % of the front's minimum
PAD = 0.06        # of the shown range, on both sides (so markers are not cut)


def fronts_of(f):
    """[(point id, [(makespan s, energy J)] sorted)] of the points with a pareto table."""
    points = f.get("points")
    out = []
    for pid in (sorted(points) if isinstance(points, h5py.Group) else []):
        ds = points[pid].get("pareto")
        if not (isinstance(ds, h5py.Dataset) and ds.dtype.names
                and "makespan_ps" in ds.dtype.names and "energy_pj" in ds.dtype.names):
            continue
        pts = []
        for r in read_table(ds):
            x, y = number(r.get("makespan_ps")), number(r.get("energy_pj"))
            if x is not None and y is not None and x > 0 and y > 0:
                pts.append((x / PS_PER_S, y / PJ_PER_J))
        if pts:
            out.append((pid, sorted(pts)))
    return out


def axis_range(values):
    """(low, high) limits: from the minimum, at least MIN_SPAN of it above, PAD each side."""
    lo, hi = min(values), max(values)
    top = max(hi, lo * (1 + MIN_SPAN))
    pad = PAD * (top - lo)
    return lo - pad, top + pad


def spread(values):
    """(max - min) / min in percent."""
    return 100.0 * (max(values) - min(values)) / min(values)


def relative_axis(ax, which, base):
    """A secondary axis on the far side: the same values as % above `base`."""
    to_pct = (lambda v: (v / base - 1.0) * 100.0)
    from_pct = (lambda p: base * (1.0 + p / 100.0))
    if which == "x":
        sec = ax.secondary_xaxis("top", functions=(to_pct, from_pct))
    else:
        sec = ax.secondary_yaxis("right", functions=(to_pct, from_pct))
    sec.tick_params(labelsize="x-small", colors="0.35")
    sec.set_gid("relative")
    return sec


def plot_pareto(summary, f, out):
    """pareto.png as the module says."""
    fronts = fronts_of(f)
    if not fronts:
        note("%s: no point has a /points/<id>/pareto table (scenario key `pareto: true`)" % NAME)
        return
    fronts = fronts[:MAX_PANELS]
    cols = min(3, len(fronts))
    rows_n = (len(fronts) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.0 * cols, 4.3 * rows_n + 0.6),
                             squeeze=False, layout="constrained")
    handles = {}
    lines = []
    for k, (pid, pts) in enumerate(fronts):
        ax = axes[k // cols][k % cols]
        row = summary.by_id.get(pid) or {}
        answer = None
        mx, en = number(row.get("makespan_s")), number(row.get("energy_pj"))
        if mx is not None and en is not None and mx > 0 and en > 0:
            answer = (mx, en / PJ_PER_J)
        xs = [p[0] for p in pts] + ([answer[0]] if answer else [])
        ys = [p[1] for p in pts] + ([answer[1]] if answer else [])
        xunit, xscale = scaled_unit(max(xs), "s")
        yunit, yscale = scaled_unit(max(ys), "J")
        h, = ax.plot([p[0] / xscale for p in pts], [p[1] / yscale for p in pts], "o-",
                     drawstyle="steps-post", color="tab:blue", markersize=5,
                     label="non-dominated placements (the front)")
        handles.setdefault("front", h)
        objective = text(row.get("objective", ""))
        if answer:
            h, = ax.plot([answer[0] / xscale], [answer[1] / yscale], "o", markersize=13,
                         markerfacecolor="none", markeredgewidth=1.5, color="tab:red",
                         label="the point's reported answer (its objective)")
            handles.setdefault("answer", h)
        xlo, xhi = axis_range([x / xscale for x in xs])
        ylo, yhi = axis_range([y / yscale for y in ys])
        ax.set_xlim(xlo, xhi)
        ax.set_ylim(ylo, yhi)
        xmin, ymin = min(xs) / xscale, min(ys) / yscale
        relative_axis(ax, "x", xmin).set_xlabel("% above min", fontsize="x-small", color="0.35")
        relative_axis(ax, "y", ymin).set_ylabel("% above min", fontsize="x-small", color="0.35")
        ax.set_xlabel("Makespan [%s] (min %.4g)" % (xunit, xmin))
        ax.set_ylabel("Energy [%s] (min %.4g)" % (yunit, ymin))
        ax.grid(alpha=0.3)
        sx, sy = spread(xs), spread(ys)
        ax.set_title("%s — %s\n%d placements%s; spread: makespan %.2g %%, energy %.2g %%" % (
            pid, summary.point_title(f, pid), len(pts),
            ", answer for %s" % objective if objective else "", sx, sy), fontsize="small")
        lines.append("  pareto %s: %d placements, makespan spread %.3g %%, energy spread "
                     "%.3g %%" % (pid, len(pts), sx, sy))
    for k in range(len(fronts), rows_n * cols):
        axes[k // cols][k % cols].set_visible(False)
    order = [handles[k] for k in ("front", "answer") if k in handles]
    # below the panels (saved with bbox_inches="tight", so it is kept)
    fig.legend(order, [h.get_label() for h in order], loc="upper center",
               bbox_to_anchor=(0.5, 0.0), ncol=len(order), fontsize="small")
    fig.suptitle("Non-dominated (makespan, energy) placements of the joint search\n"
                 "each axis starts at the front's minimum and spans at least %g %% of it"
                 % (100 * MIN_SPAN))
    out.save(fig, NAME)
    for ln in lines:
        print(ln)
