"""The command line of tools/plot.py: which figures a file gets, in what order, and the exit
status. Each figure is a job (name, function, arguments); a job that raises is reported as a
skip note and the others still run. The summary table is read once per file and handed to
every job (Summary): nothing is kept between calls.
"""
import argparse
import os
import sys

import h5py

from lightcode_results import open_results, text

from .common import Output, Summary, is_ok, note, plt
from .comparison import plot_hardware_comparison
from .crossover import load_crossover_json, plot_crossover, plot_crossover_objective
from .failures import report_failures
from .parallel import plot_tp_scaling
from .pareto import plot_pareto
from .point import plot_energy, plot_gantt
from .scaling import plot_phu_scaling
from .serving_latency import plot_latency_cdf, plot_serve_load
from .serving_queue import plot_serve_queue

EXIT_BAD_INPUT = 2


def run_jobs(jobs):
    """Calls each (name, function, args); an exception in one is reported as a skip note
    (the file has a layout that plot does not expect) and the others still run."""
    for name, fn, fargs in jobs:
        try:
            fn(*fargs)
        except Exception as e:
            plt.close("all")
            note("%s: could not draw it from this file (%s: %s)" % (name, type(e).__name__, e))


def looks_like_json(path):
    """True for a .json name or content that starts with "{" (HDF5 starts with \\x89HDF)."""
    if path.lower().endswith(".json"):
        return True
    with open(path, "rb") as fh:
        return fh.read(64).lstrip()[:1] == b"{"


def output_dir(path, out):
    if out:
        return out
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.join(os.path.dirname(os.path.abspath(path)), stem + "_plots")


def default_point(summary, points, ids):
    """The first ok point of /summary that has a /points group, else the first group whose
    own status attribute is ok, else None."""
    ok_ids = [str(r.get("id", "")) for r in summary.rows if is_ok(r)]
    pid = next((i for i in ok_ids if i in ids), None)
    if pid is None:
        pid = next((i for i in ids if text(points[i].attrs.get("status", "ok")) == "ok"), None)
    return pid


def serve_jobs(summary, f, pid, out):
    """The serving figures' jobs for run_jobs: none, with a note, when no ok point is of
    stage serve. The queue figure is drawn for `pid` when it is a serve point (--point), else
    for the first ok serve point."""
    serve = summary.serve_points()
    if not serve:
        note("latency_cdf.png, serve_load.png, serve_queue_<id>.png: no ok point of stage serve")
        return []
    jobs = [("latency_cdf.png", plot_latency_cdf, (summary, f, out)),
            ("serve_load.png", plot_serve_load, (summary, out))]
    ids = [str(r.get("id", "")) for r in serve]
    if pid is not None and pid not in ids:
        note("serve_queue_%s.png: %s is not an ok serve point" % (pid, pid))
    else:
        q = pid if pid is not None else ids[0]
        jobs.append(("serve_queue_%s.png" % q, plot_serve_queue, (summary, f, q, out)))
    return jobs


def plot_results_file(path, point, out_dir, on_figure=None):
    """Every figure of a results file; the exit status (0, EXIT_BAD_INPUT, or failures.py's
    EXIT_FAILED_POINTS)."""
    try:
        f = open_results(path)
    except (OSError, ValueError) as e:
        print("plot.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    with f:
        summary = Summary.read(f)
        points = f.get("points")
        ids = [k for k in points] if isinstance(points, h5py.Group) else []
        if point is not None and point not in ids:
            print("plot.py: %s: no point %r (points: %s)" % (
                path, point, ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")),
                file=sys.stderr)
            return EXIT_BAD_INPUT
        pid = point if point is not None else default_point(summary, points, ids)
        os.makedirs(out_dir, exist_ok=True)
        out = Output(out_dir, on_figure)
        if not summary.rows:
            note("/summary has no points")
        jobs = [("hardware_comparison.png", plot_hardware_comparison, (summary, out)),
                ("phu_scaling.png", plot_phu_scaling, (summary, out)),
                ("tp_scaling.png", plot_tp_scaling, (summary, out)),
                ("crossover.png", plot_crossover, (summary, out)),
                ("pareto.png", plot_pareto, (summary, f, out))]
        if pid is None:
            note("gantt/energy: no ok point with a /points/<id> group")
        else:
            jobs += [("gantt_%s.png" % pid, plot_gantt, (summary, f, pid, out)),
                     ("energy_%s.png" % pid, plot_energy, (summary, f, pid, out))]
        jobs += serve_jobs(summary, f, point, out)
        run_jobs(jobs)
        if not out.written:
            print("no plots written (nothing in %s to plot)" % path)
    return report_failures(summary.rows, out_dir)


def plot_json_file(path, point, out_dir, on_figure=None):
    """crossover_<objective>.png per objective of a dispatch table; the exit status."""
    try:
        doc = load_crossover_json(path)
    except (OSError, ValueError) as e:
        print("plot.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    if point is not None:
        note("--point %s: a crossover table has no points" % point)
    os.makedirs(out_dir, exist_ok=True)
    out = Output(out_dir, on_figure)
    objectives = list(dict.fromkeys(list(doc["dispatch"]) + list(doc.get("curves") or {})))
    run_jobs([("crossover_%s.png" % o, plot_crossover_objective, (doc, o, out))
              for o in objectives])
    if not out.written:
        print("no plots written (nothing in %s to plot)" % path)
    return 0


def main(argv=None, doc=None, on_figure=None):
    """plot.py's command line; `doc` its help text (the entry point's docstring), `on_figure`
    as in common.Output. Returns the exit status."""
    ap = argparse.ArgumentParser(
        prog="plot.py",
        description=doc.split("\n\n", 1)[1] if doc and "\n\n" in doc else doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Examples: /usr/bin/python3 tools/plot.py results/seed_table.h5 --out /tmp/plots\n"
               "          /usr/bin/python3 tools/plot.py results/crossover.json")
    ap.add_argument("results", help="a LightCode results file (.h5) or a crossover dispatch "
                                    "table (.json)")
    ap.add_argument("--out", metavar="DIR",
                    help="output directory (default: <file stem>_plots/ beside the file)")
    ap.add_argument("--point", metavar="ID",
                    help="point id for the Gantt chart, energy breakdown and (a serve "
                         "point's) queue plot (default: the first ok point; for the queue "
                         "plot the first ok serve point)")
    args = ap.parse_args(argv)

    path = args.results
    if not os.path.isfile(path):
        print("plot.py: %s: no such file" % path, file=sys.stderr)
        return EXIT_BAD_INPUT
    out_dir = output_dir(path, args.out)
    if looks_like_json(path):
        return plot_json_file(path, args.point, out_dir, on_figure)
    return plot_results_file(path, args.point, out_dir, on_figure)
