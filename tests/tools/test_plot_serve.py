#!/usr/bin/python3
"""tools/plot.py's serving plots on synthetic format 5 files (tests/tools/synthetic_results.py
serve points: requests and serve_series tables from a fixed seed).

  1. the CDF helpers: ecdf gives the sorted values and the fractions i/n; nearest_rank the
     ceil(p/100 n)-th smallest value and its rank; a point's arrival rate from the summary,
     else from the number its arrival_rate parameter starts with ("20 req/s");
  2. a sweep over 3 dispatch policies x 4 arrival rates: exit 0, latency_cdf.png (one row of
     latency / TTFT / TPOT panels per rate: 12 axes) and serve_load.png (4 panels) written;
     each ringed p99 is the nearest-rank p99 of that point's request latencies (= the
     summary's latency_p99_s) at height rank / n; serve_load's throughput lines hold the
     summary's values at the swept rates; serve_queue_<id>.png for the default point and for
     --point, one panel per replica, its running line the point's serve_series;
  3. one arrival rate: latency_cdf.png with one row, serve_load.png skipped with a note;
  4. rates given only as text parameters ("5 req/s"): serve_load.png's x are 5 and 20;
  5. a file without serve points: the serving plots skipped with one note; --help lists them.

Usage: test_plot_serve.py [SOURCE_DIR]   (default: two levels above this file)
Exits 77 (ctest: skipped) with a SKIP message when h5py or matplotlib is missing.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# check(), run() and the figure spy, and the SKIP (exit 77) when h5py/matplotlib are missing
import test_plot_synthetic as base  # noqa: E402
from synthetic_results import point, serve_point, write_results  # noqa: E402
from test_plot_synthetic import check, check_png, figures, run, run_cases  # noqa: E402

import h5py  # noqa: E402

POLICIES = ("round_robin", "least_outstanding_tokens", "prompt_length")
RATES = (2, 5, 10, 20)


def case_helpers(tmp):
    mod = base.plot_module()
    check(mod.ecdf([3.0, 1.0, 2.0, 2.0]) == ([1.0, 2.0, 2.0, 3.0], [0.25, 0.5, 0.75, 1.0]),
          "ecdf: sorted values, fractions i/n")
    nr = mod.nearest_rank
    check(nr(list(range(100, 0, -1)), 99) == (99, 99) and nr(list(range(1, 11)), 99) == (10, 10)
          and nr(list(range(200, 0, -1)), 99) == (198, 198) and nr([4, 1, 3, 2], 50) == (2, 2)
          and nr([7.5], 99) == (7.5, 1) and nr(list(range(1, 8)), 90) == (7, 7),
          "nearest_rank: the ceil(p/100 n)-th smallest and its rank")
    rate = mod.arrival_rate
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
    p = run(h5, "--out", out)
    check(p.returncode == 0, "serve sweep: exit 0 (got %d)" % p.returncode)
    for name in ("latency_cdf.png", "serve_load.png", "serve_queue_p0000.png"):
        check_png(os.path.join(out, name))
    seen, status = figures(h5, "--out", out, inspect=p99_facts)
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
    seen, status = figures(h5, "--out", out, "--point", "p0007", inspect=p99_facts)
    queue = seen.get("serve_queue_p0007.png")
    series = points[7]["tables"]["serve_series"]
    running0 = [float(v) for v in series["running"][series["replica"] == 0]]
    drawn = [y for i, lbl, x, y in (queue or {}).get("lines", []) if i == 0 and lbl == "running"]
    check(queue is not None and queue["axes"] == 2 and drawn and drawn[0][1:-1] == running0,
          "serve_queue_p0007: a panel per replica, replica 0's running sequences as stored")
    check_png(os.path.join(out, "serve_queue_p0007.png"))


def case_one_rate(tmp):
    h5 = write_results(os.path.join(tmp, "serve_one.h5"), sweep_points([10], n=80), version=5)
    out = os.path.join(tmp, "serve_one_plots")
    p = run(h5, "--out", out)
    check(p.returncode == 0, "one rate: exit 0 (got %d)" % p.returncode)
    check_png(os.path.join(out, "latency_cdf.png"))
    check("skip: serve_load.png: fewer than 2 arrival rates" in p.stdout
          and not os.path.exists(os.path.join(out, "serve_load.png")),
          "one rate: serve_load.png skipped with a note")
    seen, _ = figures(h5, "--out", out, inspect=p99_facts)
    check(seen.get("latency_cdf.png", {}).get("axes") == 3, "one rate: one row of 3 panels")


def case_text_rates(tmp):
    points = sweep_points([5, 20], n=60)
    for pt in points:  # no rate in the summary: only the text parameter says it
        pt["params"]["arrival_rate"] = "%g req/s" % pt["serve"]["arrival_rate_per_s"]
        pt["serve"]["arrival_rate_per_s"] = 0.0
    h5 = write_results(os.path.join(tmp, "serve_text.h5"), points, version=5)
    seen, status = figures(h5, "--out", os.path.join(tmp, "serve_text_plots"), inspect=p99_facts)
    xs = {tuple(x) for i, lbl, x, y in seen.get("serve_load.png", {}).get("lines", [])}
    check(status == 0 and xs == {(5.0, 20.0)}, "text rates: serve_load's x are 5 and 20 (%s)" % xs)


def case_no_serve(tmp):
    h5 = write_results(os.path.join(tmp, "prefill_v5.h5"),
                       [point("CPU", 64, 0.1, 1e9), point("GPU", 64, 0.01, 2e9)], version=5)
    p = run(h5, "--out", os.path.join(tmp, "prefill_v5_plots"))
    check(p.returncode == 0 and "skip: latency_cdf.png, serve_load.png, serve_queue_<id>.png: "
          "no ok point of stage serve" in p.stdout, "no serve point: one note for the serving plots")
    p = run("--help")
    check(all(n in p.stdout for n in ("latency_cdf.png", "serve_load.png", "serve_queue_<id>.png")),
          "--help lists the serving plots")


def main():
    return run_cases((case_helpers, case_sweep, case_one_rate, case_text_rates, case_no_serve),
                     "lc_plot_serve_", "serving plot")


if __name__ == "__main__":
    sys.exit(main())
