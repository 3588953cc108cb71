"""latency_cdf.png and serve_load.png, from a file's serve points (lines: serving.ServeLines,
one per hardware, dispatch policy and other varying field; one legend beside the figure).

latency_cdf.png   the empirical CDF of each request's latency, time to first token and time
                  per output token (one column each, log x where the values span > 1.5
                  decades), one row per arrival rate (up to MAX_CDF_ROWS, evenly chosen), each
                  line's p99 (nearest rank: the ceil(0.99 n)-th smallest) ringed and listed in
                  the panel's lower right, where a CDF leaves room. Non-finite request values
                  (NaN: a figure that does not apply to the request) are left out and counted.
serve_load.png    throughput, p99 latency, p99 TTFT and energy per output token (static power
                  included) against the arrival rate, from /summary (drawn when the serve
                  points have >= 2 rates).
"""
import math

import h5py

from lightcode_results import read_columns

from .common import (PJ_PER_J, fmt_seconds, label_probed, maybe_log, note, number, plt,
                     rate_label, scaled_unit, time_unit)
from .serving import ServeLines

# The requests table's columns drawn as CDFs: (field, panel title), one column of panels each.
REQUEST_METRICS = [("latency_s", "Request latency"), ("ttft_s", "Time to first token"),
                   ("tpot_s", "Time per output token")]
MAX_CDF_ROWS = 6  # arrival rates drawn in latency_cdf.png; more are thinned evenly


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
    """({field: [finite float]} of the REQUEST_METRICS columns of /points/<pid>/requests (a
    column the table lacks is left out), {field: count of non-finite values left out});
    (None, {}) when the point has no requests table."""
    ds = f.get("points/%s/requests" % pid)
    if not isinstance(ds, h5py.Dataset) or not ds.dtype.names:
        return None, {}
    cols = read_columns(ds, [m for m, _ in REQUEST_METRICS])
    vals, dropped = {}, {}
    for m, c in cols.items():
        if c is None:
            continue
        vals[m] = [v for v in c.tolist() if math.isfinite(v)]
        if len(vals[m]) < len(c):
            dropped[m] = len(c) - len(vals[m])
    return vals, dropped


def cdf_rates(rates):
    """At most MAX_CDF_ROWS of the sorted `rates`, evenly spread, the first and last kept."""
    if len(rates) <= MAX_CDF_ROWS:
        return rates
    step = (len(rates) - 1) / (MAX_CDF_ROWS - 1)
    return [rates[int(round(i * step))] for i in range(MAX_CDF_ROWS)]


def figure_legend(fig, lines, handles):
    """One legend for every line, beside the panels (it covers none)."""
    keys = [k for k in lines.keys() if k in handles]
    fig.legend([handles[k] for k in keys], [lines.lines[k]["name"] for k in keys],
               loc="upper left", bbox_to_anchor=(1.0, 0.97), fontsize="small",
               title=lines.title)


def plot_latency_cdf(summary, f, out):
    """latency_cdf.png as the module says."""
    lines = ServeLines(summary.serve_points())
    data, dropped = {}, {}
    for ln in lines.lines.values():
        for r in ln["pts"].values():
            vals, lost = request_values(f, r["id"])
            if vals:
                data[r["id"]] = vals
            for m, n in lost.items():
                dropped[m] = dropped.get(m, 0) + n
    if not data:
        note("latency_cdf.png: no serve point has a /points/<id>/requests table")
        return
    metrics = [(m, t) for m, t in REQUEST_METRICS if any(v.get(m) for v in data.values())]
    rates = sorted({x for ln in lines.lines.values() for x, r in ln["pts"].items()
                    if r["id"] in data})
    shown = cdf_rates(rates)
    if len(shown) < len(rates):
        print("  latency cdf: %d of %d arrival rates drawn (%s)" % (
            len(shown), len(rates), ", ".join(rate_label(x) for x in shown)))
    for m, n in sorted(dropped.items()):
        print("  latency cdf: %d non-finite %s value%s left out" % (n, m, "" if n == 1 else "s"))
    fig, axes = plt.subplots(len(shown), len(metrics), squeeze=False, sharex="col",
                             figsize=(5.2 * len(metrics), 2.9 * len(shown) + 1.2),
                             layout="constrained")
    handles = {}
    for j, (field, mtitle) in enumerate(metrics):
        column = [x for v in data.values() for x in v.get(field, [])]
        unit, scale = time_unit(max(column))
        for ax, rate in zip(axes[:, j], shown):
            for key in lines.keys():
                ln = lines.lines[key]
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
                ax.legend(loc="lower right", fontsize="x-small", handletextpad=0.3)
            ax.set_title("%s — %s" % (mtitle, rate_label(rate)), fontsize="medium")
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3, which="both")
        log = False
        for ax in axes[:, j]:
            log = maybe_log(ax, [v / scale for v in column], axis="x")
        axes[-1, j].set_xlabel("%s [%s]%s" % (mtitle, unit, " (log)" if log else ""))
    for ax in axes[:, 0]:
        ax.set_ylabel("Fraction of requests")
    figure_legend(fig, lines, handles)
    fig.suptitle("Request latency CDFs (p99 ringed) — %s" % summary.title)
    out.save(fig, "latency_cdf.png")


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


def plot_serve_load(summary, out):
    """serve_load.png as the module says."""
    lines = ServeLines(summary.serve_points())
    rates = [x for x in lines.rates() if x > 0]
    if len(rates) < 2:
        note("serve_load.png: fewer than 2 arrival rates among the serve points (%s)" % (
            ", ".join(rate_label(x) for x in rates) or "none"))
        return
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharex=True, layout="constrained")
    handles = {}
    for ax, (mtitle, unit, base, get) in zip(axes.flat, LOAD_METRICS):
        curves = {k: sorted((x, get(r)) for x, r in ln["pts"].items()
                            if x > 0 and get(r) is not None) for k, ln in lines.lines.items()}
        allv = [y for pts in curves.values() for _, y in pts]
        unit, scale = scaled_unit(max(allv), base) if allv and base else (unit, 1.0)
        for key in lines.keys():
            if not curves[key]:
                continue
            colour, ls, mk = lines.lines[key]["look"]
            h, = ax.plot([p[0] for p in curves[key]], [p[1] / scale for p in curves[key]],
                         color=colour, linestyle=ls, marker=mk, markersize=5,
                         label=lines.lines[key]["name"])
            handles.setdefault(key, h)
        log = maybe_log(ax, [v / scale for v in allv])
        ax.set_ylabel("%s [%s]%s" % (mtitle, unit, " (log)" if log else ""))
        ax.set_title("%s vs arrival rate" % mtitle, fontsize="medium")
        ax.grid(alpha=0.3, which="both" if log else "major")
    xlog = False
    for ax in axes.flat:
        xlog = maybe_log(ax, rates, axis="x")
        if len(rates) <= 12:
            label_probed(ax, rates)
    for ax in axes[-1]:
        ax.set_xlabel("Arrival rate [requests/s]%s" % (" (log)" if xlog else ""))
    figure_legend(fig, lines, handles)
    fig.suptitle("Serving under load — %s" % summary.title)
    out.save(fig, "serve_load.png")
