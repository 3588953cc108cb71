#!/usr/bin/python3
"""tools/plot.py on synthetic results files and dispatch tables written here (h5py, json).

  1. format 1 PHU sweep (string parameters) with one failed point: exit 3, failures.csv
     holds the failed id, its parameters and its error (CSV-quoted), stderr lists it, and
     phu_scaling.png, gantt and energy are still drawn from the ok points;
  2. format 2 PHU sweep (int64 / float64 / string parameters, NaN where missing) over
     2 systems x 2 objectives: exit 0, phu_scaling.png with one row of panels per
     (system, objective): 4 facets, 8 axes (checked in the figure itself and in the
     "phu scaling:" line);
  3. two systems over four sequence lengths that cross, as format 1 with fixed-width strings
     and no format_version, and as format 2: the crossover is reported as a bracket between
     the probed lengths ("between 64 and 256"), not an interpolated point; a stale
     failures.csv is removed;
  4. a crossover dispatch table (JSON) with curves: crossover_<objective>.png per objective
     with curves, the vertical lines in the figure at exactly the table's switch lengths,
     "crossover <objective>: switches at ..." printed; an objective without curves skipped;
  5. errors: a missing file, an HDF5 file without /summary, an unknown --point, a file
     that is not JSON and a JSON that is no dispatch table exit 2; --help explains the plots,
     failures.csv and exit status 3;
  6. energy categories: a breakdown with a device-built PHU's laser / modulation / detection
     rows and a category plot.py has never seen: the energy chart's legend lists every one,
     the known ones in plot.py's order and the unseen one after them.

Usage: test_plot_synthetic.py [SOURCE_DIR]   (default: two levels above this file)
Exits 77 (ctest: skipped) with a SKIP message when h5py or matplotlib is missing.
"""
import csv
import importlib.util
import io
import json
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


def run(*args):
    p = subprocess.run([sys.executable, PLOT] + list(args), capture_output=True, text=True)
    sys.stdout.write("".join("    | %s\n" % l for l in (p.stdout + p.stderr).splitlines()))
    return p


def plot_module():
    """tools/plot.py loaded as a module (a fresh one each call)."""
    spec = importlib.util.spec_from_file_location("lc_plot_under_test", PLOT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def figure_facts(fig):
    """(number of axes, sorted x of the vertical lines in the first axes, its legend's labels)."""
    ax = fig.axes[0]
    vlines = sorted({float(l.get_xdata()[0]) for l in ax.lines
                     if len(l.get_xdata()) == 2 and l.get_xdata()[0] == l.get_xdata()[1]})
    legend = ax.get_legend()
    labels = [t.get_text() for t in legend.get_texts()] if legend else []
    return len(fig.axes), vlines, labels


def figures(*args, inspect=figure_facts):
    """Runs plot.py's main in this process with `save` spied on: {file name: inspect(the
    figure)} (figure_facts by default), plus the exit status."""
    mod = plot_module()
    seen = {}
    real_save = mod.save

    def spy(fig, out_dir, name, written):
        seen[name] = inspect(fig)
        real_save(fig, out_dir, name, written)

    mod.save = spy
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        status = mod.main(list(args))
    return seen, status


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
    p = run(h5, "--out", out)
    check(p.returncode == 0, "format 2 PHU sweep: exit 0 (got %d)" % p.returncode)
    check_png(os.path.join(out, "phu_scaling.png"), min_bytes=40 * 1024)
    m = re.search(r"phu scaling: (\d+) facets? .* = (\d+) axes", p.stdout)
    check(m is not None and m.group(1) == "4" and int(m.group(2)) >= 4,
          "2 systems x 2 objectives: 4 facets, >= 4 axes reported")
    check(not os.path.exists(os.path.join(out, "failures.csv")), "no failures, no failures.csv")
    seen, status = figures(h5, "--out", os.path.join(tmp, "phu_v2_spy"))
    n_axes = seen.get("phu_scaling.png", (0, []))[0]
    check(status == 0 and n_axes == 8, "the figure has 4 x 2 = 8 axes (got %d)" % n_axes)


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
        check(not os.path.exists(os.path.join(out, "failures.csv")),
              "%s: a stale failures.csv is removed" % tag)
    p = run(os.path.join(tmp, "cross_v1.h5"))  # default output directory
    check(p.returncode == 0 and os.path.isfile(os.path.join(tmp, "cross_v1_plots",
                                                            "crossover.png")),
          "default --out is <stem>_plots beside the file")


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


def case_crossover_json(tmp):
    path = os.path.join(tmp, "crossover.json")
    json.dump(dispatch_table(), open(path, "w"), indent=1)
    p = run(path)  # default output folder beside the file
    out = os.path.join(tmp, "crossover_plots")
    check(p.returncode == 0, "crossover JSON: exit 0 (got %d)" % p.returncode)
    check_png(os.path.join(out, "crossover_energy.png"))
    check_png(os.path.join(out, "crossover_time.png"))
    check("crossover energy: switches at 54" in p.stdout, "energy: switch at 54 printed")
    check("crossover time: switches at 17, 300" in p.stdout, "time: switches at 17, 300 printed")
    check("skip: crossover_edp.png" in p.stdout and "crossover edp: no switch" in p.stdout,
          "edp without curves: figure skipped, its (lack of a) switch still printed")
    seen, status = figures(path, "--out", os.path.join(tmp, "crossover_spy"))
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
    p = run("--help")
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
    seen, status = figures(h5, "--out", os.path.join(tmp, "energy_cats_plots"))
    labels = seen.get("energy_p0000.png", (0, [], []))[2]
    want = ["compute", "laser", "modulation", "detection", "data_movement", "memory", "static",
            "ring_tuning"]
    check(status == 0 and labels == want,
          "energy chart legend: every category, unseen last (got %s)" % labels)
    check_png(os.path.join(tmp, "energy_cats_plots", "energy_p0000.png"))


def case_pareto(tmp):
    points = [point("CPU/PHU", 150, 0.1069, 4.66e10, {"objective": "time"}),
              point("CPU/PHU", 150, 0.1395, 4.648e10, {"objective": "energy"})]
    h5 = write_results(os.path.join(tmp, "pareto.h5"), points, version=2)
    seen, status = figures(h5, "--out", os.path.join(tmp, "pareto_none"))
    check("pareto.png" not in seen, "no /points/<id>/pareto table: no Pareto chart")
    with h5py.File(h5, "r+") as f:
        dt = np.dtype([("makespan_ps", "<i8"), ("energy_pj", "<f8"), ("origin", "S24")])
        front = np.array([(106898529854, 4.6605e10, b"sum:time"), (112590424101, 4.6484e10, b"heft:time"),
                          (139450683441, 4.6478e10, b"sum:energy+P*time")], dtype=dt)
        for pid in ("p0000", "p0001"):
            f["points/%s" % pid].create_dataset("pareto", data=front)
    seen, status = figures(h5, "--out", os.path.join(tmp, "pareto_plots"))
    axes, _, labels = seen.get("pareto.png", (0, [], []))
    check(status == 0 and axes == 2, "a Pareto panel per point with a front (got %d axes)" % axes)
    check(labels == ["front (3)", "answer (time)"],
          "the panel shows the front's size and rings the point's answer (got %s)" % labels)
    check_png(os.path.join(tmp, "pareto_plots", "pareto.png"))


def main():
    return run_cases((case_failed_point, case_v2_facets, case_crossover_h5, case_crossover_json,
                      case_errors, case_energy_categories, case_pareto),
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
