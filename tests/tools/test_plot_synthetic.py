#!/usr/bin/python3
"""tools/plot.py on synthetic results files and dispatch tables written here (h5py, json).
plot.py's main runs in this process (run(): each figure inspected through main's on_figure
before it is saved; no interpreter start-up per run), the command itself once (--help).

  1. format 1 PHU sweep (string parameters) with one failed point: exit 3, failures.csv
     holds the failed id, its parameters and its error (CSV-quoted), stderr lists it, and
     phu_scaling.png, gantt and energy are still drawn from the ok points;
  2. format 2 PHU sweep (int64 / float64 / string parameters, NaN where missing) over
     2 systems x 2 objectives: exit 0, phu_scaling.png with one row of panels per
     (system, objective): 4 facets, 8 axes (checked in the figure itself and in the
     "phu scaling:" line); its 40 bars make no hardware comparison, the output names
     phu_scaling.png instead;
  3. two systems over four sequence lengths that cross, as format 1 with fixed-width strings
     and no format_version, and as format 2: the crossover is reported as a bracket between
     the probed lengths ("between 64 and 256"), not an interpolated point; 8 bars are grouped
     bars; a stale failures.csv is removed;
  4. hardware comparison of 18 bars (3 systems x 6 configurations, no cores axis): small
     multiples, one row per configuration, one bar per system holding its makespan; 27 bars
     over 9 configurations: skipped, the note names crossover.png;
  5. a crossover dispatch table (JSON) with curves: crossover_<objective>.png per objective
     with curves, the vertical lines in the figure at exactly the table's switch lengths,
     "crossover <objective>: switches at ..." printed; an objective without curves skipped;
  6. errors: a missing file, an HDF5 file without /summary, an unknown --point, a file
     that is not JSON and a JSON that is no dispatch table exit 2; --help explains the plots,
     failures.csv and exit status 3;
  7. energy categories: a breakdown with a device-built PHU's laser / modulation / detection
     rows and a category plot.py has never seen: the energy chart's legend lists every one,
     the known ones in plot.py's order and the unseen one after them;
  8. Pareto fronts 0.27 % apart in energy: each panel's energy axis spans >= 2 % of the
     front's minimum (the front < 20 % of the height), the spreads in the titles and printed,
     "% above min" on secondary axes, one legend outside every panel.

Usage: test_plot_synthetic.py [SOURCE_DIR]   (default: two levels above this file)
Exits 77 (ctest: skipped) with a SKIP message when h5py or matplotlib is missing.
"""
import csv
import importlib
import importlib.util
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

try:
    import h5py
    import numpy as np
    import matplotlib  # noqa: F401  (plot.py needs it)
except ImportError as e:
    print("SKIP: %s cannot import h5py/matplotlib: %s" % (sys.executable, e))
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synthetic_results import point, write_results  # noqa: E402

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
PLOT = os.path.join(SRC, "tools", "plot.py")
PNG_SIG = b"\x89PNG\r\n\x1a\n"
failures = []


def check(cond, msg):
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        failures.append(msg)


def check_png(path, min_bytes=10 * 1024):
    ok = os.path.isfile(path)
    size = os.path.getsize(path) if ok else 0
    sig = open(path, "rb").read(8) if ok else b""
    check(ok and size > min_bytes and sig == PNG_SIG,
          "%s exists, %d bytes > %d, PNG signature" % (os.path.basename(path), size, min_bytes))


def run_script(*args):
    """tools/plot.py as a command (a process of its own): the CompletedProcess."""
    p = subprocess.run([sys.executable, PLOT] + list(args), capture_output=True, text=True)
    sys.stdout.write("".join("    | %s\n" % l for l in (p.stdout + p.stderr).splitlines()))
    return p


def plot_module():
    """tools/plot.py loaded as a module (a fresh one each call; the lightcode_plot package
    it imports keeps no state between calls)."""
    spec = importlib.util.spec_from_file_location("lc_plot_under_test", PLOT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def plot_package(name):
    """A module of tools/lightcode_plot (the package beside tools/plot.py)."""
    plot_module()  # puts tools/ on the import path
    return importlib.import_module("lightcode_plot." + name)


def main_axes(fig):
    """The figure's axes, less any secondary axes (they read the same data in other units;
    matplotlib 3.6 keeps them as child axes, later versions may list them too)."""
    return [ax for ax in fig.axes if type(ax).__name__ != "SecondaryAxis"]


def figure_facts(fig):
    """(number of axes, sorted x of the vertical lines in the first axes, its legend's labels)."""
    ax = fig.axes[0]
    vlines = sorted({float(l.get_xdata()[0]) for l in ax.lines
                     if len(l.get_xdata()) == 2 and l.get_xdata()[0] == l.get_xdata()[1]})
    legend = ax.get_legend()
    labels = [t.get_text() for t in legend.get_texts()] if legend else []
    return len(fig.axes), vlines, labels


class Run(dict):
    """One plot.py run: {file name: inspect(the figure)} of the figures it saved, with
    `returncode` (also `status`), `stdout` and `stderr` as subprocess.run gives them."""


def run(*args, inspect=None):
    """plot.py's main run in this process (no interpreter and matplotlib start-up per run:
    the tests stay fast), each figure seen before it is saved through main's on_figure and
    kept as inspect(figure) when `inspect` is given. argparse's exits (--help) give their
    code."""
    mod = plot_module()
    seen = Run()
    out, err = io.StringIO(), io.StringIO()
    hook = (lambda name, fig: seen.__setitem__(name, inspect(fig))) if inspect else None
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = mod.main(list(args), on_figure=hook)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    seen.returncode = seen.status = code
    seen.stdout, seen.stderr = out.getvalue(), err.getvalue()
    sys.stdout.write("".join("    | %s\n" % l for l in (seen.stdout + seen.stderr).splitlines()))
    return seen


def figures(*args, inspect=figure_facts):
    """run() keeping figure_facts (or `inspect`) of every figure."""
    return run(*args, inspect=inspect)


def finite_limits(fig):
    """True when every axes' x and y limits are finite numbers (no NaN reached an axis)."""
    return all(math.isfinite(v) for ax in fig.axes for v in ax.get_xlim() + ax.get_ylim())


def phu_points(systems, objectives, typed):
    """cores x multiplex on each system and objective; `typed` adds a float parameter that
    GPU/PHU points lack (NaN in format 2) and the system path (a string column)."""
    points = []
    for system in systems:
        for objective in objectives:
            for mux in (10, 20):
                for cores in (1, 2, 4, 8, 16):
                    params = {"system": "configs/systems/%s.yaml" % system.lower()
                              .replace("/", "_")} if typed else {}
                    params.update({"phu.cores": cores, "phu.multiplex": mux})
                    if typed and system == "CPU/PHU":
                        params["phu.clock_ghz"] = 9.7
                    scale = 1.0 if system == "CPU/PHU" else 0.05
                    points.append(point(system, 150, scale * (2.0 / (cores * mux) + 0.02),
                                        4.5e10 + 1e9 * cores, params, objective=objective))
    return points


def case_failed_point(tmp):
    points = phu_points(["CPU/PHU"], ["time"], typed=False)
    points.append(point("CPU/PHU", 150, 0.0, 0.0, {"phu.cores": 32, "phu.multiplex": 20},
                        status="failed", error='worker crashed: "signal 11", at node 7'))
    failed_id = "p%04d" % (len(points) - 1)
    h5 = write_results(os.path.join(tmp, "phu_v1.h5"), points, version=1)
    out = os.path.join(tmp, "phu_v1_plots")
    p = run(h5, "--out", out)
    check(p.returncode == 3, "a failed point: exit 3 (got %d)" % p.returncode)
    for name in ("phu_scaling.png", "gantt_p0000.png", "energy_p0000.png"):
        check_png(os.path.join(out, name))
    check("skip: hardware_comparison.png" in p.stdout, "one system: hardware comparison skipped")
    rows = list(csv.reader(open(os.path.join(out, "failures.csv"), newline="")))
    check(rows[:1] == [["id", "phu.cores", "phu.multiplex", "error"]],
          "failures.csv header: id, parameters, error (%s)" % rows[:1])
    check(rows[1:] == [[failed_id, "32", "20", 'worker crashed: "signal 11", at node 7']],
          "failures.csv lists the failed point and its error (%s)" % rows[1:])
    check("1 of %d points failed" % len(points) in p.stderr and failed_id in p.stderr,
          "the failure is reported on stderr")
    check("wrote %s" % os.path.join(out, "failures.csv") in p.stdout, "a 'wrote' line for it")
    m = re.search(r"phu scaling: (\d+) facet", p.stdout)
    check(m is not None and m.group(1) == "1", "one system and objective: 1 facet")


def case_v2_facets(tmp):
    points = phu_points(["CPU/PHU", "GPU/PHU"], ["time", "energy"], typed=True)
    h5 = write_results(os.path.join(tmp, "phu_v2.h5"), points, version=2)
    with h5py.File(h5, "r") as f:  # the file is what format 2 says
        dt = f["summary"].dtype
        check(dt["param.phu.cores"] == np.int64 and dt["param.phu.clock_ghz"] == np.float64,
              "synthetic format 2: int64 and float64 parameter columns")
    out = os.path.join(tmp, "phu_v2_plots")
    p = figures(h5, "--out", out)
    check(p.returncode == 0, "format 2 PHU sweep: exit 0 (got %d)" % p.returncode)
    check_png(os.path.join(out, "phu_scaling.png"), min_bytes=40 * 1024)
    m = re.search(r"phu scaling: (\d+) facets? .* = (\d+) axes", p.stdout)
    check(m is not None and m.group(1) == "4" and int(m.group(2)) >= 4,
          "2 systems x 2 objectives: 4 facets, >= 4 axes reported")
    check(not os.path.exists(os.path.join(out, "failures.csv")), "no failures, no failures.csv")
    seen = p
    n_axes = seen.get("phu_scaling.png", (0, []))[0]
    check(seen.status == 0 and n_axes == 8, "the figure has 4 x 2 = 8 axes (got %d)" % n_axes)
    check("skip: hardware_comparison.png: 40 bars (> 12): skipped in favour of phu_scaling.png"
          in seen.stdout and "hardware_comparison.png" not in seen,
          "40 bars and a cores axis: no bar forest, the output names phu_scaling.png instead")


def crossing_points():
    """CPU/PHU is faster up to 64 tokens, GPU from 256: makespans cross in between."""
    points = []
    for seq in (16, 64, 256, 1024):
        points.append(point("CPU/PHU", seq, 1e-3 * seq, 1e9 * seq, {"sequence_length": seq}))
        points.append(point("GPU", seq, 0.1 + 1e-5 * seq, 2e9 * seq, {"sequence_length": seq}))
    return points


def case_crossover_h5(tmp):
    for version, fixed in ((None, True), (2, False)):
        tag = "v%s" % (version or 1)
        h5 = write_results(os.path.join(tmp, "cross_%s.h5" % tag), crossing_points(),
                           version=version, fixed_strings=fixed)
        out = os.path.join(tmp, "cross_%s_out" % tag)
        os.makedirs(out)
        open(os.path.join(out, "failures.csv"), "w").write("id,error\np9,stale\n")
        p = run(h5, "--out", out, "--point", "p0003")
        check(p.returncode == 0, "%s crossover file: exit 0 (got %d)" % (tag, p.returncode))
        for name in ("crossover.png", "hardware_comparison.png", "gantt_p0003.png",
                     "energy_p0003.png"):
            check_png(os.path.join(out, name))
        check("crossover makespan: CPU/PHU -> GPU between 64 and 256 tokens" in p.stdout,
              "%s: the makespan switch is reported as the bracket of probed lengths" % tag)
        check("≈" not in p.stdout and "~" not in p.stdout, "%s: no interpolated length" % tag)
        check("skip: phu_scaling.png" in p.stdout, "%s: no cores column: PHU scaling skipped" % tag)
        check("hardware comparison: 8 bars (2 systems x 4 configurations)" in p.stdout,
              "%s: 8 bars: grouped bars" % tag)
        check(not os.path.exists(os.path.join(out, "failures.csv")),
              "%s: a stale failures.csv is removed" % tag)
    cli = plot_package("cli")  # (case_crossover_json runs main without --out)
    check(cli.output_dir(os.path.join(tmp, "cross_v1.h5"), None)
          == os.path.join(tmp, "cross_v1_plots"), "default --out is <stem>_plots beside the file")


def dispatch_table():
    """A crossover table as `lightcode crossover` writes it: energy switches GPU -> CPU/PHU
    at 54; time GPU -> CPU/PHU -> CPU at 17 and 300; edp has ranges but no curves."""
    lengths = [1, 2, 4, 8, 16, 17, 32, 53, 54, 64, 128, 256, 299, 300, 512, 1024, 4096]

    def ranges(spec, unit):
        return {"unit": unit, "evaluations": 3 * len(lengths), "lengths_probed": len(lengths),
                "ranges": [{"from": a, "to": b, "system": s, "file": "configs/systems/x.yaml",
                            "metric_from": 1.0, "metric_to": 2.0} for a, b, s in spec]}

    # GPU - CPU/PHU = 1.87e7 x - 1e9: positive from 54 on
    energy = {"GPU": [4.3e10 + 4e7 * x for x in lengths],
              "CPU/PHU": [4.4e10 + 2.13e7 * x for x in lengths],
              "CPU": [4.4e10 + 5e7 * x for x in lengths]}
    time = {"GPU": [1e-3 * 2 ** (x / 8.0) if x <= 16 else 1.0 for x in lengths],
            "CPU/PHU": [0.004 + 1e-4 * x if x < 300 else 0.5 for x in lengths],
            "CPU": [0.3 if x < 300 else 0.03 + 1e-5 * x for x in lengths]}
    time["CPU"][2] = None  # not evaluated there: the line skips it
    return {"name": "crossover", "scenario": "crossover.yaml", "model": "gpt2",
            "stage": "prefill", "profile": "lightcode", "lengths": {"start": 1, "stop": 4096},
            "systems": [{"name": s, "file": "configs/systems/x.yaml"}
                        for s in ("CPU", "CPU/PHU", "GPU")],
            "dispatch": {"energy": ranges([(1, 53, "GPU"), (54, 4096, "CPU/PHU")], "pJ"),
                         "time": ranges([(1, 16, "GPU"), (17, 299, "CPU/PHU"),
                                         (300, 4096, "CPU")], "s"),
                         "edp": ranges([(1, 4096, "GPU")], "s*pJ")},
            "curves": {"energy": {"unit": "pJ", "lengths": lengths, "systems": energy},
                       "time": {"unit": "s", "lengths": lengths, "systems": time}},
            "thresholds": {"system": {"name": "CPU/PHU"}}}


def bar_facts(fig):
    """Per axes: (title, bar lengths: heights of vertical bars, widths of horizontal ones,
    tick labels of the category axis, x label)."""
    out = []
    for ax in fig.axes:
        bars = [p for p in ax.patches if type(p).__name__ == "Rectangle"]
        horizontal = bool(bars) and all(b.get_height() == bars[0].get_height() for b in bars) \
            and len({b.get_x() for b in bars}) == 1
        out.append((ax.get_title(), [b.get_width() if horizontal else b.get_height()
                                     for b in bars],
                    [t.get_text() for t in (ax.get_yticklabels() if horizontal
                                            else ax.get_xticklabels())], ax.get_xlabel()))
    return out


def case_hardware_facets(tmp):
    """More than 12 bars: small multiples, one row per configuration (no cores axis), or a
    note naming crossover.png when there are more than 8 configurations."""
    systems = {"CPU": 3.0, "CPU/PHU": 0.2, "GPU": 0.004}
    points = [point(sy, seq, t * seq / 64, 1e9 * seq * (1 + i), objective=obj)
              for seq in (64, 256) for obj in ("time", "energy", "edp")
              for i, (sy, t) in enumerate(systems.items())]
    h5 = write_results(os.path.join(tmp, "bars18.h5"), points, version=2)
    seen = figures(h5, "--out", os.path.join(tmp, "bars18_plots"), inspect=bar_facts)
    facets = seen.get("hardware_comparison.png") or []
    check(seen.status == 0 and len(facets) == 12 and "hardware comparison: 18 bars (> 12): "
          "6 facets, one per sequence length [tokens] / objective" in seen.stdout,
          "18 bars: 6 configurations x (makespan, energy) = 12 panels (got %d)" % len(facets))
    want = {}  # (seq, objective) -> makespans in system order, in the panel's unit
    for p in points:
        want.setdefault((p["seq"], p["objective"]), []).append(p["makespan_s"])
    for title, lengths, ticks, xlabel in facets[0::2]:
        key = next(k for k in want if "seq=%d, objective=%s" % k in title)
        unit = {"s": 1.0, "ms": 1e-3}[xlabel.split("[")[1].split("]")[0]]
        check(ticks == list(systems) and all(abs(a * unit - b) <= 1e-9 * b
                                             for a, b in zip(lengths, want[key])),
              "%s: one bar per system, the makespans as stored" % title)
    many = [point(sy, seq, t * seq / 64, 1e9 * seq) for seq in (16, 32, 64, 128, 256, 512,
                                                                1024, 2048, 4096)
            for sy, t in systems.items()]
    h5 = write_results(os.path.join(tmp, "bars27.h5"), many, version=2)
    seen = figures(h5, "--out", os.path.join(tmp, "bars27_plots"), inspect=bar_facts)
    check("hardware_comparison.png" not in seen and "crossover.png" in seen
          and "skip: hardware_comparison.png: 3 systems x 9 configurations" in seen.stdout
          and "crossover.png compares systems" in seen.stdout,
          "27 bars over 9 configurations: skipped, the note names crossover.png")


def case_crossover_json(tmp):
    path = os.path.join(tmp, "crossover.json")
    json.dump(dispatch_table(), open(path, "w"), indent=1)
    p = figures(path)  # default output folder beside the file
    out = os.path.join(tmp, "crossover_plots")
    check(p.returncode == 0, "crossover JSON: exit 0 (got %d)" % p.returncode)
    check_png(os.path.join(out, "crossover_energy.png"))
    check_png(os.path.join(out, "crossover_time.png"))
    check("crossover energy: switches at 54" in p.stdout, "energy: switch at 54 printed")
    check("crossover time: switches at 17, 300" in p.stdout, "time: switches at 17, 300 printed")
    check("skip: crossover_edp.png" in p.stdout and "crossover edp: no switch" in p.stdout,
          "edp without curves: figure skipped, its (lack of a) switch still printed")
    seen = p
    for name, want in (("crossover_energy.png", [54.0]), ("crossover_time.png", [17.0, 300.0])):
        got = seen.get(name, (0, None))[1]
        check(got == want, "%s: vertical lines at the table's switch lengths %s (got %s)" % (
            name, want, got))


def case_errors(tmp):
    p = run(os.path.join(tmp, "missing.h5"))
    check(p.returncode == 2 and "no such file" in p.stderr, "missing file: exit 2")
    bad = os.path.join(tmp, "bad.h5")
    with h5py.File(bad, "w") as f:
        f.create_dataset("other", data=np.arange(3))
    p = run(bad)
    check(p.returncode == 2 and "not a LightCode results file" in p.stderr, "no /summary: exit 2")
    p = run(os.path.join(tmp, "cross_v1.h5"), "--point", "nope")
    check(p.returncode == 2, "unknown --point: exit 2")
    notjson = os.path.join(tmp, "notjson.json")
    open(notjson, "w").write("dispatch: yaml, not json\n")
    p = run(notjson)
    check(p.returncode == 2 and "not a JSON file" in p.stderr, "a .json that is not JSON: exit 2")
    other = os.path.join(tmp, "other.json")
    json.dump({"name": "x"}, open(other, "w"))
    p = run(other)
    check(p.returncode == 2 and "not a LightCode crossover table" in p.stderr,
          "JSON without a dispatch object: exit 2")
    p = run_script("--help")  # the entry point as a command
    check(p.returncode == 0 and "phu_scaling.png" in p.stdout and "failures.csv" in p.stdout
          and "crossover_<objective>.png" in p.stdout and "3 some sweep points failed" in p.stdout,
          "--help explains the plots, failures.csv and exit status 3")


def case_energy_categories(tmp):
    points = [point("GPU/DOTA-B", 128, 1e-3, 6e9)]
    h5 = write_results(os.path.join(tmp, "energy_cats.h5"), points, version=2)
    with h5py.File(h5, "r+") as f:
        g = f["points/p0000"]
        dt = g["energy_breakdown"].dtype
        del g["energy_breakdown"]
        g.create_dataset("energy_breakdown", data=np.array(
            [(b"gpu", b"compute", 3e9), (b"phu", b"laser", 1e9), (b"phu", b"modulation", 5e8),
             (b"phu", b"detection", 7e8), (b"phu", b"memory", 2e8), (b"phu", b"ring_tuning", 1e8),
             (b"phu", b"static", 3e8), (b"sram->phu", b"data_movement", 2e8)], dtype=dt))
    seen = figures(h5, "--out", os.path.join(tmp, "energy_cats_plots"))
    labels = seen.get("energy_p0000.png", (0, [], []))[2]
    want = ["compute", "laser", "modulation", "detection", "data_movement", "memory", "static",
            "ring_tuning"]
    check(seen.status == 0 and labels == want,
          "energy chart legend: every category, unseen last (got %s)" % labels)
    check_png(os.path.join(tmp, "energy_cats_plots", "energy_p0000.png"))


def pareto_facts(fig):
    """Per main axes: (y limits, the front's energies as drawn, the title), the figure
    legend's labels and whether that legend lies outside every panel."""
    panels = []
    for ax in main_axes(fig):
        if not ax.get_visible():
            continue
        front = [l for l in ax.lines if len(l.get_ydata()) > 1]
        panels.append((ax.get_ylim(), [float(y) for y in front[0].get_ydata()] if front else [],
                       ax.get_title()))
    labels, outside = [], True
    fig.canvas.draw()
    for leg in fig.legends:
        labels += [t.get_text() for t in leg.get_texts()]
        box = leg.get_window_extent()
        outside &= not any(box.overlaps(ax.get_window_extent()) for ax in main_axes(fig))
    return {"panels": panels, "legend": labels, "outside": outside,
            "secondary": sum(len(ax.child_axes) for ax in fig.axes),
            "finite": finite_limits(fig)}


def case_pareto(tmp):
    """Fronts 0.27 % apart in energy: the panel must not blow that up to its full height."""
    points = [point("CPU/PHU", 150, 0.1069, 4.66e10, {"objective": "time"}),
              point("CPU/PHU", 150, 0.1395, 4.648e10, {"objective": "energy"})]
    h5 = write_results(os.path.join(tmp, "pareto.h5"), points, version=2)
    seen = figures(h5, "--out", os.path.join(tmp, "pareto_none"))
    check("pareto.png" not in seen, "no /points/<id>/pareto table: no Pareto chart")
    with h5py.File(h5, "r+") as f:
        dt = np.dtype([("makespan_ps", "<i8"), ("energy_pj", "<f8"), ("origin", "S24")])
        front = np.array([(106898529854, 4.6605e10, b"sum:time"),
                          (112590424101, 4.6484e10, b"heft:time"),
                          (139450683441, 4.6478e10, b"sum:energy+P*time")], dtype=dt)
        for pid in ("p0000", "p0001"):
            f["points/%s" % pid].create_dataset("pareto", data=front)
    seen = figures(h5, "--out", os.path.join(tmp, "pareto_plots"), inspect=pareto_facts)
    facts = seen.get("pareto.png")
    check(seen.status == 0 and facts is not None and len(facts["panels"]) == 2,
          "a Pareto panel per point with a front")
    if facts is None:
        return
    for (lo, hi), ys, title in facts["panels"]:
        data_share = (max(ys) - min(ys)) / (hi - lo) if ys and hi > lo else 1.0
        check(lo < min(ys) and (hi - lo) / min(ys) >= 0.02 and data_share < 0.2,
              "energy 0.27 %% apart: the axis spans >= 2 %% of the minimum, the front %.0f %% "
              "of the panel height (limits %.5g .. %.5g)" % (100 * data_share, lo, hi))
        check("3 placements" in title and "energy 0.27 %" in title,
              "the title gives the front's size and its energy spread (%r)" % title)
    check(facts["legend"] == ["non-dominated placements (the front)",
                              "the point's reported answer (its objective)"]
          and facts["outside"], "one legend for the figure, outside every panel (%s)" %
          facts["legend"])
    check(facts["secondary"] == 4 and facts["finite"],
          "each panel reads %% above the minimum on its far sides (%d secondary axes)" %
          facts["secondary"])
    check("pareto p0000: 3 placements, makespan spread 30.5 %, energy spread 0.273 %"
          in seen.stdout, "the spreads are printed")
    check_png(os.path.join(tmp, "pareto_plots", "pareto.png"))


def main():
    return run_cases((case_failed_point, case_v2_facets, case_crossover_h5, case_hardware_facets,
                      case_crossover_json, case_errors, case_energy_categories, case_pareto),
                     "lc_plot_synth_", "synthetic plot")


def run_cases(cases, prefix, what):
    """Runs each case(tmp) in one temporary folder (kept when a check failed); the exit
    status."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    for case in cases:
        print("== %s" % case.__name__)
        try:
            case(tmp)
        except Exception as e:  # a crash in one case is a failure; the others still run
            check(False, "%s raised %s: %s" % (case.__name__, type(e).__name__, e))
    if failures:
        print("%d check(s) failed; files in %s" % (len(failures), tmp))
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print("all %s checks passed" % what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
