"""serve_queue_<id>.png: each replica's waiting (queue) and running sequences over a serve
point's run, from its serve_series table (replica, time_ps, queue, running: the counts from
time_ps on, one row per change).

Layout: one row of panels per replica (the first MAX_REPLICAS), waiting on the left, running
on the right, time shared. The points that differ from <id> only in hardware (another system
at the same dispatch policy and arrival rate: serving.ServeLines.same_but_hardware) are drawn
on the same panels in their line's colour, so that the systems compare at a glance.

A long run changes its counts tens of thousands of times: drawn as raw steps that is a solid
blob. A series with more than 2 x BINS changes is binned into BINS equal time bins instead:
the time-weighted mean per bin as a solid step line, the maximum per bin as a thin pale one
(peaks stay visible); the title says so and the printed line gives the bin width. Shorter
series are drawn as exact step functions, held from each sample to the next and from the last
to the end of the run. Prints one line per point drawn ("serve queue p0000: 2566 samples on 2
replicas, binned into 200 bins of 508.7 ms ...").
"""
import h5py
import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from lightcode_results import read_columns

from .common import PS_PER_S, fmt_seconds, makespan_s, note, plt, time_unit
from .serving import ServeLines

MAX_REPLICAS = 16  # replicas drawn, the first ones
BINS = 200         # bins of a long series (about 3 px each at the figure's width)
COUNTS = [("queue", "waiting (queue)"), ("running", "running")]
NEED = ["replica", "time_ps", "queue", "running"]


def read_series(f, pid):
    """{replica: (times ps, {"queue": values, "running": values})} sorted by time, or None
    when the point has no serve_series table."""
    ds = f.get("points/%s/serve_series" % pid)
    if not isinstance(ds, h5py.Dataset) or any(n not in (ds.dtype.names or ()) for n in NEED):
        return None
    cols = read_columns(ds, NEED)
    out = {}
    replica = cols["replica"]
    for rp in sorted(set(replica.tolist())):
        sel = replica == rp
        t = cols["time_ps"][sel]
        order = np.argsort(t, kind="stable")
        out[rp] = (t[order], {c: cols[c][sel][order] for c, _ in COUNTS})
    return out


def step_arrays(times, values, t_end):
    """The exact step function: (x, y) with y[i] held on [x[i], x[i+1]); 0 from time 0 to
    the first sample (nothing is dispatched before it), the last value held to t_end."""
    x = np.concatenate([[0], np.asarray(times, dtype=np.float64), [t_end]])
    v = np.asarray(values, dtype=np.float64)
    y = np.concatenate([[0.0], v, v[-1:]])
    return x, y


def bin_steps(times, values, t_end, n_bins):
    """The step function of step_arrays over [0, t_end] in n_bins equal bins: (edges,
    time-weighted mean per bin, maximum per bin), each of the last two n_bins long."""
    x, y = step_arrays(times, values, t_end)
    x, y = x[:-1], y[:-1]  # sample i holds y[i] on [x[i], next x or t_end)
    seg_end = np.append(x[1:], t_end)
    area = np.concatenate([[0.0], np.cumsum(y * np.clip(seg_end - x, 0.0, None))])
    edges = np.linspace(0.0, float(t_end), n_bins + 1)

    def integral(at):  # of the step function from 0 to each of `at`
        i = np.clip(np.searchsorted(x, at, side="right") - 1, 0, len(x) - 1)
        return area[i] + y[i] * (at - x[i])

    mean = np.diff(integral(edges)) / np.diff(edges)
    first = np.clip(np.searchsorted(x, edges[:-1], side="right") - 1, 0, len(x) - 1)
    last = np.maximum(np.searchsorted(x, edges[1:], side="left") - 1, first)
    peak = np.array([y[a:b + 1].max() for a, b in zip(first, last)])
    return edges, mean, peak


def plot_serve_queue(summary, f, pid, out):
    """serve_queue_<pid>.png as the module says."""
    name = "serve_queue_%s.png" % pid
    lines = ServeLines(summary.serve_points())
    group = lines.same_but_hardware(pid) or [(None, summary.row(f, pid))]
    drawn = []
    for key, row in group:
        series = read_series(f, str(row.get("id", "")))
        if series:
            drawn.append((key, row, series))
    if not drawn:
        note("%s: no /points/%s/serve_series rows (not a serve point, or it served nothing)"
             % (name, pid))
        return
    ends = []
    for _, row, series in drawn:
        mk = makespan_s(row)
        last = max(int(t[-1]) for t, _ in series.values())
        ends.append(max(last, int(round(mk * PS_PER_S)) if mk else 0) or 1)
    t_max = max(ends)
    tunit, tscale = time_unit(t_max / PS_PER_S)
    scale = 1.0 / (PS_PER_S * tscale)
    replicas = sorted({rp for _, _, s in drawn for rp in s})
    shown = replicas[:MAX_REPLICAS]
    if len(shown) < len(replicas):
        print("  serve queue: the first %d of %d replicas drawn" % (len(shown), len(replicas)))
    fig, axes = plt.subplots(len(shown), 2, figsize=(13, min(22.0, 1.9 * len(shown) + 1.5)),
                             sharex=True, squeeze=False, layout="constrained")
    binned_any = False
    legend = []
    for (key, row, series), t_end in zip(drawn, ends):
        colour = lines.lines[key]["look"][0] if key is not None and len(drawn) > 1 else "tab:blue"
        label = lines.lines[key]["name"] if key is not None else str(row.get("system", ""))
        n = sum(len(t) for t, _ in series.values())
        binned = any(len(t) > 2 * BINS for t, _ in series.values())
        binned_any |= binned
        for i, rp in enumerate(shown):
            if rp not in series:
                continue
            times, counts = series[rp]
            for j, (col, _) in enumerate(COUNTS):
                draw_counts(axes[i, j], times, counts[col], t_end, scale, colour, binned)
        how = ("binned into %d bins of %s (mean and max per bin)" % (
            BINS, fmt_seconds(t_end / PS_PER_S / BINS)) if binned else "exact steps")
        print("  serve queue %s: %d samples on %d replicas, %s" % (
            row.get("id", "?"), n, len(series), how))
        legend.append(Line2D([], [], color=colour, linewidth=1.6,
                             label="%s (%s)" % (label, row.get("id", "?"))))
    for i, rp in enumerate(shown):
        for j, (_, title) in enumerate(COUNTS):
            ax = axes[i, j]
            # counts are whole: at least 0 .. 1 (an idle queue's axis would read 0 .. 0.05)
            ax.set_ylim(0, max(1.0, ax.get_ylim()[1]))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.grid(alpha=0.3)
            if i == 0:
                ax.set_title(title.capitalize() + " sequences", fontsize="medium")
        axes[i, 0].set_ylabel("replica %s\nsequences" % rp)
    for ax in axes[-1]:
        ax.set_xlim(0, t_max * scale)
        ax.set_xlabel("Time [%s]" % tunit)
    if binned_any:
        legend += [Line2D([], [], color="0.3", linewidth=1.4, label="mean per bin"),
                   Line2D([], [], color="0.3", linewidth=0.7, alpha=0.5, label="max per bin")]
    fig.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.0, 0.97), fontsize="small",
               title=lines.title or "point")
    # several systems: the title keeps what they share, the legend names each
    what = summary.point_title(f, pid, system=len(drawn) == 1)
    fig.suptitle("Queue and running sequences of %s — %s%s" % (
        ", ".join(str(r.get("id", "?")) for _, r, _ in drawn), what,
        "\nlong series binned: %d bins per run" % BINS if binned_any else ""))
    out.save(fig, name)


def draw_counts(ax, times, values, t_end, scale, colour, binned):
    """One replica's counts on `ax`: exact steps, or binned (the mean a solid line, the max
    a thin pale one above it: bands of several systems would blend into a third colour)."""
    if not binned:
        x, y = step_arrays(times, values, t_end)
        ax.step(x * scale, y, where="post", color=colour, linewidth=1.1, gid="exact")
        return
    edges, mean, peak = bin_steps(times, values, t_end, BINS)
    xs = edges * scale
    # a step line needs its last value repeated at the end edge
    ax.step(xs, np.append(peak, peak[-1]), where="post", color=colour, linewidth=0.7,
            alpha=0.5, gid="max")
    ax.step(xs, np.append(mean, mean[-1]), where="post", color=colour, linewidth=1.4,
            gid="mean")
