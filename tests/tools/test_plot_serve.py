#!/usr/bin/python3
"""tools/plot.py's serving plots on synthetic format 5 and 6 files (tests/tools/
synthetic_results.py serve points: requests and serve_series tables from a fixed seed).

  1. the CDF helpers: ecdf gives the sorted values and the fractions i/n; nearest_rank the
     ceil(p/100 n)-th smallest value and its rank; a point's arrival rate from the summary,
     else from the number its arrival_rate parameter starts with ("20 req/s");
  2. a sweep over 3 dispatch policies x 4 arrival rates: exit 0, latency_cdf.png (one row of
     latency / TTFT / TPOT panels per rate: 12 axes) and serve_load.png (4 panels) written;
     each ringed p99 is the nearest-rank p99 of that point's request latencies (= the
     summary's latency_p99_s) at height rank / n; serve_load's throughput lines hold the
     summary's values at the swept rates; serve_queue_p0000.png (the first serve point):
     a row of (waiting, running) panels per replica, its running steps the point's
     serve_series exactly;
  3. two systems (a replicas axis that only renames the system) x 2 policies x 2 rates
     (format 6): latency_cdf and serve_load have one legend entry per (system, policy),
     colour by system, line style by policy, the throughput values as stored; the queue
     figure of --point draws the other system's point at the same policy and rate too;
  4. a queue series of 60,000 changes per replica: binned (bin_steps: time-weighted mean and
     max per bin, checked on small cases), 200 bins drawn, the highest peak kept and the
     bins' means holding the run's time integral;
  5. prefill and serve points in one file, format 5 (0 where a field does not apply) and 6
     (NaN): no serve point in the bars or crossover, no prefill point in serve_load, every
     axis limit finite, both formats the same figures;
  6. one arrival rate: latency_cdf.png with one row, serve_load.png skipped with a note;
  7. rates given only as text parameters ("5 req/s"): serve_load.png's x are 5 and 20;
  8. a file without serve points: the serving plots skipped with one note; --help lists them.

Usage: test_plot_serve.py [SOURCE_DIR]   (default: two levels above this file)
Exits 77 (ctest: skipped) with a SKIP message when h5py or matplotlib is missing.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# check(), run() (plot.py in this process, figures inspected) and the SKIP (exit 77) when
# h5py/matplotlib are missing
import test_plot_synthetic as base  # noqa: E402
from synthetic_results import point, serve_point, write_results  # noqa: E402
from test_plot_synthetic import check, check_png, figures, run, run_cases  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

POLICIES = ("round_robin", "least_outstanding_tokens", "prompt_length")
RATES = (2, 5, 10, 20)


def case_helpers(tmp):
    mod = base.plot_package("serving_latency")
    common = base.plot_package("common")
    check(mod.ecdf([3.0, 1.0, 2.0, 2.0]) == ([1.0, 2.0, 2.0, 3.0], [0.25, 0.5, 0.75, 1.0]),
          "ecdf: sorted values, fractions i/n")
    nr = mod.nearest_rank
    check(nr(list(range(100, 0, -1)), 99) == (99, 99) and nr(list(range(1, 11)), 99) == (10, 10)
          and nr(list(range(200, 0, -1)), 99) == (198, 198) and nr([4, 1, 3, 2], 50) == (2, 2)
          and nr([7.5], 99) == (7.5, 1) and nr(list(range(1, 8)), 90) == (7, 7),
          "nearest_rank: the ceil(p/100 n)-th smallest and its rank")
    rate = common.arrival_rate
    check(rate({"arrival_rate_per_s": 12.5, "param.arrival_rate": "12.5"}) == 12.5
          and rate({"arrival_rate_per_s": 0.0, "param.arrival_rate": "20 req/s"}) == 20.0
          and rate({"param.serve.arrival_rate": 7}) == 7.0
          and rate({"arrival_rate_per_s": 0.0, "param.arrival_rate": ""}) is None,
          "arrival_rate: the summary's, else the leading number of the parameter")


def sweep_points(rates, **kw):
    return [serve_point(d, r, **kw) for d in POLICIES for r in rates]


def p99_facts(fig):
    """{axes index: sorted [(x, y)] of its p99 rings}, its xlabel, the axes count, and the
    data of every other line: [(axes index, label, x list, y list)]."""
    rings, other = {}, []
    for i, ax in enumerate(fig.axes):
        for line in ax.lines:
            xy = (list(map(float, line.get_xdata())), list(map(float, line.get_ydata())))
            if line.get_gid() == "p99":
                rings.setdefault(i, []).append((xy[0][0], xy[1][0]))
            else:
                other.append((i, line.get_label(), xy[0], xy[1]))
    return {"axes": len(fig.axes), "rings": {i: sorted(r) for i, r in rings.items()},
            "xlabels": [ax.get_xlabel() for ax in fig.axes], "lines": other}


def case_sweep(tmp):
    points = sweep_points(RATES, n=150)  # 0.99 n = 148.5: ceil and floor differ
    h5 = write_results(os.path.join(tmp, "serve.h5"), points, version=5)
    out = os.path.join(tmp, "serve_plots")
    seen = figures(h5, "--out", out,
                   inspect=lambda fig: dict(p99_facts(fig), queue=queue_facts(fig)))
    check(seen.returncode == 0, "serve sweep: exit 0 (got %d)" % seen.returncode)
    for name in ("latency_cdf.png", "serve_load.png", "serve_queue_p0000.png"):
        check_png(os.path.join(out, name))
    cdf = seen.get("latency_cdf.png")
    check(cdf is not None and cdf["axes"] == len(RATES) * 3,
          "latency_cdf: a row of 3 panels per rate (got %s axes)" % (cdf or {}).get("axes"))
    if cdf is None:
        return
    with h5py.File(h5, "r") as f:
        for row, rate in enumerate(RATES):
            want = []
            for k, pt in enumerate(points):
                if pt["serve"]["arrival_rate_per_s"] != rate:
                    continue
                lat = sorted(f["points/p%04d/requests" % k]["latency_s"].tolist())
                rank = math.ceil(0.99 * len(lat))
                check(lat[rank - 1] == pt["serve"]["latency_p99_s"],
                      "p%04d: the file's latency_p99_s is the nearest-rank p99" % k)
                want.append((lat[rank - 1], rank / len(lat)))
            check(cdf["rings"].get(row * 3, []) == sorted(want),
                  "%s req/s: p99 rings at the nearest-rank p99 latencies, height rank/n" % rate)
    check(cdf["xlabels"][(len(RATES) - 1) * 3].startswith("Request latency [s]"),
          "latency_cdf: the latency column in seconds (the rings' x as stored)")
    load = seen.get("serve_load.png")
    check(load is not None and load["axes"] == 4, "serve_load: 4 panels")
    if load is not None:
        throughput = sorted((lbl, x, y) for i, lbl, x, y in load["lines"] if i == 0)
        want = sorted((d, [float(r) for r in RATES],
                       [pt["serve"]["throughput_tokens_per_s"] for pt in points
                        if pt["serve"]["dispatch"] == d]) for d in POLICIES)
        check([(l, x) for l, x, _ in throughput] == [(l, x) for l, x, _ in want]
              and all(max(abs(a - b) / b for a, b in zip(g[2], w[2])) < 1e-12
                      for g, w in zip(throughput, want)),
              "serve_load: a throughput line per policy over the rates, the summary's values")
    queue = (seen.get("serve_queue_p0000.png") or {}).get("queue")
    series = points[0]["tables"]["serve_series"]
    running0 = [float(v) for v in series["running"][series["replica"] == 0]]
    drawn = (queue or {}).get("exact", {}).get((0, 1), [])  # replica 0, running
    check(queue is not None and queue["axes"] == 4 and len(drawn) == 1
          and drawn[0][1][1:-1] == running0 and queue["binned"] == {},
          "serve_queue_p0000: a row per replica (waiting, running), replica 0's running "
          "sequences as stored, exact steps (a short series)")


def line_facts(fig):
    """Every line of every axes as a dict (axes index, label, gid, colour, linestyle, x, y),
    the figure legends' labels and titles, the suptitle, and whether every limit is finite."""
    lines = []
    for i, ax in enumerate(fig.axes):
        for ln in ax.lines:
            lines.append({"ax": i, "label": ln.get_label(), "gid": ln.get_gid(),
                          "colour": to_hex(ln.get_color()), "style": ln.get_linestyle(),
                          "x": [float(v) for v in ln.get_xdata()],
                          "y": [float(v) for v in ln.get_ydata()]})
    legends = [[t.get_text() for t in leg.get_texts()] for leg in fig.legends]
    titles = [leg.get_title().get_text() for leg in fig.legends]
    return {"axes": len(fig.axes), "lines": lines, "legends": legends, "legend_titles": titles,
            "suptitle": fig._suptitle.get_text() if fig._suptitle else "",
            "finite": base.finite_limits(fig)}


def queue_facts(fig):
    """serve_queue's panels as {(replica row, column): ...}: "exact" [(colour, y)] of the
    exact step lines, "binned" {gid ("mean", "max"): [(colour, x, y)]}; axes count, legend."""
    facts = line_facts(fig)
    exact, binned = {}, {}
    for ln in facts["lines"]:
        cell = divmod(ln["ax"], 2)
        if ln["gid"] == "exact":
            exact.setdefault(cell, []).append((ln["colour"], ln["y"]))
        elif ln["gid"] in ("mean", "max"):
            binned.setdefault(cell, {}).setdefault(ln["gid"], []).append(
                (ln["colour"], ln["x"], ln["y"]))
    return {"axes": facts["axes"], "exact": exact, "binned": binned,
            "legend": facts["legends"][0] if facts["legends"] else [],
            "suptitle": facts["suptitle"]}


TWO_SYSTEMS = (("H100 SXM", 1.0, "2 x h100_sxm.yaml"),
               ("H100 SXM + H100 SXM/DOTA-B", 1.4, "h100_sxm.yaml + gpu_dota_b.yaml"))


def case_two_systems(tmp):
    """Two systems (a replicas axis beside the dispatch policy): every serving figure draws
    both, colour by system, line style by policy; the axis that only renames the system is
    not repeated in the legend."""
    policies = POLICIES[:2]
    points = [serve_point(d, rate, system=system, speed=speed, n=60,
                          params={"replicas": label, "dispatch": d, "arrival_rate": rate})
              for system, speed, label in TWO_SYSTEMS for d in policies for rate in (5, 20)]
    h5 = write_results(os.path.join(tmp, "serve_two.h5"), points, version=6)
    other = 4  # the DOTA-B system's point at round_robin, 5 req/s; --point: its queue figure
    seen = figures(h5, "--out", os.path.join(tmp, "serve_two_plots"), "--point", "p%04d" % other,
                   inspect=lambda fig: dict(line_facts(fig), queue=queue_facts(fig)))
    want = ["%s · %s" % (system, d) for system, _, _ in TWO_SYSTEMS for d in policies]
    for name in ("latency_cdf.png", "serve_load.png"):
        facts = seen.get(name) or {"legends": [], "legend_titles": [], "lines": []}
        check(seen.status == 0 and facts["legends"] == [want]
              and facts["legend_titles"] == ["system · dispatch"],
              "%s: one legend entry per system and policy (%s)" % (name, facts["legends"]))
        drawn = [ln for ln in facts["lines"] if not ln["label"].startswith("p99")]
        look = {}
        for ln in drawn:
            name_ = ln["label"].lstrip("_")
            look.setdefault(name_, set()).add((ln["colour"], ln["style"]))
        colour = {k: {c for c, _ in v} for k, v in look.items()}
        check(all(len(v) == 1 for v in look.values()) and len(look) == 4
              and colour[want[0]] == colour[want[1]] and colour[want[2]] == colour[want[3]]
              and colour[want[0]] != colour[want[2]]
              and {s for _, s in look[want[0]]} != {s for _, s in look[want[1]]},
              "%s: one look per line, a colour per system, a line style per policy" % name)
    load = seen.get("serve_load.png") or {"lines": []}
    for (system, _, _), d in ((s, d) for s in TWO_SYSTEMS for d in policies):
        line = [ln for ln in load["lines"] if ln["ax"] == 0 and ln["label"] == "%s · %s" % (
            system, d)]
        values = [p["serve"]["throughput_tokens_per_s"] for p in points
                  if p["system"] == system and p["serve"]["dispatch"] == d]
        check(len(line) == 1 and line[0]["x"] == [5.0, 20.0] and all(
            abs(a - b) <= 1e-9 * b for a, b in zip(line[0]["y"], values)),
              "serve_load: %s · %s throughput as the summary says" % (system, d))
    name = "serve_queue_p%04d.png" % other
    queue = (seen.get(name) or {}).get("queue") or {"exact": {}, "legend": []}
    running = queue["exact"].get((1, 1), [])  # replica 1, running
    stored = [[float(v) for v in p["tables"]["serve_series"]["running"][
        p["tables"]["serve_series"]["replica"] == 1]] for p in (points[other], points[0])]
    check(len(running) == 2 and [y[1:-1] for _, y in running] == stored
          and running[0][0] != running[1][0],
          "%s (--point): the other system's point at the same policy and rate on the same "
          "panels, in its own colour, as stored" % name)
    check(queue["legend"][:2] == ["%s · round_robin (p%04d)" % (s, i) for (s, _, _), i in
                                  zip(TWO_SYSTEMS[::-1], (other, 0))]
          and "serve queue p0000:" in seen.stdout and "serve queue p%04d:" % other in seen.stdout,
          "%s: the legend names both systems (%s)" % (name, queue["legend"]))
    check_png(os.path.join(tmp, "serve_two_plots", name))


def case_long_queue(tmp):
    """A run of 60,000 changes per replica: binned (mean and max per bin), not a blob."""
    sq = base.plot_package("serving_queue")
    edges, mean, peak = sq.bin_steps([0, 10, 20], [1, 3, 0], 40, 2)
    check(list(edges) == [0, 20, 40] and list(mean) == [2.0, 0.0] and list(peak) == [3, 0],
          "bin_steps: time-weighted mean and max per bin")
    edges, mean, peak = sq.bin_steps([5, 15], [4, 2], 20, 4)  # 0 before the first sample
    check(list(mean) == [0.0, 4.0, 4.0, 2.0] and list(peak) == [0, 4, 4, 2],
          "bin_steps: 0 before the first sample, each value held to the next")
    pt = serve_point("round_robin", 10, n=40)
    rng = np.random.default_rng(7)
    n = 60000
    rows = []
    gap = int(pt["makespan_s"] * 1e12 / n)  # ps: the changes spread over the point's run
    for replica in (0, 1):
        times = np.cumsum(rng.integers(1, 2 * gap, n))
        walk = np.maximum(0, np.cumsum(rng.integers(-1, 2, n)))
        running = rng.integers(0, 33, n)
        rows += [(replica, int(t), int(q), int(r)) for t, q, r in zip(times, walk, running)]
    series = np.array(rows, dtype=pt["tables"]["serve_series"].dtype)
    pt["tables"]["serve_series"] = series
    h5 = write_results(os.path.join(tmp, "serve_long.h5"), [pt], version=6)
    seen = figures(h5, "--out", os.path.join(tmp, "serve_long_plots"), inspect=queue_facts)
    queue = seen.get("serve_queue_p0000.png") or {"exact": {}, "binned": {}}
    check(seen.status == 0 and not queue["exact"] and "serve queue p0000: %d samples on 2 "
          "replicas, binned into %d bins" % (2 * n, sq.BINS) in seen.stdout,
          "120,000 samples: binned into %d bins, no exact steps drawn" % sq.BINS)
    cell = queue["binned"].get((0, 0), {})  # replica 0, waiting
    mine = series[series["replica"] == 0]
    t, q = mine["time_ps"].astype(float), mine["queue"].astype(float)
    if cell.get("mean") and cell.get("max"):
        (_, xs, mean), (_, _, peak) = cell["mean"][0], cell["max"][0]
        check(len(xs) == sq.BINS + 1 and max(peak) == q.max(),
              "replica 0 waiting: %d bin edges, the highest peak kept (%g)" % (len(xs), q.max()))
        t_end = float(max(t[-1], pt["makespan_s"] * 1e12))
        area = float(np.sum(q[:-1] * np.diff(t)) + q[-1] * (t_end - t[-1]))
        width = np.diff(xs)
        binned_area = float(np.sum(np.array(mean[:-1]) * width)) / (xs[-1] / t_end)
        check(abs(binned_area - area) <= 1e-9 * area,
              "replica 0 waiting: the bins' means hold the run's time integral")
    else:
        check(False, "replica 0 waiting: binned mean and max lines drawn")
    check_png(os.path.join(tmp, "serve_long_plots", "serve_queue_p0000.png"))


def mixed_points():
    """Prefill points over 2 systems x 3 lengths, then serve points of one system."""
    points = []
    for seq in (16, 64, 256):
        points.append(point("CPU/PHU", seq, 1e-3 * seq, 1e9 * seq, {"dispatch": "",
                                                                  "arrival_rate": 0}))
        points.append(point("GPU", seq, 0.1 + 1e-5 * seq, 2e9 * seq, {"dispatch": "",
                                                                     "arrival_rate": 0}))
    return points + sweep_points([5, 20], n=40, system="GPU")[:4]


def mixed_facts(fig):
    facts = line_facts(fig)
    facts["bars"] = [(i, round(float(p.get_height()), 12)) for i, ax in enumerate(fig.axes)
                     for p in ax.patches if type(p).__name__ == "Rectangle"]
    facts["xticks"] = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    return facts


def case_format6_mixed(tmp):
    """Prefill and serve points in one file, format 6 (NaN where a field does not apply)
    and format 5 (0 there): no serve point in a prefill figure and vice versa, no NaN in an
    axis limit, and both formats give the same figures."""
    got = {}
    for version in (5, 6):
        h5 = write_results(os.path.join(tmp, "mixed_v%d.h5" % version), mixed_points(),
                           version=version)
        with h5py.File(h5, "r") as f:
            s = f["summary"]
            if version == 6:
                check(s.dtype["sequence_length"] == np.float64 and np.isnan(s["sequence_length"][6])
                      and np.isnan(s["requests"][0]) and s["requests"][6] == 40,
                      "v6 file: NaN where a field does not apply (serve seq, prefill requests)")
        seen = figures(h5, "--out", os.path.join(tmp, "mixed_v%d_plots" % version),
                       inspect=mixed_facts)
        got[version] = seen
        bars = seen.get("hardware_comparison.png") or {"bars": [], "xticks": []}
        check(seen.status == 0 and len(bars["bars"]) == 12 and bars["xticks"] == ["16", "64",
                                                                                  "256"],
              "v%d: hardware comparison: 2 systems x 3 lengths, both metrics, no serve "
              "point (%d bars, groups %s)" % (version, len(bars["bars"]), bars["xticks"]))
        cross = seen.get("crossover.png") or {"lines": []}
        xs = {x for ln in cross["lines"] for x in ln["x"] if len(ln["x"]) > 2}
        check(xs == {16.0, 64.0, 256.0}, "v%d: crossover over the prefill lengths only (%s)"
              % (version, sorted(xs)))
        load = seen.get("serve_load.png") or {"lines": []}
        check({tuple(ln["x"]) for ln in load["lines"]} == {(5.0, 20.0)}
              and len(load["lines"]) == 8, "v%d: serve_load: 2 policies x 4 panels over the "
              "serve points' rates only" % version)
        check("serve_queue_p0006.png" in seen and "gantt_p0000.png" in seen,
              "v%d: the queue figure for the first serve point, the Gantt for the first point"
              % version)
        bad = [n for n, facts in seen.items() if not facts["finite"]]
        check(not bad, "v%d: every axis limit finite (%s)" % (version, bad))
    same = all(got[5].get(n, {}).get("bars") == got[6].get(n, {}).get("bars")
               and [ln["y"] for ln in got[5].get(n, {}).get("lines", [])]
               == [ln["y"] for ln in got[6].get(n, {}).get("lines", [])] for n in got[6])
    check(sorted(got[5]) == sorted(got[6]) and same,
          "formats 5 and 6 give the same figures, the same data drawn")


def case_one_rate(tmp):
    h5 = write_results(os.path.join(tmp, "serve_one.h5"), sweep_points([10], n=80), version=5)
    out = os.path.join(tmp, "serve_one_plots")
    seen = figures(h5, "--out", out, inspect=p99_facts)
    check(seen.returncode == 0, "one rate: exit 0 (got %d)" % seen.returncode)
    check_png(os.path.join(out, "latency_cdf.png"))
    check("skip: serve_load.png: fewer than 2 arrival rates" in seen.stdout
          and not os.path.exists(os.path.join(out, "serve_load.png")),
          "one rate: serve_load.png skipped with a note")
    check(seen.get("latency_cdf.png", {}).get("axes") == 3, "one rate: one row of 3 panels")


def case_text_rates(tmp):
    points = sweep_points([5, 20], n=60)
    for pt in points:  # no rate in the summary: only the text parameter says it
        pt["params"]["arrival_rate"] = "%g req/s" % pt["serve"]["arrival_rate_per_s"]
        pt["serve"]["arrival_rate_per_s"] = 0.0
    h5 = write_results(os.path.join(tmp, "serve_text.h5"), points, version=5)
    seen = figures(h5, "--out", os.path.join(tmp, "serve_text_plots"), inspect=p99_facts)
    xs = {tuple(x) for i, lbl, x, y in seen.get("serve_load.png", {}).get("lines", [])}
    check(seen.status == 0 and xs == {(5.0, 20.0)},
          "text rates: serve_load's x are 5 and 20 (%s)" % xs)


def case_no_serve(tmp):
    h5 = write_results(os.path.join(tmp, "prefill_v5.h5"),
                       [point("CPU", 64, 0.1, 1e9), point("GPU", 64, 0.01, 2e9)], version=5)
    p = run(h5, "--out", os.path.join(tmp, "prefill_v5_plots"))
    check(p.returncode == 0 and "skip: latency_cdf.png, serve_load.png, serve_queue_<id>.png: "
          "no ok point of stage serve" in p.stdout,
          "no serve point: one note for the serving plots")
    p = run("--help")
    check(all(n in p.stdout for n in ("latency_cdf.png", "serve_load.png", "serve_queue_<id>.png")),
          "--help lists the serving plots")


def main():
    return run_cases((case_helpers, case_sweep, case_two_systems, case_long_queue,
                      case_format6_mixed, case_one_rate, case_text_rates, case_no_serve),
                     "lc_plot_serve_", "serving plot")


if __name__ == "__main__":
    sys.exit(main())
